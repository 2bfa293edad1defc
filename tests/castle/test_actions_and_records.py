"""Action notation and indices, checked play, and saved-game records."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers import FIXTURES, snapshot
from tests.helpers import play as play_moves
from zamek.castle.data.loader import new_game
from zamek.castle.record import make_record, read_record, replay
from zamek.castle.rules.actions import (
    ACTION_COUNT,
    FOLLOWER_BASE,
    GRID,
    PASS_INDEX,
    Action,
    Decline,
    Draw,
    Follower,
    Order,
    Pass,
    Piece,
    Place,
    PlayerAction,
    Reveal,
    UseToken,
    action_from_index,
    parse_action,
)
from zamek.castle.rules.board import CURRENT_BOARD
from zamek.castle.rules.errors import IllegalActionError, MalformedActionError, RecordError
from zamek.castle.rules.setup import Phase, Setup
from zamek.castle.rules.state import GameState
from zamek.castle.runner import PlayedGame, play_game

# ---------------------------------------------------------------- notation

places = st.builds(Place, st.integers(0, GRID - 1), st.integers(0, GRID - 1), st.integers(0, 3))
followers = st.builds(Follower, st.integers(0, 11), st.sampled_from(list(Piece)))
passes = st.just(Pass())
orders = st.builds(Order, st.integers(0, 15))
uses = st.builds(UseToken, st.integers(1, 9))
declines = st.just(Decline())
player_actions = st.one_of(places, followers, passes, orders, uses, declines)
draws = st.builds(Draw, st.from_regex(r"[A-Z0-9_-]{1,8}", fullmatch=True))
reveals = st.builds(Reveal, st.integers(1, 9))
actions = st.one_of(player_actions, draws, reveals)


@given(actions)
def test_notation_round_trips(action: Action) -> None:
    text = str(action)
    assert parse_action(text) == action
    assert parse_action(f"  {text} ") == action


@given(st.one_of(places, followers))
def test_notation_ignores_case_of_moves(action: Place | Follower) -> None:
    assert parse_action(str(action).upper()) == action


def test_notation_examples() -> None:
    assert str(Place(4, 9, 1)) == "e10/90"
    assert parse_action("e10/90") == Place(4, 9, 1)
    assert parse_action("a6/270") == Place(0, 5, 3)
    assert str(Follower(2)) == "follower:2"
    assert str(Follower(3, Piece.PRINCE)) == "prince:3"
    assert parse_action("pass") == Pass()
    assert parse_action("draw:Z17") == Draw("Z17")
    assert parse_action("draw:z17") == Draw("Z17")
    assert parse_action("reveal:4") == Reveal(4)


def test_every_player_action_index_round_trips() -> None:
    seen: set[PlayerAction] = set()
    for index in range(ACTION_COUNT):
        try:
            action = action_from_index(index)
        except MalformedActionError:
            assert index > PASS_INDEX, "indices up to pass are all actions"
            continue
        assert action.index == index
        assert action_from_index(action.index) == action
        assert parse_action(str(action)) == action
        seen.add(action)
    assert len(seen) >= PASS_INDEX + 1
    assert action_from_index(PASS_INDEX) == Pass()
    assert action_from_index(FOLLOWER_BASE) == Follower(0)
    assert action_from_index(0) == Place(0, 0, 0)
    assert action_from_index(7) == Place(1, 0, 3)
    assert action_from_index(GRID * 4) == Place(0, 1, 0)


@given(player_actions)
def test_player_action_indices_round_trip(action: PlayerAction) -> None:
    assert 0 <= action.index < ACTION_COUNT
    assert action_from_index(action.index) == action


@pytest.mark.parametrize("index", [-1, ACTION_COUNT - 1, ACTION_COUNT, 10**6])
def test_indices_outside_the_actions_are_malformed(index: int) -> None:
    with pytest.raises(MalformedActionError):
        action_from_index(index)


@pytest.mark.parametrize(
    "text",
    [
        "", " ", "e10", "e10/45", "e10/360", "e10/-90", "/90", "10/90", "ee/90", "a0/90", "a01/90", "q1/0",
        "a17/0", "e10 90", "follower", "follower:", "follower:12", "follower:-1", "follower:x", "knight:1",
        "draw:", "draw:Z 1", "reveal:0", "reveal:10", "reveal:x", "passs", "pass pass", "place e10/90",
        "order:", "order:16", "order:-1", "use:0", "use:10", "declined",
    ],
)
def test_malformed_strings_raise_malformed(text: str) -> None:
    with pytest.raises(MalformedActionError):
        parse_action(text)


def test_non_text_is_malformed() -> None:
    with pytest.raises(MalformedActionError):
        parse_action(17)  # type: ignore[arg-type]


@given(st.text(max_size=12))
def test_parse_action_raises_only_malformed(text: str) -> None:
    try:
        action = parse_action(text)
    except MalformedActionError:
        return
    assert parse_action(str(action)) == action


# ----------------------------------------------------------------- checked play


@pytest.fixture(scope="module")
def game() -> PlayedGame:
    return play_game(5, first_player=0)


def _state_after(game: PlayedGame, moves: int) -> GameState:
    state = new_game(game.setup)
    for action in game.actions[:moves]:
        state.play(action)
    return state


def _first(game: PlayedGame, phase: Phase, after: int = 0) -> GameState:
    state = new_game(game.setup)
    for number, action in enumerate(game.actions):
        if number >= after and state.phase is phase:
            return state
        state.play(action)
    raise AssertionError(f"no {phase} in the game")


def _refused(state: GameState, action: Action, match: str = "") -> str:
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=match) as info:
        state.play(action)
    assert not isinstance(info.value, MalformedActionError)
    assert snapshot(state) == before
    return str(info.value)


def test_z6_draw_phase_refuses_player_actions(game: PlayedGame) -> None:
    state = new_game(game.setup)
    assert state.phase is Phase.DRAW
    _refused(state, Place(5, 5, 0), "drawn")
    _refused(state, Pass(), "drawn")
    _refused(state, Follower(0), "drawn")
    _refused(state, Reveal(1), "not a possible outcome")


def test_z7_illegal_placements_are_refused(game: PlayedGame) -> None:
    state = _first(game, Phase.PLACE)
    legal = set(state.legal_actions())
    castle = state.castle
    _refused(state, Place(2, 0, 0), "not a space inside")  # c1 is the gatehouse court
    _refused(state, Place(15, 15, 0), "not inside")  # outside the grid
    _refused(state, Place(4, 4, 0), "touch")  # e5: the middle of the empty castle
    _refused(state, Place(*castle.xy(castle.starts[0].cell), 0), "not inside")  # a start space, off the grid
    assert all(isinstance(a, Place) for a in legal)
    _refused(state, Pass(), "place the drawn tile first")
    _refused(state, Follower(0), "place the drawn tile first")
    _refused(state, Draw(state.tiles.tiles[state.remaining[0]].id), "no chance event")
    # Placing on a taken space: play the game on to a later placement.
    later = _first(game, Phase.PLACE, after=10)
    taken = castle.xy(later.placements[0][0])
    _refused(later, Place(*taken, 0), "already holds a tile")


def test_z7_road_must_meet_road(game: PlayedGame) -> None:
    """A tile next to a start space, turned so that a road meets a non-road, is refused (Z7b)."""
    state = new_game(game.setup)
    for action in game.actions:
        if state.phase is Phase.PLACE:
            legal = set(state.legal_actions())
            for start in state.castle.starts:
                x, y = state.castle.xy(start.faces)
                for r in range(4):
                    if state.is_empty(start.faces) and Place(x, y, r) not in legal:
                        message = _refused(state, Place(x, y, r), "roads must meet roads")
                        assert "Z7" in message
                        return
        state.play(action)
    raise AssertionError("no placement beside a start space with a road mismatch")


def test_z7_every_legal_placement_is_accepted(game: PlayedGame) -> None:
    state = _first(game, Phase.PLACE, after=30)
    legal = state.legal_actions()
    assert legal
    for action in legal:
        probe = state.copy()
        probe.play(action)
        assert probe.phase is Phase.FOLLOWER
    for x in range(state.castle.width):
        for y in range(state.castle.height):
            for r in range(4):
                action = Place(x, y, r)
                if action not in legal:
                    with pytest.raises(IllegalActionError):
                        state.copy().play(action)


def test_z10_follower_on_an_occupied_feature_is_refused() -> None:
    # Find a follower step where some feature of the new tile joins an occupied region.
    for seed in range(40):
        g = play_game(seed)
        state = new_game(g.setup)
        for action in g.actions:
            if state.phase is Phase.FOLLOWER and state.supply[state.current]:
                cell, tile, _ = state.placements[-1]
                for feature in range(len(state.tiles.tiles[tile].features)):
                    if state.feature_at(cell, feature).occupied:
                        message = _refused(state, Follower(feature), "already holds a follower")
                        assert "Z10" in message
                        return
            state.play(action)
    raise AssertionError("no follower step next to an occupied feature in 40 games")


def test_z9_follower_step_refusals(game: PlayedGame) -> None:
    state = _first(game, Phase.FOLLOWER)
    tile = state.tiles.tiles[state.placements[-1][1]]
    _refused(state, Follower(len(tile.features)), "has features 0 to")
    _refused(state, Follower(11), "has features")
    _refused(state, Follower(0, Piece.PRINCE), "Sokół")
    _refused(state, Place(*state.castle.xy(state.castle.cell_of("e5")), 0), "placed already")
    _refused(state, Draw(tile.id), "no chance event")
    state.supply[state.current] = 0  # kept as a write: a position's supply is 7 less its figures on the board
    assert state.legal_actions() == [Pass()]
    _refused(state, Follower(0), "no follower left")


def test_z3_draw_of_a_tile_not_remaining_is_refused(game: PlayedGame) -> None:
    state = _first(game, Phase.DRAW, after=1)
    first = game.actions[0]
    assert isinstance(first, Draw)
    assert state.tiles.by_id(first.tile).index not in state.remaining
    _refused(state, first, "not a possible outcome")
    _refused(state, Draw("Z99"), "not a possible outcome")


def test_z20_no_action_after_the_end(game: PlayedGame) -> None:
    state = game.state
    assert state.is_over()
    for action in (Pass(), Place(4, 4, 0), Draw("Z01"), Follower(0), Reveal(1)):
        _refused(state, action, "over")


def test_malformed_values_are_not_illegal() -> None:
    state = new_game()
    with pytest.raises(MalformedActionError):
        state.play("pass")  # type: ignore[arg-type]


# --------------------------------------------------------------------- records


def _round_trip(game: PlayedGame) -> dict[str, Any]:
    record = make_record(game.setup, game.seed, game.actions, game.state)
    loaded: dict[str, Any] = json.loads(json.dumps(record))
    return loaded


@pytest.mark.parametrize("seed", [0, 1, 2, 11])
def test_record_round_trip_replays_exactly(seed: int) -> None:
    game = play_game(seed)
    record = _round_trip(game)
    assert record["format"] == "zamek-game" and record["version"] == 3 and record["seed"] == seed
    assert record["setup"]["board"] == CURRENT_BOARD
    assert record["result"] == {"scores": list(game.state.scores)}
    state = replay(record)
    assert state.is_over()
    assert state.scores == game.state.scores
    assert state.log == game.state.log
    assert state.placements == game.state.placements
    assert state.discarded == game.state.discarded
    assert snapshot(state) == snapshot(game.state)
    setup, actions = read_record(record)
    assert setup == game.setup
    assert actions == game.actions


def test_record_replay_up_to_a_move(game: PlayedGame) -> None:
    record = _round_trip(game)
    for upto in (0, 1, 10, 57):
        assert snapshot(replay(record, upto=upto)) == snapshot(_state_after(game, upto))
    with pytest.raises(RecordError, match="no move"):
        replay(record, upto=len(game.actions) + 1)


def test_record_of_an_unfinished_game_has_no_result(game: PlayedGame) -> None:
    record = make_record(game.setup, game.seed, game.actions[:20], _state_after(game, 20))
    assert "result" not in record
    assert replay(record).placements == _state_after(game, 20).placements


def _bad(record: dict[str, Any], match: str) -> str:
    with pytest.raises(RecordError, match=match) as info:
        replay(record)
    return str(info.value)


def test_record_with_a_bad_format_name(game: PlayedGame) -> None:
    record = _round_trip(game)
    record["format"] = "carcassonne-game"
    message = _bad(record, "^format")
    assert "carcassonne-game" in message
    del record["format"]
    _bad(record, "^format")


@pytest.mark.parametrize("name", ["record_v1_board1_zamek.json", "record_v1_board1_sokol_gate_guard.json"])
def test_a_version_1_record_replays_on_the_board_it_was_played_on(name: str) -> None:
    # Saved before board 2: its setup names no board, its moves use board 1's spaces (d1, g3...).
    record = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    assert record["version"] == 1 and "board" not in record["setup"]
    state = replay(record)  # checks every move and the stated result
    assert state.is_over() and state.scores == record["result"]["scores"]
    assert state.setup.board == 1
    assert (96, 97) in [t.track for t in state.castle.towers]  # board 1's last tower
    # Written again, it names its board and still replays there.
    again = make_record(state.setup, record["seed"], read_record(record)[1], state)
    assert again["version"] == 3 and again["setup"]["board"] == 1
    assert replay(again).scores == state.scores


def test_a_record_on_an_unknown_board_is_refused(game: PlayedGame) -> None:
    record = _round_trip(game)
    record["setup"]["board"] = 7
    _bad(record, "^setup: unknown board 7")


def test_the_record_version_decides_what_a_missing_board_means(game: PlayedGame) -> None:
    record = _round_trip(game)
    del record["setup"]["board"]
    _bad(record, "^setup.board: missing")  # versions 2 and 3 name their board
    record["version"] = 1
    assert read_record(record)[0].board == 1  # a version 1 record was played on board 1
    record["setup"]["board"] = 2
    _bad(record, "^setup.board: a version 1 record was played on board 1")
    assert read_record({"format": "zamek-game", "version": 1, "moves": []})[0].board == 1


@pytest.mark.parametrize("version", [0, 4, "1", None, 1.5, True])
def test_record_with_a_bad_version(game: PlayedGame, version: object) -> None:
    record = _round_trip(game)
    record["version"] = version
    _bad(record, "^version")


def test_record_with_a_malformed_move_7(game: PlayedGame) -> None:
    record = _round_trip(game)
    record["moves"][6] = "e10/45"
    record["moves"][11] = "nonsense"  # a later bad entry is not the one reported
    message = _bad(record, "^move 7: ")
    assert "e10/45" in message
    record["moves"][6] = 42
    _bad(record, "^move 7: ")


def test_record_with_an_illegal_move_12(game: PlayedGame) -> None:
    record = _round_trip(game)
    record["moves"][11] = "c1/0"  # c1 is the gatehouse court: illegal in every phase
    message = _bad(record, r"^move 12 \(c1/0\): ")
    assert "move 7" not in message


def test_record_with_tampered_scores(game: PlayedGame) -> None:
    record = _round_trip(game)
    record["result"]["scores"][1] += 1
    message = _bad(record, "^result: ")
    assert str(game.state.scores[1] + 1) in message
    record["result"] = {"scores": list(game.state.scores)}
    record["moves"] = record["moves"][:-3]
    _bad(record, "^result: .*do not finish")


def test_record_drawing_a_tile_not_remaining(game: PlayedGame) -> None:
    record = _round_trip(game)
    draws = [i for i, move in enumerate(record["moves"]) if move.startswith("draw:")]
    first, later = draws[0], draws[5]
    record["moves"][later] = record["moves"][first]
    message = _bad(record, rf"^move {later + 1} \({record['moves'][first]}\): ")
    assert "not a possible outcome" in message


def test_record_with_a_bad_setup(game: PlayedGame) -> None:
    record = _round_trip(game)
    record["setup"]["first_player"] = 3
    _bad(record, "^setup")
    record["setup"] = {"colour": "red"}
    _bad(record, "^setup: unknown")
    record["setup"] = "zamek"
    _bad(record, "^setup")
    with pytest.raises(RecordError):
        replay([1, 2, 3])


def test_record_without_setup_is_the_default_game() -> None:
    game = play_game(8, first_player=0)
    assert game.setup == Setup()
    record = _round_trip(game)
    del record["setup"]
    setup, _ = read_record(record)
    assert setup == Setup()
    state = replay(record)
    assert state.scores == game.state.scores
    assert state.placements == game.state.placements


def test_helpers_play_notation() -> None:
    state = new_game()
    first = state.chance_outcomes()[0][0]
    play_moves(state, str(first))
    assert state.phase is Phase.PLACE
    action = state.legal_actions()[0]
    assert isinstance(action, Place)
    play_moves(state, str(action), "pass")
    assert state.placements[0][0] == state.castle.cell(action.x, action.y)
    assert state.phase.name == "DRAW"
