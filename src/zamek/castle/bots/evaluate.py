"""A quick estimate of a position's worth, for the greedy bot and for MCTS leaves.

The estimate is each player's points so far plus what their position promises: features
they control that may still be completed (weighted by how open they are), meadows they
hold, followers still free to use, a tower with a token within reach of their marker, the
family-house and nest races, and held tokens. The weights are a value so that bots can
use different ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, Protocol

from zamek.castle.rules.regions import majority
from zamek.castle.rules.state import GameState
from zamek.castle.rules.tiles import FeatureKind


class Evaluator(Protocol):
    """A position estimate the bots can use: the hand-set ``Weights`` or the learned value."""

    def lead(self, state: GameState, player: int) -> float:
        """Return ``player``'s estimated final lead in points."""
        ...

    def win_chance(self, state: GameState, player: int) -> float:
        """Return ``player``'s estimated chance to win, exact when the game is over."""
        ...


@dataclass(frozen=True)
class Weights:
    """The numbers behind the estimate."""

    free_follower: float = 1.2
    """What a follower still in the supply is worth: it can score later."""
    follower_cap: int = 4
    """Followers beyond this many in the supply add nothing more."""
    completion: float = 0.85
    """Chance that a feature with one open edge gets completed (with enough tiles left)."""
    completion_decay: float = 0.6
    """How much each further open edge lowers that chance."""
    horizon: int = 20
    """Below this many tiles left, completion chances shrink in proportion."""
    tower_reach: int = 6
    """How far ahead of a marker a tower with a token counts as within reach."""
    tower_near: float = 0.6
    """Worth of having a tower with a token within reach: a small scoring may land on it."""
    family_race: float = 3.0
    nest_race: float = 3.0
    token_values: tuple[float, ...] = (0.0, 4.0, 2.0, 3.0, 2.0, 1.5, 5.0, 2.5, 3.0, 2.0)
    """Rough worth of a held token by kind (index = Zamek number)."""
    win_scale: float = 12.0
    """Points of lead that make a win about 73% likely, for turning estimates into win chances."""

    def lead(self, state: GameState, player: int) -> float:
        return lead(state, player, self)

    def win_chance(self, state: GameState, player: int) -> float:
        return win_chance(state, player, self)


DEFAULT: Final = Weights()


def completion_chance(open_segments: int, tiles_left: int, weights: Weights = DEFAULT) -> float:
    """Return a rough chance that a feature with ``open_segments`` open edges gets completed."""
    if open_segments == 0:
        return 1.0
    if tiles_left == 0:
        return 0.0
    fading = min(1.0, tiles_left / weights.horizon)
    return weights.completion / (1 + weights.completion_decay * (open_segments - 1)) * fading


def player_values(state: GameState, weights: Weights = DEFAULT) -> tuple[float, float]:
    """Return each player's estimated final points."""
    if state.is_over():
        return float(state.scores[0]), float(state.scores[1])
    values = [float(state.scores[0]), float(state.scores[1])]
    left = len(state.remaining)
    for feature in state.occupied_features():
        owner = feature.controller
        if owner is None:
            continue
        if feature.kind is FeatureKind.MEADOW:
            values[owner] += state.worth(feature)
            continue
        values[owner] += float(state.worth(feature)) * completion_chance(feature.open_edges, left, weights)
    for player in (0, 1):
        if state.token_tower_ahead(player, weights.tower_reach):
            values[player] += weights.tower_near
        values[player] += weights.free_follower * min(state.supply[player], weights.follower_cap)
        values[player] += sum(weights.token_values[t.kind] for t in state.tokens[player])
    family = majority((state.family_size[0], state.family_size[1]))
    if family is not None:
        values[family] += weights.family_race
    if state.rules.sokol:
        nests = majority((state.nests[0], state.nests[1]))
        if nests is not None:
            values[nests] += weights.nest_race
    return values[0], values[1]


def lead(state: GameState, player: int, weights: Weights = DEFAULT) -> float:
    """Return ``player``'s estimated lead in points."""
    v0, v1 = player_values(state, weights)
    return v0 - v1 if player == 0 else v1 - v0


def win_chance(state: GameState, player: int, weights: Weights = DEFAULT) -> float:
    """Return a win chance in [0, 1] for ``player``: exact at the end, estimated before."""
    if state.is_over():
        s = state.scores
        mine, theirs = (s[0], s[1]) if player == 0 else (s[1], s[0])
        return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
    return 1.0 / (1.0 + math.exp(-lead(state, player, weights) / weights.win_scale))
