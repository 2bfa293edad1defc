"""Training the value network (:mod:`zamek.castle.bots.network`) from scratch: ``zamek train``.

1. Self-play: ``games`` games of ``bot`` against itself (seeds ``seed`` onwards, the first player
   alternating); at the start of every turn both players' features are kept with the points each player
   scores from then on.
2. The linear part is the shipped learned value (``zamek train-value`` makes it from scratch), so pass 0,
   the network all zeros, is exactly the value the hard level searches with.
3. The network: the correction ``g(x0, x1) - g(x1, x0)`` fitted to what the linear part leaves, by Adam on
   mean squared error, ``epochs`` passes in minibatches; a tenth of the games (by seed) is held out and
   its error reported after every pass.
4. The learning curve: after every pass the network so far, searching as the hard level does
   (``mcts:128``), plays ``eval_games`` games against ``hard``. The pass with the lowest held-out error
   is the one kept.

Everything follows ``seed``: the same command makes the same file. Needs numpy (``pip install ".[train]"``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Final

from zamek.castle.arena import VALUE_SEARCH, measure_value
from zamek.castle.bots.levels import make_bot
from zamek.castle.bots.network import MAX_HIDDEN, NetValue, net_to_json
from zamek.castle.bots.value import FEATURES, default_model, position_features
from zamek.castle.data.loader import new_game
from zamek.castle.rules.setup import Phase, Setup
from zamek.castle.runner import sample_chance
from zamek.kit.arena import play_all

BATCH: Final = 256
LEARNING_RATE: Final = 1e-3
HELD_OUT: Final = 10
"""Games whose seed is a multiple of this are held out from fitting."""

Array = Any
"""A numpy array (numpy is imported only when training)."""
Row = tuple[list[float], list[float], int, int]
"""x0, x1, points still to come for seat 0 minus seat 1, the game's seed."""


def game_rows(job: tuple[str, int, Setup]) -> list[Row]:
    """One self-play game's positions: each turn's features and the points still to come."""
    spec, seed, setup = job
    bots = [make_bot(spec), make_bot(spec)]
    rng = random.Random(seed)
    state = new_game(replace(setup, first_player=seed % 2))
    kept: list[tuple[list[float], list[float], int]] = []
    while not state.is_over():
        if state.is_chance():
            if state.phase is Phase.DRAW:
                x0, x1 = position_features(state)
                kept.append((x0, x1, state.scores[0] - state.scores[1]))
            state.apply(sample_chance(state, rng))
            continue
        state.apply(bots[state.current].choose(state, rng))
    final = state.scores[0] - state.scores[1]
    return [(x0, x1, final - now, seed) for x0, x1, now in kept]


@dataclass
class Checkpoint:
    """The network after ``epoch`` passes (0: the linear part alone) and how it did."""

    epoch: int
    train_rmse: float
    held_out_rmse: float
    """Root mean squared error of the predicted final lead, in points, on the held-out games."""
    wins: int = 0
    losses: int = 0
    draws: int = 0
    games: int = 0

    @property
    def win_rate(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else float("nan")

    def to_json(self) -> dict[str, Any]:
        return {"epoch": self.epoch, "train_rmse": round(self.train_rmse, 3),
                "held_out_rmse": round(self.held_out_rmse, 3), "wins": self.wins, "losses": self.losses,
                "draws": self.draws, "games": self.games,
                "win_rate": round(self.win_rate, 4) if self.games else None}


@dataclass
class Training:
    net: NetValue
    curve: list[Checkpoint] = field(default_factory=list)
    samples: int = 0
    best: int = 0
    """The pass whose network is kept: the lowest held-out error (later passes fit the games, not the game)."""


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:  # pragma: no cover - the message is the point
        raise RuntimeError('training the value network needs numpy: pip install ".[train]"') from None
    return numpy


def train(bot: str, games: int, seed: int, hidden: int, epochs: int, eval_games: int, setup: Setup,
          workers: int = 1, report: Callable[[str], None] | None = None) -> Training:
    """Make the value network from scratch (see the module's text); ``report`` hears progress lines."""
    np = _numpy()
    if not 0 < hidden <= MAX_HIDDEN:
        raise ValueError(f"--hidden must be 1 to {MAX_HIDDEN}")
    say = report or (lambda line: None)
    chunks = play_all(game_rows, [(bot, seed + i, setup) for i in range(games)], workers)
    rows = [row for chunk in chunks for row in chunk]
    x0 = np.array([r[0] for r in rows], dtype=np.float64)
    x1 = np.array([r[1] for r in rows], dtype=np.float64)
    y = np.array([r[2] for r in rows], dtype=np.float64)
    held = np.array([r[3] % HELD_OUT == 0 for r in rows])
    fit_rows = ~held
    say(f"{games} games of {bot}: {len(rows)} positions ({int(held.sum())} held out)")

    base = default_model()
    linear_part = (x0 - x1) @ np.array(base.coefficients)
    scale = x0[fit_rows].std(axis=0)
    scale = np.where(scale > 1e-6, scale, 1.0)

    generator = np.random.default_rng(seed)
    n = len(FEATURES)
    w1 = generator.normal(0.0, 1.0 / np.sqrt(2 * n), (2 * n, hidden))
    b1 = np.zeros(hidden)
    w2 = np.zeros(hidden)
    a_in = np.concatenate([x0 / scale, x1 / scale], axis=1)
    b_in = np.concatenate([x1 / scale, x0 / scale], axis=1)
    target = y - linear_part

    def predict() -> Array:
        ha = np.maximum(a_in @ w1 + b1, 0.0)
        hb = np.maximum(b_in @ w1 + b1, 0.0)
        result: Array = linear_part + ha @ w2 - hb @ w2
        return result

    def rmse(predicted: Array, rows_of: Array) -> float:
        return float(np.sqrt(np.mean((y[rows_of] - predicted[rows_of]) ** 2)))

    def snapshot(epoch: int) -> tuple[NetValue, Checkpoint]:
        predicted = predict()
        net = NetValue(base, tuple(float(s) for s in scale), tuple(tuple(float(v) for v in row) for row in w1),
                       tuple(float(v) for v in b1), tuple(float(v) for v in w2))
        return net, Checkpoint(epoch, rmse(predicted, fit_rows), rmse(predicted, held))

    training = Training(snapshot(0)[0], samples=len(rows))
    moments = [np.zeros_like(p) for p in (w1, b1, w2)]
    squares = [np.zeros_like(p) for p in (w1, b1, w2)]
    order = np.flatnonzero(fit_rows)
    step = 0
    for epoch in range(epochs + 1):
        if epoch:
            generator.shuffle(order)
            for start in range(0, len(order), BATCH):
                batch = order[start:start + BATCH]
                ua, ub = a_in[batch], b_in[batch]
                ha = np.maximum(ua @ w1 + b1, 0.0)
                hb = np.maximum(ub @ w1 + b1, 0.0)
                error = ha @ w2 - hb @ w2 - target[batch]
                g_out = 2.0 * error / len(batch)
                g_w2 = ha.T @ g_out - hb.T @ g_out
                g_ha = np.outer(g_out, w2) * (ha > 0)
                g_hb = -np.outer(g_out, w2) * (hb > 0)
                g_w1 = ua.T @ g_ha + ub.T @ g_hb
                g_b1 = g_ha.sum(axis=0) + g_hb.sum(axis=0)
                step += 1
                for param, grad, m, v in zip((w1, b1, w2), (g_w1, g_b1, g_w2), moments, squares, strict=True):
                    m *= 0.9
                    m += 0.1 * grad
                    v *= 0.999
                    v += 0.001 * grad * grad
                    param -= LEARNING_RATE * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        net, checkpoint = snapshot(epoch)
        if eval_games:
            _measure(net, checkpoint, eval_games, seed, setup, workers)
        training.curve.append(checkpoint)
        strength = (f"; {VALUE_SEARCH} with it vs hard {checkpoint.win_rate:.1%} "
                    f"({checkpoint.wins}-{checkpoint.losses}-{checkpoint.draws})" if eval_games else "")
        say(f"epoch {epoch}: error {checkpoint.train_rmse:.3f} (fitted), {checkpoint.held_out_rmse:.3f} "
            f"(held out){strength}")
        if checkpoint.held_out_rmse <= min(c.held_out_rmse for c in training.curve):
            training.net, training.best = net, epoch  # the pass that predicts held-out games best
    training.net = NetValue(training.net.linear, training.net.scale, training.net.w1, training.net.b1,
                            training.net.w2, {"bot": bot, "games": games, "seed": seed, "hidden": hidden,
                                              "epochs": epochs, "kept": training.best, "rules": setup.name,
                                              "positions": len(rows),
                                              "curve": [c.to_json() for c in training.curve]})
    return training


def _measure(net: NetValue, checkpoint: Checkpoint, games: int, seed: int, setup: Setup, workers: int) -> None:
    """Play the checkpoint (searching as hard does) against hard on seeds other than the training games'."""
    report = measure_value(net_to_json(net), "hard", games, seed, setup, workers)
    mine, _, draws = report.summaries()
    checkpoint.wins, checkpoint.draws, checkpoint.games = mine.wins, draws, len(report.games)
    checkpoint.losses = checkpoint.games - mine.wins - draws
