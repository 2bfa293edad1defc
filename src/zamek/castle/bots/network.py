"""A small learned network on top of the learned value: the expert's position estimate.

The linear value (:mod:`zamek.castle.bots.value`) prices each feature of a player's position alone. The network
adds what a sum of single features misses, their combinations (followers stuck while tiles run out, a
token and the feature it would double), from the same two feature vectors ``x0`` and ``x1``::

    lead(x0, x1) = linear(x0 - x1) + g(x0, x1) - g(x1, x0)
    g(a, b) = w2 . relu(W1 [a / scale, b / scale] + b1)

Written as ``g(x0, x1) - g(x1, x0)`` the correction is antisymmetric, so the value stays a zero-sum lead
whichever player asks. The network is tiny (``hidden`` units, a few thousand weights): the search calls it
at every leaf, in C (``zamek_bots.h``, ``zb_net_part``); this module is the reference and needs nothing but
Python to play. Its weights are a versioned JSON file, checked when loaded (``net_from_json``).
Training (``zamek train``, :mod:`zamek.castle.training.train_net`) needs numpy.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from zamek.castle.bots.value import (
    FEATURES,
    MODEL_FORMAT,
    ValueModel,
    checked_header,
    finite_numbers,
    model_from_json,
    position_features,
    weights_digest,
)
from zamek.castle.rules.state import GameState

FORMAT: Final = "zamek-value-net"
VERSION: Final = 1
MAX_HIDDEN: Final = 32
"""Hidden units at most (the C form's fixed size)."""


@dataclass(frozen=True, eq=False)
class NetValue:
    """The linear value plus the network's antisymmetric correction (see the module's text)."""

    linear: ValueModel
    scale: tuple[float, ...]
    """Each feature is divided by its scale (its spread in the training positions) before the network."""
    w1: tuple[tuple[float, ...], ...]
    """First layer: a row per input (player a's scaled features, then player b's), a column per hidden unit."""
    b1: tuple[float, ...]
    w2: tuple[float, ...]
    about: dict[str, Any] = field(default_factory=dict, compare=False)
    """How the weights were made (``zamek train``'s settings and figures)."""

    @property
    def win_scale(self) -> float:
        return self.linear.win_scale

    def correction(self, a: list[float], b: list[float]) -> float:
        """g(a, b)."""
        u = [v / s for v, s in zip(a, self.scale, strict=True)] + [v / s for v, s in zip(b, self.scale, strict=True)]
        hidden = list(self.b1)
        for value, row in zip(u, self.w1, strict=True):
            if value:
                for j, w in enumerate(row):
                    hidden[j] += value * w
        return sum(w * h for w, h in zip(self.w2, hidden, strict=True) if h > 0.0)

    def lead(self, state: GameState, player: int) -> float:
        """Return ``player``'s expected final lead in points."""
        if state.is_over():
            return self.linear.lead(state, player)
        x0, x1 = position_features(state)
        value = self.linear.lead(state, 0) + self.correction(x0, x1) - self.correction(x1, x0)
        return value if player == 0 else -value

    def win_chance(self, state: GameState, player: int) -> float:
        """Return a win chance in [0, 1] for ``player``: exact at the end, estimated before."""
        if state.is_over():
            return self.linear.win_chance(state, player)
        return 1.0 / (1.0 + math.exp(-self.lead(state, player) / self.win_scale))


def digest(net: NetValue) -> str:
    """A digest of the weights (stored in the file and checked when it is loaded)."""
    return weights_digest((net.linear.coefficients, net.linear.win_scale, net.scale, net.w1, net.b1, net.w2))


def net_to_json(net: NetValue) -> str:
    data = {
        "format": FORMAT,
        "version": VERSION,
        "about": "The expert's position value (zamek.castle.bots.network); made by `zamek train`.",
        "trained": net.about,
        "features": list(FEATURES),
        "hidden": len(net.b1),
        "win_scale": net.linear.win_scale,
        "linear": list(net.linear.coefficients),
        "scale": list(net.scale),
        "w1": [list(row) for row in net.w1],
        "b1": list(net.b1),
        "w2": list(net.w2),
        "sha256": digest(net),
    }
    return json.dumps(data, separators=(",", ":")) + "\n"


def _numbers(data: dict[str, Any], key: str, length: int) -> tuple[float, ...]:
    return finite_numbers(data, key, length, "value network")


def net_from_json(text: str) -> NetValue:
    """Read a network file; raise ValueError saying what is wrong with a file of another format, version,
    feature list or shape, or whose weights do not match their digest."""
    data = checked_header(text, FORMAT, VERSION, "value network", "zamek train")
    hidden = data.get("hidden")
    if not isinstance(hidden, int) or not 0 < hidden <= MAX_HIDDEN:
        raise ValueError(f"value network: 'hidden' must be 1 to {MAX_HIDDEN}")
    n = len(FEATURES)
    rows = data.get("w1")
    if not isinstance(rows, list) or len(rows) != 2 * n:
        raise ValueError(f"value network: 'w1' must have {2 * n} rows")
    w1 = tuple(_numbers({"w1": row}, "w1", hidden) for row in rows)
    scale = _numbers(data, "scale", n)
    if not all(s > 0 for s in scale):
        raise ValueError("value network: every 'scale' must be positive")
    win_scale = _numbers({"win_scale": [data.get("win_scale")]}, "win_scale", 1)[0]
    about = data.get("trained", {})
    net = NetValue(ValueModel(_numbers(data, "linear", n), win_scale), scale, w1, _numbers(data, "b1", hidden),
                   _numbers(data, "w2", hidden), about if isinstance(about, dict) else {})
    if data.get("sha256") != digest(net):
        raise ValueError("value network: the weights do not match their digest (a damaged or edited file)")
    return net


def load_net(path: Path) -> NetValue:
    """Read a network file; ValueError when it cannot be read or is not a good one."""
    return net_from_json(_read(path, "value network"))


def load_estimate(path: Path) -> ValueModel | NetValue:
    """Read a value file of either kind: a learned value (``zamek train-value``) or a network (``zamek train``)."""
    text = _read(path, "value file")
    try:
        is_model = json.loads(text).get("format") == MODEL_FORMAT
    except (json.JSONDecodeError, AttributeError):
        is_model = False
    return model_from_json(text) if is_model else net_from_json(text)


def _read(path: Path, what: str) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{what}: cannot read {path}: {exc}") from None
    # What the readers' json.loads would raise as Python's own errors, said here; a plain syntax error they name.
    try:
        json.loads(text)
    except json.JSONDecodeError:
        pass
    except RecursionError:
        raise ValueError(f"{what}: {path} nests lists or objects too deep to be one") from None
    except ValueError:
        raise ValueError(f"{what}: {path} holds a number of more digits than Python reads") from None
    return text
