"""The rules of Zamek, section Z of RULES.md, one rule id per test name.

Positions are built in the real castle with custom tiles (``tests.helpers``) and a fixed draw
order. Tiles are written in board orientation and mostly placed unturned ('/0'); every tile set
must hold tiles that differ also when turned, hence the odd shrine or house here and there. Where a
test needs the markers and towers as a player would set them up (Z16), the position is written in
the position notation instead (``tests.helpers.position``, docs/positions.md).
Player 0 is "White", player 1 "Black" in the rulebook's examples.

A game ends when its tile set is used up, so tests of mid-game positions add ``SPARE`` to the
tile set and the draw order (see ``mid_game``).
"""

from __future__ import annotations

import pytest

from tests.helpers import ALL, game, house, meadow, pigsty, play, position, road, rules_with, tile_toml, turn
from zamek.castle.data.loader import load_castle, load_tileset, new_game, parse_castle, parse_tileset
from zamek.castle.rules.actions import Draw, Follower, Pass, Place, Reveal, parse_action
from zamek.castle.rules.board import TRACK_LENGTH
from zamek.castle.rules.breakdown import ScoreItem
from zamek.castle.rules.errors import IllegalActionError, MalformedActionError
from zamek.castle.rules.features import FeatureView
from zamek.castle.rules.setup import (
    FOLLOWERS_IN_SUPPLY,
    ROLES,
    TOKEN_KINDS,
    TOKENS_PER_KIND,
    HeldToken,
    Phase,
    Rules,
    Setup,
    make_rules,
)
from zamek.castle.rules.state import GameState
from zamek.castle.rules.tiles import FeatureKind

# ---------------------------------------------------------------------------- building blocks



# The rulebook's first example: a road from the west side ends at a house.
T1 = tile_toml("T1", road(10), house(1, 2, 3, 4, 5, 6, 7, 8), meadow(9), meadow(11, 0))
# A straight west-east road between two meadows: 0 road, 1 north meadow, 2 south meadow.
STRAIGHT = tile_toml("STRAIGHT", road(4, 10), meadow(11, 0, 1, 2, 3), meadow(5, 6, 7, 8, 9))
MEADOW = tile_toml("MEADOW", meadow(*ALL))
# Never drawn in the tests that add it: it keeps the game from ending.
SPARE = tile_toml("SPARE", pigsty(0, 1, 2, 3, 4, 5), house(6, 7, 8, 9, 10, 11))


def mid_game(*tiles: str, order: list[str], first_player: int = 0) -> GameState:
    """Return a game over ``tiles`` drawn in ``order``, with a spare tile left so that it does not end."""
    return game(rules_with(*tiles, SPARE), [*order, "SPARE"], first_player)


def cell(g: GameState, name: str) -> int:
    return g.castle.cell_of(name)


def region(g: GameState, name: str, feature: int) -> FeatureView:
    """Return the feature (region) holding part ``feature`` of the tile on space ``name``, as it stands now."""
    return g.feature_at(name, feature)


def draw_next(g: GameState) -> None:
    """Draw the next tile of the fixed order."""
    ((outcome, _),) = g.chance_outcomes()
    g.play(outcome)


def draw_and_place(g: GameState, place: str) -> None:
    """Draw the next tile of the fixed order and place it; the follower step is left to the test."""
    draw_next(g)
    g.play(parse_action(place))


def start_cell(g: GameState, start_id: str) -> int:
    return next(s.cell for s in g.castle.starts if s.id == start_id)


def phase(g: GameState) -> Phase:
    """Return the phase (a call, so that mypy does not narrow ``g.phase`` across moves)."""
    return g.phase


def bits(*cells: int) -> int:
    return sum(1 << c for c in cells)


def item_tuple(item: ScoreItem) -> tuple[str, int | None, int, int, int]:
    return item.reason, item.player, item.count, item.rate, item.points


def final_scores(g: GameState) -> list[tuple[str, int | None, int, int, int]]:
    return sorted((item_tuple(i) for i in g.log if i.final), key=str)


# ---------------------------------------------------------------------------- Z1-Z5 setup


def test_z1_two_players_six_followers_in_supply_markers_at_zero() -> None:
    g = mid_game(T1, order=["T1"])
    assert FOLLOWERS_IN_SUPPLY == 6
    assert g.supply == [6, 6]
    assert g.scores == [0, 0]
    assert g.family_size == [0, 0] and g.family_cells == [0, 0]
    assert g.tokens == [[], []]
    assert g.followers == []
    # A follower put in the castle comes from the supply.
    turn(g, "a6/0", "follower:2")  # a monk, who stays
    assert g.supply == [5, 6]


def test_z2_castle_has_76_spaces_a_0_99_track_and_7_start_spaces() -> None:
    castle = load_castle("zamek")
    assert len(castle.interior) == 76
    assert TRACK_LENGTH == 100
    faces = {s.id: (castle.name_of(s.faces), s.side.name) for s in castle.starts}
    assert faces == {
        "S1": ("a6", "W"),
        "S2": ("b8", "N"),
        "S3": ("e10", "N"),
        "S4": ("i8", "N"),
        "S5": ("j4", "E"),
        "S6": ("f3", "S"),
        "S7": ("d3", "S"),
    }
    # At least one start space carries a shrine (S3).
    assert sum(f.shrines for s in castle.starts for f in s.features) == 1


def test_z2_start_space_counts_as_a_tile_for_size() -> None:
    b8 = tile_toml("B8", pigsty(0, 1, 2), meadow(3, 4, 5, 6, 7, 8, 9, 10, 11))
    g = mid_game(b8, order=["B8"])
    draw_and_place(g, "b8/0")
    pigsty_b8 = region(g, "b8", 0)
    assert pigsty_b8.tiles == 2
    assert pigsty_b8.cells == bits(cell(g, "b8"), start_cell(g, "S2"))


def test_z3_base_set_has_60_different_tiles_and_the_draw_is_uniform() -> None:
    tiles = load_tileset("zamek")  # the loader refuses tiles equal under rotation
    assert len(tiles) == 60
    assert len(set(tiles.ids())) == 60
    g = new_game()
    outcomes = g.chance_outcomes()
    assert len(outcomes) == 60
    assert all(p == pytest.approx(1 / 60) for _, p in outcomes)


def test_z3_draw_is_uniform_over_the_remaining_tiles() -> None:
    rules = rules_with(T1, STRAIGHT, MEADOW, SPARE)
    g = GameState.new(Setup(), rules)
    outcomes = g.chance_outcomes()
    assert sorted(str(o) for o, _ in outcomes) == ["draw:MEADOW", "draw:SPARE", "draw:STRAIGHT", "draw:T1"]
    assert all(p == pytest.approx(0.25) for _, p in outcomes)
    g.play(Draw("MEADOW"))
    g.play(parse_action("e10/0"))
    g.play(Pass())
    outcomes = g.chance_outcomes()
    assert sorted(str(o) for o, _ in outcomes) == ["draw:SPARE", "draw:STRAIGHT", "draw:T1"]
    assert all(p == pytest.approx(1 / 3) for _, p in outcomes)
    with pytest.raises(IllegalActionError, match="not a possible outcome"):
        g.play(Draw("MEADOW"))  # already drawn


def test_z4_thirteen_towers_hold_a_token_but_not_tower_0_1() -> None:
    g = mid_game(T1, order=["T1"])
    towers = g.castle.towers
    assert len(towers) == 14
    assert sum(g.tower_token) == 13
    (first,) = [t for t in towers if t.track == (0, 1)]
    assert not first.holds_token and not g.tower_token[first.index]
    assert all(g.tower_token[t.index] for t in towers if t is not first)
    # 18 tokens in 9 kinds, 2 of each; the kinds stay hidden until taken.
    assert TOKEN_KINDS == 9 and TOKENS_PER_KIND == 2
    assert g.token_pool == [0] + [2] * 9


# ---------------------------------------------------------------------------- Z6-Z8 placing a tile


def test_z6_tile_may_be_turned_four_ways() -> None:
    g = mid_game(T1, MEADOW, order=["T1", "MEADOW"])
    draw_next(g)
    legal = {str(a) for a in g.legal_actions()}
    # T1's road (west side unturned) turned towards each road start space; the three start spaces
    # without a road take every turn that keeps the road off them.
    assert legal == {
        "a6/0", "i8/90", "f3/270", "d3/270",
        "b8/0", "b8/180", "b8/270",
        "e10/0", "e10/180", "e10/270",
        "j4/0", "j4/90", "j4/270",
    }  # fmt: skip
    g.play(parse_action("b8/180"))
    g.play(Pass())
    draw_next(g)
    # Turned 180°, T1's road leaves b8 eastwards: a meadow tile fits next to b8 anywhere but c8,
    # in any of its four turns.
    meadow_spaces = {str(a).split("/")[0] for a in g.legal_actions()}
    assert "c8" not in meadow_spaces
    assert {"a8", "b7", "e10", "j4"} <= meadow_spaces
    assert all(
        {f"{space}/{r}" for r in (0, 90, 180, 270)} <= {str(a) for a in g.legal_actions()}
        for space in meadow_spaces
    )


def test_z7_first_tile_must_touch_a_start_space() -> None:
    g = mid_game(T1, order=["T1"])
    draw_next(g)
    with pytest.raises(IllegalActionError, match="must touch a placed tile or a start space"):
        g.play(parse_action("e5/0"))
    assert phase(g) is Phase.PLACE and g.placements == []


def test_z7_touching_only_the_wall_is_not_enough() -> None:
    g = mid_game(MEADOW, order=["MEADOW"])
    draw_next(g)
    for corner in ("a1", "a8", "i1", "j3", "g10"):
        with pytest.raises(IllegalActionError, match="must touch"):
            g.play(parse_action(f"{corner}/0"))


def test_z7_later_tiles_must_touch_a_placed_tile() -> None:
    g = mid_game(T1, MEADOW, order=["T1", "MEADOW"])
    turn(g, "a6/0")
    draw_next(g)
    with pytest.raises(IllegalActionError, match="must touch"):
        g.play(parse_action("c6/0"))
    g.play(parse_action("b6/0"))  # next to the tile on a6 (a house side meets a meadow side)
    assert phase(g) is Phase.FOLLOWER


def test_z7_road_must_meet_road() -> None:
    g = mid_game(T1, order=["T1"])
    draw_next(g)
    # Turned 90°, T1's road points north: its west side (a house) meets S1's road.
    with pytest.raises(IllegalActionError, match="W side has no road where its neighbour has a road"):
        g.play(parse_action("a6/90"))
    g.play(parse_action("a6/0"))


def test_z7_non_road_must_meet_non_road() -> None:
    g = mid_game(T1, order=["T1"])
    draw_next(g)
    # S3 (north of e10) shows a meadow; T1 turned 90° has its road on the north side.
    with pytest.raises(IllegalActionError, match="N side has a road where its neighbour has no road"):
        g.play(parse_action("e10/90"))
    # S5 (east of j4) shows a house; T1 turned 180° has its road on the east side.
    with pytest.raises(IllegalActionError, match="roads must meet roads"):
        g.play(parse_action("j4/180"))
    g.play(parse_action("e10/0"))  # a meadow and a house corner touch S3's meadow: fine


def test_z7_houses_pigsties_and_meadows_touch_in_any_combination() -> None:
    all_house = tile_toml("HOUSES", house(*ALL))
    all_pigsty = tile_toml("PIGSTIES", pigsty(*ALL))
    g = mid_game(MEADOW, all_house, all_pigsty, order=["HOUSES", "PIGSTIES", "MEADOW"])
    turn(g, "b8/0")  # houses against S2's pigsty
    turn(g, "j4/0")  # pigsties against S5's house
    turn(g, "j5/0")  # a meadow against a pigsty
    assert len(g.placements) == 3


def test_z7_any_edge_even_a_road_may_face_the_wall() -> None:
    a6 = tile_toml("A6", road(10, 1), meadow(11, 0), meadow(2, 3, 4, 5, 6, 7, 8, 9))
    # a7's road runs from its south side into the west wall.
    a7 = tile_toml("A7", road(7, 10), meadow(8, 9, shrines=1), meadow(11, 0, 1, 2, 3, 4, 5, 6))
    g = mid_game(a6, a7, order=["A6", "A7"])
    turn(g, "a6/0", "follower:0")
    draw_next(g)
    assert Place(0, 6, 0) in g.legal_actions()  # a7/0
    g.play(parse_action("a7/0"))
    # Z12: the road ends at the wall, so S1-a6-a7 is complete.
    g.play(Pass())
    assert item_tuple(g.log[-1]) == ("road", 0, 3, 1, 3)


def test_z7_occupied_space_is_refused() -> None:
    g = mid_game(T1, MEADOW, order=["MEADOW", "T1"])
    turn(g, "e10/0")
    draw_next(g)
    with pytest.raises(IllegalActionError, match="e10 already holds a tile"):
        g.play(parse_action("e10/0"))


def test_z7_space_outside_the_castle_is_refused() -> None:
    g = mid_game(MEADOW, order=["MEADOW"])
    draw_next(g)
    for outside in ("c1", "g2", "j1", "a9", "j10"):  # corners cut off, the gatehouse court
        with pytest.raises(IllegalActionError, match=f"{outside} is not a space inside the castle"):
            g.play(parse_action(f"{outside}/0"))
    with pytest.raises(IllegalActionError, match="not inside the castle"):
        g.play(parse_action("p4/0"))  # east of the castle's bounding box
    with pytest.raises(MalformedActionError):
        parse_action("z4/0")  # not a space of any castle
    legal = {str(a).split("/")[0] for a in g.legal_actions()}
    assert legal == {"b8", "e10", "j4"}  # the spaces of the start spaces without a road


TINY_CASTLE = """
name = "tiny"
spaces = 2
rows = [".."]
tower = [
  { track = [0, 1], corner = [0, 0], token = false },
  { track = [25, 26], corner = [0, 1] },
  { track = [50, 51], corner = [2, 1] },
  { track = [75, 76], corner = [2, 0] },
]
[[start]]
id = "S1"
faces = "a1"
side = "W"
features = [{ kind = "meadow", segments = [0] }, { kind = "road", segments = [1] }, { kind = "meadow", segments = [2] }]
"""


def tiny_rules(*tiles: str) -> Rules:
    """A castle of two spaces a1, b1 with one start space west of a1 showing a road."""
    return make_rules(parse_castle(TINY_CASTLE, "tiny"), parse_tileset("\n".join(tiles), "tiny"))


def test_z8_unplaceable_tile_is_discarded_and_the_same_player_draws_again() -> None:
    through = tile_toml("THROUGH", road(4, 10), meadow(11, 0, 1, 2, 3), meadow(5, 6, 7, 8, 9))
    end = tile_toml("END", road(10), house(11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9))
    rules = tiny_rules(MEADOW, through, end)
    g = GameState.new(Setup(draw_order=("MEADOW", "THROUGH", "END")), rules)
    g.play(Draw("MEADOW"))  # a1 needs a road on its west side: no place for a meadow tile
    assert g.discarded == [rules.tiles.by_id("MEADOW").index]
    assert phase(g) is Phase.DRAW and g.current == 0 and g.turn == 1
    assert g.placements == []
    g.play(Draw("THROUGH"))
    assert phase(g) is Phase.PLACE and g.current == 0
    g.play(parse_action("a1/0"))
    g.play(Pass())
    assert g.current == 1


def test_z8_game_ends_when_the_pile_runs_out_while_discarding() -> None:
    through = tile_toml("THROUGH", road(4, 10), meadow(11, 0, 1, 2, 3), meadow(5, 6, 7, 8, 9))
    rules = tiny_rules(through, MEADOW)
    g = GameState.new(Setup(draw_order=("THROUGH", "MEADOW")), rules)
    g.play(Draw("THROUGH"))
    g.play(parse_action("a1/0"))
    g.play(Pass())
    g.play(Draw("MEADOW"))  # b1 needs a road on its west side
    assert g.discarded == [rules.tiles.by_id("MEADOW").index]
    assert phase(g) is Phase.OVER
    assert g.result() is not None
    assert g.legal_actions() == [] and g.chance_outcomes() == []


# ---------------------------------------------------------------------------- Z9-Z11 followers


def test_z9_roles_follow_the_feature() -> None:
    assert ROLES[FeatureKind.HOUSE] == "squire"
    assert ROLES[FeatureKind.PIGSTY] == "farmer"
    assert ROLES[FeatureKind.ROAD] == "herald"
    assert ROLES[FeatureKind.MEADOW] == "monk"


def test_z9_follower_is_optional_one_per_tile_on_any_free_feature() -> None:
    g = mid_game(STRAIGHT, order=["STRAIGHT"])
    draw_and_place(g, "a6/0")
    assert g.follower_options() == [0, 1, 2]
    assert g.legal_actions() == [Follower(0), Follower(1), Follower(2), Pass()]
    g.play(Follower(0))
    assert phase(g) is Phase.DRAW  # one follower, and the turn goes on to scoring and ends
    assert g.supply == [5, 6]


def test_z9_two_unconnected_parts_of_one_kind_the_player_picks_one() -> None:
    g = mid_game(STRAIGHT, order=["STRAIGHT"])
    draw_and_place(g, "a6/0")
    assert region(g, "a6", 1).id != region(g, "a6", 2).id
    assert {1, 2} <= set(g.follower_options())
    g.play(Follower(2))
    assert region(g, "a6", 2).followers == (1, 0)  # the south meadow
    assert region(g, "a6", 1).followers == (0, 0)  # the north meadow
    assert [(f.cell, f.feature) for f in g.followers] == [(cell(g, "a6"), 2)]


def test_z9_no_follower_without_supply() -> None:
    g = mid_game(STRAIGHT, order=["STRAIGHT"])
    draw_and_place(g, "a6/0")
    g.supply[0] = 0  # kept as a write: a position's supply is 7 less the figures on the board, never emptied
    assert g.follower_options() == []
    assert g.legal_actions() == [Pass()]
    with pytest.raises(IllegalActionError, match="no follower left"):
        g.play(Follower(0))
    g.play(Pass())


# Three straight roads west-east along row 6 from S1: a6, b6, c6 (all different tiles).
B6_HOUSE_NORTH = tile_toml("B6", road(4, 10), house(0, 1, 2), meadow(3, 11), meadow(5, 6, 7, 8, 9))
C6_SHRINE_SOUTH = tile_toml("C6", road(4, 10), meadow(11, 0, 1, 2, 3), meadow(5, 6, 7, 8, 9, shrines=1))


def test_z10_rulebook_example_b_road_controlled_far_away() -> None:
    g = mid_game(STRAIGHT, B6_HOUSE_NORTH, C6_SHRINE_SOUTH, order=["STRAIGHT", "B6", "C6"])
    turn(g, "a6/0", "follower:0")  # White's herald on the road from S1
    draw_and_place(g, "b6/0")
    assert 0 not in g.follower_options()
    assert g.follower_options() == [1, 2, 3]
    g.play(Pass())
    draw_and_place(g, "c6/0")  # the herald is two tiles away
    assert g.follower_options() == [1, 2]
    with pytest.raises(IllegalActionError, match=r"road already holds a follower \(Z10\)"):
        g.play(Follower(0))
    g.play(Follower(1))


def test_z10_rulebook_examples_c_d_meadows_controlled_on_either_side_of_the_road() -> None:
    g = mid_game(STRAIGHT, B6_HOUSE_NORTH, C6_SHRINE_SOUTH, order=["STRAIGHT", "B6", "C6"])
    turn(g, "a6/0", "follower:2")  # White's monk on the south meadow of a6
    draw_and_place(g, "b6/0")
    assert g.follower_options() == [0, 1, 2]  # road, house, north meadow; not the south meadow
    with pytest.raises(IllegalActionError, match="meadow already holds a follower"):
        g.play(Follower(3))
    g.play(Follower(2))  # Black's monk on the north meadow (b6's strip beside the house joins a6's)
    draw_and_place(g, "c6/0")
    # Both of c6's meadows now join a meadow with a monk on it, one or two tiles away.
    assert g.follower_options() == [0]
    for meadow_feature in (1, 2):
        with pytest.raises(IllegalActionError, match=r"meadow already holds a follower \(Z10\)"):
            g.play(Follower(meadow_feature))
    g.play(Follower(0))


def test_z10_z11_rulebook_joining_controlled_areas() -> None:
    """A tile with a pigsty, a road and meadows joins White's and Black's roads and two of White's meadows."""
    tiles = [
        tile_toml("A6", road(10), house(3, 4, 5), meadow(11, 0, 1, 2), meadow(6, 7, 8, 9, shrines=1)),
        tile_toml("A7", house(3, 4, 5), meadow(6, 7, 8, 9, 10, 11, 0, 1, 2)),
        tile_toml("A8", house(9, 10, 11), meadow(0, 1, 2, 3), road(4), meadow(5, 6, 7, 8)),
        tile_toml("B6", meadow(*ALL)),
        tile_toml("B7", road(1, 4), meadow(2, 3), meadow(5, 6, 7, 8, 9, 10, 11, 0)),
        tile_toml("I8", road(1, 7), meadow(2, 3, 4, 5, 6), meadow(8, 9, 10, 11, 0)),
        tile_toml("J4", house(*ALL)),
        # The joining tile: 0 pigsty (north), 1 road west-south, 2 meadow inside the bend, 3 outside.
        tile_toml("B8", pigsty(0, 1, 2), road(10, 7), meadow(8, 9), meadow(11, 3, 4, 5, 6)),
    ]
    order = ["A6", "A7", "I8", "A8", "J4", "B6", "B7", "B8"]
    g = mid_game(*tiles, order=order, first_player=1)
    turn(g, "a6/0")  # Black
    turn(g, "a7/0", "follower:1")  # White's monk on a7's meadow (it reaches a8's south meadow later)
    turn(g, "i8/0")  # Black
    turn(g, "a8/0", "follower:2")  # White's herald on a8's road, open towards b8
    turn(g, "j4/0")  # Black
    turn(g, "b6/0", "follower:0")  # White's monk on b6, a meadow that reaches b7's outer meadow
    turn(g, "b7/0", "follower:0")  # Black's herald on b7's road, open towards b8
    white_meadows = {region(g, "a7", 1).id, region(g, "b6", 0).id}
    assert len(white_meadows) == 2
    draw_and_place(g, "b8/0")  # White joins them all
    joined_road, inner = region(g, "b8", 1), region(g, "b8", 2)
    assert joined_road.followers == (1, 1)  # White's and Black's heralds both stay (Z11)
    assert inner.followers == (2, 0)  # both of White's monks stay
    assert {region(g, "a7", 1).id, region(g, "b6", 0).id} == {inner.id}
    assert len(g.followers) == 4
    # No herald on the joined road, no monk on the joined meadow; the pigsty (with S2) and the
    # outer meadow are free.
    assert g.follower_options() == [0, 3]
    with pytest.raises(IllegalActionError, match=r"road already holds a follower \(Z10\)"):
        g.play(Follower(1))
    with pytest.raises(IllegalActionError, match=r"meadow already holds a follower \(Z10\)"):
        g.play(Follower(2))
    g.play(Follower(0))  # a farmer on the pigsty S2-b8, which this tile completes (Z11)
    assert item_tuple(g.log[-1]) == ("pigsty", 0, 2, 2, 4)
    assert len(g.followers) == 4 and g.supply == [3, 5]


def test_z11_follower_on_a_feature_the_tile_completes_scores_and_returns_same_turn() -> None:
    g = mid_game(T1, order=["T1"])
    draw_and_place(g, "a6/0")
    assert 0 in g.follower_options()  # the road S1-a6 is already complete
    g.play(Follower(0))
    assert g.scores == [2, 0]
    assert g.supply == [6, 6] and g.followers == []
    assert phase(g) is Phase.DRAW and g.current == 1


# ---------------------------------------------------------------------------- Z12-Z14 completion and points


def test_z12_road_ends_at_a_fountain() -> None:
    fountain = tile_toml(
        "FOUNTAIN", road(10), road(1), road(7), meadow(11, 0), meadow(2, 3, 4, 5, 6), meadow(8, 9), fountain=True
    )
    g = mid_game(fountain, order=["FOUNTAIN"])
    draw_and_place(g, "a6/0")
    assert len({region(g, "a6", part).id for part in (0, 1, 2)}) == 3  # the fountain splits the roads
    g.play(Follower(0))
    assert [item_tuple(i) for i in g.log] == [("road", 0, 2, 1, 2)]
    assert region(g, "a6", 1).open_edges == 1 and region(g, "a6", 2).open_edges == 1  # north and south stay open


def test_z12_road_ends_at_a_building_and_at_the_start_space_wall() -> None:
    g = mid_game(STRAIGHT, B6_HOUSE_NORTH, tile_toml("C6", road(10), house(*range(0, 10)), meadow(11)),
                 order=["STRAIGHT", "B6", "C6"])
    turn(g, "a6/0", "follower:0")
    turn(g, "b6/0")
    assert g.scores == [0, 0] and region(g, "a6", 0).open_edges == 1  # still open towards c6
    turn(g, "c6/0")
    assert item_tuple(g.log[-1]) == ("road", 0, 4, 1, 4)  # S1, a6, b6, c6


def test_z12_loop_road_is_complete() -> None:
    loops = [
        tile_toml("L1", road(1, 4), meadow(2, 3), meadow(5, 6, 7, 8, 9, 10, 11, 0)),
        tile_toml("L2", road(1, 4), meadow(2, 3), meadow(5, 9, 10, 11, 0), house(6, 7, 8)),
        tile_toml("L3", road(1, 4), meadow(2, 3), meadow(5, 6, 7, 8, 0), house(9, 10, 11)),
        tile_toml("L4", road(1, 4), meadow(2, 3, shrines=1), meadow(5, 6, 7, 8, 9, 10, 11, 0)),
    ]
    g = mid_game(T1, *loops, order=["T1", "L1", "L2", "L3", "L4"])
    turn(g, "a6/0")
    turn(g, "b6/0", "follower:0")  # Black's herald; the bend goes north and east
    turn(g, "c6/270")  # west-north
    turn(g, "c7/180")  # south-west
    assert g.scores == [0, 0]
    turn(g, "b7/90")  # east-south: the loop closes
    assert item_tuple(g.log[-1]) == ("road", 1, 4, 1, 4)
    assert g.scores == [0, 4] and g.supply == [6, 6]


def test_z12_house_facing_a_meadow_is_closed() -> None:
    i4 = tile_toml("I4", house(3, 4, 5), meadow(6, 7, 8), meadow(9, 10, 11, 0, 1, 2))
    g = mid_game(MEADOW, i4, order=["MEADOW", "I4"])
    turn(g, "j4/0")  # meadow against S5's house
    draw_and_place(g, "i4/0")  # the house on i4's east side faces j4's meadow
    assert region(g, "i4", 0).complete
    g.play(Follower(0))
    assert item_tuple(g.log[-1]) == ("house", 1, 1, 1, 1)
    assert g.scores == [0, 1] and g.supply == [6, 6]


def test_z12_open_feature_is_not_scored_and_keeps_its_follower() -> None:
    g = mid_game(STRAIGHT, order=["STRAIGHT"])
    turn(g, "a6/0", "follower:0")
    assert region(g, "a6", 0).open_edges == 1
    assert g.log == [] and g.scores == [0, 0]
    assert g.supply == [5, 6] and len(g.followers) == 1


def test_z12_meadows_are_never_scored_at_completion() -> None:
    g = mid_game(T1, order=["T1"])
    draw_and_place(g, "a6/0")
    south = region(g, "a6", 2)  # T1's meadow on segment 9, joined to S1's south meadow
    assert south.open_edges == 0 and south.tiles == 2
    g.play(Follower(2))
    assert g.log == [] and g.scores == [0, 0]
    assert g.supply == [5, 6]  # the monk stays
    assert [(f.cell, f.feature) for f in g.followers] == [(cell(g, "a6"), 2)]


def five_point_house() -> GameState:
    """Play the rulebook's house example up to White's last tile, drawn and placed but not yet followed.

    White's j5 completes the house S5-j4-i5-j6-j5 with two White squires and one Black.
    """
    tiles = [
        tile_toml("J4", house(0, 1, 2, 3, 4, 5), meadow(6, 7, 8, 9, 10, 11)),
        MEADOW,
        tile_toml("I5", house(3, 4, 5), meadow(6, 7, 8, 9, 10, 11, 0, 1, 2)),
        tile_toml("I6", meadow(0, 1, 2, 3, 4, 5), meadow(6, 7, 8, 9, 10, 11)),
        STRAIGHT,
        tile_toml("J6", house(6, 7, 8), meadow(9, 10, 11, 0, 1, 2), meadow(3, 4, 5)),
        tile_toml("J5", house(*ALL)),
    ]
    g = mid_game(*tiles, order=["J4", "MEADOW", "I5", "I6", "STRAIGHT", "J6", "J5"])
    turn(g, "j4/0", "follower:0")  # White's squire on S5-j4
    turn(g, "i4/0")
    turn(g, "i5/0", "follower:0")  # White's second squire, on i5's house
    turn(g, "i6/0")
    turn(g, "a6/0")
    turn(g, "j6/0", "follower:0")  # Black's squire on j6's house
    assert len({region(g, "j4", 0).id, region(g, "i5", 0).id, region(g, "j6", 0).id}) == 3
    draw_and_place(g, "j5/0")  # White joins the three
    return g


def test_z13_majority_scores_for_the_player_with_more_followers() -> None:
    g = five_point_house()
    house_j5 = region(g, "j5", 0)
    assert house_j5.complete
    assert house_j5.followers == (2, 1)
    g.play(Pass())  # who placed the tile does not matter, only who has more squires
    assert g.log[-1].player == 0
    assert g.scores == [5, 0]


def test_z13_tie_scores_nothing_and_followers_return() -> None:
    tiles = [
        STRAIGHT,
        tile_toml("A7", road(4), house(9, 10, 11), meadow(0, 1, 2, 3), meadow(5, 6, 7, 8)),
        tile_toml("B7", road(10, 7), meadow(8, 9), meadow(11, 0, 1, 2, 3, 4, 5, 6)),
        tile_toml("B6", road(10, 1), meadow(11, 0, shrines=1), meadow(2, 3, 4, 5, 6, 7, 8, 9)),
    ]
    g = mid_game(*tiles, order=["STRAIGHT", "A7", "B7", "B6"])
    turn(g, "a6/0", "follower:0")  # White's herald on S1-a6
    turn(g, "a7/0", "follower:0")  # Black's herald on a7's road, from a house to the east
    turn(g, "b7/0")
    turn(g, "b6/0")  # joins both: S1-a6-b6-b7-a7, complete
    assert item_tuple(g.log[-1]) == ("road", None, 5, 1, 0)
    assert g.scores == [0, 0]
    assert g.supply == [6, 6] and g.followers == []  # Z17: they return even unscored


def test_z13_complete_feature_without_followers_scores_nothing() -> None:
    g = mid_game(T1, order=["T1"])
    turn(g, "a6/0")
    assert region(g, "a6", 0).complete
    assert g.scores == [0, 0]
    assert all(i.points == 0 for i in g.log)


def test_z14_rulebook_two_point_road_from_a_start_space() -> None:
    g = mid_game(T1, order=["T1"])
    turn(g, "a6/0", "follower:0")
    assert g.scores == [2, 0]
    assert [item_tuple(i) for i in g.log] == [("road", 0, 2, 1, 2)]
    assert g.supply == [6, 6]


def test_z14_rulebook_ten_point_road_with_stocks_and_a_fountain() -> None:
    """White's road S1-a6-b6-c6-d6 with stocks on a6 ends at the fountain on d6: 5 tiles x 2."""
    tiles = [
        tile_toml("A6", road(4, 10, stocks=1), meadow(11, 0, 1, 2, 3), meadow(5, 6, 7, 8, 9)),
        STRAIGHT,
        tile_toml("C6", road(4, 10), house(0, 1, 2), meadow(3, 11), meadow(5, 6, 7, 8, 9)),
        tile_toml("C7", road(1, 4), meadow(2, 3), meadow(5, 6, 7, 8, 9, 10, 11, 0)),
        tile_toml("D7", road(10, 7), meadow(8, 9, shrines=1), meadow(11, 0, 1, 2, 3, 4, 5, 6)),
        tile_toml("I8", road(1), house(5, 6, 7, 8), meadow(2, 3, 4), meadow(9, 10, 11, 0)),
        # Fountain: arms west (0), north (1), south (2); meadows 3 north-west, 4 east, 5 south-west.
        tile_toml("D6", road(10), road(1), road(7), meadow(11, 0), meadow(2, 3, 4, 5, 6), meadow(8, 9),
                  fountain=True),
    ]
    g = mid_game(*tiles, order=["A6", "STRAIGHT", "C6", "C7", "D7", "I8", "D6"])
    turn(g, "a6/0", "follower:0")  # White's herald
    turn(g, "b6/0")
    turn(g, "c6/0")
    turn(g, "c7/0", "follower:0")  # Black's herald on a road from c8 (open) to d7
    turn(g, "d7/0")
    turn(g, "i8/0")
    turn(g, "d6/0", "follower:4")  # White places the fountain and a monk
    assert g.scores == [10, 0]
    (road_item,) = [i for i in g.log if i.player is not None]
    assert item_tuple(road_item) == ("road", 0, 5, 2, 10)
    assert "stocks" in road_item.details
    assert road_item.cells == bits(start_cell(g, "S1"), *(cell(g, n) for n in ("a6", "b6", "c6", "d6")))
    # Black's herald stands on the other side of the fountain: another, unfinished road.
    black_road = region(g, "d6", 1)
    assert black_road.id != region(g, "d6", 0).id and black_road.open_edges > 0
    assert black_road.followers == (0, 1)
    assert g.supply == [5, 5]  # White's herald is back; White's monk and Black's herald stay


def test_z14_two_stocks_still_score_two_per_tile() -> None:
    a6 = tile_toml("A6", road(4, 10, stocks=1), meadow(11, 0, 1, 2, 3), meadow(5, 6, 7, 8, 9))
    b6 = tile_toml("B6", road(10, stocks=1), house(0, 1, 2, 3, 4, 5, 6, 7, 8), meadow(9), meadow(11))
    g = mid_game(a6, b6, order=["A6", "B6"])
    turn(g, "a6/0", "follower:0")
    turn(g, "b6/0")
    assert region(g, "a6", 0).stocks == 2
    assert item_tuple(g.log[-1]) == ("road", 0, 3, 2, 6)
    assert g.scores == [6, 0]


def test_z14_pigsty_scores_two_per_tile() -> None:
    b8 = tile_toml("B8", pigsty(0, 1, 2), meadow(3, 4, 5, 6, 7, 8, 9, 10, 11))
    g = mid_game(b8, order=["B8"])
    turn(g, "b8/0", "follower:0")
    assert item_tuple(g.log[-1]) == ("pigsty", 0, 2, 2, 4)  # S2 and b8
    assert g.scores == [4, 0]


def test_z14_house_scores_one_per_tile() -> None:
    j4 = tile_toml("J4", house(3, 4, 5), meadow(6, 7, 8, 9, 10, 11, 0, 1, 2))
    g = mid_game(j4, order=["J4"])
    turn(g, "j4/0", "follower:0")
    assert item_tuple(g.log[-1]) == ("house", 0, 2, 1, 2)  # S5 and j4


def test_z14_rulebook_twelve_point_pigsty_joining_three_pigsties() -> None:
    """White's tile on b7 joins Black's pigsty S2-b8 with White's a8-a7 and c7: 6 tiles x 2."""
    tiles = [
        tile_toml("B8", pigsty(0, 1, 2, 6, 7, 8), meadow(3, 4, 5), meadow(9, 10, 11)),
        tile_toml("A8", pigsty(6, 7, 8), meadow(9, 10, 11, 0, 1, 2, 3, 4, 5)),
        MEADOW,
        tile_toml("C7", pigsty(9, 10, 11), meadow(0, 1, 2, 3, 4, 5), meadow(6, 7, 8)),
        tile_toml("A7", pigsty(0, 1, 2, 3, 4, 5), meadow(6, 7, 8, 9, 10, 11)),
        tile_toml("B7", pigsty(0, 1, 2, 3, 4, 5, 9, 10, 11), meadow(6, 7, 8)),
    ]
    g = mid_game(*tiles, order=["B8", "A8", "MEADOW", "C7", "A7", "B7"], first_player=1)
    turn(g, "b8/0", "follower:0")  # Black's farmer on S2-b8
    turn(g, "a8/0", "follower:0")  # White's farmer
    turn(g, "c8/0")
    turn(g, "c7/0", "follower:0")  # White's second farmer, on another pigsty
    turn(g, "a7/0")  # Black extends White's a8 pigsty
    assert len({region(g, "b8", 0).id, region(g, "a8", 0).id, region(g, "c7", 0).id}) == 3
    turn(g, "b7/0")  # White joins the three
    pig = next(i for i in g.log if i.reason == "pigsty")
    assert item_tuple(pig) == ("pigsty", 0, 6, 2, 12)
    assert pig.cells == bits(start_cell(g, "S2"), *(cell(g, n) for n in ("b8", "a8", "a7", "c7", "b7")))
    assert g.scores == [12, 0]
    assert g.supply == [6, 6] and g.followers == []  # all farmers go home


def test_z14_rulebook_five_point_house_won_two_to_one() -> None:
    g = five_point_house()
    g.play(Pass())
    assert item_tuple(g.log[-1]) == ("house", 0, 5, 1, 5)
    assert g.log[-1].cells == bits(start_cell(g, "S5"), *(cell(g, n) for n in ("j4", "i5", "j6", "j5")))
    assert g.scores == [5, 0]
    assert g.supply == [6, 6] and g.followers == []
    assert g.family_size == [5, 0]  # Z18: White's first scored house


def test_z14_tile_counted_once_when_a_feature_passes_it_twice() -> None:
    """A ring of houses around the corner a6-a7-b7-b6 enters a6 twice (two house parts): 4 tiles."""
    tiles = [
        tile_toml("A6", road(10), house(0, 1, 2), house(3, 4, 5), meadow(6, 7, 8, 9), meadow(11)),
        tile_toml("A7", house(3, 4, 5, 6, 7, 8), meadow(9, 10, 11), meadow(0, 1, 2)),
        tile_toml("B7", house(6, 7, 8, 9, 10, 11), meadow(0, 1, 2, 3, 4, 5, shrines=1)),
        tile_toml("B6", house(9, 10, 11, 0, 1, 2), meadow(3, 4, 5, 6, 7, 8)),
    ]
    g = mid_game(*tiles, order=["A6", "A7", "B7", "B6"])
    turn(g, "a6/0", "follower:1")  # White's squire on a6's northern house part
    turn(g, "a7/0")
    turn(g, "b7/0")
    assert region(g, "a6", 1).id != region(g, "a6", 2).id
    turn(g, "b6/0")
    assert region(g, "a6", 1).id == region(g, "a6", 2).id
    assert item_tuple(g.log[-1]) == ("house", 0, 4, 1, 4)
    assert g.scores == [4, 0] and g.family_size == [4, 0]


# ---------------------------------------------------------------------------- Z15-Z18 after scoring


def test_z15_current_players_features_score_first() -> None:
    tiles = [
        STRAIGHT,
        MEADOW,
        tile_toml("E10", meadow(*ALL, shrines=1)),
        tile_toml("B7", house(6, 7, 8), meadow(9, 10, 11, 0, 1, 2, 3, 4, 5)),
        tile_toml("E9", meadow(0, 1, 2, 3, 4, 5), meadow(6, 7, 8, 9, 10, 11)),
        # The road comes first in the tile's data, so it is the first feature the tile completes.
        tile_toml("B6", road(10), house(0, 1, 2), meadow(3, 4, 5, 6, 7, 8, 9), meadow(11)),
    ]
    g = mid_game(*tiles, order=["STRAIGHT", "MEADOW", "E10", "B7", "E9", "B6"])
    turn(g, "a6/0", "follower:0")  # White's herald
    turn(g, "a7/0")
    turn(g, "e10/0")
    turn(g, "b7/0", "follower:0")  # Black's squire
    turn(g, "e9/0")
    turn(g, "b6/0")  # Black completes Black's house and White's road
    assert [item_tuple(i) for i in g.log] == [("house", 1, 2, 1, 2), ("road", 0, 3, 1, 3)]
    assert g.scores == [3, 2]


# The Z16 positions are written in the position notation, with the shipped tiles (docs/positions.md,
# "Positions as text"): the towers named in ``towers=`` still hold their tokens, 12/13 being the first after the start.
TOWERS = "12,19,23,32,36,43,56,59,65,71,76,88,94"


def white_road_worth(points: int, score: int, edition: str = "zamek") -> tuple[GameState, list[str]]:
    """Return a position with White's marker on ``score`` and the moves that then score White's road for ``points``.

    2: Z24, just placed on a6, ends S1's road at its pigsty, and White puts a herald on it (Z11).
    3: the Zamek rulebook's example (RULES Z16): White's herald on the road S1-a6 (Z02), White to place Z24,
       which ends it on b6 (S1, a6, b6).
    4: Z18, just placed on a6, ends S1's road at its house, with stocks beside it: 2 a tile (Z14).
    """
    if points == 3:
        return position(
            f"{edition} board=2 tiles=Z02@a6/90,Z45@e10/0 figures=0f:a6.0 score={score}/17 supply=5f/6f tokens=-/-"
            f" towers={TOWERS} pool=222222222 family=-/- nests=0/0"
            " left=Z01,Z03-Z23,Z25-Z44,Z46-Z60 out=- turn=3 player=0 phase=place:Z24"
        ), ["b6/90", "pass"]
    tile, left = {2: ("Z24", "Z01-Z23,Z25-Z60"), 4: ("Z18", "Z01-Z17,Z19-Z60")}[points]
    return position(
        f"{edition} board=2 tiles={tile}@a6/90 figures=- score={score}/0 supply=6f/6f tokens=-/-"
        f" towers={TOWERS} pool=222222222 family=-/- nests=0/0"
        f" left={left} out=- turn=1 player=0 phase=follower:a6"
    ), ["follower:0"]


def test_z16_landing_exactly_on_a_tower_takes_its_token_and_a_reveal_follows() -> None:
    g, moves = white_road_worth(2, score=10)
    play(g, *moves)  # 2 points: 10 -> 12, tower 12/13
    assert g.scores == [12, 0]
    tower = g.rules.tower_at[12]
    assert g.castle.towers[tower].track == (12, 13)
    assert not g.tower_token[tower]
    assert phase(g) is Phase.REVEAL and g.pending_reveals == [0]
    outcomes = g.chance_outcomes()
    assert sorted(o.kind for o, _ in outcomes if isinstance(o, Reveal)) == list(range(1, 10))
    assert all(p == pytest.approx(2 / 18) for _, p in outcomes)
    g.play(Reveal(6))
    assert g.tokens[0] == [HeldToken(6, 1)]
    assert g.token_pool[6] == 1
    assert phase(g) is Phase.DRAW and g.current == 1


@pytest.mark.parametrize(("start", "points", "takes"), [(53, 3, True), (53, 4, True), (53, 2, False), (54, 4, False)])
def test_z16_a_tower_covers_56_and_57(start: int, points: int, takes: bool) -> None:
    # The Zamek rulebook: a marker on 53 must score 3 or 4 points to stop on 56 or 57 and take the
    # token of the tower there.
    g, moves = white_road_worth(points, score=start)
    play(g, *moves)
    assert g.scores[0] == start + points
    tower = g.rules.tower_at[56]
    assert tower >= 0 and g.castle.towers[tower].track == (56, 57)
    assert (phase(g) is Phase.REVEAL) is takes
    assert g.tower_token[tower] is not takes


def test_z16_c2_a_marker_moved_2_spaces_onto_33_takes_the_wall_tile_there() -> None:
    # The 2003 rulebook's example: 33 lies on a tower.
    g, moves = white_road_worth(2, score=31, edition="castle2003")
    play(g, *moves)
    assert g.scores[0] == 33 and phase(g) is Phase.REVEAL
    assert g.castle.towers[g.rules.tower_at[33]].track == (32, 33)


def test_z16_passing_over_a_tower_takes_nothing() -> None:
    g, moves = white_road_worth(4, score=11)
    play(g, *moves)  # 4 points: 11 -> 15, over 12 and 13
    assert g.scores == [15, 0]
    assert all(g.tower_token[t.index] for t in g.castle.towers if t.holds_token)
    assert phase(g) is Phase.DRAW and g.pending_reveals == [] and g.tokens == [[], []]


def test_z16_track_wraps_past_99_and_towers_count_again_on_the_next_lap() -> None:
    g, moves = white_road_worth(2, score=98)
    play(g, *moves)  # 98 -> 100, track space 0: the tower 0/1 has no token
    assert g.scores == [100, 0]
    assert phase(g) is Phase.DRAW and g.tokens == [[], []]

    g, moves = white_road_worth(2, score=110)
    play(g, *moves)  # 110 -> 112, track space 12 on the second lap
    assert g.scores == [112, 0]
    assert phase(g) is Phase.REVEAL and not g.tower_token[g.rules.tower_at[12]]


def test_z16_a_tower_gives_its_token_only_once() -> None:
    # Turn 3: Black's marker took the token of the tower 12/13 in turn 2 (a 5-point token, 6); White's marker
    # is on 10, and White's herald goes on the road S1-a6 that Z24 has just ended: 2 points, 10 -> 12.
    g = position(
        "zamek board=2 tiles=Z24@a6/90,Z48@b8/0,Z45@e10/0 figures=- score=10/13 supply=6f/6f tokens=-/6@2"
        " towers=19,23,32,36,43,56,59,65,71,76,88,94 pool=222221222 family=-/- nests=0/0"
        " left=Z01-Z23,Z25-Z44,Z46,Z47,Z49-Z60 out=- turn=3 player=0 phase=follower:a6"
    )
    play(g, "follower:0")
    assert g.scores == [12, 13]
    assert phase(g) is Phase.DRAW and g.tokens == [[], [HeldToken(6, 2)]]


def test_z17_scored_followers_return_and_monks_stay() -> None:
    b6 = tile_toml("B6", road(10), house(0, 1, 2, 3, 4, 5, 6, 7, 8), meadow(9), meadow(11))
    g = mid_game(STRAIGHT, b6, order=["STRAIGHT", "B6"])
    turn(g, "a6/0", "follower:1")  # White's monk on the north meadow
    turn(g, "b6/0", "follower:0")  # Black's herald completes S1-a6-b6 and goes home
    assert item_tuple(g.log[-1]) == ("road", 1, 3, 1, 3)
    assert g.supply == [5, 6]
    assert [(f.player, f.cell, f.feature) for f in g.followers] == [(0, cell(g, "a6"), 1)]


def test_z18_family_house_is_the_first_scored_house_and_moves_only_to_a_larger_one() -> None:
    tiles = [
        tile_toml("J4", house(3, 4, 5), meadow(6, 7, 8, 9, 10, 11, 0, 1, 2)),
        STRAIGHT,
        tile_toml("I4", house(3, 4, 5), meadow(6, 7, 8), meadow(9, 10, 11, 0, 1, 2)),
        B6_HOUSE_NORTH,
        tile_toml("B7", house(6, 7, 8), meadow(9, 10, 11, 0, 1, 2, 3, 4, 5, shrines=1)),
        tile_toml("C6", road(4, 10), house(0, 1, 2), meadow(3, 11), meadow(5, 6, 7, 8, 9, shrines=1)),
        tile_toml("C7", house(3, 4, 5, 6, 7, 8), meadow(9, 10, 11, 0, 1, 2)),
        MEADOW,
        tile_toml("D7", house(9, 10, 11), meadow(0, 1, 2, 3, 4, 5, 6, 7, 8, shrines=2)),
    ]
    g = mid_game(*tiles, order=["J4", "STRAIGHT", "I4", "B6", "B7", "C6", "C7", "MEADOW", "D7"])
    turn(g, "j4/0", "follower:0")  # S5-j4: 2 tiles, White's first house
    first = bits(start_cell(g, "S5"), cell(g, "j4"))
    assert g.family_size == [2, 0] and g.family_cells[0] == first
    turn(g, "a6/0")
    turn(g, "i4/0", "follower:0")  # a 1-tile house (it faces j4's meadow): smaller, no move
    assert g.scores == [3, 0]
    assert g.family_size == [2, 0] and g.family_cells[0] == first
    turn(g, "b6/0")
    turn(g, "b7/0", "follower:0")  # b6-b7: 2 tiles, as big: no move
    assert g.scores == [5, 0]
    assert g.family_size == [2, 0] and g.family_cells[0] == first
    turn(g, "c6/0")
    turn(g, "c7/0", "follower:0")
    turn(g, "e10/0")
    turn(g, "d7/0")  # c6-c7-d7: 3 tiles, larger: the family house moves
    assert g.scores == [8, 0]
    assert g.family_size == [3, 0]
    assert g.family_cells[0] == bits(*(cell(g, n) for n in ("c6", "c7", "d7")))


def test_z18_tie_on_a_house_gives_no_family_house() -> None:
    tiles = [
        tile_toml("J4", house(0, 1, 2, 3, 4, 5), meadow(6, 7, 8, 9, 10, 11)),
        tile_toml("I4", house(0, 1, 2), meadow(3, 4, 5, 6, 7, 8, 9, 10, 11)),
        tile_toml("I5", house(3, 4, 5, 6, 7, 8), meadow(9, 10, 11, 0, 1, 2, shrines=1)),
        tile_toml("J5", house(6, 7, 8, 9, 10, 11), meadow(0, 1, 2, 3, 4, 5, shrines=2)),
    ]
    g = mid_game(*tiles, order=["J4", "I4", "I5", "J5"])
    turn(g, "j4/0", "follower:0")  # White's squire on S5-j4
    turn(g, "i4/0", "follower:0")  # Black's squire on i4
    turn(g, "i5/0")
    turn(g, "j5/0")  # joins both: S5, j4, i4, i5, j5
    assert item_tuple(g.log[-1]) == ("house", None, 5, 1, 0)
    assert g.family_size == [0, 0] and g.family_cells == [0, 0]
    assert g.supply == [6, 6]


# ---------------------------------------------------------------------------- Z20-Z22 end of the game


def test_z20_rulebook_meadows_a_b_c() -> None:
    """A: 1 White monk against 2 Black, 5 shrines (one on S3): Black 15. B: White 3. C: no shrine."""
    tiles = [
        tile_toml("E10", meadow(*ALL, shrines=1)),
        tile_toml("D10", house(3, 4, 5), meadow(6, 7, 8, 9, 10, 11, shrines=1), meadow(0, 1, 2)),
        tile_toml("A6", road(4, 10), meadow(11, 0, 1, 2, 3, shrines=1), meadow(5, 6, 7, 8, 9)),
        tile_toml("F10", house(9, 10, 11), meadow(0, 1, 2, 3, 4, 5, 6, 7, 8, shrines=1)),
        tile_toml("D9", meadow(*ALL)),
        tile_toml("F9", meadow(9, 10, 11, 0, 1, 2, shrines=1), meadow(3, 4, 5, 6, 7, 8)),
        tile_toml("E9", meadow(0, 1, 2, 3, 4, 5, 9, 10, 11), house(6, 7, 8)),
        tile_toml("I8", road(1, 7), meadow(2, 3, 4, 5, 6), meadow(8, 9, 10, 11, 0)),
    ]
    g = game(rules_with(*tiles), ["E10", "D10", "A6", "F10", "D9", "F9", "E9", "I8"])
    turn(g, "e10/0", "follower:0")  # White's monk on S3-e10
    turn(g, "d10/0", "follower:1")  # Black's monk on d10, cut off from e10 by a house
    turn(g, "a6/0", "follower:1")  # White's monk on S1's and a6's north meadow (B)
    turn(g, "f10/0", "follower:1")  # Black's monk on f10, cut off from e10 by a house
    turn(g, "d9/0")
    turn(g, "f9/0")
    turn(g, "e9/0")  # joins e10, d9 and f9 into meadow A
    turn(g, "i8/0", "follower:1")  # Black's monk on S4's and i8's west meadow (C)
    assert phase(g) is Phase.OVER
    meadows = sorted(item_tuple(i) for i in g.log if i.reason == "meadow")
    assert meadows == sorted([
        ("meadow", 1, 5, 3, 15),  # A
        ("meadow", 0, 1, 3, 3),  # B
        ("meadow", 1, 0, 3, 0),  # C
    ])
    a = region(g, "e10", 0)
    assert a.shrines == 5 and a.followers == (1, 2)
    assert a.cells >> start_cell(g, "S3") & 1
    assert g.scores == [3, 15]


def test_z20_meadow_tie_scores_nothing() -> None:
    tiles = [
        tile_toml("E10", meadow(*ALL, shrines=1)),
        tile_toml("F10", house(9, 10, 11), meadow(0, 1, 2, 3, 4, 5, 6, 7, 8, shrines=1)),
        MEADOW,
        tile_toml("F9", meadow(9, 10, 11, 0, 1, 2), meadow(3, 4, 5, 6, 7, 8)),
    ]
    g = game(rules_with(*tiles), ["E10", "F10", "MEADOW", "F9"])
    turn(g, "e10/0", "follower:0")
    turn(g, "f10/0", "follower:1")
    turn(g, "e9/0")
    turn(g, "f9/0")  # joins White's and Black's meadows
    assert phase(g) is Phase.OVER
    (item,) = [i for i in g.log if i.reason == "meadow"]
    assert item_tuple(item) == ("meadow", None, 3, 3, 0)  # S3, e10, f10
    assert g.scores == [0, 0]


def test_z20_family_house_scores_the_largest_empty_area() -> None:
    j4 = tile_toml("J4", house(3, 4, 5), meadow(6, 7, 8, 9, 10, 11, 0, 1, 2))
    g = game(rules_with(j4), ["J4"])
    turn(g, "j4/0", "follower:0")
    assert phase(g) is Phase.OVER
    assert g.largest_empty_area() == 75
    assert final_scores(g) == [("family-house", 0, 75, 1, 75)]
    assert g.scores == [2 + 75, 0]
    assert not any(g.tower_token)  # tokens left on towers go back to the box


def test_z20_bigger_family_house_wins_the_empty_area() -> None:
    j4 = tile_toml("J4", house(3, 4, 5), meadow(6, 7, 8, 9, 10, 11, 0, 1, 2))
    i4 = tile_toml("I4", house(3, 4, 5), meadow(6, 7, 8), meadow(9, 10, 11, 0, 1, 2))
    g = game(rules_with(j4, i4), ["J4", "I4"])
    turn(g, "j4/0", "follower:0")  # White: 2 tiles
    turn(g, "i4/0", "follower:0")  # Black: 1 tile
    assert g.family_size == [2, 1]
    assert final_scores(g) == [("family-house", 0, 74, 1, 74)]
    assert g.scores == [2 + 74, 1]


def test_z20_family_house_tie_scores_nothing() -> None:
    i4 = tile_toml("I4", house(3, 4, 5), meadow(6, 7, 8), meadow(9, 10, 11, 0, 1, 2))
    j5 = tile_toml("J5", house(6, 7, 8), meadow(9, 10, 11, 0, 1, 2), meadow(3, 4, 5))
    g = game(rules_with(MEADOW, i4, j5), ["MEADOW", "I4", "J5"])
    turn(g, "j4/0")
    turn(g, "i4/0", "follower:0")  # Black: a 1-tile house facing j4's meadow
    turn(g, "j5/0", "follower:0")  # White: a 1-tile house facing j4's meadow
    assert g.family_size == [1, 1]
    assert final_scores(g) == [("family-house", None, 73, 1, 0)]
    assert g.scores == [1, 1]


def test_z20_no_family_house_at_all_scores_nothing() -> None:
    g = game(rules_with(STRAIGHT), ["STRAIGHT"])
    turn(g, "a6/0")
    assert final_scores(g) == [("family-house", None, 75, 1, 0)]
    assert g.scores == [0, 0]


EMPTY_GROUPS = (
    ("a4", "a5", "a6", "b4", "b5"),  # the largest: 5 spaces
    ("h1", "h2", "i1", "i2"),
    ("i7", "i8", "j7", "j8"),
    ("a1", "a2", "b1"),
)


def test_z20_rulebook_largest_empty_area_of_five() -> None:
    """60 tiles placed, 16 spaces empty in groups of 5, 4, 4 and 3: the bigger family house scores 5."""
    castle = load_castle("zamek")
    empty = {name for group in EMPTY_GROUPS for name in group}
    assert len(empty) == 16
    to_fill = {castle.name_of(c) for c in castle.interior} - empty
    assert len(to_fill) == 60
    faces = {castle.name_of(s.faces) for s in castle.starts}
    # An order in which every tile touches a placed tile or a start space, starting with j4.
    order = ["j4"]
    placed = {"j4"}
    while len(order) < len(to_fill):
        for c in castle.interior:
            name = castle.name_of(c)
            if name in placed or name not in to_fill:
                continue
            near = {castle.name_of(c + off) for off in castle.offsets}
            if name in faces or near & placed:
                order.append(name)
                placed.add(name)
                break
        else:
            raise AssertionError("the spaces to fill are not reachable")
    tiles = {
        "j4": tile_toml("J4", house(3, 4, 5), meadow(6, 7, 8, 9, 10, 11, 0, 1, 2)),  # with S5
        "f3": tile_toml("F3", road(7), house(8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6)),  # S6 shows a road
        "d3": tile_toml("D3", road(7), pigsty(8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6)),  # so does S7
    }
    others = [name for name in order if name not in tiles]
    for k, name in enumerate(others):
        tiles[name] = tile_toml(f"M{k}", meadow(*ALL, shrines=k))
    ids = {name: block.split('"')[1] for name, block in tiles.items()}
    g = game(rules_with(*tiles.values()), [ids[name] for name in order])
    turn(g, "j4/0", "follower:0")  # White's 2-tile family house
    for name in order[1:]:
        turn(g, f"{name}/0")
    assert phase(g) is Phase.OVER
    assert sum(1 for c in castle.interior if g.is_empty(c)) == 16
    assert g.largest_empty_area() == 5
    assert final_scores(g) == [("family-house", 0, 5, 1, 5)]
    assert g.scores == [2 + 5, 0]


def test_z21_most_points_wins() -> None:
    g = game(rules_with(T1, STRAIGHT), ["T1", "STRAIGHT"])
    turn(g, "a6/0", "follower:0")
    assert g.result() is None  # not over yet
    turn(g, "i8/90")
    result = g.result()
    assert result is not None
    assert result.scores == (2, 0) and result.winners == (0,)


def test_z21_tie_is_a_shared_victory() -> None:
    g = game(rules_with(STRAIGHT), ["STRAIGHT"])
    turn(g, "a6/0")
    result = g.result()
    assert result is not None
    assert result.scores == (0, 0) and result.winners == (0, 1)


def test_z21_unfinished_features_score_nothing_at_the_end() -> None:
    g = game(rules_with(STRAIGHT, B6_HOUSE_NORTH), ["STRAIGHT", "B6"])
    turn(g, "a6/0", "follower:0")  # White's herald on a road that stays open
    turn(g, "b6/0", "follower:1")  # Black's squire on a house that stays open
    assert phase(g) is Phase.OVER
    assert [i.reason for i in g.log] == ["family-house"]
    assert g.scores == [0, 0]


def test_z22_chance_outcomes_for_the_draw_list_exactly_the_remaining_tiles() -> None:
    through = tile_toml("THROUGH", road(4, 10), meadow(11, 0, 1, 2, 3), meadow(5, 6, 7, 8, 9))
    end = tile_toml("END", road(10), house(11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9))
    rules = tiny_rules(MEADOW, through, end, SPARE)
    g = GameState.new(Setup(), rules)

    def listed() -> list[str]:
        outcomes = g.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert len({p for _, p in outcomes}) == 1
        return sorted(str(o) for o, _ in outcomes)

    assert listed() == ["draw:END", "draw:MEADOW", "draw:SPARE", "draw:THROUGH"]
    g.play(Draw("MEADOW"))  # no place for it: discarded, and gone from the pile
    assert listed() == ["draw:END", "draw:SPARE", "draw:THROUGH"]
    g.play(Draw("THROUGH"))
    assert g.chance_outcomes() == []  # the player to move must act
    g.play(parse_action("a1/0"))
    g.play(Pass())
    assert listed() == ["draw:END", "draw:SPARE"]
    assert [rules.tiles.tiles[t].id for t in g.remaining] == ["END", "SPARE"]
