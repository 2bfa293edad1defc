"""Learning curves: one point per round of ``train-value`` (its error and strength), and the picture of a curve
(``zamek train --curve`` and ``zamek train-value --curve``). matplotlib loads only to draw one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from zamek.castle.arena import measure_value
from zamek.castle.rules.setup import Setup
from zamek.castle.training.fit_value import Fit


@dataclass(frozen=True)
class RoundPoint:
    """One round of fitting the learned value: the positions fitted, the error, and (when measured) how the
    hard level's search with the value did against an opponent."""

    round: int
    """The round's number, from 1."""
    games: int
    """The self-play games fitted so far (this round's and the earlier ones')."""
    positions: int
    residual_sd: float
    wins: int = 0
    losses: int = 0
    draws: int = 0
    played: int = 0
    win_rate: float | None = None
    """The share of points won (draws half); None where no games were played."""
    interval: tuple[float, float] = (0.0, 0.0)
    """The win rate's 95% confidence interval."""

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "games": self.games, "positions": self.positions,
                "residual_sd": round(self.residual_sd, 3), "wins": self.wins, "losses": self.losses,
                "draws": self.draws, "played": self.played,
                "win_rate": None if self.win_rate is None else round(self.win_rate, 4)}


def round_point(number: int, rounds: Sequence[int], fit: Fit, model: str, against: str, eval_games: int, seed: int,
                setup: Setup, workers: int = 1) -> RoundPoint:
    """The point of round ``number`` (from 0) of ``rounds``: the fit, and ``eval_games`` games of the value
    ``model`` (a model file's text) against ``against`` (none where ``eval_games`` is 0)."""
    point = RoundPoint(number + 1, sum(rounds[: number + 1]), fit.samples, fit.residual_sd)
    if not eval_games:
        return point
    match = measure_value(model, against, eval_games, seed, setup, workers)
    mine, theirs, draws = match.summaries()
    rate, low, high = match.win_rate()
    return replace(point, wins=mine.wins, losses=theirs.wins, draws=draws, played=len(match.games), win_rate=rate,
                   interval=(low, high))


def plot_curve(path: Path, points: Sequence[dict[str, Any]], step: str, step_label: str, error: str,
               error_label: str, against: str, title: str) -> bool:
    """Draw a learning curve to ``path``: the points won against ``against`` and the fit's error, by training
    step (the keys ``step``, ``win_rate`` and ``error`` of each point). False if matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    figure, left = plt.subplots(figsize=(6, 3.6))
    steps = [p[step] for p in points]
    rated = [p for p in points if p["win_rate"] is not None]
    left.plot([p[step] for p in rated], [100 * p["win_rate"] for p in rated], "o-", color="tab:blue")
    left.axhline(50, color="grey", lw=0.8, ls=":")
    left.set_xlabel(step_label)
    left.set_xticks(steps)
    left.set_ylabel("points won (%)", color="tab:blue")
    right = left.twinx()
    right.plot(steps, [p[error] for p in points], "s--", color="tab:red")
    right.set_ylabel(error_label, color="tab:red")
    spec, at, value_file = against.partition("@")
    opponent = f"{spec}@{Path(value_file).name}" if at else against  # a value file by its name, not its path
    figure.suptitle(f"{title}\nagainst {opponent}", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return True
