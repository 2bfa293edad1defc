"""How long a computer player keeps a person waiting: its time per decision and per turn (all of one turn's
decisions together, an extra turn counted as a turn of its own), over whole games against another player.

It times the bot from outside (``make_bot(...).choose``), so the same script measures an older checkout: run
``PYTHONPATH=OLD/src python tools/turn_times.py`` beside ``python -m tools.turn_times`` in one sitting to
compare them. ``--json`` prints the figures as JSON."""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import replace

import click

from zamek.castle.bots.levels import make_bot
from zamek.castle.data.loader import new_game
from zamek.castle.rules.setup import Setup
from zamek.castle.seeding import SeededChance, player_rng


def turn_times(player: str, against: str, games: int, seed: int) -> dict[str, object]:
    """Play ``games`` games (``player`` first on even ones), timing every decision of ``player``."""
    decisions: list[float] = []
    turns: list[float] = []
    for number in range(games):
        game_seed = seed + number // 2
        seats = (player, against) if number % 2 == 0 else (against, player)
        mine = seats.index(player)
        bots = [make_bot(name) for name in seats]
        rngs = [player_rng(game_seed, seat) for seat in (0, 1)]
        state = new_game(replace(Setup(), first_player=0))
        chance = SeededChance(game_seed, state.tiles)
        turn: tuple[int, int] | None = None
        while not state.is_over():
            if state.is_chance():
                state.apply(chance.outcome(state))
                continue
            seat = state.current
            started = time.perf_counter()
            action = bots[seat].choose(state, rngs[seat])
            spent = time.perf_counter() - started
            if seat == mine:
                decisions.append(spent)
                if (state.turn, seat) != turn:
                    turn = (state.turn, seat)
                    turns.append(0.0)
                turns[-1] += spent
            state.apply(action)
    return {
        "player": player, "against": against, "games": games, "seed": seed,
        "decisions": len(decisions), "turns": len(turns),
        "mean_seconds_per_decision": statistics.fmean(decisions), "max_seconds_per_decision": max(decisions),
        "mean_seconds_per_turn": statistics.fmean(turns), "max_seconds_per_turn": max(turns),
        "turns_over_3_seconds": sum(1 for t in turns if t > 3.0),
    }


@click.command()
@click.option("--player", default="expert", show_default=True, help="The player timed.")
@click.option("--against", default="hard", show_default=True, help="Its opponent.")
@click.option("--games", type=int, default=4, show_default=True, help="Games, seats alternating.")
@click.option("--seed", type=int, default=1, show_default=True, help="Games 2k and 2k+1 are played on SEED + k.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def main(player: str, against: str, games: int, seed: int, as_json: bool) -> None:
    """Time a computer player's decisions and turns."""
    figures = turn_times(player, against, games, seed)
    if as_json:
        click.echo(json.dumps(figures, indent=1))
        return
    click.echo(f"{player} against {against}, {games} games: {figures['decisions']} decisions, "
               f"{figures['turns']} turns")
    click.echo(f"  per decision: mean {figures['mean_seconds_per_decision']:.3f} s, "
               f"max {figures['max_seconds_per_decision']:.3f} s")
    click.echo(f"  per turn:     mean {figures['mean_seconds_per_turn']:.3f} s, "
               f"max {figures['max_seconds_per_turn']:.3f} s ({figures['turns_over_3_seconds']} over 3 s)")


if __name__ == "__main__":
    main()
