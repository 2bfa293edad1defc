"""The Sokół (Falcon) expansion and the gate-guard variant: RULES.md F1-F8; and random games of
every rule set (Zamek / The Castle 2003, without Sokół, with Sokół, with Sokół and the gate guard).

Positions are built in the real Sokół castle with custom tiles and a fixed draw order
(``tests.helpers.custom_game``); those of F7 and F8, where the markers stand near the gates, are
written in the position notation over the same tiles (``tests.helpers.position``, docs/positions.md,
"Positions as text"). The Sokół castle's start spaces: S1 faces a7 (W, road), S2 b9
(N, pigsty), S3 e11 (N, meadow with a shrine), S4 j9 (N, road), S5 k4 (E, house), S6 g3 (S, road),
S7 d3 (S, road), G1 f11 (N, chapel), G2 a6 (W, road with a falcon nest). Tiles are written in board
orientation; mid-game positions add ``SPARE`` so that the game does not end.

Player 0 is White, player 1 Black, as in the rulebook's example.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import (
    ALL,
    changed,
    chapel,
    custom_game,
    feature,
    holding,
    house,
    marker,
    meadow,
    pigsty,
    play,
    position,
    road,
    tile_toml,
    with_fields,
)
from zamek.castle.data import loader as datafiles
from zamek.castle.data.loader import load_castle, parse_tileset, rules_for
from zamek.castle.record import make_record, replay
from zamek.castle.rules import rulesets
from zamek.castle.rules.actions import Action, Decline, Follower, Piece, PlayerAction, UseToken, parse_action
from zamek.castle.rules.breakdown import ScoreItem, totals
from zamek.castle.rules.editions import Edition
from zamek.castle.rules.errors import DataError, IllegalActionError
from zamek.castle.rules.scoring import CHAPEL_POINTS, advance_marker, chapel_points
from zamek.castle.rules.setup import FOLLOWERS_IN_SUPPLY, HeldToken, Phase, Setup
from zamek.castle.rules.state import GameState
from zamek.castle.rules.tiles import FeatureKind
from zamek.castle.rules.tokens import TokenKind
from zamek.castle.runner import sample_chance

# ---------------------------------------------------------------------------- building blocks


REST_OF_NORTH = (3, 4, 5, 6, 7, 8, 9, 10, 11)

TILES = {
    # k4/0 closes S5's house (2 tiles); j4/0 or h4/0 closes a house left open to the west.
    "H1": tile_toml("H1", house(3, 4, 5), meadow(0, 1, 2, 6, 7, 8, 9, 10, 11)),
    # k4/0 closes S5's house, with a falcon nest.
    "HN": tile_toml("HN", house(3, 4, 5, nests=1), meadow(0, 1, 2, 6, 7, 8, 9, 10, 11)),
    # Houses running east-west: k4/0 extends S5's house, open to the west. A and B differ by shrines.
    "H2": tile_toml("H2", house(3, 4, 5, 9, 10, 11), meadow(0, 1, 2), meadow(6, 7, 8)),
    "H2A": tile_toml("H2A", house(3, 4, 5, 9, 10, 11), meadow(0, 1, 2, shrines=1), meadow(6, 7, 8)),
    "H2B": tile_toml("H2B", house(3, 4, 5, 9, 10, 11), meadow(0, 1, 2, shrines=2), meadow(6, 7, 8)),
    # b9/0 closes S2's pigsty (2 tiles); b8/0 closes a pigsty left open to the south by b9.
    "PG1": tile_toml("PG1", pigsty(0, 1, 2), meadow(*REST_OF_NORTH)),
    "PGN": tile_toml("PGN", pigsty(0, 1, 2, nests=1), meadow(*REST_OF_NORTH)),
    # b9/0 extends S2's pigsty, open to the south.
    "PG2": tile_toml("PG2", pigsty(0, 1, 2, 6, 7, 8), meadow(3, 4, 5), meadow(9, 10, 11)),
    # f11/0 closes G1's chapel (2 tiles).
    "C1": tile_toml("C1", chapel(0, 1, 2), meadow(*REST_OF_NORTH)),
    "CN": tile_toml("CN", chapel(0, 1, 2, nests=1), meadow(*REST_OF_NORTH)),
    # a6/0: G2's road (with its nest) ends at once at the house (2 tiles).
    "R1": tile_toml("R1", house(0, 1, 2), meadow(3, 4, 5, 6, 7, 8, 9), road(10), meadow(11)),
    # a6/0: G2's road goes on east, open; a7/0: S1's road goes on east, open.
    "STRAIGHT": tile_toml("STRAIGHT", road(4, 10), meadow(11, 0, 1, 2, 3), meadow(5, 6, 7, 8, 9)),
    "STRAIGHT2": tile_toml("STRAIGHT2", road(4, 10), meadow(11, 0, 1, 2, 3, shrines=1), meadow(5, 6, 7, 8, 9)),
    # b7/0 turns a road from the west to the south; b6/0 joins a road from the north to one from the west.
    "CURVE": tile_toml("CURVE", road(7, 10), meadow(8, 9), meadow(11, 0, 1, 2, 3, 4, 5, 6)),
    "CURVE2": tile_toml("CURVE2", road(1, 10), meadow(11, 0), meadow(2, 3, 4, 5, 6, 7, 8, 9, shrines=1)),
    # d3/0: S7's road goes north past stocks, open; d4/0 ends it at a house.
    "RS": tile_toml("RS", road(1, 7, stocks=1), meadow(2, 3, 4, 5, 6), meadow(8, 9, 10, 11, 0)),
    "RE": tile_toml("RE", road(7), meadow(8, 9, 10, 11), house(0, 1, 2), meadow(3, 4, 5, 6)),
    "M0": tile_toml("M0", meadow(*ALL)),
    "M1": tile_toml("M1", meadow(*ALL, shrines=1)),
    "M2": tile_toml("M2", meadow(*ALL, shrines=2)),
    # a8/0 closes a house to the south (a7) and a pigsty to the north (a9).
    "A8": tile_toml("A8", house(6, 7, 8), meadow(9, 10, 11), pigsty(0, 1, 2), meadow(3, 4, 5)),
    # The rulebook's example (see ``example``).
    "B9": tile_toml("B9", pigsty(0, 1, 2), meadow(3, 4, 5), chapel(6, 7, 8), meadow(9, 10, 11)),
    "B8": tile_toml("B8", chapel(0, 1, 2, 6, 7, 8, nests=1), meadow(3, 4, 5), meadow(9, 10, 11)),
    "B7": tile_toml("B7", chapel(0, 1, 2, 3, 4, 5, 6, 7, 8), meadow(9, 10, 11)),
    "C7": tile_toml("C7", chapel(9, 10, 11, nests=1), meadow(0, 1, 2, 3, 4, 5, 6, 7, 8)),
    "B5": tile_toml("B5", road(1, 7), meadow(2, 3, 4, 5, 6), meadow(8, 9, 10, 11, 0, shrines=1)),
    "B4": tile_toml("B4", road(1, 4, nests=1), meadow(2, 3), meadow(5, 6, 7, 8, 9, 10, 11, 0)),
    "TSTAR": tile_toml("TSTAR", chapel(0, 1, 2), meadow(3, 4, 5, 6), road(7), meadow(8, 9), road(10), meadow(11)),
    "TJOIN": tile_toml("TJOIN", chapel(0, 1, 2), meadow(3, 4, 5, 6), road(7, 10), meadow(8, 9), meadow(11)),
    # Never drawn: it keeps a game from ending.
    "SPARE": tile_toml("SPARE", pigsty(0, 1, 2, 3, 4, 5), house(6, 7, 8, 9, 10, 11)),
}
# Chapels running north-south, told apart by their nests: f11/0, f10/0, ... extend G1's chapel.
for _k in range(7):
    TILES[f"CNS{_k}"] = tile_toml(f"CNS{_k}", chapel(0, 1, 2, 6, 7, 8, nests=_k), meadow(3, 4, 5), meadow(9, 10, 11))


def new_game(
    order: list[str],
    *,
    edition: str = "zamek",
    gate_guard: bool = False,
    first_player: int = 0,
    spare: bool = True,
) -> GameState:
    """Return a Sokół game whose tile set is exactly the tiles of ``order`` (plus SPARE), drawn in that order."""
    order = [*order, "SPARE"] if spare else order
    return custom_game(
        [TILES[t] for t in order], order, edition=edition, sokol=True, gate_guard=gate_guard, first_player=first_player
    )


def phase(g: GameState) -> Phase:
    """Return the phase (a call, so that type checkers do not narrow it across actions)."""
    return g.phase


def step(g: GameState, place: str, follower: str = "pass") -> GameState:
    """Draw the next tile of the fixed order, place it, then place a figure or pass."""
    ((outcome, _),) = g.chance_outcomes()
    g.play(outcome)
    g.play(parse_action(place))
    g.play(parse_action(follower))
    return g


def draw_and_place(g: GameState, place: str) -> None:
    ((outcome, _),) = g.chance_outcomes()
    g.play(outcome)
    g.play(parse_action(place))


def give(g: GameState, player: int, *kinds: int, turn: int = 0) -> None:
    """Hand ``player`` tokens of ``kinds``, taken in ``turn``: by default turn 0, before the game, so usable at once.

    Written into the state directly on purpose, as in test_rules_tokens: no position holds a token from before the
    game (a position's tokens were each taken in a turn of the game, from a tower emptied for it)."""
    for kind in kinds:
        g.tokens[player].append(HeldToken(kind, turn))


def items(g: GameState, reason: str, player: int | None = None) -> list[ScoreItem]:
    return [i for i in g.final_items() if i.reason == reason and (player is None or i.player == player)]


def lines(log: list[ScoreItem]) -> list[tuple[str, int | None, int, int]]:
    """Return (reason, player, points, nests) of breakdown lines."""
    return [(i.reason, i.player, i.points, i.nests) for i in log]


def figures(g: GameState, player: int) -> int:
    """Return every figure of a player: supply, princes, falconers and those in the castle."""
    on_board = sum(1 for f in g.followers if f.player == player)
    return g.supply[player] + g.princes[player] + g.falconers[player] + on_board


# ------------------------------------------------------------------------------------------ F1


def test_f1_sokol_castle_has_95_spaces_9_start_spaces_and_4_gates() -> None:
    castle = load_castle("sokol")
    assert len(castle.interior) == 95
    assert len(castle.starts) == 9
    assert sorted(castle.gates) == [27, 47, 69, 91]
    faces = {s.id: (castle.name_of(s.faces), s.side.name) for s in castle.starts}
    assert faces["G1"] == ("f11", "N") and faces["G2"] == ("a6", "W")
    assert [f.kind for f in next(s for s in castle.starts if s.id == "G1").features] == [FeatureKind.CHAPEL]
    # The towers keep the base castle's track numbers.
    base = load_castle("zamek")
    assert [t.track for t in castle.towers] == [t.track for t in base.towers]
    assert [t.holds_token for t in castle.towers] == [t.holds_token for t in base.towers]


def test_f1_78_tiles_and_a_prince_and_a_falconer_each() -> None:
    setup = Setup(sokol=True)
    rules = rules_for(setup)
    assert len(rules.tiles) == 78
    assert len(rules.castle.interior) == 95
    g = datafiles.new_game(setup)
    assert g.supply == [FOLLOWERS_IN_SUPPLY] * 2 == [6, 6]
    assert g.princes == [1, 1] and g.falconers == [1, 1]
    assert g.nests == [0, 0]
    assert figures(g, 0) == figures(g, 1) == 8
    base = datafiles.new_game(Setup())
    assert base.princes == [0, 0] and base.falconers == [0, 0]
    assert len(base.tiles) == 60
    # The 2003 edition takes the expansion the same way.
    g2003 = datafiles.new_game(Setup(edition=Edition.CASTLE_2003, sokol=True))
    assert len(g2003.tiles) == 78 and g2003.princes == [1, 1]


def test_f1_gate_guard_needs_sokol() -> None:
    with pytest.raises(ValueError):
        Setup(gate_guard=True)
    assert Setup(sokol=True, gate_guard=True).gate_guard


def test_f1_no_prince_or_falconer_without_sokol() -> None:
    g = custom_game([TILES["H1"], TILES["SPARE"]], ["H1", "SPARE"])  # the Zamek castle: S5 faces j4
    assert g.princes == [0, 0]
    draw_and_place(g, "j4/0")
    assert all(a.piece is Piece.FOLLOWER for a in g.legal_actions() if isinstance(a, Follower))
    for piece in (Piece.PRINCE, Piece.FALCONER):
        with pytest.raises(IllegalActionError):
            g.play(Follower(1, piece))


# ------------------------------------------------------------------------------------------ F2


def test_f2_chapel_points_table() -> None:
    assert [chapel_points(n) for n in range(1, 11)] == [1, 3, 6, 10, 15, 21, 28, 36, 36, 36]
    assert CHAPEL_POINTS[1:] == (1, 3, 6, 10, 15, 21, 28, 36)


@pytest.mark.parametrize("size", range(2, 10))
def test_f2_complete_chapel_scores_by_its_size(size: int) -> None:
    # G1 (a start space counts as a tile), chapels running south from f11, closed by C1.
    middle = [f"CNS{k}" for k in range(size - 2)]
    g = new_game([*middle, "C1"])
    for row, _ in enumerate(middle):
        step(g, f"f{11 - row}/0", "follower:0" if row == 0 else "pass")
    step(g, f"f{13 - size}/0", "follower:0" if not middle else "pass")
    if phase(g) is Phase.REVEAL:  # 36 points end on tower 36/37
        g.play(g.chance_outcomes()[0][0])
    (item,) = g.log
    assert (item.reason, item.player, item.count, item.points) == ("chapel", 0, 1, chapel_points(size))
    assert f"chapel-size:{size}" in item.details
    assert g.scores[0] == [0, 0, 3, 6, 10, 15, 21, 28, 36, 36][size]
    assert g.nests[0] == sum(range(size - 2))
    assert g.supply[0] == 6  # the preacher went home


def test_f2_unfinished_chapel_never_scores() -> None:
    g = new_game(["CNS0"], spare=False)
    give(g, 0, TokenKind.OPEN_HOUSE, TokenKind.OPEN_PIGSTY, TokenKind.OPEN_ROAD)
    step(g, "f11/0", "follower:0")
    assert g.is_over()
    assert [i for i in g.log if i.reason == "chapel"] == []
    assert [i for i in g.log if i.player == 0 and i.points] == []
    assert g.scores[0] == 0


def test_f2_chapel_is_placed_like_a_house() -> None:
    # A chapel is a building: it completes against G1's chapel, and no road may meet its side.
    g = new_game(["C1"])
    draw_and_place(g, "f11/0")
    assert g.feature_at("f11", 0).kind is FeatureKind.CHAPEL
    g = new_game(["C1"])
    ((outcome, _),) = g.chance_outcomes()
    g.play(outcome)
    with pytest.raises(IllegalActionError):
        g.play(parse_action("a6/0"))  # G2's road would meet the chapel's meadow


# ------------------------------------------------------------------------------------------ F3


@pytest.mark.parametrize("piece", [Piece.PRINCE, Piece.FALCONER])
def test_f3_prince_and_falconer_not_on_a_feature_the_tile_completes(piece: Piece) -> None:
    g = new_game(["C1"])
    draw_and_place(g, "f11/0")  # closes G1's chapel
    legal = g.legal_actions()
    assert Follower(0) in legal  # an ordinary follower may (Z11)
    assert Follower(0, piece) not in legal
    assert Follower(1, piece) in legal  # the meadow is not complete
    with pytest.raises(IllegalActionError, match="F3"):
        g.play(Follower(0, piece))
    g.play(Follower(0))
    assert [(i.reason, i.player, i.points) for i in g.log] == [("chapel", 0, 3)]


@pytest.mark.parametrize("piece", [Piece.PRINCE, Piece.FALCONER])
def test_f3_prince_and_falconer_on_an_unfinished_feature(piece: Piece) -> None:
    g = new_game(["H2"])
    step(g, "k4/0", f"{piece.key}:0")
    assert g.feature_at("k4", 0).followers == (1, 0)
    assert (g.princes[0], g.falconers[0]) == ((0, 1) if piece is Piece.PRINCE else (1, 0))
    assert g.supply[0] == 6
    assert figures(g, 0) == 8


def tie_roads(prince_for_black: bool = True) -> GameState:
    """Black's prince on G2's road (a6), White's falconer on S1's road (a7); b7 and b6 join them."""
    g = new_game(["STRAIGHT", "STRAIGHT2", "CURVE", "CURVE2"], first_player=1)
    step(g, "a6/0", "prince:0" if prince_for_black else "pass")
    step(g, "a7/0", "falconer:0")
    step(g, "b7/0")
    return g


def test_f3_f5_prince_and_falconer_count_one_each_a_tie_gives_no_points_and_no_nests() -> None:
    g = tie_roads()
    step(g, "b6/0")  # G2-a6-b6-b7-a7-S1: 6 tiles, G2's nest
    (item,) = [i for i in g.log if i.reason == "road"]
    assert item.player is None and item.points == 0 and item.nests == 0
    assert g.scores == [0, 0]
    assert g.nests == [0, 0]
    # Both figures went home.
    assert g.princes == [1, 1] and g.falconers == [1, 1]
    assert g.followers == []


def test_f3_f5_without_the_tie_the_falconer_scores_and_adds_a_nest() -> None:
    g = tie_roads(prince_for_black=False)
    step(g, "b6/0")
    assert lines(g.log) == [("road", 0, 6, 2)]  # G2's nest and the falconer's
    assert g.nests == [2, 0]


# ------------------------------------------------------------------------------------------ F4


def test_f4_prince_doubles_a_completed_house() -> None:
    g = new_game(["H2", "M0", "H1"])
    step(g, "k4/0", "prince:0")
    step(g, "e11/0")
    step(g, "j4/0")  # S5 + k4 + j4
    (item,) = g.log
    assert (item.reason, item.player, item.count, item.rate, item.multiplier, item.points) == ("house", 0, 3, 1, 2, 6)
    assert "prince" in item.details
    assert g.princes[0] == 1  # the prince went home


def test_f4_prince_and_stocks_give_4_per_tile() -> None:
    g = new_game(["RS", "M0", "RE"])
    step(g, "d3/0", "prince:0")
    step(g, "e11/0")
    step(g, "d4/0")  # S7 + d3 + d4, stocks beside it
    (item,) = g.log
    assert (item.reason, item.count, item.rate, item.multiplier, item.points) == ("road", 3, 2, 2, 12)
    assert {"stocks", "prince"} <= set(item.details)


@pytest.mark.parametrize(
    ("open_tile", "close_tile", "close", "token", "points"),
    [("H2", "H1", "j4/0", TokenKind.HOUSE_X2, 3), ("PG2", "PG1", "b8/0", TokenKind.PIGSTY_X2, 6)],
)
@pytest.mark.parametrize("piece", ["prince", "follower"])
def test_f4_x2_tokens_not_offered_on_a_prince_doubled_feature(
    open_tile: str, close_tile: str, close: str, token: TokenKind, points: int, piece: str
) -> None:
    g = new_game([open_tile, "M0", close_tile])
    step(g, "k4/0" if open_tile == "H2" else "b9/0", f"{piece}:0")
    step(g, "e11/0")
    g = marker(g, 0, 2)  # keep clear of the towers
    give(g, 0, token)
    step(g, close)
    if piece == "prince":  # points are doubled at most once
        assert phase(g) is Phase.DRAW
        assert g.scores[0] == 2 + 2 * points
        assert g.tokens[0] == [HeldToken(token, 0)]
    else:
        assert phase(g) is Phase.DOUBLE
        assert g.legal_actions() == [UseToken(token), Decline()]
        g.play(UseToken(token))
        assert g.scores[0] == 2 + 2 * points
        assert g.tokens[0] == []


def test_f4_prince_doubles_meadow_scoring_and_combines_with_token_4() -> None:
    g = new_game(["M2"])
    step(g, "e11/0", "prince:0")  # S3's shrine and 2 more: 3 shrines
    (item,) = items(g, "meadow", 0)
    assert (item.count, item.rate, item.multiplier, item.points) == (3, 3, 2, 18)
    assert "prince" in item.details
    g = holding(g, 0, TokenKind.MEADOW_4)
    (item,) = items(g, "meadow", 0)
    assert (item.count, item.rate, item.multiplier, item.points) == (3, 4, 2, 24)  # 8 per shrine
    assert {"prince", "token:4"} <= set(item.details)


@pytest.mark.parametrize(
    ("tile", "place", "token", "reason", "plain"),
    [
        ("H2", "k4/0", TokenKind.OPEN_HOUSE, "house", 2),
        ("PG2", "b9/0", TokenKind.OPEN_PIGSTY, "pigsty", 4),
        ("STRAIGHT", "a6/0", TokenKind.OPEN_ROAD, "road", 2),
    ],
)
@pytest.mark.parametrize("piece", ["prince", "follower"])
def test_f4_prince_doubles_end_tokens_7_8_9(
    tile: str, place: str, token: TokenKind, reason: str, plain: int, piece: str
) -> None:
    g = new_game([tile])
    step(g, place, f"{piece}:0")
    g = holding(g, 0, token)
    (item,) = items(g, reason, 0)
    assert f"token:{int(token)}" in item.details
    if piece == "prince":
        assert (item.points, item.multiplier) == (2 * plain, 2)
        assert "prince" in item.details
    else:
        assert (item.points, item.multiplier) == (plain, 1)


def test_f4_end_token_goes_where_the_prince_makes_it_worth_most() -> None:
    # White: a 3-tile house with a follower (S5, k4, j4: 3 points) and a 2-tile house with the
    # prince (e11, e10: 2 x 2 = 4 points). One token 7 takes the prince's house.
    g = new_game(["H2", "H2A", "H1", "H2B"])
    step(g, "k4/0", "follower:0")
    step(g, "j4/0")
    step(g, "e11/90", "prince:0")
    step(g, "e10/90")  # turned north-south
    g = holding(g, 0, TokenKind.OPEN_HOUSE)
    (item,) = items(g, "house", 0)
    assert (item.count, item.multiplier, item.points) == (2, 2, 4)
    g = holding(g, 0, TokenKind.OPEN_HOUSE)
    assert sorted(i.points for i in items(g, "house", 0)) == [3, 4]


# ------------------------------------------------------------------------------------------ F5


@pytest.mark.parametrize(
    ("tile", "place", "follower", "reason", "points"),
    [
        ("HN", "k4/0", "follower:0", "house", 2),
        ("PGN", "b9/0", "follower:0", "pigsty", 4),
        ("CN", "f11/0", "follower:0", "chapel", 3),
        ("R1", "a6/0", "follower:2", "road", 2),  # the nest is on G2, a start space
    ],
)
def test_f5_nests_are_taken_with_a_scored_feature(
    tile: str, place: str, follower: str, reason: str, points: int
) -> None:
    g = new_game([tile])
    step(g, place, follower)
    assert lines(g.log) == [(reason, 0, points, 1)]
    assert g.nests == [1, 0]


def test_f5_falconer_adds_a_nest_for_its_owner() -> None:
    g = new_game(["H2", "H1"])
    step(g, "k4/0", "falconer:0")
    step(g, "j4/0")  # Black closes White's house: White scores and takes the falconer's nest
    assert lines(g.log) == [("house", 0, 3, 1)]
    assert g.nests == [1, 0]
    assert g.falconers == [1, 1]


def test_f5_nest_counts_are_exact_beyond_the_12_tokens() -> None:
    g = new_game(["HN"])
    g = changed(g, nests=(12, 12))
    step(g, "k4/0", "follower:0")
    assert g.nests == [13, 12]


def test_f5_nests_on_meadows_never_count() -> None:
    bad = tile_toml("BAD", feature("meadow", ALL, nests=1))
    with pytest.raises(DataError, match="nest"):
        parse_tileset(bad, "test")
    # A falconer lying on a meadow brings no nest at the end.
    g = new_game(["M2"], spare=False)
    step(g, "e11/0", "falconer:0")
    assert g.is_over()
    (item,) = [i for i in g.log if i.reason == "meadow"]
    assert (item.player, item.points, item.nests) == (0, 9, 0)
    assert g.nests == [0, 0]
    (nest_line,) = [i for i in g.log if i.reason == "nests"]
    assert nest_line.player is None


# ------------------------------------------------------------------------------------------ F6


@pytest.mark.parametrize(("nests", "winner"), [((3, 1), 0), ((0, 2), 1), ((2, 2), None), ((0, 0), None)])
def test_f6_more_nests_score_the_largest_empty_area(nests: tuple[int, int], winner: int | None) -> None:
    g = new_game(["M0"])
    step(g, "e11/0")
    g = changed(g, nests=nests)
    area = g.largest_empty_area()
    assert area == 94
    (item,) = items(g, "nests")
    assert item.player == winner
    assert item.points == (area if winner is not None else 0)
    assert item.count == area


def test_f6_nests_are_scored_when_the_game_ends() -> None:
    g = new_game(["HN", "M0"], spare=False)
    step(g, "k4/0", "follower:0")  # 2 points and a nest; S5's house becomes White's family house
    step(g, "e11/0")
    assert g.is_over()
    area = 95 - 2
    assert g.largest_empty_area() == area
    final = [(i.reason, i.player, i.points) for i in g.log if i.final]
    assert ("nests", 0, area) in final
    assert ("family-house", 0, area) in final
    assert g.scores == [2 + area + area, 0]


def test_f6_no_nest_scoring_without_sokol() -> None:
    g = datafiles.new_game(Setup())
    assert [i for i in g.final_items() if i.reason == "nests"] == []


# ------------------------------------------------------------------------------------------ F7

# The F7 and F8 positions are written in the position notation (docs/positions.md) over the
# custom tiles named in them; the towers named in ``towers=`` still hold their tokens.
TOWERS = "12,19,23,32,36,43,56,59,65,71,76,88,94"

# White's house from S5 west over k4, j4 and i4, with White's squire on k4; Black, to place H1, closes it at
# h4 next: 5 tiles, 5 points for White. G1's chapel (C1 closes it at f11) is still to come.
FIVE_TILE_HOUSE = (
    "zamek+sokol+gate-guard board=2 tiles=H2B@i4/0,H2A@j4/0,H2@k4/0 figures=0f:k4.0 score=25/0"
    f" supply=5f1p1h/6f1p1h tokens=-/- towers={TOWERS} pool=222222222 family=-/- nests=0/0"
    " left=C1,SPARE out=- turn=4 player=1 phase=place:H1"
)
FIVE_TILE_HOUSE_TILES = [TILES[t] for t in ("H2", "H2A", "H2B", "H1", "C1", "SPARE")]


def five_tile_house(rules: str = "zamek+sokol+gate-guard", **fields: str) -> GameState:
    """The position FIVE_TILE_HOUSE under ``rules``, with ``fields`` changed (``score="27/0"``)."""
    return position(with_fields(FIVE_TILE_HOUSE, rules, **fields), *FIVE_TILE_HOUSE_TILES)


def test_f7_without_gate_guard_gates_change_no_score() -> None:
    g = five_tile_house("zamek+sokol", score="25/0")
    play(g, "h4/0", "pass")
    assert g.scores[0] == 30
    (item,) = g.log
    assert (item.points, item.lost) == (5, 0)
    assert g.on_gate == [False, False]


@pytest.mark.parametrize("start", [25, 45, 67, 89, 125])
def test_f7_markers_pass_the_gates(start: int) -> None:
    # Without the guard a 5-point house carries the marker over the gate after 27, 47, 69, 91 (127).
    # A marker stands on a tower only once it has taken the token there (Z16): on 89 the tower 88/89 is
    # empty, its token (an extra turn, 1) used.
    emptied = {"towers": TOWERS.replace(",88,", ","), "pool": "122222222"} if start == 89 else {}
    g = five_tile_house("zamek+sokol", score=f"{start}/0", **emptied)
    assert any(start < gate + 100 * lap <= start + 5 for gate in g.castle.gates for lap in (0, 1))
    play(g, "h4/0", "pass")
    assert g.scores[0] == start + 5 and g.on_gate == [False, False]
    assert [(i.points, i.lost) for i in g.log] == [(5, 0)]


# ------------------------------------------------------------------------------------------ F8


@pytest.mark.parametrize("edition", ["zamek", "castle2003"])
def test_f8_gate_guard_stops_at_27(edition: str) -> None:
    g = five_tile_house(f"{edition}+sokol+gate-guard", score="25/0")
    play(g, "h4/0", "pass")
    assert g.scores[0] == 27
    assert g.on_gate == [True, False]
    (item,) = g.log
    assert (item.reason, item.player, item.points, item.lost) == ("house", 0, 2, 3)
    # The next movement leaves the gate to 28 with its first point: G1's chapel, 3 points.
    play(g, "draw:C1", "f11/0", "follower:0")
    assert g.scores[0] == 30
    assert g.on_gate == [False, False]
    assert (g.log[-1].points, g.log[-1].lost) == (3, 0)


def test_f8_marker_exactly_on_27_is_stopped_by_its_next_movement() -> None:
    g = five_tile_house(score="27/0")
    play(g, "h4/0", "pass")
    assert g.scores[0] == 27
    assert g.on_gate[0]
    (item,) = g.log
    assert (item.points, item.lost) == (0, 5)


def test_f8_gates_stop_markers_on_later_laps() -> None:
    g = five_tile_house(score="125/0")
    play(g, "h4/0", "pass")
    assert g.scores[0] == 127
    assert g.on_gate[0]
    assert g.log[-1].lost == 3


def test_f8_gate_guard_not_at_final_scoring() -> None:
    # White to place the last tile, at 25 with two 5-point tokens (6) from the towers 12/13 and 19/20.
    g = position(
        "zamek+sokol+gate-guard board=2 tiles=- figures=- score=25/0 supply=6f1p1h/6f1p1h tokens=6@1,6@1/-"
        " towers=23,32,36,43,56,59,65,71,76,88,94 pool=222220222 family=-/- nests=0/0 left=- out=- turn=1 player=0"
        " phase=place:M0",
        TILES["M0"],
    )
    play(g, "e11/0", "pass")
    assert g.is_over()
    assert g.scores[0] == 35
    assert sum(i.lost for i in g.log) == 0


def test_f8_gate_stops_only_the_scoring_players_marker() -> None:
    g = five_tile_house(score="25/25")
    play(g, "h4/0", "pass")
    assert g.scores == [27, 25]
    assert g.on_gate == [True, False]


@pytest.mark.parametrize(
    ("score", "on_gate", "points", "expected"),
    [
        (25, False, 5, (27, True)),  # 2 points to 27, the third steps onto the gate, 2 more are lost
        (25, False, 2, (27, False)),  # ends on 27, before the gate
        (27, False, 1, (27, True)),
        (27, True, 1, (28, False)),  # leaves the gate with its first point
        (27, True, 4, (31, False)),
        (27, True, 21, (47, True)),  # ... and is stopped by the next gate
        (45, False, 10, (47, True)),
        (60, False, 20, (69, True)),
        (90, False, 3, (91, True)),
        (91, True, 3, (94, False)),
        (125, False, 5, (127, True)),
        (189, False, 5, (191, True)),
        (28, False, 18, (46, False)),
    ],
)
def test_f8_advance_marker(score: int, on_gate: bool, points: int, expected: tuple[int, bool]) -> None:
    assert advance_marker(score, on_gate, points, frozenset({27, 47, 69, 91})) == expected


# White's house a7 (from S1's road) and pigsty a9, White's squire and farmer on them, are closed together by
# A8 on a8 (2 and 4 points). White's marker is on 66: it took the token of the tower 65/66 there (an extra
# turn, 1, since used).
A_COLUMN = (
    "zamek+sokol+gate-guard board=2 tiles=R1@a7/0,PG1@a9/180,M0@b9/0,M1@e11/0 figures=0f:a7.0,0f:a9.0"
    " score=66/0 supply=4f1p1h/6f1p1h tokens=-/- towers=12,19,23,32,36,43,56,59,71,76,88,94 pool=122222222"
    " family=-/- nests=0/0 left=SPARE out=- turn=5 player=0 phase=place:A8"
)


def a_column(gate_guard: bool) -> GameState:
    rules = "zamek+sokol+gate-guard" if gate_guard else "zamek+sokol"
    return position(with_fields(A_COLUMN, rules), *(TILES[t] for t in ("R1", "M0", "PG1", "M1", "A8", "SPARE")))


def test_f8_z15_order_choice_sees_the_gate() -> None:
    # From 66 without the guard: 70 then 72, or 68 then 72; both end on tower 71/72: no choice.
    g = a_column(gate_guard=False)
    play(g, "a8/0", "pass")
    assert phase(g) is Phase.REVEAL and g.scores[0] == 72
    # With the guard the pigsty first stops on the gate after 69 and the house then ends on tower
    # 71/72; the house first ends on 68 and the pigsty then stops on the gate: the order decides.
    g = a_column(gate_guard=True)
    play(g, "a8/0", "pass")
    assert phase(g) is Phase.ORDER
    kinds = [f.kind for f in g.order_choices()]
    g.play(parse_action(f"order:{kinds.index(FeatureKind.PIGSTY)}"))
    assert phase(g) is Phase.REVEAL
    assert g.scores[0] == 71 and not g.on_gate[0]
    assert [(i.reason, i.points, i.lost) for i in g.log] == [("pigsty", 3, 1), ("house", 2, 0)]


@pytest.mark.parametrize(("first", "score", "on_gate", "log"), [
    (FeatureKind.HOUSE, 69, True, [("house", 2, 0), ("pigsty", 1, 3)]),
    (FeatureKind.PIGSTY, 71, False, [("pigsty", 3, 1), ("house", 2, 0)]),
])
def test_f8_z15_chosen_order_can_lose_the_token_at_the_gate(
    first: FeatureKind, score: int, on_gate: bool, log: list[tuple[str, int, int]]
) -> None:
    # From 66 with the guard: the house first leaves the pigsty stopped on the gate after 69, short of
    # tower 71/72; the pigsty first, and the house carries the marker on to the tower's token.
    g = a_column(gate_guard=True)
    play(g, "a8/0", "pass")
    kinds = [f.kind for f in g.order_choices()]
    g.play(parse_action(f"order:{kinds.index(first)}"))
    assert phase(g) is (Phase.DRAW if on_gate else Phase.REVEAL)
    assert g.scores[0] == score and g.on_gate[0] is on_gate
    assert [(i.reason, i.points, i.lost) for i in g.log] == log
    assert g.tokens[0] == []


# White's farmer on the pigsty a8, open to the south only, and S1's road waiting at a7: White's RPN on a7
# closes the road (S1, a7: 2 tiles, 2 points) and the pigsty (a7, a8: 2 tiles, 4 points), and White puts
# a herald on the road as it closes (Z11). White's marker is on 25, two spaces before the gate after 27.
ROAD_AND_PIGSTY_COLUMN = (
    "zamek+sokol+gate-guard board=2 tiles=PS@a8/0,M1@b8/0,M0@b9/0,M2@e11/0 figures=0f:a8.0 score=25/0"
    f" supply=5f1p1h/6f1p1h tokens=-/- towers={TOWERS} pool=222222222 family=-/- nests=0/0"
    " left=SPARE out=- turn=5 player=0 phase=place:RPN"
)


def road_and_pigsty_column(gate_guard: bool) -> GameState:
    tiles = [
        TILES["M0"],
        TILES["M1"],
        tile_toml("PS", pigsty(6, 7, 8), meadow(9, 10, 11, 0, 1, 2, 3, 4, 5)),
        tile_toml("M2", meadow(*ALL, shrines=2)),
        tile_toml("RPN", road(10), pigsty(0, 1, 2), meadow(3, 4, 5, 6, 7, 8, 9), meadow(11)),
        TILES["SPARE"],
    ]
    rules = "zamek+sokol+gate-guard" if gate_guard else "zamek+sokol"
    return position(with_fields(ROAD_AND_PIGSTY_COLUMN, rules), *tiles)


@pytest.mark.parametrize(("first", "score", "on_gate", "log"), [
    (FeatureKind.ROAD, 27, True, [("road", 2, 0), ("pigsty", 0, 4)]),
    (FeatureKind.PIGSTY, 29, False, [("pigsty", 2, 2), ("road", 2, 0)]),
])
def test_f8_z15_order_is_asked_when_a_gate_would_swallow_points(
    first: FeatureKind, score: int, on_gate: bool, log: list[tuple[str, int, int]]
) -> None:
    # White at 25 closes a road (2) and a pigsty (4). Road first: 27, then the pigsty stops at the
    # gate after 27 and all 4 of its points are lost. Pigsty first: it stops at the gate (27), and
    # the road leaves the gate to 29. No tower is involved: the points alone make it a choice.
    g = road_and_pigsty_column(gate_guard=True)
    play(g, "a7/0", "follower:0")
    assert phase(g) is Phase.ORDER
    kinds = [f.kind for f in g.order_choices()]
    g.play(parse_action(f"order:{kinds.index(first)}"))
    assert phase(g) is Phase.DRAW
    assert g.scores[0] == score and g.on_gate[0] is on_gate
    assert [(i.reason, i.points, i.lost) for i in g.log] == log


def test_f7_z15_without_the_guard_the_same_turn_needs_no_question() -> None:
    g = road_and_pigsty_column(gate_guard=False)
    play(g, "a7/0", "follower:0")
    assert phase(g) is Phase.DRAW
    assert g.scores[0] == 31 and not g.on_gate[0]


# ----------------------------------------------------------------- the rulebook's example (F2-F5)


def example(tie: bool = False) -> GameState:
    """The Sokół rulebook's example, built up to White's last tile at b6.

    Chapel A: b9, b8, b7, c7 (nests on b8 and c7), White's falconer on it; the last tile makes 5.
    Road B: b5, b4 (a nest), c4 (ends at a house), Black's prince on b4; the last tile makes 4.
    Road C: G2 (a nest), a6; the last tile makes 3. With ``tie``, White has a follower on road C and
    the last tile joins roads B and C into one (White's follower against Black's prince).
    """
    last = "TJOIN" if tie else "TSTAR"
    turns = [
        ("B9", "b9/0", "falconer:2"),  # White; S2's pigsty closes unoccupied
        ("B8", "b8/0", "pass"),  # Black
        ("B7", "b7/0", "pass"),
        ("C7", "c7/0", "pass"),
        ("STRAIGHT", "a6/0", "follower:0" if tie else "pass"),
        ("M0", "a5/0", "pass"),
        ("B5", "b5/0", "pass"),
        ("B4", "b4/0", "prince:0"),  # Black's prince on road B
        ("R1", "c4/0", "pass"),
        ("M1", "d7/0", "pass"),
    ]
    g = new_game([t for t, _, _ in turns] + [last])
    for _, place, follower in turns:
        step(g, place, follower)
    assert g.log == [] and g.current == 0
    return g


def test_f2_f4_f5_rulebook_example() -> None:
    g = example()
    draw_and_place(g, "b6/0")
    # The tile completes chapel A, road B and road C: no prince or falconer on them, a follower may.
    legal = g.legal_actions()
    assert Follower(4) in legal  # road C
    assert Follower(4, Piece.PRINCE) not in legal
    with pytest.raises(IllegalActionError):
        g.play(Follower(4, Piece.PRINCE))
    g.play(Follower(4))
    assert phase(g) is Phase.DRAW
    assert sorted(lines(g.log)) == sorted([("chapel", 0, 15, 3), ("road", 0, 3, 1), ("road", 1, 8, 1)])
    assert [i.player for i in g.log] == [0, 0, 1]  # White's features first (Z15)
    (b,) = [i for i in g.log if i.player == 1]
    assert (b.count, b.rate, b.multiplier) == (4, 1, 2) and "prince" in b.details
    (a,) = [i for i in g.log if i.reason == "chapel"]
    assert "chapel-size:5" in a.details
    assert g.scores == [18, 8]
    assert g.nests == [4, 1]
    # Preacher-falconer, prince-herald and herald went home.
    assert (g.supply, g.princes, g.falconers) == ([6, 6], [1, 1], [1, 1])
    assert g.followers == []


def test_f3_f5_rulebook_example_tie_on_the_joined_road() -> None:
    g = example(tie=True)
    step(g, "b6/0")
    assert sorted(lines(g.log), key=str) == sorted([("chapel", 0, 15, 3), ("road", None, 0, 0)], key=str)
    (joined,) = [i for i in g.log if i.reason == "road"]
    assert joined.count == 6  # G2, a6, b6, b5, b4, c4
    assert g.scores == [15, 0]
    assert g.nests == [3, 0]


# -------------------------------------------------------------- random games of every rule set

RULE_SETS = [Setup.parse(name) for name in rulesets.RULE_SETS]


def check_invariants(g: GameState, before: list[int], nests_before: list[int]) -> None:
    per_player = FOLLOWERS_IN_SUPPLY + (2 if g.rules.sokol else 0)
    on_board = Counter(f.player for f in g.followers)
    for player in (0, 1):
        assert g.supply[player] >= 0 and g.princes[player] in (0, 1) and g.falconers[player] in (0, 1)
        assert g.supply[player] + g.princes[player] + g.falconers[player] + on_board[player] == per_player
        if not g.rules.sokol:
            assert g.princes[player] == g.falconers[player] == 0
        assert g.scores[player] >= before[player]
        assert g.nests[player] >= nests_before[player]
    drawn = 1 if g.drawn >= 0 else 0
    assert len(g.placements) + len(g.discarded) + len(g.remaining) + drawn == len(g.tiles)
    assert totals(g.log) == g.scores
    if not g.rules.gate_guard:
        assert g.on_gate == [False, False]
        assert all(i.lost == 0 for i in g.log)
    held = sum(len(t) for t in g.tokens)
    assert held <= 18 - sum(g.token_pool)


def _busy(g: GameState, legal: list[PlayerAction]) -> list[PlayerAction]:
    """Return the figures on features that score during play, if any (monks stay till the end)."""
    if g.phase is not Phase.FOLLOWER:
        return legal
    tile = g.tiles.tiles[g.placements[-1][1]]
    busy: list[PlayerAction] = [
        a for a in legal if isinstance(a, Follower) and tile.features[a.feature].kind is not FeatureKind.MEADOW
    ]
    return busy or legal


def play_random(setup: Setup, seed: int) -> tuple[list[Action], GameState]:
    """Play a random game with full checks, every player action drawn from ``legal_actions``."""
    rng = random.Random(seed)
    setup = replace(setup, first_player=rng.randrange(2))
    g = datafiles.new_game(setup)
    actions: list[Action] = []
    for _ in range(2000):
        if g.is_over():
            break
        before, nests_before = list(g.scores), list(g.nests)
        if g.is_chance():
            action: Action = sample_chance(g, rng)
        else:
            legal = g.legal_actions()
            assert legal, f"no legal action in phase {g.phase.name}"
            if phase(g) is not Phase.PLACE:
                for other in legal:  # every offered action is accepted
                    g.copy().play(other)
            # Put figures out more often than uniform play does, so that features get scored,
            # towers reached and gates met; everything else is uniform.
            action = rng.choice(_busy(g, legal) if rng.random() < 0.9 else legal)
        g.play(action)
        actions.append(action)
        check_invariants(g, before, nests_before)
    assert g.is_over(), "the game did not end"
    assert not g.remaining and g.drawn == -1
    assert len(g.placements) + len(g.discarded) == len(g.tiles)
    return actions, g


@pytest.mark.parametrize("setup", RULE_SETS, ids=lambda s: s.name)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_f1_f5_f8_z3_random_games_of_every_rule_set_keep_their_counts_and_replay(setup: Setup, seed: int) -> None:
    actions, g = play_random(setup, seed)
    record = json.loads(json.dumps(make_record(g.setup, seed, actions, g)))
    replayed = replay(record)
    assert replayed.scores == g.scores
    assert replayed.nests == g.nests
    assert replayed.log == g.log
    if setup.sokol:
        assert len(g.tiles) == 78
