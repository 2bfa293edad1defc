"""PPO with action masking, learning the castle game by self-play on the vector environment, in numpy alone.

    .venv/bin/python examples/ppo_castle.py --updates 60 --out results/env_learning_curve

plays ``--slots`` games at once in ``zamek.env.castle_v0.vector_env`` (the compiled core), one policy driving
both seats (self-play); with ``--greedy-share`` a share of the games meets the ``greedy`` level instead, whose
moves are not learned from (off by default: in our runs it learned more slowly against every level).

After every ``--eval-every`` updates it measures the arg-max policy against ``random``, ``beginner`` and
``greedy`` over ``--eval-games`` games each, half in each seat. It writes the curve as JSON and, where matplotlib
is installed (``pip install zamek[examples]``), as a picture (``OUT.json``, ``OUT.png``).

The network reads the observation as the environment gives it (``zamek.env.spec.CASTLE``):

- a 3x3 convolution over the castle planes, one hidden vector per space (``CHANNELS``);
- a global layer over the mean of those vectors and the scaled vector part;
- a placement's logit is its space's hidden vector times a weight per rotation, plus a weight per *drawn tile*
  and rotation (the tile's shape is only known through its index), plus a global term per rotation;
- every other action's logit is a global term; a Follower action also gets a term from the numbers that
  describe its feature (``last_features``: kind, size, open edges, figures);
- the value (the lead still to come, in units of ``RETURN_SCALE`` points) comes from the global layer.

Illegal actions get a logit of -inf: the mask. Returns are Monte Carlo (gamma 1) of the score-difference reward,
so a decision's return is the lead its seat gains from there to the end.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from zamek.env import castle_v0
from zamek.env.spec import CASTLE, CASTLE_ACTIONS, CASTLE_SIDE, FEATURE_SIZE, MAX_TILES

CHANNELS = 24
HIDDEN = 64
RETURN_SCALE = 20.0
PLANES = CASTLE.plane_count
AREA = CASTLE.area
VECTOR = CASTLE.size - PLANES * AREA
FOLLOWER_BASE = 1024
REST = CASTLE_ACTIONS - FOLLOWER_BASE  # follower actions, pass, order, tokens, decline

# Which action each (space, rotation) places, or -1 off the 16 x 16 grid of Place actions.
_rows, _columns = np.divmod(np.arange(AREA), CASTLE_SIDE)
_squares = (_rows - 1) * 16 + (_columns - 1)
_on_grid = (_rows >= 1) & (_columns >= 1)
PLACE_INDEX = np.where(_on_grid[:, None], _squares[:, None] * 4 + np.arange(4)[None, :], -1)

# Counts over the planes and the vector part scaled to about 0..1: points, turns, tiles and edges are large.
PLANE_SCALE = np.ones((PLANES, 1, 1), np.float32)
for _name, _scale in (("queue", 4), ("open_edges", 10), ("feature_tiles", 10)):
    _span = CASTLE.span(_name)
    PLANE_SCALE[_span.start // AREA:_span.stop // AREA] = _scale
VECTOR_SCALE = np.ones(VECTOR, np.float32)
for _name, _scale in (("score", 100), ("track", 100), ("turn", 100), ("tiles_left", 78), ("family_size", 10)):
    _span = CASTLE.span(_name)
    VECTOR_SCALE[_span.start - PLANES * AREA:_span.stop - PLANES * AREA] = _scale
_FEATURES = CASTLE.span("last_features")
_FEATURES_AT = _FEATURES.start - PLANES * AREA
VECTOR_SCALE[_FEATURES_AT:_FEATURES_AT + 12 * FEATURE_SIZE].reshape(12, FEATURE_SIZE)[:, 5:7] = 10
_DRAWN_AT = CASTLE.span("drawn").start - PLANES * AREA


def im2col(planes: np.ndarray) -> np.ndarray:
    """(B, PLANES, 13, 13) -> (B, AREA, PLANES * 9): each space's 3 x 3 neighbourhood, zero beyond the edge."""
    b = planes.shape[0]
    padded = np.zeros((b, PLANES, CASTLE_SIDE + 2, CASTLE_SIDE + 2), planes.dtype)
    padded[:, :, 1:-1, 1:-1] = planes
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3))  # (B, P, 13, 13, 3, 3)
    return np.ascontiguousarray(windows.transpose(0, 2, 3, 1, 4, 5)).reshape(b, AREA, PLANES * 9)


@dataclass
class Batch:
    """Observations turned into the network's inputs once, for the forward pass and the backward pass."""

    patches: np.ndarray  # (B, AREA, PLANES * 9)
    vector: np.ndarray  # (B, VECTOR) scaled
    tile: np.ndarray  # (B,) the drawn tile's index, MAX_TILES - 1 when none is drawn
    features: np.ndarray  # (B, 12, FEATURE_SIZE) the last tile's features, scaled
    mask: np.ndarray  # (B, ACTIONS) bool

    @classmethod
    def of(cls, observations: np.ndarray, masks: np.ndarray) -> Batch:
        obs = observations.astype(np.float32)
        planes = obs[:, :PLANES * AREA].reshape(-1, PLANES, CASTLE_SIDE, CASTLE_SIDE) / PLANE_SCALE
        vector = obs[:, PLANES * AREA:] / VECTOR_SCALE
        drawn = vector[:, _DRAWN_AT:_DRAWN_AT + MAX_TILES]
        tile = np.where(drawn.any(axis=1), drawn.argmax(axis=1), MAX_TILES - 1)
        features = vector[:, _FEATURES_AT:_FEATURES_AT + 12 * FEATURE_SIZE].reshape(-1, 12, FEATURE_SIZE)
        return cls(im2col(planes), vector, tile, features, masks.astype(bool))


@dataclass
class Network:
    """The policy and value network; ``params`` by name, updated by Adam."""

    params: dict[str, np.ndarray]
    moments: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    steps: int = 0

    @classmethod
    def new(cls, seed: int) -> Network:
        rng = np.random.default_rng(seed)

        def init(*shape: int, fan_in: int) -> np.ndarray:
            weights: np.ndarray = (rng.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32)
            return weights

        params = {
            "conv": init(PLANES * 9, CHANNELS, fan_in=PLANES * 9), "conv_b": np.zeros(CHANNELS, np.float32),
            "global": init(CHANNELS + VECTOR, HIDDEN, fan_in=CHANNELS + VECTOR),
            "global_b": np.zeros(HIDDEN, np.float32),
            "rotation": init(CHANNELS, 4, fan_in=CHANNELS) * 0.1,
            "tile_rotation": np.zeros((MAX_TILES, CHANNELS, 4), np.float32),
            "place_global": np.zeros((HIDDEN, 4), np.float32),
            "rest": np.zeros((HIDDEN, REST), np.float32), "rest_b": np.zeros(REST, np.float32),
            "follower": np.zeros((FEATURE_SIZE, 3), np.float32),
            "value": np.zeros(HIDDEN, np.float32), "value_b": np.zeros(1, np.float32),
        }
        return cls(params)

    def forward(self, batch: Batch) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
        """Masked logits (B, ACTIONS) with -inf where illegal, values (B,), and what the backward pass needs."""
        p = self.params
        pre = batch.patches @ p["conv"] + p["conv_b"]  # (B, AREA, C)
        spaces = np.maximum(pre, 0)
        pooled = spaces.mean(axis=1)
        g_in = np.concatenate([pooled, batch.vector], axis=1)
        g_pre = g_in @ p["global"] + p["global_b"]
        g = np.maximum(g_pre, 0)
        weights = p["rotation"][None] + p["tile_rotation"][batch.tile]  # (B, C, 4)
        place = spaces @ weights + (g @ p["place_global"])[:, None, :]
        rest = g @ p["rest"] + p["rest_b"]
        follower = batch.features @ p["follower"]  # (B, 12, 3): feature f, piece k -> action 1024 + 3 f + k
        rest[:, :36] += follower.reshape(-1, 36)
        logits = np.full((len(batch.tile), CASTLE_ACTIONS), -np.inf, place.dtype)
        valid = PLACE_INDEX >= 0
        logits[:, PLACE_INDEX[valid]] = place[:, valid]
        logits[:, FOLLOWER_BASE:] = rest
        logits = np.where(batch.mask, logits, -np.inf)
        values = g @ p["value"] + p["value_b"][0]
        cache = {"pre": pre, "spaces": spaces, "g_in": g_in, "g_pre": g_pre, "g": g, "weights": weights}
        return logits, values, cache

    def backward(self, batch: Batch, cache: dict[str, Any], d_logits: np.ndarray, d_values: np.ndarray
                 ) -> dict[str, np.ndarray]:
        """Gradients of the loss for every parameter, from its gradients at the logits and the values."""
        p = self.params
        grads: dict[str, np.ndarray] = {}
        d_logits = np.where(batch.mask, d_logits, 0).astype(p["conv"].dtype)
        valid = PLACE_INDEX >= 0
        d_place = np.zeros((len(batch.tile), AREA, 4), d_logits.dtype)
        d_place[:, valid] = d_logits[:, PLACE_INDEX[valid]]
        d_rest = d_logits[:, FOLLOWER_BASE:]
        g = cache["g"]
        grads["value"] = g.T @ d_values
        grads["value_b"] = np.array([d_values.sum()], d_values.dtype)
        grads["rest"] = g.T @ d_rest
        grads["rest_b"] = d_rest.sum(axis=0)
        grads["follower"] = batch.features.reshape(-1, FEATURE_SIZE).T @ d_rest[:, :36].reshape(-1, 3)
        grads["place_global"] = g.T @ d_place.sum(axis=1)
        d_g = d_values[:, None] * p["value"][None] + d_rest @ p["rest"].T + d_place.sum(axis=1) @ p["place_global"].T
        d_weights = cache["spaces"].transpose(0, 2, 1) @ d_place
        grads["rotation"] = d_weights.sum(axis=0)
        tile_grad = np.zeros_like(p["tile_rotation"])
        np.add.at(tile_grad, batch.tile, d_weights)
        grads["tile_rotation"] = tile_grad
        d_spaces = d_place @ cache["weights"].transpose(0, 2, 1)
        d_g_pre = d_g * (cache["g_pre"] > 0)
        grads["global"] = cache["g_in"].T @ d_g_pre
        grads["global_b"] = d_g_pre.sum(axis=0)
        d_g_in = d_g_pre @ p["global"].T
        d_spaces += d_g_in[:, None, :CHANNELS] / AREA
        d_pre = d_spaces * (cache["pre"] > 0)
        grads["conv"] = batch.patches.reshape(-1, PLANES * 9).T @ d_pre.reshape(-1, CHANNELS)
        grads["conv_b"] = d_pre.sum(axis=(0, 1))
        return grads

    def adam(self, grads: dict[str, np.ndarray], rate: float, clip: float = 1.0) -> None:
        norm = float(np.sqrt(sum(float((g * g).sum()) for g in grads.values())))
        factor = min(1.0, clip / (norm + 1e-8))
        self.steps += 1
        for name, grad in grads.items():
            m, v = self.moments.get(name, (np.zeros_like(grad), np.zeros_like(grad)))
            grad = grad * factor
            m = 0.9 * m + 0.1 * grad
            v = 0.999 * v + 0.001 * grad * grad
            self.moments[name] = (m, v)
            m_hat = m / (1 - 0.9 ** self.steps)
            v_hat = v / (1 - 0.999 ** self.steps)
            self.params[name] -= (rate * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)


def log_softmax(logits: np.ndarray) -> np.ndarray:
    top = logits.max(axis=1, keepdims=True)
    shifted: np.ndarray = logits - top
    result: np.ndarray = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return result


def ppo_gradients(net: Network, batch: Batch, actions: np.ndarray, old_logp: np.ndarray, returns: np.ndarray,
                  advantages: np.ndarray, clip: float = 0.2, value_weight: float = 0.5, entropy: float = 0.01
                  ) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    """PPO's clipped loss (mean over the batch) and its gradients."""
    logits, values, cache = net.forward(batch)
    logp_all = log_softmax(logits)
    probs = np.exp(logp_all)
    rows = np.arange(len(actions))
    logp = logp_all[rows, actions]
    ratio = np.exp(logp - old_logp)
    clipped = np.clip(ratio, 1 - clip, 1 + clip)
    active = (ratio * advantages <= clipped * advantages)  # the unclipped term is the minimum
    n = len(actions)
    # d(-ratio * A)/d logp = -ratio * A where the unclipped term is taken; d logp / d logits = onehot - p.
    coefficient = np.where(active, -ratio * advantages, 0.0) / n
    onehot = np.zeros_like(probs)
    onehot[rows, actions] = 1
    d_logits = coefficient[:, None] * (onehot - probs)
    safe = np.where(batch.mask, logp_all, 0.0)
    plogp = probs * safe
    ent = -plogp.sum(axis=1)
    # d(-entropy)/d logits = p * (log p + H)
    d_logits += entropy / n * (plogp + probs * ent[:, None])
    d_values = value_weight * 2 * (values - returns) / n
    grads = net.backward(batch, cache, d_logits, d_values.astype(net.params["value"].dtype))
    stats = {"policy": float(-np.minimum(ratio * advantages, clipped * advantages).mean()),
             "value": float(((values - returns) ** 2).mean()), "entropy": float(ent.mean())}
    return grads, stats


def choose(net: Network, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator, greedy: bool
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Actions (sampled, or arg-max with ``greedy``), their log-probabilities and the values."""
    logits, values, _ = net.forward(Batch.of(observations, masks))
    logp = log_softmax(logits)
    if greedy:
        actions = logits.argmax(axis=1)
    else:
        gumbel = rng.gumbel(size=logits.shape).astype(np.float32)
        actions = np.where(masks.astype(bool), logits + gumbel, -np.inf).argmax(axis=1)
    return actions, logp[np.arange(len(actions)), actions], values


@dataclass
class Pending:
    """The decisions of one game so far, by seat, waiting for the game's end to know their returns."""

    observations: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    logp: list[float] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    gained: list[float] = field(default_factory=list)  # the seat's reward so far, when it decided


@dataclass
class Opponents:
    """Which slots meet a computer level rather than the policy itself, and the level's random streams."""

    level: str
    seat: np.ndarray  # (slots,) the level's seat in each slot, -1 in self-play slots
    rngs: list[random.Random]

    @classmethod
    def share(cls, slots: int, share: float, level: str, seed: int) -> Opponents:
        count = round(slots * share)
        seat = np.full(slots, -1)
        seat[slots - count:] = np.arange(count) % 2
        return cls(level, seat, [random.Random(f"train:{level}:{seed}:{i}") for i in range(slots)])


def collect(venv: castle_v0.CastleVectorEnv, step: castle_v0.VectorStep, net: Network, games: list[Pending],
            totals: np.ndarray, samples: int, rng: np.random.Generator, opponents: Opponents
            ) -> tuple[castle_v0.VectorStep, dict[str, np.ndarray], int]:
    """Play on until finished games hold at least ``samples`` of the policy's decisions; return them as arrays."""
    done: dict[str, list[Any]] = {k: [] for k in ("observations", "masks", "actions", "logp", "returns", "values")}
    finished = 0
    while len(done["actions"]) < samples:
        assert step.observation is not None
        actions, logp, values = choose(net, step.observation, step.action_mask, rng, greedy=False)
        for i, game in enumerate(games):
            seat = int(step.player[i])
            if seat == opponents.seat[i]:
                actions[i] = venv.bot_action(i, opponents.level, opponents.rngs[i])
                continue
            game.observations.append(step.observation[i].copy())
            game.masks.append(np.packbits(step.action_mask[i]))
            game.actions.append(int(actions[i]))
            game.logp.append(float(logp[i]))
            game.values.append(float(values[i]))
            game.seats.append(seat)
            game.gained.append(float(totals[i, seat]))
        step = venv.step(actions.astype(np.intc))
        totals += step.rewards
        for i in np.flatnonzero(step.terminated).tolist():
            game = games[i]
            final = totals[i]
            done["observations"] += game.observations
            done["masks"] += game.masks
            done["actions"] += game.actions
            done["logp"] += game.logp
            done["values"] += game.values
            done["returns"] += [(final[s] - g) / RETURN_SCALE for s, g in zip(game.seats, game.gained, strict=True)]
            games[i] = Pending()
            totals[i] = 0
            finished += 1
    arrays = {k: np.array(v) for k, v in done.items()}
    arrays["masks"] = np.unpackbits(arrays["masks"], axis=1, count=CASTLE_ACTIONS)
    return step, arrays, finished


def update(net: Network, data: dict[str, np.ndarray], rng: np.random.Generator, epochs: int, minibatch: int,
           rate: float) -> dict[str, float]:
    advantages = data["returns"] - data["values"]
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    n = len(data["actions"])
    stats: dict[str, float] = {}
    for _ in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, minibatch):
            rows = order[start:start + minibatch]
            batch = Batch.of(data["observations"][rows], data["masks"][rows])
            grads, stats = ppo_gradients(net, batch, data["actions"][rows], data["logp"][rows],
                                         data["returns"][rows].astype(np.float32), advantages[rows])
            net.adam(grads, rate)
    return stats


def evaluate(net: Network, opponent: str, games: int, seed: int) -> float:
    """The arg-max policy's share of points (a win 1, a shared win 1/2) against ``opponent`` over ``games``
    games, the agent in seat 0 in even games and seat 1 in odd ones."""
    venv = castle_v0.vector_env(games, seed=seed, copy=False)
    step = venv.reset()
    agent_seat = np.arange(games) % 2
    rngs = [random.Random(f"{opponent}:{seed}:{i}") for i in range(games)]
    results = np.full(games, -1.0)
    rng = np.random.default_rng(seed)
    while (results < 0).any():
        assert step.observation is not None
        actions, _, _ = choose(net, step.observation, step.action_mask, rng, greedy=True)
        actions = actions.astype(np.intc)
        for i in range(games):
            if results[i] >= 0:
                actions[i] = int(np.flatnonzero(step.action_mask[i])[0])  # a finished slot: any legal action
            elif step.player[i] != agent_seat[i]:
                actions[i] = venv.bot_action(i, opponent, rngs[i])
        step = venv.step(actions)
        for i in np.flatnonzero(step.terminated).tolist():
            if results[i] < 0:
                mine, theirs = step.final_scores[i, agent_seat[i]], step.final_scores[i, 1 - agent_seat[i]]
                results[i] = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return float(results.mean())


EVALUATED = ("random", "beginner", "greedy")


def train(updates: int, slots: int, samples: int, eval_every: int, eval_games: int, seed: int,
          greedy_share: float = 0.0, rate: float = 3e-4, epochs: int = 3, minibatch: int = 256,
          log: Any = print) -> dict[str, Any]:
    net = Network.new(seed)
    opponents = Opponents.share(slots, greedy_share, "greedy", seed)
    rng = np.random.default_rng(seed)
    venv = castle_v0.vector_env(slots, seed=seed * 1_000_003, reward="score", copy=False)
    step = venv.reset()
    games = [Pending() for _ in range(slots)]
    totals = np.zeros((slots, 2))
    curve: list[dict[str, Any]] = []
    played = decisions = 0
    start = time.perf_counter()

    def measure(at: int) -> None:
        point = {"update": at, "games": played, "decisions": decisions,
                 "seconds": round(time.perf_counter() - start, 1)}
        for opponent in EVALUATED:
            point[opponent] = evaluate(net, opponent, eval_games, seed=10_000 + at)
        curve.append(point)
        log(json.dumps(point))

    measure(0)
    for k in range(1, updates + 1):
        step, data, finished = collect(venv, step, net, games, totals, samples, rng, opponents)
        played += finished
        decisions += len(data["actions"])
        stats = update(net, data, rng, epochs, minibatch, rate)
        if k % eval_every == 0 or k == updates:
            log(f"update {k}: {stats}")
            measure(k)
    return {"seed": seed, "updates": updates, "slots": slots, "samples": samples, "eval_games": eval_games,
            "greedy_share": greedy_share, "curve": curve}


def plot(result: dict[str, Any], path: Path) -> bool:
    """Draw the curve; False where matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    curve = result["curve"]
    games = [p["games"] for p in curve]
    fig, ax = plt.subplots(figsize=(7, 4))
    for opponent, colour in zip(EVALUATED, ("tab:blue", "tab:orange", "tab:red"), strict=True):
        ax.plot(games, [100 * p[opponent] for p in curve], marker="o", color=colour, label=f"against {opponent}")
    ax.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel("training games played")
    ax.set_ylabel(f"points won, % of {result['eval_games']} games")
    ax.set_ylim(0, 100)
    ax.set_title("PPO with action masking on castle_v0.vector_env (examples/ppo_castle.py)")
    ax.legend(loc="center right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--updates", type=int, default=60)
    parser.add_argument("--slots", type=int, default=128, help="games played at once")
    parser.add_argument("--samples", type=int, default=4096, help="decisions per update")
    parser.add_argument("--greedy-share", type=float, default=0.0,
                        help="share of games against greedy (0: self-play only, which learned faster in our runs)")
    parser.add_argument("--eval-every", type=int, default=5)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("results/env_learning_curve"))
    args = parser.parse_args()
    result = train(args.updates, args.slots, args.samples, args.eval_every, args.eval_games, args.seed,
                   args.greedy_share)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    drawn = plot(result, args.out.with_suffix(".png"))
    print(f"wrote {args.out.with_suffix('.json')}" + (f" and {args.out.with_suffix('.png')}" if drawn else ""))


if __name__ == "__main__":
    main()
