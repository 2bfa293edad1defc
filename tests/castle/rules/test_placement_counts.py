"""Placement counts ("perft" for Zamek): legal placements and follower options in fixed positions (Z7-Z10).

The expected numbers live in ``tests/fixtures/placement_counts.json``. They were computed by the
brute-force checker below, which knows nothing of the engine's need masks or union-find: for every
empty interior space and rotation it turns the tile itself and compares each side's segments with
the neighbour's turned tile or start space. The generator refuses to write numbers on which the
checker and the engine disagree. To regenerate (after a change to the tile data)::

    .venv/bin/python -m tests.castle.rules.test_placement_counts --regenerate

Positions are stored as explicit move lists, so they do not depend on the random players.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

import pytest

from tests.castle.rules.test_properties import recompute_regions
from tests.helpers import FIXTURES
from zamek.castle.data.loader import new_game
from zamek.castle.rules.actions import Place, parse_action
from zamek.castle.rules.geometry import FACING, SEGMENTS, SIDE_OFFSETS, side_segments
from zamek.castle.rules.setup import Phase
from zamek.castle.rules.state import GameState
from zamek.castle.rules.tiles import FeatureKind, TileDef
from zamek.castle.runner import play_game

FIXTURE = FIXTURES / "placement_counts.json"

# (name, seed, actions of that seed's random game to play first, phase to stop at, placement to
# examine the follower step after: None picks the one whose features join the most occupied regions)
POSITIONS: list[tuple[str, int | None, int, str, str | None]] = [
    ("empty castle, every tile", None, 0, "DRAW", None),
    ("first tile of seed 1", 1, 0, "PLACE", None),
    ("seed 2, early: a feature joins an occupied road", 2, 25, "PLACE", "e9/0"),
    ("seed 3, early middle game: a feature joins an occupied house", 3, 46, "PLACE", "h6/270"),
    ("seed 9, early: two parts of the tile join one region", 9, 22, "PLACE", "i3/0"),
    ("seed 4, middle game: no follower left", 4, 90, "PLACE", None),
    ("seed 5, late middle game", 5, 120, "PLACE", None),
    ("seed 1, late: a tile without placement is next", 1, 159, "DRAW", None),
    ("seed 7, near the end", 7, 165, "PLACE", None),
]


# ------------------------------------------------------------- brute force


def _turned_kinds(features: Any, rotation: int) -> list[FeatureKind | None]:
    kinds: list[FeatureKind | None] = [None] * SEGMENTS
    for feature in features:
        for s in feature.segments:
            kinds[(s + 3 * rotation) % SEGMENTS] = feature.kind
    return kinds


def brute_force_placements(state: GameState, tile: TileDef) -> list[tuple[int, int]]:
    """Return every legal (cell, rotation) for ``tile``, checking Z7 directly against the neighbours."""
    castle = state.castle
    board: dict[int, list[FeatureKind | None]] = {}
    for start in castle.starts:
        board[start.cell] = _turned_kinds(start.features, 0)
    for cell, tile_index, rotation in state.placements:
        board[cell] = _turned_kinds(state.tiles.tiles[tile_index].features, rotation)
    result = []
    for cell in castle.interior:
        if cell in board:
            continue
        x, y = castle.xy(cell)
        for rotation in range(4):
            mine = _turned_kinds(tile.features, rotation)
            touches = False
            fits = True
            for side, (dx, dy) in enumerate(SIDE_OFFSETS):
                theirs = board.get(castle.cell(x + dx, y + dy))
                if theirs is None:
                    continue  # an empty space or the wall: anything may face it (Z7c)
                for s in side_segments(side):
                    other = theirs[FACING[s]]
                    if other is None:
                        continue  # the wall part of a start space
                    touches = True
                    if (mine[s] is FeatureKind.ROAD) != (other is FeatureKind.ROAD):
                        fits = False
            if touches and fits:
                result.append((cell, rotation))
    return result


def brute_force_follower_options(state: GameState) -> list[int]:
    """Return the free features of the tile just placed (Z9, Z10), one per region, from scratch."""
    if state.supply[state.current] == 0:
        return []
    cell = state.placements[-1][0]
    options = []
    for region in recompute_regions(state):
        mine = [f for c, f in region.nodes if c == cell]
        if mine and not any(region.followers):
            options.append(min(mine))  # two parts of one region: the lower index stands for both
    return sorted(options)


# --------------------------------------------------------------- positions


def data_digest() -> str:
    """Return a fingerprint of the castle and tile data the numbers were computed on."""
    state = new_game()
    tiles = [
        (t.id, t.fountain, [(f.kind.key, f.segments, f.stocks, f.shrines) for f in t.features])
        for t in state.tiles.tiles
    ]
    starts = [(s.id, s.faces, s.side.name, [(f.kind.key, f.segments) for f in s.features]) for s in state.castle.starts]
    text = repr((tiles, starts, state.castle.interior))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _position(moves: list[str]) -> GameState:
    state = new_game()
    for move in moves:
        state.play(parse_action(move))
    return state


def _names(state: GameState, pairs: list[tuple[int, int]]) -> list[str]:
    return sorted(str(Place(*state.castle.xy(cell), rotation)) for cell, rotation in pairs)


def _counts(state: GameState) -> dict[str, int]:
    """Return the number of legal placements of every tile not yet placed or discarded."""
    tiles = state.tiles.tiles
    waiting = [*state.remaining, *([state.drawn] if state.drawn >= 0 else [])]
    return {tiles[t].id: len(state.placements_for(t)) for t in sorted(waiting)}


def _occupied_neighbours(state: GameState, place: Place) -> tuple[int, int]:
    """Rank a placement by how many of the new tile's features join occupied regions, then by contact."""
    probe = state.copy()
    probe.play(place)
    cell = probe.placements[-1][0]
    features = len(probe.tiles.tiles[probe.placements[-1][1]].features)
    occupied = sum(1 for i in range(features) if probe.feature_at(cell, i).occupied)
    touching, _ = state.space_needs(cell)
    return occupied, bin(touching).count("1")


def generate() -> dict[str, Any]:
    positions = []
    for name, seed, played, phase, chosen in POSITIONS:
        state = new_game()
        moves: list[str] = []
        if seed is not None:
            game = play_game(seed, first_player=0)
            actions = iter(game.actions)
            for action in actions:
                if len(moves) >= played and state.phase is Phase[phase]:
                    break
                state.play(action)
                moves.append(str(action))
        assert state.phase is Phase[phase], name
        entry: dict[str, Any] = {"name": name, "seed": seed, "moves": moves}
        for tile in state.tiles.tiles:
            if tile.index in state.remaining or tile.index == state.drawn:
                engine = sorted(state.placements_for(tile.index))
                brute = sorted(brute_force_placements(state, tile))
                assert engine == brute, f"{name}: {tile.id}: engine {engine} != brute force {brute}"
        entry["counts"] = _counts(state)
        if state.phase is Phase.PLACE:
            drawn = state.tiles.tiles[state.drawn]
            entry["drawn"] = drawn.id
            entry["placements"] = _names(state, brute_force_placements(state, drawn))
            legal = [a for a in state.legal_actions() if isinstance(a, Place)]
            place = max(sorted(legal, key=str), key=lambda a: _occupied_neighbours(state, a))
            if chosen is not None:
                place = next(a for a in legal if str(a) == chosen)
            after = state.copy()
            after.play(place)
            options = brute_force_follower_options(after)
            assert after.follower_options() == options, f"{name}: {after.follower_options()} != {options}"
            entry["follower"] = {
                "place": str(place),
                "options": options,
                "actions": [str(a) for a in after.legal_actions()],
            }
        positions.append(entry)
    return {
        "about": ("Legal placements and follower options in fixed positions; "
                  "see tests/castle/rules/test_placement_counts.py."),
        "data_digest": data_digest(),
        "positions": positions,
    }


# ------------------------------------------------------------------- tests


def _load() -> dict[str, Any]:
    if not FIXTURE.exists():  # only while regenerating; test_fixture_covers_the_positions fails then
        return {"positions": []}
    document: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return document


def _fixture() -> list[dict[str, Any]]:
    positions: list[dict[str, Any]] = _load()["positions"]
    return positions


ALL = _fixture()
AFTER_PLACEMENT = [p for p in ALL if "follower" in p]


def _name(entry: dict[str, Any]) -> str:
    return str(entry["name"])


def test_fixture_covers_the_positions() -> None:
    assert _load().get("data_digest") == data_digest(), (
        "the castle or tile data changed since the numbers were made; check the change, then run "
        "'.venv/bin/python -m tests.castle.rules.test_placement_counts --regenerate'"
    )
    positions = ALL
    assert [p["name"] for p in positions] == [name for name, *_ in POSITIONS]
    assert len(positions[0]["counts"]) == 60
    assert sum(1 for p in positions if "follower" in p) >= 5


@pytest.mark.parametrize("position", ALL, ids=_name)
def test_z7_placement_counts(position: dict[str, Any]) -> None:
    state = _position(position["moves"])
    assert _counts(state) == position["counts"]
    if "drawn" in position:
        assert state.phase is Phase.PLACE
        assert state.tiles.tiles[state.drawn].id == position["drawn"]
        assert sorted(str(a) for a in state.legal_actions()) == position["placements"]
        assert len(position["placements"]) == position["counts"][position["drawn"]]


@pytest.mark.parametrize("position", AFTER_PLACEMENT, ids=_name)
def test_z9_z10_follower_options(position: dict[str, Any]) -> None:
    state = _position(position["moves"])
    state.play(parse_action(position["follower"]["place"]))
    assert state.phase is Phase.FOLLOWER
    assert state.follower_options() == position["follower"]["options"]
    assert [str(a) for a in state.legal_actions()] == position["follower"]["actions"]


@pytest.mark.parametrize("position", ALL, ids=_name)
def test_brute_force_agrees_with_the_fixture(position: dict[str, Any]) -> None:
    """The independent checker still gives the stored numbers (it guards the fixture, not the engine)."""
    state = _position(position["moves"])
    for tile_id, count in position["counts"].items():
        assert len(brute_force_placements(state, state.tiles.by_id(tile_id))) == count, tile_id
    if "follower" in position:
        state.play(parse_action(position["follower"]["place"]))
        assert brute_force_follower_options(state) == position["follower"]["options"]


def test_z8_a_tile_without_placement_is_discarded() -> None:
    """A drawn tile with no legal placement is removed and the same player draws again (Z8)."""
    (position,) = [p for p in ALL if p["name"].startswith("seed 1, late")]
    stuck = sorted(tile_id for tile_id, count in position["counts"].items() if count == 0)
    assert stuck, "the position should hold a tile without placement"
    assert min(ALL[0]["counts"].values()) > 0  # none in the empty castle
    state = _position(position["moves"])
    player, turn = state.current, state.turn
    remaining = len(state.remaining)
    state.play(parse_action(f"draw:{stuck[0]}"))
    assert state.phase is Phase.DRAW
    assert state.current == player and state.turn == turn
    assert state.tiles.tiles[state.discarded[-1]].id == stuck[0]
    assert len(state.remaining) == remaining - 1


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit("usage: python -m tests.castle.rules.test_placement_counts --regenerate")
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps(generate(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE}")
