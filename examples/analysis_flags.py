"""How often the analysis flags the moves of each level: the figures behind the thresholds (docs/analysis.md).

Plays ``--games`` self-play games of every level (seeds 1 onwards), analyses each with ``zamek.castle.analysis``
and prints, per level, the share of its decisions losing at least each threshold, with the mean loss.

    .venv/bin/python examples/analysis_flags.py --games 4
"""

from __future__ import annotations

import argparse
import json

from zamek.castle.analysis import FLAGS, analyse
from zamek.castle.bots.levels import make_bot
from zamek.castle.record import make_record
from zamek.castle.runner import play_game


def flag_rates(level: str, games: int) -> dict[str, float]:
    """The share of ``level``'s decisions that lose at least each flag's points, over self-play games."""
    losses: list[float] = []
    for seed in range(1, games + 1):
        bots = [make_bot(level), make_bot(level)]
        game = play_game(seed, [bot.choose for bot in bots])
        analysis = analyse(make_record(game.setup, game.seed, game.actions, game.state))
        losses += [d.loss for d in analysis.decisions]
    rates = {name: round(sum(1 for loss in losses if loss >= points) / len(losses), 3) for name, points in FLAGS}
    return rates | {"decisions": len(losses), "mean_loss": round(sum(losses) / len(losses), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="self-play games per level")
    parser.add_argument("--levels", default="hard,medium,beginner,random")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = parser.parse_args()
    table = {level: flag_rates(level, args.games) for level in args.levels.split(",")}
    if args.json:
        print(json.dumps({"games_per_level": args.games, "thresholds": dict(FLAGS), "levels": table}))
        return
    names = [name for name, _ in reversed(FLAGS)]
    print(f"{'level':<10}{'decisions':>10}{'mean loss':>11}" + "".join(f"{n:>12}" for n in names))
    for level, row in table.items():
        print(f"{level:<10}{row['decisions']:>10}{row['mean_loss']:>11}"
              + "".join(f"{100 * row[n]:>11.0f}%" for n in names))


if __name__ == "__main__":
    main()
