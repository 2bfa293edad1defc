"""The commands that train the computer players' estimates: ``train`` (the expert's value network, numpy) and
``train-value`` (the learned position value). The training itself is ``zamek.castle.training``'s; it loads
only when one of these commands runs."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from zamek.castle.rules.setup import Setup
from zamek.cli.options import SEED, WORKERS, OutputFile, check_bots, rule_options
from zamek.cli.progress import Progress
from zamek.kit.files import write_json_replacing


def _draw_curve(path: Path, points: list[dict[str, Any]], step: str, step_label: str, error: str,
                error_label: str, against: str, title: str) -> None:
    from zamek.castle.training.curve import plot_curve

    if not plot_curve(path, points, step, step_label, error, error_label, against, title):
        click.echo("matplotlib is not installed: no picture drawn", err=True)


class GamesPerRound(click.ParamType[list[int]]):
    """The games of each round of train-value, comma separated: at least 10 in every round."""

    name = "games"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> list[int]:
        if isinstance(value, list):
            return value
        try:
            rounds = [int(n) for n in str(value).split(",")]
        except ValueError:
            rounds = []
        if not rounds or min(rounds) < 10 or max(rounds) > 10**9:
            self.fail(f"{str(value)[:40]!r}: give the games of every round, at least 10 each, e.g. 2000,2000,2000",
                      param, ctx)
        return rounds


@click.command(name="train")
@click.option("--bot", default="medium", show_default=True,
              help="The bot whose self-play positions the value is fitted to.")
@click.option("--games", type=click.IntRange(20), default=5000, show_default=True, help="Self-play games.")
@click.option("--seed", type=SEED, default=600000, show_default=True,
              help="Self-play game i uses seed SEED + i; the learning curve's games are played on other seeds.")
@click.option("--hidden", type=click.IntRange(1, 32), default=32, show_default=True, help="Hidden units.")
@click.option("--epochs", type=click.IntRange(0), default=6, show_default=True, help="Passes over the positions.")
@click.option("--eval-games", type=click.IntRange(0), default=200, show_default=True,
              help="Games against hard after every pass (the learning curve); 0: none.")
@click.option("--workers", type=WORKERS, default=1, show_default=True,
              help="Processes to play games in parallel.")
@click.option("--out", type=OutputFile(), default=Path("value_net.json"),
              show_default=True, help="Where to write the weights.")
@click.option("--curve", type=OutputFile(), default=None,
              help="Also write the learning curve to CURVE.json and, with matplotlib, CURVE.png.")
@rule_options
def train_command(bot: str, games: int, seed: int, hidden: int, epochs: int, eval_games: int, workers: int,
                  out: Path, curve: Path | None, setup: Setup) -> None:
    """Train a value network from scratch on self-play (numpy; the same seed makes the same file).

    No level plays it unless asked: play it as mcts:N@FILE, e.g. zamek arena --players mcts:128@value_net.json,hard."""
    from zamek.castle.arena import VALUE_SEARCH
    from zamek.castle.bots.network import net_to_json
    from zamek.castle.training.train_net import train

    check_bots([bot])
    started = time.perf_counter()
    try:
        with Progress("games", games=True) as bar:  # the self-play, then each pass's games against hard
            training = train(bot, games, seed, hidden, epochs, eval_games, setup, workers, bar.echo)
    except (RuntimeError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    out.write_text(net_to_json(training.net), encoding="utf-8")
    seconds = time.perf_counter() - started
    click.echo(f"written to {out} ({out.stat().st_size} bytes) in {seconds:.0f} s")
    if curve is not None:
        points = [c.to_json() for c in training.curve]
        write_json_replacing(curve.with_suffix(".json"), {"bot": bot, "games": games, "seed": seed, "hidden": hidden,
                                                          "eval": f"{VALUE_SEARCH} with the value vs hard",
                                                          "seconds": round(seconds), "curve": points})
        _draw_curve(curve.with_suffix(".png"), points, "epoch", "training pass (epoch)", "held_out_rmse",
                    "held-out error (points)", "hard", "Value network: strength (mcts:128 with it) and error")


@click.command(name="train-value")
@click.option("--bot", default="greedy", show_default=True, help="The bot whose self-play games the first round fits.")
@click.option("--games", "rounds", type=GamesPerRound(), default="2000,2000,2000,2000,2000", show_default=True,
              help="Games per round, comma separated; each later round plays greedy over the value fitted so far.")
@click.option("--seed", type=SEED, default=100000, show_default=True,
              help="Round r's self-play games use seeds SEED + 100000 r onwards; the learning curve's, others.")
@click.option("--workers", type=WORKERS, default=1, show_default=True, help="Processes to play games in parallel.")
@click.option("--out", type=OutputFile(), default=Path("value_model.json"),
              show_default=True,
              help="Where to write the model (the levels play the one zamek installs; play yours as mcts:N@FILE).")
@click.option("--eval-games", type=click.IntRange(0), default=0, show_default=True,
              help="After every round, games of the hard level's search with the value so far against "
                   "--eval-against (the learning curve); 0: none.")
@click.option("--eval-against", default="hard", show_default=True,
              help="The opponent of the learning curve, e.g. mcts:128@OLD_VALUE.json for a fixed one.")
@click.option("--curve", type=OutputFile(), default=None,
              help="Also write the learning curve to CURVE.json and, with matplotlib, CURVE.png.")
@rule_options
def train_value(bot: str, rounds: list[int], seed: int, workers: int, out: Path, eval_games: int, eval_against: str,
                curve: Path | None, setup: Setup) -> None:
    """Fit the learned position value (used by mcts and learned) to self-play games, round by round."""
    from zamek.castle.arena import VALUE_SEARCH
    from zamek.castle.training.curve import round_point
    from zamek.castle.training.fit_value import Fit, train

    check_bots([bot, eval_against])
    started = time.perf_counter()
    points: list[dict[str, Any]] = []
    bar = Progress("games", games=True)  # each round's self-play, then its games against --eval-against

    def report(number: int, result: Fit, model: str) -> None:
        point = round_point(number, rounds, result, model, eval_against, eval_games, seed, setup, workers)
        line = (f"round {point.round}: {result.samples} positions; error of the predicted final lead "
                f"{result.residual_sd:.1f} points (score difference alone: {result.baseline_sd:.1f}); "
                f"win scale {result.model.win_scale:.0f}")
        if point.win_rate is not None:
            low, high = point.interval
            line += (f"; {VALUE_SEARCH} with it vs {eval_against} {round(point.win_rate, 4):.1%} (95% CI "
                     f"{low:.1%}-{high:.1%}, {point.wins}-{point.losses}-{point.draws})")
        points.append(point.to_json())
        bar.echo(line)

    with bar:
        _, text = train(bot, rounds, seed, setup, workers, report)
    out.write_text(text, encoding="utf-8")
    seconds = time.perf_counter() - started
    click.echo(f"written to {out} in {seconds:.0f} s")
    if curve is not None:
        write_json_replacing(curve.with_suffix(".json"), {
            "bot": bot, "games per round": rounds, "seed": seed, "rules": setup.name,
            "eval": f"{VALUE_SEARCH} with the value vs {eval_against}", "eval_games": eval_games,
            "seconds": round(seconds), "curve": points})
        if eval_games:
            _draw_curve(curve.with_suffix(".png"), points, "round", "training round",
                        "residual_sd", "error of the predicted lead (points)", eval_against,
                        f"Learned value: strength ({VALUE_SEARCH} with it) and error")
