"""A quick estimate of a position's worth, for the greedy bot and for MCTS leaves.

The estimate is each player's points so far plus what their position promises: features
they control that may still be completed (weighted by how open they are), meadows they
hold, followers still free to use, the family-house and nest races, and held tokens.
"""

from __future__ import annotations

import math
from typing import Final

from zamek.engine import GameState
from zamek.scoring import SHRINE_RATE, chapel_points, majority
from zamek.tiles import FeatureKind

RATES: Final = {FeatureKind.ROAD: 1, FeatureKind.HOUSE: 1, FeatureKind.PIGSTY: 2}
FREE_FOLLOWER: Final = 1.2
"""What a follower still in the supply is worth: it can score later."""
TOKEN_VALUE: Final = (0.0, 4.0, 2.0, 3.0, 2.0, 1.5, 5.0, 2.5, 3.0, 2.0)
"""Rough worth of a held token by kind (index = Zamek number)."""
FAMILY_RACE: Final = 3.0
NEST_RACE: Final = 3.0
WIN_SCALE: Final = 12.0
"""Points of lead that make a win about 73% likely, for turning estimates into win chances."""


def completion_chance(open_segments: int, tiles_left: int) -> float:
    """Return a rough chance that a feature with ``open_segments`` open edges gets completed."""
    if open_segments == 0:
        return 1.0
    if tiles_left == 0:
        return 0.0
    return 0.85 / (1 + 0.6 * (open_segments - 1)) * min(1.0, tiles_left / 20)


def player_values(state: GameState) -> tuple[float, float]:
    """Return each player's estimated final points."""
    if state.is_over():
        return float(state.scores[0]), float(state.scores[1])
    values = [float(state.scores[0]), float(state.scores[1])]
    left = len(state.remaining)
    seen: set[int] = set()
    for follower in state.followers:
        root = state.find(follower.node)
        if root in seen:
            continue
        seen.add(root)
        owner = majority((state.fol0[root], state.fol1[root]))
        if owner is None:
            continue
        kind = FeatureKind(state.kind[root])
        double = 2 if state.prince[root] >> owner & 1 else 1
        if kind is FeatureKind.MEADOW:
            values[owner] += state.shrines[root] * SHRINE_RATE * double
            continue
        tiles = state.cells[root].bit_count()
        if kind is FeatureKind.CHAPEL:
            worth = float(chapel_points(tiles))
        else:
            rate = RATES[kind] * (2 if kind is FeatureKind.ROAD and state.stocks[root] else 1)
            worth = float(tiles * rate)
        values[owner] += worth * double * completion_chance(state.open[root], left)
    for player in (0, 1):
        values[player] += FREE_FOLLOWER * min(state.supply[player], 4)
        values[player] += sum(TOKEN_VALUE[t.kind] for t in state.tokens[player])
    family = majority((state.family_size[0], state.family_size[1]))
    if family is not None:
        values[family] += FAMILY_RACE
    if state.rules.sokol:
        nests = majority((state.nests[0], state.nests[1]))
        if nests is not None:
            values[nests] += NEST_RACE
    return values[0], values[1]


def lead(state: GameState, player: int) -> float:
    """Return ``player``'s estimated lead in points."""
    v0, v1 = player_values(state)
    return v0 - v1 if player == 0 else v1 - v0


def win_chance(state: GameState, player: int) -> float:
    """Return a win chance in [0, 1] for ``player``: exact at the end, estimated before."""
    if state.is_over():
        s = state.scores
        mine, theirs = (s[0], s[1]) if player == 0 else (s[1], s[0])
        return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
    return 1.0 / (1.0 + math.exp(-lead(state, player) / WIN_SCALE))
