"""Fitting the learned value (:mod:`zamek.castle.bots.value`) to games between bots.

Games are played by a bot against itself; at the start of every turn the two players' features
are recorded, and when the game ends each record is paired with the points each player scored
from then on. The coefficients are the least-squares fit (with a little ridge, so unused
features stay at 0) of the difference in points still to come on the difference in features.
The win scale is then fitted so that a logistic curve of the predicted final lead matches who won.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from zamek.castle.bots.base import Bot
from zamek.castle.bots.levels import make_bot
from zamek.castle.bots.simple import GreedyBot
from zamek.castle.bots.value import (
    FEATURES,
    MODEL_FORMAT,
    MODEL_VERSION,
    ValueModel,
    model_digest,
    model_from_json,
    position_features,
)
from zamek.castle.data.loader import new_game
from zamek.castle.rules.setup import Phase, Setup
from zamek.castle.runner import sample_chance
from zamek.kit.arena import play_all

Sample = tuple[list[float], float, float]
"""Feature difference (player 0 minus player 1), score difference now, final score difference."""


def game_samples(job: tuple[str, int, Setup, str | None]) -> list[Sample]:
    """Play one game of a bot against itself and return a sample per turn. The bot is ``spec``, or
    with a model's JSON text, the greedy policy over that model (the ``learned`` bot with it)."""
    spec, seed, setup, model = job
    bots = [_bot(spec, model), _bot(spec, model)]
    rng = random.Random(seed)
    state = new_game(replace(setup, first_player=seed % 2))
    records: list[tuple[list[float], float]] = []
    while not state.is_over():
        if state.is_chance():
            if state.phase is Phase.DRAW:
                x0, x1 = position_features(state)
                records.append(([a - b for a, b in zip(x0, x1, strict=True)], float(state.scores[0] - state.scores[1])))
            state.apply(sample_chance(state, rng))
            continue
        state.apply(bots[state.current].choose(state, rng))
    final = float(state.scores[0] - state.scores[1])
    return [(diff, now, final) for diff, now in records]


def _bot(spec: str, model: str | None) -> Bot:
    return make_bot(spec) if model is None else GreedyBot(evaluator=model_from_json(model))


def collect(spec: str, games: int, seed: int, setup: Setup, workers: int = 1, model: str | None = None
            ) -> list[Sample]:
    """Return the samples of ``games`` self-play games of ``spec`` (or of greedy play over ``model``)."""
    jobs = [(spec, seed + i, setup, model) for i in range(games)]
    chunks = play_all(game_samples, jobs, workers)  # in job order, as the arena's games (and counted as they are)
    return [sample for chunk in chunks for sample in chunk]


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve a symmetric positive definite system by Gaussian elimination with partial pivoting."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            if factor:
                for c in range(col, n + 1):
                    a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


@dataclass(frozen=True)
class Fit:
    model: ValueModel
    samples: int
    residual_sd: float
    """Standard deviation of the error in predicted final lead, in points."""
    baseline_sd: float
    """The same for predicting that the current score difference stays."""


def fit(samples: list[Sample], ridge: float = 1.0) -> Fit:
    """Return the least-squares value model for ``samples``."""
    n = len(FEATURES)
    xtx = [[0.0] * n for _ in range(n)]
    xty = [0.0] * n
    for diff, now, final in samples:
        target = final - now
        nonzero = [(i, v) for i, v in enumerate(diff) if v]
        for i, vi in nonzero:
            xty[i] += vi * target
            row = xtx[i]
            for j, vj in nonzero:
                row[j] += vi * vj
    for i in range(n):
        xtx[i][i] += ridge
    coefficients = solve(xtx, xty)
    errors = []
    leads = []
    for diff, now, final in samples:
        predicted = now + sum(c * v for c, v in zip(coefficients, diff, strict=True))
        errors.append(final - predicted)
        leads.append((predicted, final))
    residual = math.sqrt(sum(e * e for e in errors) / len(errors))
    baseline = math.sqrt(sum((final - now) ** 2 for _, now, final in samples) / len(samples))
    return Fit(ValueModel(tuple(coefficients), _win_scale(leads)), len(samples), residual, baseline)


def _win_scale(leads: list[tuple[float, float]]) -> float:
    """Return the logistic scale that best predicts the winner from the predicted lead."""
    def loss(scale: float) -> float:
        total = 0.0
        for predicted, final in leads:
            if final == 0:
                continue
            p = 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -predicted / scale))))
            p = min(max(p, 1e-9), 1 - 1e-9)
            total -= math.log(p if final > 0 else 1 - p)
        return total
    return min((loss(s), s) for s in [4.0 + 2.0 * k for k in range(20)])[1]


ROUND_SEED_STEP: Final = 100_000
"""Round r of training plays its games on seeds ``seed + r * ROUND_SEED_STEP`` onwards."""


def train(spec: str, rounds: list[int], seed: int, setup: Setup, workers: int = 1,
          report: Callable[[int, Fit, str], None] | None = None) -> tuple[Fit, str]:
    """Fit the value by rounds of self-play: round 0 plays ``spec``; each later round plays the greedy
    policy over the model fitted so far (policy iteration), and every fit uses all the games so far.
    ``report`` hears each round's number, fit and model file's text.

    Return the last fit and its model file's text."""
    samples: list[Sample] = []
    model: str | None = None
    result: Fit | None = None
    for number, games in enumerate(rounds):
        samples += collect(spec, games, seed + number * ROUND_SEED_STEP, setup, workers, model)
        result = fit(samples)
        model = model_json(result, spec, rounds[: number + 1], seed, setup)
        if report is not None:
            report(number, result, model)
    if result is None or model is None:
        raise ValueError("training needs at least one round of games")
    return result, model


def model_json(result: Fit, spec: str, rounds: list[int], seed: int, setup: Setup) -> str:
    """Return the model file's text, with how it was made."""
    stored = ValueModel(tuple(round(c, 4) for c in result.model.coefficients), result.model.win_scale)
    data = {
        "format": MODEL_FORMAT,
        "version": MODEL_VERSION,
        "about": "Learned position value for zamek.castle.bots.value; regenerate with `zamek train-value`.",
        "trained": {"bot": spec, "games per round": rounds, "seed": seed, "rules": setup.name,
                    "samples": result.samples,
                    "residual_sd": round(result.residual_sd, 2), "baseline_sd": round(result.baseline_sd, 2)},
        "win_scale": stored.win_scale,
        "features": list(FEATURES),
        "coefficients": list(stored.coefficients),
        "sha256": model_digest(stored),
    }
    return json.dumps(data, indent=1) + "\n"
