"""The compiled core's position (``CoreState``) over the Python engine, for the castle's AEC and Gymnasium
environments where the compiled core was not built: the same games, observations and rewards, slower.

Only what ``castle_v0.CastleEnv`` calls is here: chance under the seeding convention, actions as integers (an
action's index, ``DRAW`` + a tile's index, ``REVEAL`` + a token kind, as ``CoreRules.encode``), the legal actions,
scores, and ``observe``, a port of ``zamek_obs.h`` (tests/env/test_env_install.py plays the same seeded games on
both cores and compares every observation). The vector environment and ``Batch`` stay compiled-only.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from zamek.castle.data.loader import new_game
from zamek.castle.rules.actions import Action, Draw, Reveal, action_from_index
from zamek.castle.rules.board import TAKEN
from zamek.castle.rules.setup import Phase, Setup
from zamek.castle.rules.state import GameState
from zamek.castle.rules.tokens import TokenKind
from zamek.castle.seeding import SeededChance
from zamek.env.spec import CASTLE, CASTLE_AREA, CASTLE_SIDE, FEATURE_SIZE

__all__ = ["PythonCodec", "PythonCoreState"]

DRAW: Final = 2000  # the compiled core's chance codes (zamek.castle.fast.native.DRAW / REVEAL)
REVEAL: Final = 3000
_PIGSTY, _MEADOW = 2, 3
_TRACK: Final = 100


def _starts(sizes: list[tuple[str, int]]) -> dict[str, int]:
    """Where each part starts (by offsets, not ``Layout.span``: "nests" names a plane and a vector part)."""
    starts, at = {}, 0
    for name, size in sizes:
        starts[name], at = at, at + size
    return starts


_PLANE: Final = _starts([(part.name, part.size) for part in CASTLE.planes])
"""The first plane of each plane part."""
_VECTOR: Final = _starts([(part.name, part.size) for part in CASTLE.vector])
"""The first index of each vector part, from the vector's start."""


class PythonCodec:
    """A setup's actions as the compiled core's integers, and back (``CoreRules.encode`` / ``decode``)."""

    def __init__(self, state: GameState) -> None:
        self.tile_ids = [tile.id for tile in state.tiles.tiles]
        self.tile_index = {tile_id: i for i, tile_id in enumerate(self.tile_ids)}

    def encode(self, action: Action) -> int:
        if isinstance(action, Draw):
            return DRAW + self.tile_index[action.tile]
        if isinstance(action, Reveal):
            return REVEAL + action.kind
        return action.index

    def decode(self, code: int) -> Action:
        if code >= REVEAL:
            return Reveal(code - REVEAL)
        if code >= DRAW:
            return Draw(self.tile_ids[code - DRAW])
        return action_from_index(code)


class PythonCoreState:
    """A game of ``setup`` on the Python engine, with ``CoreState``'s methods (see the module docstring)."""

    def __init__(self, setup: Setup) -> None:
        self.game = new_game(setup)
        self.codec = PythonCodec(self.game)
        self._chance: SeededChance | None = None

    def is_chance(self) -> bool:
        return self.game.is_chance()

    def is_over(self) -> bool:
        return self.game.is_over()

    @property
    def phase(self) -> Phase:
        return self.game.phase

    @property
    def current(self) -> int:
        return self.game.current

    @property
    def scores(self) -> tuple[int, int]:
        return self.game.scores[0], self.game.scores[1]

    def legal_actions(self) -> list[int]:
        return [action.index for action in self.game.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return sorted((self.codec.encode(outcome), p) for outcome, p in self.game.chance_outcomes())

    def seeded_outcome(self, seed: int) -> int:
        if self._chance is None or self._chance.seed != seed:
            self._chance = SeededChance(seed, self.game.tiles)
        return self.codec.encode(self._chance.outcome(self.game))

    def apply(self, code: int) -> None:
        self.game.apply(self.codec.decode(code))

    def snapshot(self) -> dict[str, Any]:
        """The fields the environment's pictures read (``CoreState.snapshot``'s names)."""
        return {"placements": list(self.game.placements),
                "followers": [(f.player, f.cell, f.feature, f.node, int(f.piece)) for f in self.game.followers]}

    def observe(self, me: int, out: np.ndarray) -> None:
        """Write what seat ``me`` sees into ``out`` (int16[CASTLE.size]): ``zo_observe`` of zamek_obs.h."""
        observe(self.game, me, out)


def _root(s: GameState, node: int) -> int:
    """The region of a node, without path compression: an observation leaves the position untouched."""
    while s.parent[node] != node:
        node = s.parent[node]
    return node


def _cells(mask: int) -> list[int]:
    return [cell for cell in range(mask.bit_length()) if mask >> cell & 1]


def observe(s: GameState, me: int, out: np.ndarray) -> None:
    """``zo_observe``: the planes over the padded castle grid, then the vector (zamek/env/spec.py names them)."""
    them = 1 - me
    out[:] = 0
    castle = s.castle
    planes = out[:CASTLE.plane_count * CASTLE_AREA].reshape(CASTLE.plane_count, CASTLE_AREA)

    def square(cell: int) -> int:
        x, y = castle.xy(cell)
        if x < -1 or y < -1 or x + 1 >= CASTLE_SIDE or y + 1 >= CASTLE_SIDE:
            return -1
        return (y + 1) * CASTLE_SIDE + (x + 1)

    interior = set(castle.interior)
    starts = {start.cell: start for start in castle.starts}
    placed = {cell: tile for cell, tile, _rotation in s.placements}
    tiles = s.tiles.tiles
    for cell in sorted(interior | set(starts)):
        sq = square(cell)
        if sq < 0:
            continue
        planes[_PLANE["interior"] if cell in interior else _PLANE["start"], sq] = 1
        if s.status[cell] != TAKEN:
            if cell in interior and s.need_mask[cell]:
                planes[_PLANE["frontier"], sq] = 1
                for side in range(4):
                    if s.need_mask[cell] >> side & 1:
                        planes[_PLANE["needs_match"] + side, sq] = 1
                    if s.need_road[cell] >> side & 1:
                        planes[_PLANE["needs_road"] + side, sq] = 1
            continue
        planes[_PLANE["taken"], sq] = 1
        features = tiles[placed[cell]].features if cell in placed else starts[cell].features
        base = s.cell_node[cell]
        for f, feature in enumerate(features):
            node = base + f
            planes[_PLANE["kind"] + int(s.kind[node]), sq] = 1
            planes[_PLANE["stocks"], sq] += feature.stocks
            planes[_PLANE["shrines"], sq] += feature.shrines
            planes[_PLANE["nests"], sq] += feature.nests
            root = _root(s, node)
            kind = int(s.kind[root])
            if kind <= _PIGSTY and s.open[root] > 0:  # the larger where two such features meet here
                open_plane, size_plane = _PLANE["open_edges"] + kind, _PLANE["feature_tiles"] + kind
                planes[open_plane, sq] = max(planes[open_plane, sq], s.open[root])
                planes[size_plane, sq] = max(planes[size_plane, sq], s.cells[root].bit_count())
            mine, theirs = (s.fol0[root], s.fol1[root]) if me == 0 else (s.fol1[root], s.fol0[root])
            if mine + theirs:
                planes[_PLANE["held"] + (0 if mine > theirs else 1 if theirs > mine else 2), sq] = 1
    for follower in s.followers:
        sq = square(follower.cell)
        if sq >= 0:
            planes[_PLANE["figures"] + (0 if follower.player == me else 3) + int(follower.piece), sq] += 1
    for player in (0, 1):
        for cell in _cells(s.family_cells[player]):
            sq = square(cell)
            if sq >= 0:
                planes[_PLANE["family"] + (0 if player == me else 1), sq] = 1
    if s.placements:
        sq = square(s.placements[-1][0])
        if sq >= 0:
            planes[_PLANE["last"], sq] = 1
    for q, node in enumerate(s.queue):
        for cell in _cells(s.cells[_root(s, node)]):
            sq = square(cell)
            if sq >= 0 and not planes[_PLANE["queue"], sq]:
                planes[_PLANE["queue"], sq] = q + 1

    v = out[CASTLE.plane_count * CASTLE_AREA:]
    for i, p in enumerate((me, them)):
        v[_VECTOR["score"] + i] = s.scores[p]
        v[_VECTOR["track"] + i] = s.scores[p] % _TRACK
        v[_VECTOR["supply"] + i] = s.supply[p]
        v[_VECTOR["princes"] + i] = s.princes[p]
        v[_VECTOR["falconers"] + i] = s.falconers[p]
        v[_VECTOR["on_gate"] + i] = int(s.on_gate[p])
        v[_VECTOR["family_size"] + i] = s.family_size[p]
        v[_VECTOR["nests"] + i] = s.nests[p]
        for token in s.tokens[p]:
            if 1 <= token.kind <= 9:
                v[_VECTOR["their_tokens" if i else "my_tokens"] + token.kind - 1] += 1
    my_turn = s.phase is not Phase.OVER and not s.is_chance() and s.current == me
    if my_turn:
        for kind in range(1, 10):
            v[_VECTOR["usable"] + kind - 1] = s.usable_tokens(TokenKind(kind))
    for t, holds in enumerate(s.tower_token[:16]):
        v[_VECTOR["towers"] + t] = int(holds)
    for kind in range(1, 10):
        v[_VECTOR["unrevealed"] + kind - 1] = s.token_pool[kind]
    if 0 <= int(s.phase) < 8:
        v[_VECTOR["phase"] + int(s.phase)] = 1
    v[_VECTOR["my_turn"]] = int(my_turn)
    v[_VECTOR["turn"]] = s.turn
    v[_VECTOR["tiles_left"]] = len(s.remaining)
    if s.drawn >= 0:
        v[_VECTOR["drawn"] + s.drawn] = 1
    for tile in s.remaining:
        v[_VECTOR["pile"] + tile] = 1
    if s.placements:
        cell, tile, rotation = s.placements[-1]
        v[_VECTOR["last_rotation"] + rotation] = 1
        v[_VECTOR["last_tile"] + tile] = 1
        for f in range(min(len(tiles[tile].features), 12)):
            d = _VECTOR["last_features"] + f * FEATURE_SIZE
            node = s.cell_node[cell] + f
            root = _root(s, node)
            v[d + int(s.kind[node])] = 1
            v[d + 5] = s.cells[root].bit_count()
            v[d + 6] = s.open[root]
            v[d + 7], v[d + 8] = (s.fol0[root], s.fol1[root]) if me == 0 else (s.fol1[root], s.fol0[root])
            v[d + 9] = int(s.open[root] == 0 and int(s.kind[root]) != _MEADOW)
