"""Scoring order, special tokens and the 2003 edition: RULES.md Z15, Z16, Z19 and C1-C5.

Positions are built in the real Zamek castle with custom tiles and a fixed draw order
(``tests.helpers.custom_game``). Tiles are written in board orientation; the comment beside each
says where the tests put it. A game ends when its tile set is used up, so mid-game positions add
``SPARE`` to the tile set and the draw order. The Z16 positions, a marker just before a tower (the
towers hold track spaces 12/13, 19/20, 23/24, ...; 0/1 holds no token), are written in the position
notation over the same tiles (``tests.helpers.position``, docs/positions.md). Elsewhere a
marker that must stand near a tower is moved there through the notation too (``tests.helpers.marker`` and
``changed``: the game's position with its score changed, checked and set up again). Tokens are handed to
players directly as ``HeldToken(kind, turn_taken)`` with turn 0 (before the game, usable at once, even in
turn 1), which no position holds: see ``give``.

Player 0 moves first unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from tests.helpers import (
    ALL,
    changed,
    custom_game,
    holding,
    house,
    marker,
    meadow,
    pigsty,
    position,
    road,
    tile_toml,
    with_fields,
)
from zamek.castle.rules.actions import Decline, Follower, Order, Piece, Reveal, UseToken, parse_action
from zamek.castle.rules.breakdown import ScoreItem
from zamek.castle.rules.editions import EDITIONS
from zamek.castle.rules.errors import IllegalActionError
from zamek.castle.rules.features import FeatureView
from zamek.castle.rules.setup import TOKEN_KINDS, TOKENS_PER_KIND, HeldToken, Phase
from zamek.castle.rules.state import GameState
from zamek.castle.rules.tiles import FeatureKind
from zamek.castle.rules.tokens import END_KINDS, TokenKind, kind_from_printed, printed_number, usable_same_turn
from zamek.castle.terms import term, token_name
from zamek.i18n import languages

# ---------------------------------------------------------------------------- building blocks



# Every tile differs from every other, also when turned, so any subset is a valid tile set.
TILES = {
    # A house on the east side. j4/0 closes S5's house (2 tiles, 2 points); a8/90 and e10/90 turn it
    # to face south; i4/0 closes a house that j4 left open to the west.
    "H1": tile_toml("H1", house(3, 4, 5), meadow(0, 1, 2, 6, 7, 8, 9, 10, 11)),
    # A house running east-west. j4/0 extends S5's house, open to the west (i4).
    "H2": tile_toml("H2", house(3, 4, 5, 9, 10, 11), meadow(0, 1, 2), meadow(6, 7, 8)),
    # A pigsty on the north side. b8/0 closes S2's pigsty (2 tiles, 4 points); a8/180 faces south.
    "PG1": tile_toml("PG1", pigsty(0, 1, 2), meadow(3, 4, 5, 6, 7, 8, 9, 10, 11)),
    # A pigsty running north-south. b8/0 extends S2's pigsty, open to the south (b7).
    "PG2": tile_toml("PG2", pigsty(0, 1, 2, 6, 7, 8), meadow(3, 4, 5), meadow(9, 10, 11)),
    # a6/0: S1's road ends at once at the house (no follower: nothing scored); the house is open north.
    "R1": tile_toml("R1", house(0, 1, 2), meadow(3, 4, 5, 6, 7, 8, 9), road(10), meadow(11)),
    # i8/0: S4's road ends at once at the house; the house is open south (i7).
    "RH": tile_toml("RH", road(1), meadow(2, 3, 4, 5), house(6, 7, 8), meadow(9, 10, 11, 0)),
    # d3/0: S7's road ends at once at the pigsty; the pigsty is open north (d4).
    "RP": tile_toml("RP", road(7), meadow(8, 9, 10, 11), pigsty(0, 1, 2), meadow(3, 4, 5, 6)),
    # a6/0: S1's road goes on east, open (2 tiles).
    "STRAIGHT": tile_toml("STRAIGHT", road(4, 10), meadow(11, 0, 1, 2, 3), meadow(5, 6, 7, 8, 9)),
    # f3/90: S6's road goes on north past stocks, open.
    "RS": tile_toml("RS", road(4, 10, stocks=1), meadow(11, 0, 1, 2, 3), meadow(5, 6, 7, 8, 9)),
    # f4/0: continues the road of f3 north, open (a shrine tells it from STRAIGHT).
    "RV": tile_toml("RV", road(1, 7), meadow(2, 3, 4, 5, 6), meadow(8, 9, 10, 11, 0, shrines=1)),
    # a7/0: closes a house to the south (a6) and a pigsty to the north (a8).
    "A7": tile_toml("A7", house(6, 7, 8), meadow(9, 10, 11), pigsty(0, 1, 2), meadow(3, 4, 5)),
    # a7/0: closes a house to the south (a6) and a house to the north (a8).
    "A7H": tile_toml("A7H", house(6, 7, 8), meadow(9, 10, 11), house(0, 1, 2), meadow(3, 4, 5)),
    "M0": tile_toml("M0", meadow(*ALL)),
    "M1": tile_toml("M1", meadow(*ALL, shrines=1)),
    "M2": tile_toml("M2", meadow(*ALL, shrines=2)),
    # Never drawn: it keeps a game from ending.
    "SPARE": tile_toml("SPARE", pigsty(0, 1, 2, 3, 4, 5), house(6, 7, 8, 9, 10, 11)),
}


def new_game(
    order: list[str], *, edition: str = "zamek", first_player: int = 0, spare: bool = True
) -> GameState:
    """Return a game whose tile set is exactly the tiles of ``order`` (plus SPARE), drawn in that order."""
    order = [*order, "SPARE"] if spare else order
    return custom_game([TILES[t] for t in order], order, edition=edition, first_player=first_player)


def phase(g: GameState) -> Phase:
    """Return the phase (a call, so that type checkers do not narrow it across actions)."""
    return g.phase


def step(g: GameState, place: str, follower: str = "pass") -> GameState:
    """Draw the next tile of the fixed order, place it, then place a follower or pass (no reveal)."""
    ((outcome, _),) = g.chance_outcomes()
    g.play(outcome)
    g.play(parse_action(place))
    g.play(parse_action(follower))
    return g


def play(g: GameState, *moves: str) -> GameState:
    for move in moves:
        g.play(parse_action(move))
    return g


def tower(g: GameState, position: int) -> int:
    """Return the index of the tower on a track position."""
    index = g.rules.tower_at[position]
    assert index >= 0, f"no tower on {position}"
    return index


def region(g: GameState, space: str, feature: int) -> FeatureView:
    """Return the feature (region) holding part ``feature`` of the tile on ``space``, as it stands now."""
    return g.feature_at(space, feature)


def scored(g: GameState) -> list[tuple[str, int | None, int]]:
    """Return (reason, player, points) of every line of the breakdown so far, in order."""
    return [(i.reason, i.player, i.points) for i in g.log]


def give(g: GameState, player: int, *kinds: int, turn: int = 0) -> None:
    """Hand ``player`` tokens of ``kinds``, taken in ``turn``: by default turn 0, before the game, so usable at once.

    Written into the state directly on purpose: a position's tokens were each taken in a turn of the game (1 to the
    turn now) from a tower emptied for it, so no position holds a token from before the game, usable in turn 1 even
    under Z19; the tests check that such a token stays ``HeldToken(kind, 0)`` when it is not used."""
    for kind in kinds:
        g.tokens[player].append(HeldToken(kind, turn))


AFTER_12 = (19, 23, 32, 36, 43, 56, 59, 65, 71, 76, 88, 94)
"""The towers holding a token once 12/13's was taken (``towers`` of a position)."""
ONE_EXTRA_TURN_USED = (1, 2, 2, 2, 2, 2, 2, 2, 2)
"""The face-down tokens once an extra turn (1) was revealed and used (``pool`` of a position)."""


def items(g: GameState, reason: str, player: int | None = None) -> list[ScoreItem]:
    return [i for i in g.final_items() if i.reason == reason and (player is None or i.player == player)]


def a_column(
    edition: str = "zamek", north: str = "pigsty", owners: tuple[int, int] = (0, 0), placer: int | None = None
) -> GameState:
    """Return the position before a7/0 is placed: a7 then closes a house (a6-a7, 2 tiles) and a
    ``north`` feature (a8-a7, 2 tiles: a house or a pigsty), owned by ``owners`` (house, north).

    White places a7, except when both features are Black's: then Black does, unless ``placer`` is 0.
    """
    a8 = ("H1", "a8/90") if north == "house" else ("PG1", "a8/180")
    last = "A7H" if north == "house" else "A7"
    south = ("R1", "a6/0", "follower:0")
    north_turn = (a8[0], a8[1], "follower:0")
    b8, e10, e9 = ("M0", "b8/0", "pass"), ("M1", "e10/0", "pass"), ("M2", "e9/0", "pass")
    plans = {  # a8 touches only b8, so b8 comes first
        (0, 0): (0, [south, b8, north_turn, e10]),
        (1, 0): (1, [south, b8, e10, north_turn, e9]),
        (0, 1): (0, [south, b8, e10, north_turn]),
        (1, 1): (1, [south, b8, north_turn, e10]),
    }
    first, turns = plans[owners]
    if placer == 0 and owners == (1, 1):
        first, turns = 0, [b8, south, e10, north_turn]
    g = new_game([t for t, _, _ in turns] + [last], edition=edition, first_player=first)
    for _, place, follower in turns:
        step(g, place, follower)
    assert phase(g) is Phase.DRAW
    assert g.scores == [0, 0]
    assert region(g, "a6", 0).controller == owners[0]
    assert region(g, "a8", 0).controller == owners[1]
    return g


# ------------------------------------------------------------------------------------ Z15, C5


@pytest.mark.parametrize("edition", EDITIONS)
def test_z15_c5_current_players_features_are_scored_first(edition: str) -> None:
    # Black (1) owns the house a6-a7, White (0) the pigsty a8-a7; White places a7 and scores first,
    # although the tile lists the house first and the house is the older region.
    g = a_column(edition, owners=(1, 0))
    assert g.current == 0
    house = region(g, "a6", 0)
    step(g, "a7/0")
    assert scored(g) == [("pigsty", 0, 4), ("house", 1, 2)]
    assert g.scores == [4, 2]
    assert house.id < region(g, "a8", 0).id


@pytest.mark.parametrize("edition", EDITIONS)
def test_z15_c5_placer_first_then_opponent_and_a_single_owner_scores_all(edition: str) -> None:
    # White owns the house, Black the pigsty, White places a7: White's house, then Black's pigsty.
    # Then both features Black's and Black placing: Black scores both.
    g = a_column(edition, owners=(0, 1))
    assert g.current == 0
    step(g, "a7/0")
    assert scored(g) == [("house", 0, 2), ("pigsty", 1, 4)]
    g = a_column(edition, owners=(1, 1))
    assert g.current == 1
    step(g, "a7/0")
    assert sorted(scored(g)) == [("house", 1, 2), ("pigsty", 1, 4)]
    assert g.scores == [0, 6]


def road_and_house_column(edition: str) -> GameState:
    """Return the position before a6/0: White's house a8-a7 is open south and S1's road waits at a6.

    a6 then closes a road (S1, a6: 2 tiles) and the house (a6, a7, a8: 3 tiles); White puts a herald
    on the road as it closes (Z11).
    """
    tiles = {
        "M0": TILES["M0"],
        "M1": TILES["M1"],
        "HS": tile_toml("HS", house(6, 7, 8), meadow(9, 10, 11, 0, 1, 2, 3, 4, 5)),
        "HNS": tile_toml("HNS", house(0, 1, 2, 6, 7, 8), meadow(3, 4, 5), meadow(9, 10, 11)),
        "RHN": tile_toml("RHN", road(10), house(0, 1, 2), meadow(3, 4, 5, 6, 7, 8, 9), meadow(11)),
        "SPARE": TILES["SPARE"],
    }
    order = ["M0", "HS", "HNS", "M1", "RHN", "SPARE"]
    g = custom_game([tiles[t] for t in order], order, edition=edition)
    step(g, "b8/0")  # White
    step(g, "a8/0")  # Black: a house open to the south
    step(g, "a7/0", "follower:0")  # White's squire on a8-a7
    step(g, "e10/0")  # Black
    return g


@pytest.mark.parametrize(("first", "reveal", "scores"), [
    (FeatureKind.ROAD, TokenKind.HOUSE_X2, [("road", 0, 2), ("house", 0, 6)]),
    (FeatureKind.ROAD, TokenKind.FIVE_POINTS, [("road", 0, 2), ("house", 0, 3)]),
    (FeatureKind.HOUSE, TokenKind.HOUSE_X2, [("house", 0, 3), ("road", 0, 2)]),
])
def test_z15_c3_order_is_asked_when_a_token_taken_first_could_double_the_next_feature(
    first: FeatureKind, reveal: TokenKind, scores: list[tuple[str, int, int]]
) -> None:
    # The Castle 2003, White at 10 closes a road (2) and a house (3). Road first ends on 12 (tower
    # 12/13), and a wall tile "house x2" found there doubles the house scored next (C3). House first
    # ends on 13: the same tower, too late for this house. The order changes what can happen.
    g = road_and_house_column("castle2003")
    g = marker(g, 0, 10)
    step(g, "a6/0", "follower:0")
    assert phase(g) is Phase.ORDER
    kinds = [f.kind for f in g.order_choices()]
    assert sorted(kinds) == [FeatureKind.ROAD, FeatureKind.HOUSE]
    g.play(Order(kinds.index(first)))
    assert phase(g) is Phase.REVEAL and g.scores[0] == (12 if first is FeatureKind.ROAD else 13)
    g.play(Reveal(reveal))
    if first is FeatureKind.ROAD and reveal is TokenKind.HOUSE_X2:
        assert phase(g) is Phase.DOUBLE
        g.play(UseToken(TokenKind.HOUSE_X2))
    assert phase(g) is Phase.DRAW
    assert scored(g) == scores
    assert g.scores[0] == 10 + sum(points for _, _, points in scores)


def test_z15_z19_no_order_question_when_the_token_cannot_be_used_this_turn() -> None:
    # The same turn in Zamek: a token taken is usable from the next turn only (Z19), and both orders
    # empty tower 12/13, so the engine scores in its own order: 12 or 13, then 15 either way.
    g = road_and_house_column("zamek")
    g = marker(g, 0, 10)
    step(g, "a6/0", "follower:0")
    assert phase(g) is Phase.REVEAL and g.scores[0] in (12, 13)
    g.play(Reveal(TokenKind.HOUSE_X2))
    assert phase(g) is Phase.DRAW
    assert sorted(scored(g)) == [("house", 0, 3), ("road", 0, 2)]
    assert g.scores[0] == 15


@pytest.mark.parametrize("edition", EDITIONS)
def test_z15_order_is_asked_when_two_orders_reach_different_towers(edition: str) -> None:
    # At 11: house (2) first ends on 13, a tower; pigsty (4) first ends on 15 and then 17: no tower.
    g = a_column(edition)
    g = marker(g, 0, 11)
    now = g.turn
    step(g, "a7/0")
    assert phase(g) is Phase.ORDER
    kinds = [f.kind for f in g.order_choices()]
    assert sorted(kinds) == [FeatureKind.HOUSE, FeatureKind.PIGSTY]
    assert g.legal_actions() == [Order(0), Order(1)]
    with pytest.raises(IllegalActionError):
        g.play(Order(2))
    with pytest.raises(IllegalActionError):
        g.play(Decline())
    g.play(Order(kinds.index(FeatureKind.HOUSE)))
    # The house is scored first and its movement ends on 13: the token is taken, its kind revealed.
    assert phase(g) is Phase.REVEAL
    assert g.scores[0] == 13
    assert not g.tower_token[tower(g, 13)]
    g.play(Reveal(4))
    assert g.tokens[0] == [HeldToken(TokenKind.MEADOW_4, now)]
    assert scored(g) == [("house", 0, 2), ("pigsty", 0, 4)]
    assert g.scores[0] == 17
    assert phase(g) is Phase.DRAW and g.current == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_z15_chosen_order_pigsty_first_passes_the_tower(edition: str) -> None:
    g = a_column(edition)
    g = marker(g, 0, 11)
    step(g, "a7/0")
    kinds = [f.kind for f in g.order_choices()]
    g.play(Order(kinds.index(FeatureKind.PIGSTY)))
    assert scored(g) == [("pigsty", 0, 4), ("house", 0, 2)]
    assert g.scores[0] == 17
    assert g.tower_token[tower(g, 13)]
    assert g.tokens[0] == []
    assert phase(g) is Phase.DRAW


@pytest.mark.parametrize("edition", EDITIONS)
def test_z15_no_order_choice_when_no_order_reaches_a_tower(edition: str) -> None:
    g = a_column(edition)
    step(g, "a7/0")  # from 0: 2 then 6, or 4 then 6
    assert phase(g) is Phase.DRAW
    assert g.scores[0] == 6
    assert {r for r, _, _ in scored(g)} == {"house", "pigsty"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_z15_no_order_choice_when_both_orders_take_the_same_token(edition: str) -> None:
    g = a_column(edition)
    g = marker(g, 0, 6)  # 8 then 12, or 10 then 12: both end on tower 12/13
    now = g.turn
    step(g, "a7/0")
    assert phase(g) is Phase.REVEAL
    assert g.scores[0] == 12
    g.play(Reveal(6))
    assert g.tokens[0] == [HeldToken(TokenKind.FIVE_POINTS, now)]
    assert phase(g) is Phase.DRAW


def test_z15_z19_order_choice_counts_the_x2_decisions() -> None:
    # At 12 with house x2 and pigsty x2 from an earlier turn: without the tokens both orders miss
    # every tower (14, 18 / 16, 18). Doubled, the pigsty first ends on 20 and the house then on 24:
    # two tokens, which the house first (16, 24 at best) cannot give. So the order is asked.
    g = a_column()
    g = changed(g, scores=(12, 0), towers=AFTER_12, pool=ONE_EXTRA_TURN_USED)  # the token of 12/13 long gone
    give(g, 0, TokenKind.HOUSE_X2, TokenKind.PIGSTY_X2)
    step(g, "a7/0")
    assert phase(g) is Phase.ORDER
    kinds = [f.kind for f in g.order_choices()]
    g.play(Order(kinds.index(FeatureKind.PIGSTY)))
    assert phase(g) is Phase.DOUBLE
    g.play(UseToken(3))
    assert g.scores[0] == 20 and phase(g) is Phase.REVEAL
    g.play(Reveal(6))
    assert phase(g) is Phase.DOUBLE
    g.play(UseToken(2))
    assert g.scores[0] == 24 and phase(g) is Phase.REVEAL
    g.play(Reveal(6))
    assert [t.kind for t in g.tokens[0]] == [6, 6]
    assert phase(g) is Phase.DRAW


def test_z15_z19_no_order_choice_when_the_x2_decisions_reach_the_same_towers() -> None:
    # With house x2 only, from 12: house 2 or 4 and pigsty 4 reach the same towers in either order.
    g = a_column()
    g = changed(g, scores=(12, 0), towers=AFTER_12, pool=ONE_EXTRA_TURN_USED)  # the token of 12/13 long gone
    give(g, 0, TokenKind.HOUSE_X2)
    step(g, "a7/0")
    assert phase(g) is Phase.DOUBLE


def test_z15_current_player_chooses_the_order_of_the_opponents_features_too() -> None:
    # Both features are Black's, White places a7; Black's marker is at 11 (house first: 13, a tower).
    g = a_column(owners=(1, 1), placer=0)
    assert g.current == 0
    g = marker(g, 1, 11)
    step(g, "a7/0")
    assert phase(g) is Phase.ORDER
    assert g.current == 0  # White decides
    kinds = [f.kind for f in g.order_choices()]
    g.play(Order(kinds.index(FeatureKind.HOUSE)))
    assert phase(g) is Phase.REVEAL
    g.play(Reveal(5))
    assert g.tokens == [[], [HeldToken(TokenKind.FAMILY_PLUS_2, 5)]]
    assert g.scores == [0, 17]


def test_z15_features_of_one_owner_only_are_ordered() -> None:
    # With owners split, each group has one feature: never an ORDER decision, even near a tower.
    g = a_column(owners=(1, 0))
    g = changed(g, scores=(8, 10))
    now = g.turn
    step(g, "a7/0")
    # White's pigsty: 8 -> 12 takes a token; then Black's house: 10 -> 12 finds the tower empty.
    assert phase(g) is Phase.REVEAL
    g.play(Reveal(2))
    assert g.scores == [12, 12]
    assert g.tokens == [[HeldToken(TokenKind.HOUSE_X2, now)], []]
    assert phase(g) is Phase.DRAW


# ------------------------------------------------------------------------------------------ Z16


# White to place a tile in turn 1, the towers holding their tokens, SPARE left to draw: written in the position
# notation (docs/positions.md); ``first_turn`` names the tile and changes the fields a test needs.
FIRST_TURN = (
    "zamek board=2 tiles=- figures=- score=0/0 supply=6f/6f tokens=-/- towers=12,19,23,32,36,43,56,59,65,71,76,88,94"
    " pool=222222222 family=-/- nests=0/0 left=SPARE out=- turn=1 player=0 phase=place:H1"
)


def first_turn(tile: str, **fields: str) -> GameState:
    """Return the position FIRST_TURN with White to place ``tile`` and ``fields`` changed (``score="10/0"``)."""
    return position(with_fields(FIRST_TURN, phase=f"place:{tile}", **fields), TILES[tile], TILES["SPARE"])


def test_z16_movement_ending_on_a_tower_takes_the_token_face_up() -> None:
    g = first_turn("H1", score="10/0")
    play(g, "j4/0", "follower:0")  # S5's house, 2 tiles: 10 -> 12
    assert g.scores[0] == 12
    assert phase(g) is Phase.REVEAL
    assert not g.tower_token[tower(g, 12)]
    # The kind is drawn from the tokens not yet revealed: 2 of each of the 9 kinds.
    outcomes = g.chance_outcomes()
    assert [o for o, _ in outcomes] == [Reveal(k) for k in range(1, TOKEN_KINDS + 1)]
    assert all(p == pytest.approx(TOKENS_PER_KIND / 18) for _, p in outcomes)
    with pytest.raises(IllegalActionError):
        g.play(parse_action("pass"))
    g.play(Reveal(7))
    assert g.tokens[0] == [HeldToken(TokenKind.OPEN_HOUSE, 1)]
    assert g.token_pool[7] == TOKENS_PER_KIND - 1
    assert phase(g) is Phase.DRAW and g.current == 1


def test_z16_the_second_space_of_a_tower_counts_too() -> None:
    g = first_turn("H1", score="11/0")
    play(g, "j4/0", "follower:0")  # 11 -> 13
    assert phase(g) is Phase.REVEAL
    assert not g.tower_token[tower(g, 13)]


def test_z16_passing_over_a_tower_takes_nothing() -> None:
    g = first_turn("PG1", score="10/0")
    play(g, "b8/0", "follower:0")  # S2's pigsty, 2 tiles: 10 -> 14 over tower 12/13
    assert g.scores[0] == 14
    assert phase(g) is Phase.DRAW
    assert g.tower_token[tower(g, 12)]
    assert g.tokens[0] == []


def test_z16_an_emptied_tower_and_tower_0_1_give_nothing() -> None:
    # The tower 12/13 is empty: its token (an extra turn, 1) was taken and used.
    g = first_turn("H1", score="10/0", towers="19,23,32,36,43,56,59,65,71,76,88,94", pool="122222222")
    play(g, "j4/0", "follower:0")
    assert g.scores[0] == 12 and phase(g) is Phase.DRAW
    g = first_turn("H1", score="98/0")
    play(g, "j4/0", "follower:0")  # 98 -> 100, on track space 0: tower 0/1 never holds a token
    assert g.scores[0] == 100
    assert phase(g) is Phase.DRAW
    assert g.tokens[0] == []


@pytest.mark.parametrize("start", [110, 210])
def test_z16_track_wraps_and_towers_count_again_after_99(start: int) -> None:
    g = first_turn("H1", score=f"{start}/0")
    play(g, "j4/0", "follower:0")  # ends on track space 12 of a later lap
    assert g.scores[0] == start + 2
    assert phase(g) is Phase.REVEAL
    assert not g.tower_token[tower(g, 12)]
    g.play(Reveal(1))
    assert g.tokens[0] == [HeldToken(TokenKind.EXTRA_TURN, 1)]


def test_z16_the_opponents_marker_takes_a_token_in_my_turn() -> None:
    # Black's house S5-j4, open to the west, holds Black's squire; Black's marker is on 9. White places H1 on
    # i4 and closes it: Black's marker lands on the tower and Black takes the token.
    g = position(
        "zamek board=2 tiles=H2@j4/0 figures=1f:j4.0 score=0/9 supply=6f/5f tokens=-/-"
        " towers=12,19,23,32,36,43,56,59,65,71,76,88,94 pool=222222222 family=-/- nests=0/0 left=SPARE out=-"
        " turn=2 player=0 phase=place:H1",
        TILES["H2"], TILES["H1"], TILES["SPARE"],
    )
    play(g, "i4/0", "pass")  # S5 + j4 + i4: 3 points for Black
    assert g.scores == [0, 12]
    assert phase(g) is Phase.REVEAL
    g.play(Reveal(3))
    assert g.tokens == [[], [HeldToken(TokenKind.PIGSTY_X2, 2)]]


# --------------------------------------------------------------------- Z19: x2 tokens in play


def test_z19_house_x2_is_a_decision_and_doubles_the_house() -> None:
    g = new_game(["H1"])
    give(g, 0, TokenKind.HOUSE_X2)
    step(g, "j4/0", "follower:0")
    assert phase(g) is Phase.DOUBLE
    assert g.legal_actions() == [UseToken(2), Decline()]
    with pytest.raises(IllegalActionError):
        g.play(UseToken(3))
    g.play(UseToken(2))
    (item,) = g.log
    assert (item.reason, item.player, item.count, item.rate, item.points) == ("house", 0, 2, 1, 4)
    assert item.multiplier == 2
    assert "token:2" in item.details
    assert g.scores[0] == 4
    assert g.tokens[0] == []  # a used token leaves the game
    assert phase(g) is Phase.DRAW


def test_z19_declining_keeps_the_x2_token() -> None:
    g = new_game(["H1"])
    give(g, 0, TokenKind.HOUSE_X2)
    step(g, "j4/0", "follower:0")
    g.play(Decline())
    (item,) = g.log
    assert item.points == 2 and item.multiplier == 1 and "token:2" not in item.details
    assert g.tokens[0] == [HeldToken(TokenKind.HOUSE_X2, 0)]
    assert phase(g) is Phase.DRAW


def test_z19_pigsty_x2_gives_4_per_tile() -> None:
    g = new_game(["PG1"])
    give(g, 0, TokenKind.PIGSTY_X2)
    step(g, "b8/0", "follower:0")
    assert phase(g) is Phase.DOUBLE
    assert g.legal_actions() == [UseToken(3), Decline()]
    g.play(UseToken(3))
    (item,) = g.log
    assert (item.reason, item.count, item.rate, item.points, item.multiplier) == ("pigsty", 2, 2, 8, 2)
    assert "token:3" in item.details
    assert g.scores[0] == 8


@pytest.mark.parametrize(("tile", "place", "held"), [("H1", "j4/0", 3), ("PG1", "b8/0", 2)])
def test_z19_x2_token_only_for_its_own_kind(tile: str, place: str, held: int) -> None:
    g = new_game([tile])
    give(g, 0, held)
    step(g, place, "follower:0")
    assert phase(g) is Phase.DRAW
    assert g.tokens[0] == [HeldToken(held, 0)]


def test_z19_a_road_offers_no_x2_decision() -> None:
    g = new_game(["R1"])
    give(g, 0, TokenKind.HOUSE_X2, TokenKind.PIGSTY_X2)
    step(g, "a6/0", "follower:2")  # S1's road ends at the house: 2 tiles, 2 points
    assert scored(g) == [("road", 0, 2)]
    assert phase(g) is Phase.DRAW
    assert len(g.tokens[0]) == 2


@pytest.mark.parametrize("edition", EDITIONS)
def test_z19_no_token_use_in_the_opponents_turn(edition: str) -> None:
    # Black's house (S5 + j4) is closed by White at i4. Both hold a house x2 token from earlier:
    # Black may not use it outside Black's turn, White may not use it on a house White does not control.
    g = new_game(["H2", "H1"], edition=edition, first_player=1)
    step(g, "j4/0", "follower:0")
    give(g, 0, TokenKind.HOUSE_X2)
    give(g, 1, TokenKind.HOUSE_X2)
    assert g.current == 0
    step(g, "i4/0")
    assert phase(g) is Phase.DRAW
    assert scored(g) == [("house", 1, 3)]
    assert g.log[0].multiplier == 1
    assert g.tokens == [[HeldToken(2, 0)], [HeldToken(2, 0)]]


@pytest.mark.parametrize("edition", EDITIONS)
def test_z19_x2_needs_control_not_just_a_follower(edition: str) -> None:
    # The a6 house is Black's, the a8 house White's; White holds house x2 and places a7:
    # the decision comes for White's house only.
    g = a_column(edition, north="house", owners=(1, 0))
    give(g, 0, TokenKind.HOUSE_X2)
    step(g, "a7/0")
    assert phase(g) is Phase.DOUBLE
    head = g.feature_being_scored()
    assert head is not None and head.controller == 0
    g.play(UseToken(2))
    assert scored(g) == [("house", 0, 4), ("house", 1, 2)]
    assert phase(g) is Phase.DRAW


def test_z19_token_is_not_usable_in_the_turn_it_was_taken() -> None:
    # Zamek: the first house (10 -> 12) takes a house x2 token; the second house of the same
    # turn is scored without a decision. In White's next turn the token is usable.
    g = a_column("zamek", north="house")
    g = marker(g, 0, 10)
    taken_turn = g.turn
    step(g, "a7/0")
    assert phase(g) is Phase.REVEAL
    g.play(Reveal(2))
    assert phase(g) is Phase.DRAW
    assert scored(g) == [("house", 0, 2), ("house", 0, 2)]
    assert g.scores[0] == 14
    assert g.tokens[0] == [HeldToken(TokenKind.HOUSE_X2, taken_turn)]
    # Black's turn: the token is White's and Black can do nothing with it.
    assert g.usable_tokens(TokenKind.HOUSE_X2) == 0


def test_z19_token_is_usable_from_the_owners_next_turn() -> None:
    g = new_game(["H1", "M0", "PG1"])
    g = marker(g, 0, 10)
    step(g, "j4/0", "follower:0")  # 10 -> 12
    g.play(Reveal(3))  # pigsty x2, taken in turn 1
    step(g, "e10/0")  # Black
    step(g, "b8/0", "follower:0")  # White's pigsty in turn 3
    assert phase(g) is Phase.DOUBLE
    g.play(UseToken(3))
    assert g.scores[0] == 12 + 8


def test_c3_wall_tile_usable_same_turn_after_it_was_taken() -> None:
    # The Castle (2003): the house x2 taken by the first house's movement doubles the second house.
    g = a_column("castle2003", north="house")
    g = marker(g, 0, 10)
    step(g, "a7/0")
    assert phase(g) is Phase.REVEAL
    assert g.scores[0] == 12
    g.play(Reveal(2))
    assert phase(g) is Phase.DOUBLE
    assert g.legal_actions() == [UseToken(2), Decline()]
    g.play(UseToken(2))
    assert scored(g) == [("house", 0, 2), ("house", 0, 4)]
    assert g.scores[0] == 16
    assert g.tokens[0] == []


def test_c3_wall_tile_taken_by_the_order_choice_doubles_the_pigsty() -> None:
    # 2003, at 11: choose the house first (-> 13, a tower), reveal pigsty x2, double the pigsty.
    g = a_column("castle2003")
    g = marker(g, 0, 11)
    step(g, "a7/0")
    kinds = [f.kind for f in g.order_choices()]
    g.play(Order(kinds.index(FeatureKind.HOUSE)))
    g.play(Reveal(3))
    assert phase(g) is Phase.DOUBLE
    g.play(UseToken(3))
    assert scored(g) == [("house", 0, 2), ("pigsty", 0, 8)]
    assert g.scores[0] == 21


def test_c3_and_z19_usable_same_turn_by_edition() -> None:
    assert usable_same_turn("castle2003")
    assert not usable_same_turn("zamek")


# ---------------------------------------------------------------------- Z19: the extra turn


def test_z19_extra_turn_gives_the_same_player_the_next_turn() -> None:
    g = new_game(["M0", "M1"])
    give(g, 0, TokenKind.EXTRA_TURN)
    step(g, "e10/0")
    assert phase(g) is Phase.EXTRA_TURN
    assert g.current == 0
    assert g.legal_actions() == [UseToken(1), Decline()]
    with pytest.raises(IllegalActionError):
        g.play(UseToken(2))
    g.play(UseToken(1))
    assert phase(g) is Phase.DRAW
    assert (g.current, g.turn) == (0, 2)
    assert g.tokens[0] == []
    step(g, "e9/0")
    assert len(g.placements) == 2
    assert (g.current, g.turn) == (1, 3)


def test_z19_extra_turn_declined_keeps_the_token() -> None:
    g = new_game(["M0"])
    give(g, 0, TokenKind.EXTRA_TURN)
    step(g, "e10/0")
    g.play(Decline())
    assert phase(g) is Phase.DRAW
    assert (g.current, g.turn) == (1, 2)
    assert g.tokens[0] == [HeldToken(TokenKind.EXTRA_TURN, 0)]


def test_z19_extra_turn_chains() -> None:
    g = new_game(["M0", "M1", "M2"])
    give(g, 0, TokenKind.EXTRA_TURN, TokenKind.EXTRA_TURN)
    step(g, "e10/0")
    play(g, "use:1")
    assert (g.current, g.turn) == (0, 2)
    step(g, "e9/0")
    assert phase(g) is Phase.EXTRA_TURN
    play(g, "use:1")
    assert (g.current, g.turn) == (0, 3)
    step(g, "e8/0")
    assert phase(g) is Phase.DRAW  # no token left: Black's turn
    assert (g.current, g.turn) == (1, 4)
    assert g.tokens[0] == []


def test_z19_opponents_extra_turn_is_not_offered_in_my_turn() -> None:
    g = new_game(["M0"])
    give(g, 1, TokenKind.EXTRA_TURN)
    step(g, "e10/0")
    assert phase(g) is Phase.DRAW and g.current == 1


@pytest.mark.parametrize(("edition", "offered"), [("zamek", False), ("castle2003", True)])
def test_z19_c3_extra_turn_taken_this_turn(edition: str, offered: bool) -> None:
    g = new_game(["H1", "M0"], edition=edition)
    g = marker(g, 0, 10)
    step(g, "j4/0", "follower:0")
    g.play(Reveal(1))
    if offered:  # C3: usable in the turn it was taken, after it was taken
        assert phase(g) is Phase.EXTRA_TURN
        g.play(UseToken(1))
        assert (g.current, g.turn) == (0, 2)
    else:  # Z19: only from the next turn on
        assert phase(g) is Phase.DRAW
        assert (g.current, g.turn) == (1, 2)
        assert g.tokens[0] == [HeldToken(TokenKind.EXTRA_TURN, 1)]


def test_z19_token_taken_in_turn_t_is_usable_in_the_extra_turn() -> None:
    g = new_game(["PG1", "H1"])
    g = marker(g, 0, 9)
    give(g, 0, TokenKind.EXTRA_TURN)
    step(g, "b8/0", "follower:0")  # 9 -> 13: a token
    g.play(Reveal(2))
    assert phase(g) is Phase.EXTRA_TURN
    g.play(UseToken(1))
    step(g, "j4/0", "follower:0")  # the extra turn counts as a next turn
    assert phase(g) is Phase.DOUBLE
    g.play(UseToken(2))
    assert g.scores[0] == 13 + 4


def test_z19_no_extra_turn_after_the_last_tile() -> None:
    g = new_game(["M0"], spare=False)
    give(g, 0, TokenKind.EXTRA_TURN)
    step(g, "e10/0")
    assert g.is_over()


# ------------------------------------------------------------------------- Z19: end tokens


def open_features(edition: str = "zamek", *, spare: bool = True) -> GameState:
    """White: a 2-tile house (j4), a 1-tile house (e10), a 2-tile pigsty (b8), a 2-tile road (a6).
    Black: a 1-tile house (i8), a 1-tile pigsty (d3), a 3-tile road with stocks (f3-f4). All open."""
    turns = [
        ("H2", "j4/0", "follower:0"),
        ("RH", "i8/0", "follower:2"),
        ("H1", "e10/90", "follower:0"),
        ("RP", "d3/0", "follower:2"),
        ("PG2", "b8/0", "follower:0"),
        ("RS", "f3/90", "follower:0"),
        ("STRAIGHT", "a6/0", "follower:0"),
        ("RV", "f4/0", "pass"),
    ]
    tiles = [t for t, _, _ in turns]
    g = new_game(tiles, edition=edition, spare=spare)
    for _, place, follower in turns[: len(turns) - (0 if spare else 1)]:
        step(g, place, follower)
    if spare:
        assert phase(g) is Phase.DRAW and g.log == []
    return g


def open_points(g: GameState, reason: str, player: int) -> list[tuple[int, int, int]]:
    """Return (tiles, rate, points) of the token lines for unfinished features."""
    return sorted(
        ((i.count, i.rate, i.points) for i in items(g, reason, player) if "unfinished" in i.details), reverse=True
    )


@pytest.mark.parametrize(
    ("kind", "reason", "one", "two"),
    [
        (TokenKind.OPEN_HOUSE, "house", [(2, 1, 2)], [(2, 1, 2), (1, 1, 1)]),
        (TokenKind.OPEN_PIGSTY, "pigsty", [(2, 2, 4)], [(2, 2, 4)]),
        (TokenKind.OPEN_ROAD, "road", [(2, 1, 2)], [(2, 1, 2)]),
    ],
)
def test_z19_tokens_7_8_9_score_the_best_unfinished_features(
    kind: TokenKind, reason: str, one: list[tuple[int, int, int]], two: list[tuple[int, int, int]]
) -> None:
    g = open_features()
    assert open_points(g, reason, 0) == []
    g = holding(g, 0, kind)
    assert open_points(g, reason, 0) == one
    # A second token of the kind goes on a different feature, if White controls one: Black's
    # pigsty (d3) and road (f3) are never White's.
    g = holding(g, 0, kind)
    assert open_points(g, reason, 0) == two
    for item in items(g, reason, 0):
        assert f"token:{int(kind)}" in item.details
        assert item.final


@pytest.mark.parametrize(
    ("kind", "reason", "expected"),
    [
        (TokenKind.OPEN_HOUSE, "house", [(1, 1, 1)]),
        (TokenKind.OPEN_PIGSTY, "pigsty", [(1, 2, 2)]),
        (TokenKind.OPEN_ROAD, "road", [(3, 1, 3)]),
    ],
)
def test_z19_tokens_7_8_9_only_on_features_the_owner_controls(
    kind: TokenKind, reason: str, expected: list[tuple[int, int, int]]
) -> None:
    g = open_features()
    g = holding(g, 1, kind, kind)
    assert open_points(g, reason, 1) == expected
    assert open_points(g, reason, 0) == []


def test_z19_token_9_zamek_counts_1_per_tile_even_with_stocks() -> None:
    g = open_features("zamek")
    g = holding(g, 1, TokenKind.OPEN_ROAD)
    (item,) = items(g, "road", 1)
    assert (item.count, item.rate, item.points) == (3, 1, 3)
    assert "stocks" not in item.details


def test_c4_unfinished_path_scores_2_per_tile_with_a_fountain() -> None:
    # The Castle: wall tile 4 (Zamek kind 9) counts a fountain (Zamek stocks) beside the path.
    g = open_features("castle2003")
    g = holding(g, 1, TokenKind.OPEN_ROAD)
    (item,) = items(g, "road", 1)
    assert (item.count, item.rate, item.points) == (3, 2, 6)
    assert "stocks" in item.details and "token:9" in item.details
    g = holding(g, 0, TokenKind.OPEN_ROAD)
    (item,) = items(g, "road", 0)
    assert (item.count, item.rate, item.points) == (2, 1, 2)  # no fountain: 1 per tile


def meadows() -> GameState:
    """White's monks: e10 (with S3's shrine: 1 shrine) and b8-c8 (2 shrines). Black's monk: j4 (1 shrine)."""
    g = new_game(["H1", "M0", "M2", "M1"])
    step(g, "e10/90", "follower:1")
    step(g, "b8/0")
    step(g, "c8/0", "follower:0")
    step(g, "j4/0", "follower:0")
    assert phase(g) is Phase.DRAW
    return g


def meadow_lines(g: GameState, player: int) -> list[tuple[int, int, int]]:
    return sorted(((i.count, i.rate, i.points) for i in items(g, "meadow", player)), reverse=True)


def test_z19_token_4_upgrades_the_best_meadow() -> None:
    g = meadows()
    assert meadow_lines(g, 0) == [(2, 3, 6), (1, 3, 3)]
    give(g, 0, TokenKind.MEADOW_4)
    assert meadow_lines(g, 0) == [(2, 4, 8), (1, 3, 3)]
    (best,) = [i for i in items(g, "meadow", 0) if i.count == 2]
    assert "token:4" in best.details
    # Two tokens 4 go on two different meadows; a third finds no meadow left (three: one more than a game has).
    give(g, 0, TokenKind.MEADOW_4, TokenKind.MEADOW_4)
    assert meadow_lines(g, 0) == [(2, 4, 8), (1, 4, 4)]
    assert meadow_lines(g, 1) == [(1, 3, 3)]  # never on the opponent's meadow


def test_z19_token_4_only_on_a_meadow_the_owner_controls() -> None:
    g = meadows()
    g = holding(g, 1, TokenKind.MEADOW_4, TokenKind.MEADOW_4)
    assert meadow_lines(g, 1) == [(1, 4, 4)]
    assert meadow_lines(g, 0) == [(2, 3, 6), (1, 3, 3)]


def family(g: GameState, sizes: tuple[int, int]) -> ScoreItem:
    # Family houses of any size with no house built: a position takes a family from a complete house on the board.
    g.family_size = list(sizes)
    g.family_cells = [1 << 20 if sizes[0] else 0, 1 << 21 if sizes[1] else 0]
    (item,) = items(g, "family-house")
    return item


def test_z19_token_5_adds_2_tiles_to_the_family_house() -> None:
    g = new_game(["M0"])
    area = g.largest_empty_area()
    assert area == 76
    item = family(g, (2, 3))
    assert (item.player, item.points) == (1, 0 + area)
    give(g, 0, TokenKind.FAMILY_PLUS_2)
    item = family(g, (2, 3))  # 4 > 3
    assert (item.player, item.points) == (0, area)
    assert "token:5" in item.details


def test_z19_two_tokens_5_add_4_and_can_flip_the_winner() -> None:
    g = new_game(["M0"])
    give(g, 0, TokenKind.FAMILY_PLUS_2)
    assert family(g, (2, 5)).player == 1  # 4 < 5
    give(g, 0, TokenKind.FAMILY_PLUS_2)
    item = family(g, (2, 5))  # 6 > 5
    assert item.player == 0 and "token:5" in item.details
    assert family(g, (2, 6)).player is None  # 6 = 6: a tie scores nothing
    assert family(g, (2, 6)).points == 0


def test_z19_token_5_needs_a_family_house() -> None:
    g = new_game(["M0"])
    give(g, 0, TokenKind.FAMILY_PLUS_2, TokenKind.FAMILY_PLUS_2)
    item = family(g, (0, 1))  # White has none: still 0 < 1
    assert item.player == 1
    assert family(g, (0, 0)).player is None


def test_z19_token_6_is_worth_5_points() -> None:
    g = new_game(["M0"])
    give(g, 1, TokenKind.FIVE_POINTS)
    (item,) = items(g, "token")
    assert (item.player, item.points) == (1, 5)
    assert item.details == ("token:6",)
    give(g, 1, TokenKind.FIVE_POINTS)
    assert [i.points for i in items(g, "token", 1)] == [5, 5]


def test_z19_end_tokens_apply_automatically_when_the_game_ends() -> None:
    # Without the spare tile the game ends after f4; White's end tokens count by themselves.
    g = open_features(spare=False)
    g = holding(g, 0, TokenKind.OPEN_HOUSE, TokenKind.OPEN_PIGSTY, TokenKind.OPEN_ROAD, TokenKind.FIVE_POINTS)
    g = holding(g, 1, TokenKind.OPEN_ROAD, TokenKind.MEADOW_4)
    step(g, "f4/0")
    assert g.is_over()
    final = [(i.reason, i.player, i.points) for i in g.log if i.final and i.points]
    assert sorted(final, key=str) == sorted(
        [("house", 0, 2), ("pigsty", 0, 4), ("road", 0, 2), ("token", 0, 5), ("road", 1, 3)], key=str
    )
    assert g.scores == [13, 3]
    # The used end tokens are shown by kind in the breakdown.
    assert {d for i in g.log if i.final for d in i.details if d.startswith("token:")} == {
        "token:6", "token:7", "token:8", "token:9"
    }


def test_z19_end_tokens_are_never_decisions_during_play() -> None:
    g = new_game(["H1"])
    give(g, 0, *sorted(END_KINDS))
    step(g, "j4/0", "follower:0")
    assert phase(g) is Phase.DRAW
    assert frozenset(TokenKind) - {TokenKind.EXTRA_TURN, TokenKind.HOUSE_X2, TokenKind.PIGSTY_X2} == END_KINDS


# ------------------------------------------------------------------------------------- C1, C4


def test_c1_castle_2003_names() -> None:
    english = {
        "road": "path", "house": "house", "pigsty": "tower", "meadow": "courtyard", "shrine": "market stall",
        "stocks": "fountain", "fountain": "square", "family-house": "keep", "herald": "herald",
        "squire": "squire", "farmer": "knight", "monk": "merchant", "special-token": "wall tile",
    }
    for key, word in english.items():
        assert term(key, "en", "castle2003") == word, key
    polish = {
        "road": "ścieżka", "house": "domostwo", "pigsty": "wieża", "meadow": "dziedziniec", "shrine": "stragan",
        "stocks": "fontanna", "fountain": "plac", "family-house": "donżon", "special-token": "żeton murów",
    }
    for key, word in polish.items():
        assert term(key, "pl", "castle2003") == word, key


def test_c1_zamek_names_differ_where_the_editions_do() -> None:
    zamek = {"road": "road", "pigsty": "pigsty", "meadow": "meadow", "shrine": "shrine", "stocks": "stocks",
             "fountain": "fountain", "family-house": "family house", "farmer": "farmer", "monk": "monk",
             "special-token": "special token"}
    for key, word in zamek.items():
        assert term(key, "en", "zamek") == word, key
    assert term("road", "pl", "zamek") == "droga"
    assert term("pigsty", "pl", "zamek") == "chlew"
    assert term("family-house", "pl", "zamek") == "siedziba rodu"
    for key in ("road", "pigsty", "meadow", "shrine", "stocks", "fountain", "family-house", "special-token"):
        assert term(key, "en", "zamek") != term(key, "en", "castle2003"), key
        assert term(key, "pl", "zamek") != term(key, "pl", "castle2003"), key


def test_c1_every_token_has_its_name_in_every_language_and_edition() -> None:
    for lang in languages():
        for edition in EDITIONS:
            for kind in TokenKind:
                name = token_name(kind, lang, edition)
                assert str(printed_number(kind, edition)) in name and "{" not in name, (kind, lang, edition)


@pytest.mark.parametrize(
    ("kind", "number"),
    [
        (TokenKind.EXTRA_TURN, 1),
        (TokenKind.PIGSTY_X2, 2),
        (TokenKind.HOUSE_X2, 3),
        (TokenKind.OPEN_ROAD, 4),
        (TokenKind.OPEN_PIGSTY, 5),
        (TokenKind.OPEN_HOUSE, 6),
        (TokenKind.MEADOW_4, 7),
        (TokenKind.FAMILY_PLUS_2, 8),
        (TokenKind.FIVE_POINTS, 9),
    ],
)
def test_c4_wall_tile_numbers_map_to_effects(kind: TokenKind, number: int) -> None:
    assert printed_number(kind, "castle2003") == number
    assert kind_from_printed(number, "castle2003") is kind
    assert printed_number(kind, "zamek") == int(kind)
    assert kind_from_printed(int(kind), "zamek") is kind
    assert token_name(kind, "en", "castle2003").startswith(f"wall tile {number} (")
    assert token_name(kind, "pl", "castle2003").startswith(f"żeton murów {number} (")
    assert token_name(kind, "en", "zamek").startswith(f"special token {int(kind)} (")


def test_c4_wall_tile_names_use_2003_words() -> None:
    assert token_name(TokenKind.PIGSTY_X2, "en", "castle2003") == "wall tile 2 (tower x2)"
    assert token_name(TokenKind.OPEN_ROAD, "en", "castle2003") == "wall tile 4 (unfinished path)"
    assert token_name(TokenKind.MEADOW_4, "en", "castle2003") == "wall tile 7 (courtyard: 4 per market stall)"
    assert token_name(TokenKind.FAMILY_PLUS_2, "en", "castle2003") == "wall tile 8 (keep +2 tiles)"


def test_c4_numbers_2_to_7_need_control_in_2003_too() -> None:
    # Wall tiles 5 and 6 (unfinished tower, unfinished house) skip Black's features for White.
    g = open_features("castle2003")
    give(g, 0, TokenKind.OPEN_PIGSTY, TokenKind.OPEN_PIGSTY, TokenKind.OPEN_HOUSE, TokenKind.OPEN_HOUSE,
         TokenKind.OPEN_HOUSE)
    assert open_points(g, "pigsty", 0) == [(2, 2, 4)]
    assert open_points(g, "house", 0) == [(2, 1, 2), (1, 1, 1)]


def test_c2_pieces_are_the_same_in_2003() -> None:
    g = new_game(["H1"], edition="castle2003")
    assert g.supply == [6, 6] and g.princes == [0, 0] and g.falconers == [0, 0]
    play(g, "draw:H1", "j4/0")
    with pytest.raises(IllegalActionError):
        g.play(Follower(0, Piece.PRINCE))
    g.play(Follower(0))
    assert scored(g) == [("house", 0, 2)]


def test_z15_z19_order_is_asked_when_it_decides_which_x2_token_is_left() -> None:
    # White at 8 holds a house x2 and a pigsty x2; c8 closes White's house b8-c8 (2) and a pigsty on c8
    # (2). Doubling whichever comes first reaches tower 12/13 and ends on 14 either way, but the token
    # left for later is the other one: the order is the player's choice (Z15).
    tiles = [
        tile_toml("T1", house(3, 4, 5), meadow(0, 1, 2, 6, 7, 8, 9, 10, 11)),
        tile_toml("T2", meadow(*range(12))),
        tile_toml("T3", pigsty(0, 1, 2), house(9, 10, 11), meadow(3, 4, 5, 6, 7, 8)),
        TILES["SPARE"],
    ]
    g = custom_game(tiles, ["T1", "T2", "T3", "SPARE"])
    step(g, "b8/0", "follower:0")
    step(g, "b7/0")
    g = marker(g, 0, 8)
    give(g, 0, TokenKind.HOUSE_X2, TokenKind.PIGSTY_X2)
    step(g, "c8/0", "follower:0")
    assert phase(g) is Phase.ORDER
    kinds = [f.kind for f in g.order_choices()]
    g.play(Order(kinds.index(FeatureKind.PIGSTY)))
    assert phase(g) is Phase.DOUBLE
    g.play(UseToken(TokenKind.PIGSTY_X2))  # 8 -> 12, tower 12/13
    g.play(Reveal(TokenKind.FIVE_POINTS))
    g.play(Decline())  # the house as it is: 12 -> 14
    assert g.scores[0] == 14
    assert [t.kind for t in g.tokens[0]] == [TokenKind.HOUSE_X2, TokenKind.FIVE_POINTS]
