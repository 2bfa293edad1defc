"""A position value learned from games: what each player's position is worth in points still to come.

The hand-set estimate of :mod:`zamek.castle.bots.evaluate` guesses how likely an open feature is to be
completed from its number of open edges. This value looks at the board instead: for every open
feature a player controls it finds the empty spaces its open edges face and whether any tile
still to be drawn fits there (a feature facing a space nothing can fill is dead: its followers are
stuck), and it describes the position by a few dozen such numbers (points waiting in open features
by kind and by how many spaces they still need, followers and tokens held, the family-house race,
towers within reach). The points each feature is worth were fitted by least squares to the points
actually scored in the rest of self-play games (``zamek train-value``); they are stored in
``data/value_model.json``, a versioned file whose weights are checked against their digest when loaded.

Features are computed per player; the value is the score difference plus the weighted difference
of the two players' features, so it is symmetric by construction.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from zamek.castle.rules.regions import majority
from zamek.castle.rules.setup import Rules
from zamek.castle.rules.state import GameState
from zamek.castle.rules.tiles import FeatureKind

KINDS: Final = ("road", "house", "pigsty")
REACH: Final = ("dead", "one", "two", "more")
"""Open features by the empty spaces their open edges face: one with no tile left to fill is dead."""


def _feature_names() -> tuple[str, ...]:
    names = []
    for kind in KINDS:
        for reach in REACH:
            names += [f"{kind}_{reach}", f"{kind}_{reach}_early"]
    names += [f"held_{reach}" for reach in REACH]
    names += ["blocked", "meadow", "meadow_early", "meadow_monks", "meadow_blocked"]
    names += ["supply", "supply_early", "supply_empty", "supply_empty_early"]
    names += [f"token_{kind}" for kind in range(1, 10)] + ["token_1_early"]
    names += ["family_lead", "family_lead_area", "family_size", "tower_near", "nest_lead", "to_move"]
    return tuple(names)


FEATURES: Final = _feature_names()
INDEX: Final = {name: i for i, name in enumerate(FEATURES)}
_KIND_NAME: Final = {FeatureKind.ROAD: "road", FeatureKind.HOUSE: "house", FeatureKind.PIGSTY: "pigsty",
                     FeatureKind.CHAPEL: "house"}
TOWER_REACH: Final = 6
AREA_CAP: Final = 20
"""The largest empty area counts up to this size: beyond it the family-house race is far from decided."""
_BUCKETS: Final = {
    (kind, r): (INDEX[f"{kind}_{reach}"], INDEX[f"{kind}_{reach}_early"], INDEX[f"held_{reach}"])
    for kind in KINDS for r, reach in enumerate(REACH)
}
"""Feature indices (value, value early, followers held) per kind and reach (0 dead, else spaces needed)."""
_TOKEN_AT: Final = (-1, *(INDEX[f"token_{kind}"] for kind in range(1, 10)))


_TABLES: dict[int, tuple[Rules, tuple[int, ...]]] = {}
"""Per rules (by identity: hashing the rules deeply on every call is slow): the fit table."""


def _fit(rules: Rules) -> tuple[int, ...]:
    entry = _TABLES.get(id(rules))
    if entry is None or entry[0] is not rules:
        entry = _TABLES[id(rules)] = (rules, _fit_table(rules))
    return entry[1]


def _fit_table(rules: Rules) -> tuple[int, ...]:
    """For each (sides that must match, which of them are roads): the tiles (as bits) that fit some way."""
    table = [0] * 256
    for mask in range(16):
        for want in range(16):
            if want & ~mask:
                continue
            bits = 0
            for tile in rules.tiles.tiles:
                if any((o.road_sides ^ want) & mask == 0 for o in tile.orientations):
                    bits |= 1 << tile.index
            table[mask * 16 + want] = bits
    return tuple(table)


def position_features(state: GameState) -> tuple[list[float], list[float]]:
    """Return the feature vector of each player (see ``FEATURES``)."""
    x = [[0.0] * len(FEATURES), [0.0] * len(FEATURES)]
    total = len(state.rules.tiles)
    left = len(state.remaining)
    early = left / total
    remaining_bits = 0
    for tile in state.remaining:
        remaining_bits |= 1 << tile
    if state.drawn >= 0:  # drawn but not yet placed: it can still fill a space
        remaining_bits |= 1 << state.drawn
    fit = _fit(state.rules)
    for feature in state.occupied_features():
        counts = feature.followers
        owner = feature.controller
        kind = feature.kind
        if kind is FeatureKind.MEADOW:
            if owner is None:
                for p in (0, 1):
                    x[p][INDEX["meadow_blocked"]] += counts[p]
                continue
            points = state.worth(feature)
            x[owner][INDEX["meadow"]] += points
            x[owner][INDEX["meadow_early"]] += points * early
            x[owner][INDEX["meadow_monks"]] += counts[owner]
            x[1 - owner][INDEX["meadow_blocked"]] += counts[1 - owner]
            continue
        if owner is None:
            for p in (0, 1):
                x[p][INDEX["blocked"]] += counts[p]
            continue
        x[1 - owner][INDEX["blocked"]] += counts[1 - owner]
        worth = float(state.worth(feature))
        spaces = state.frontier(feature)
        dead = left == 0 or any(fit[_fit_key(state.space_needs(c))] & remaining_bits == 0 for c in spaces)
        reach = 0 if dead else min(len(spaces), 3)
        at, at_early, at_held = _BUCKETS[_KIND_NAME[kind], reach]
        xo = x[owner]
        xo[at] += worth
        xo[at_early] += worth * early
        xo[at_held] += counts[owner]
    family = majority((state.family_size[0], state.family_size[1]))
    nests = majority((state.nests[0], state.nests[1])) if state.rules.sokol else None
    for p in (0, 1):
        xp = x[p]
        supply = state.supply[p]
        xp[INDEX["supply"]] = supply
        xp[INDEX["supply_early"]] = supply * early
        xp[INDEX["supply_empty"]] = 1.0 if supply == 0 else 0.0
        xp[INDEX["supply_empty_early"]] = early if supply == 0 else 0.0
        for token in state.tokens[p]:
            xp[_TOKEN_AT[token.kind]] += 1
            if token.kind == 1:
                xp[INDEX["token_1_early"]] += early
        if family == p:
            xp[INDEX["family_lead"]] = 1.0
            xp[INDEX["family_lead_area"]] = min(state.largest_empty_area(), AREA_CAP) * (1 - early)
        xp[INDEX["family_size"]] = state.family_size[p]
        if state.token_tower_ahead(p, TOWER_REACH):
            xp[INDEX["tower_near"]] = 1.0
        if nests == p:
            xp[INDEX["nest_lead"]] = 1.0
    x[state.current][INDEX["to_move"]] = 1.0
    return x[0], x[1]


@dataclass(frozen=True)
class ValueModel:
    """Coefficients of the learned value: points still to come per unit of each feature."""

    coefficients: tuple[float, ...]
    win_scale: float = 16.0
    """Points of lead that make a win about 73% likely (fitted to the same games)."""

    def lead(self, state: GameState, player: int) -> float:
        """Return ``player``'s expected final lead in points."""
        s = state.scores
        if state.is_over():
            return float(s[player] - s[1 - player])
        x0, x1 = position_features(state)
        value = float(s[0] - s[1]) + sum(w * (a - b) for w, a, b in zip(self.coefficients, x0, x1, strict=True))
        return value if player == 0 else -value

    def win_chance(self, state: GameState, player: int) -> float:
        """Return a win chance in [0, 1] for ``player``: exact at the end, estimated before."""
        if state.is_over():
            s = state.scores
            mine, theirs = s[player], s[1 - player]
            return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
        return 1.0 / (1.0 + math.exp(-self.lead(state, player) / self.win_scale))


MODEL_FORMAT: Final = "zamek-value-model"
MODEL_VERSION: Final = 1


def weights_digest(numbers: object) -> str:
    """The SHA-256 of a model's numbers, stored in its file and checked when it is loaded."""
    return hashlib.sha256(repr(numbers).encode()).hexdigest()


def model_digest(model: ValueModel) -> str:
    return weights_digest((model.coefficients, model.win_scale))


def finite_numbers(data: dict[str, Any], key: str, length: int, what: str) -> tuple[float, ...]:
    """``data[key]`` as ``length`` finite numbers; ValueError naming ``what`` file and ``key`` otherwise."""
    values = data.get(key)
    if not isinstance(values, list) or len(values) != length:
        raise ValueError(f"{what}: '{key}' must be a list of {length} numbers")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values):
        raise ValueError(f"{what}: '{key}' holds something other than finite numbers")
    return tuple(float(v) for v in values)


def checked_header(text: str, file_format: str, version: int, what: str, remedy: str) -> dict[str, Any]:
    """The JSON object of a weights file of ``file_format`` and ``version`` made for ``FEATURES``; ValueError
    saying what is wrong (naming ``what`` file, and the command, ``remedy``, that makes a good one) otherwise."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{what}: not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != file_format:
        raise ValueError(f"{what}: not a {file_format} file")
    if data.get("version") != version:
        raise ValueError(f"{what}: version {data.get('version')!r}, this program reads version {version}")
    if data.get("features") != list(FEATURES):
        raise ValueError(f"{what}: made for other features; run `{remedy}` again")
    return data


def model_from_json(text: str) -> ValueModel:
    """Read a value model file; raise ValueError saying what is wrong with a file of another format,
    version or feature list, or whose weights do not match their digest."""
    data = checked_header(text, MODEL_FORMAT, MODEL_VERSION, "value model", "zamek train-value")
    coefficients = finite_numbers(data, "coefficients", len(FEATURES), "value model")
    win_scale = finite_numbers({"win_scale": [data.get("win_scale")]}, "win_scale", 1, "value model")[0]
    if win_scale <= 0:
        raise ValueError("value model: 'win_scale' must be positive")
    model = ValueModel(coefficients, win_scale)
    if data.get("sha256") != model_digest(model):
        raise ValueError("value model: the weights do not match their digest (a damaged or edited file)")
    return model


@cache
def default_model() -> ValueModel:
    """Return the model shipped in ``data/value_model.json``."""
    text = resources.files("zamek.castle.data").joinpath("value_model.json").read_text(encoding="utf-8")
    return model_from_json(text)


def _fit_key(needs: tuple[int, int]) -> int:
    """The index into the fit table of an empty space that needs ``(sides, road sides)``."""
    return needs[0] * 16 + needs[1]
