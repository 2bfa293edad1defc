"""Properties of random games: conservation laws, regions recomputed from scratch, copies, replays.

Each example is one whole random game (its seed is the strategy); the invariants are checked after
every single action, replayed with full checks.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import snapshot
from zamek.castle.data.loader import new_game
from zamek.castle.record import make_record, replay
from zamek.castle.rules.breakdown import totals
from zamek.castle.rules.geometry import FACING, SEGMENTS, SIDE_OFFSETS
from zamek.castle.rules.setup import FOLLOWERS_IN_SUPPLY, Phase
from zamek.castle.rules.state import GameState
from zamek.castle.rules.tiles import FeatureDef, FeatureKind
from zamek.castle.runner import play_game

TILES_IN_GAME = 60
EXAMPLES = 30
seeds = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ----------------------------------------------------- regions from scratch


@dataclass
class Region:
    kind: FeatureKind
    nodes: list[tuple[int, int]] = field(default_factory=list)
    cells: set[int] = field(default_factory=set)
    open: int = 0
    followers: list[int] = field(default_factory=lambda: [0, 0])
    stocks: int = 0
    shrines: int = 0


def _table(features: tuple[FeatureDef, ...], rotation: int) -> list[int | None]:
    """Return the feature at each board segment of features turned ``rotation`` quarter turns."""
    table: list[int | None] = [None] * SEGMENTS
    for index, feature in enumerate(features):
        for s in feature.segments:
            table[(s + 3 * rotation) % SEGMENTS] = index
    return table


def recompute_regions(state: GameState) -> list[Region]:
    """Build every region from the placements and start spaces alone, by flood fill.

    Independent of the engine's union-find: nodes are (cell, feature) pairs; two nodes join when a
    segment of one faces a segment of the other (geometry.FACING) and both features are of one kind;
    a segment facing an empty interior space is open; one facing the wall is closed.
    """
    castle = state.castle
    tiles = state.tiles.tiles
    occupied: dict[int, tuple[tuple[FeatureDef, ...], list[int | None]]] = {}
    for start in castle.starts:
        occupied[start.cell] = (start.features, _table(start.features, 0))
    for cell, tile_index, rotation in state.placements:
        tile = tiles[tile_index]
        table = _table(tile.features, rotation)
        assert tuple(table) == tile.orientations[rotation].segment_feature
        assert cell not in occupied, "two tiles on one space"
        occupied[cell] = (tile.features, table)
    interior = set(castle.interior)

    def neighbour(cell: int, side: int) -> int:
        x, y = castle.xy(cell)
        dx, dy = SIDE_OFFSETS[side]
        return castle.cell(x + dx, y + dy)

    edges: dict[tuple[int, int], list[tuple[int, int]]] = {}
    open_segments: Counter[tuple[int, int]] = Counter()
    for cell, (features, table) in occupied.items():
        for i in range(len(features)):
            edges.setdefault((cell, i), [])
        for s in range(SEGMENTS):
            mine = table[s]
            if mine is None:
                continue
            other = neighbour(cell, s // 3)
            if other in occupied:
                their_features, their_table = occupied[other]
                theirs = their_table[FACING[s]]
                if theirs is not None and their_features[theirs].kind == features[mine].kind:
                    edges[(cell, mine)].append((other, theirs))
            elif other in interior:
                open_segments[(cell, mine)] += 1

    follower_at = Counter((f.cell, f.feature, f.player) for f in state.followers)
    regions = []
    seen: set[tuple[int, int]] = set()
    for node in edges:
        if node in seen:
            continue
        region = Region(occupied[node[0]][0][node[1]].kind)
        stack = [node]
        seen.add(node)
        while stack:
            cell, index = stack.pop()
            feature = occupied[cell][0][index]
            assert feature.kind == region.kind
            region.nodes.append((cell, index))
            region.cells.add(cell)
            region.open += open_segments[(cell, index)]
            region.stocks += feature.stocks
            region.shrines += feature.shrines
            for player in (0, 1):
                region.followers[player] += follower_at[(cell, index, player)]
            for nxt in edges[(cell, index)]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        regions.append(region)
    return regions


def check_regions(state: GameState) -> list[Region]:
    """Compare every recomputed region with the engine's feature (its union-find root) for it."""
    regions = recompute_regions(state)
    roots_used: set[int] = set()
    for region in regions:
        views = {state.feature_at(cell, index) for cell, index in region.nodes}
        assert len(views) == 1, f"one region, several features: {sorted(v.id for v in views)}"
        (view,) = views
        assert view.id not in roots_used, "two regions share a root"
        roots_used.add(view.id)
        assert view.kind == region.kind
        assert view.cells == sum(1 << c for c in region.cells)
        assert view.tiles == len(region.cells)
        assert view.open_edges == region.open, f"{region.kind.key} at {sorted(region.cells)}"
        assert list(view.followers) == region.followers
        assert view.stocks == region.stocks
        assert view.shrines == region.shrines
    assert roots_used == {view.id for view in state.features()}
    for f in state.followers:
        assert f.node == engine_node(state, f.cell, f.feature)
    return regions


# White-box on purpose: a self-check of the core's union-find must read (and corrupt) the core's own arrays.


def engine_node(state: GameState, cell: int, feature: int) -> int:
    """The union-find node of part ``feature`` of the tile (or start space) on ``cell``."""
    return state.cell_node[cell] + feature


def corrupt_region(state: GameState, field_name: str, root: int) -> None:
    """Add one to a region's ``field_name`` (open, stocks, fol1, ...) in the core's arrays."""
    getattr(state, field_name)[root] += 1


# ---------------------------------------------------------------- invariants


def check_invariants(state: GameState, previous_scores: list[int]) -> None:
    placed = len(state.placements)
    drawn = 1 if state.drawn >= 0 else 0
    assert placed + len(state.discarded) + len(state.remaining) + drawn == TILES_IN_GAME
    assert len({*(t for _, t, _ in state.placements), *state.discarded, *state.remaining}) + drawn == TILES_IN_GAME
    on_board = Counter(f.player for f in state.followers)
    for player in (0, 1):
        assert state.supply[player] >= 0
        assert state.supply[player] + on_board[player] == FOLLOWERS_IN_SUPPLY
        assert state.scores[player] >= previous_scores[player]
    assert totals(state.log) == state.scores


def play_checked(seed: int) -> tuple[list[object], GameState]:
    """Replay a random game with full checks, checking every invariant after every action."""
    game = play_game(seed)
    state = new_game(game.setup)
    scores = list(state.scores)
    check_invariants(state, scores)
    for action in game.actions:
        assert not state.is_over()
        state.play(action)
        check_invariants(state, scores)
        scores = list(state.scores)
        if state.phase in (Phase.DRAW, Phase.FOLLOWER, Phase.OVER):
            regions = check_regions(state)
            if state.phase is not Phase.FOLLOWER:
                # Z17: once a turn is over, no follower stands on a complete road, house or pigsty.
                for region in regions:
                    if region.kind is not FeatureKind.MEADOW and any(region.followers):
                        assert region.open > 0
    assert state.is_over()
    return list(game.actions), state


@pytest.mark.heavy
@SETTINGS
@given(seeds)
def test_z3_z8_z17_invariants_hold_after_every_action(seed: int) -> None:
    """Tiles and followers are conserved, scores never fall, regions match a recomputation."""
    _, state = play_checked(seed)
    assert len(state.placements) + len(state.discarded) == TILES_IN_GAME
    assert not state.remaining and state.drawn == -1


@SETTINGS
@given(seeds)
def test_copy_is_independent(seed: int) -> None:
    game = play_game(seed)
    cut = seed % len(game.actions)
    state = new_game(game.setup)
    for action in game.actions[:cut]:
        state.apply(action)
    before = snapshot(state)
    copy = state.copy()
    assert snapshot(copy) == before
    for action in game.actions[cut:]:
        copy.apply(action)
    assert copy.is_over()
    assert snapshot(state) == before
    # And the other way round: the original moves on, the copy stays.
    frozen = state.copy()
    for action in game.actions[cut:]:
        state.apply(action)
    assert snapshot(frozen) == before
    assert snapshot(state) == snapshot(copy)


@SETTINGS
@given(seeds)
def test_z5_same_seed_same_game(seed: int) -> None:
    first = play_game(seed)
    second = play_game(seed)
    assert first.setup == second.setup
    assert first.actions == second.actions
    assert first.state.scores == second.state.scores
    assert snapshot(first.state) == snapshot(second.state)


@SETTINGS
@given(seeds)
def test_record_replay_equals_the_played_state(seed: int) -> None:
    game = play_game(seed)
    record = json.loads(json.dumps(make_record(game.setup, game.seed, game.actions, game.state)))
    replayed = replay(record)
    assert snapshot(replayed) == snapshot(game.state)
    assert replayed.log == game.state.log


def test_recomputation_sees_the_start_spaces() -> None:
    """The checker itself: in the empty castle, each start-space feature is its own region."""
    state = new_game()
    regions = check_regions(state)
    features = sum(len(s.features) for s in state.castle.starts)
    assert len(regions) == features
    assert sum(r.open for r in regions) == 3 * len(state.castle.starts)
    assert sum(r.shrines for r in regions) == sum(f.shrines for s in state.castle.starts for f in s.features)


def test_recomputation_catches_a_corrupted_region() -> None:
    """The checker fails when the engine's region data is wrong (so the property is not vacuous)."""
    _, state = play_checked(7)
    roads = [view.id for view in state.features() if view.kind is FeatureKind.ROAD]
    for field_name in ("open", "stocks", "fol1"):
        broken = state.copy()
        corrupt_region(broken, field_name, roads[0])
        try:
            check_regions(broken)
        except AssertionError:
            continue
        raise AssertionError(f"a corrupted {field_name} went unnoticed")
