"""Rycerze i zamki (RULES.md section K): rules by id, the rulebook's two examples, hidden information,
notation, saved games, property tests over random games, the bots and the command line.

Positions are built with a fixed tile order (``KnightsSetup.tile_order``) and moves in notation.
Seats in the rulebook examples: 0 Antek, 1 Hania, 2 Julka.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import SRC
from zamek.castle.bots.base import Budget
from zamek.castle.rules.errors import DataError, IllegalActionError, MalformedActionError, RecordError
from zamek.cli import main
from zamek.i18n import Seat, say
from zamek.knights.arena import ArenaReport, labels, play_arena_game, run_arena, seating
from zamek.knights.bots import BOT_NAMES, MonteCarloBot, castle_winner, make_bot
from zamek.knights.record import make_record, replay
from zamek.knights.rules.actions import (
    ACTION_COUNT,
    ALL_CHOICES,
    Action,
    Choose,
    Draw,
    Recruit,
    action_from_index,
    parse_action,
)
from zamek.knights.rules.cards import ARMY, ROUNDS, TILE_SET, TILES, Card, CastleKind, load_cards, parse_cards
from zamek.knights.rules.engine import (
    CardsRevealed,
    CardsToCamp,
    CastleTaken,
    DuplicatesCancelled,
    EmptyCamp,
    GameEnded,
    KnightsSetup,
    KnightsState,
    Phase,
    Recruited,
    ShepherdsReturn,
    SwordPassed,
    TileRevealed,
    ranking,
)
from zamek.knights.rules.knowledge import deduce, possible_hands
from zamek.knights.rules.match import match_result, match_setups
from zamek.knights.runner import play_game
from zamek.knights.terms import event_lines, reader_of

ANTEK, HANIA, JULKA = 0, 1, 2
D, MK, K, F, P, H, S = (Card.DRAGON, Card.MOUNTED_KNIGHT, Card.KNIGHT, Card.FOOT_SOLDIER, Card.PEASANT, Card.HOG,
                        Card.SHEPHERD)


def game(tiles: list[str], players: int = 3, youngest: int | None = None, sword: int | None = None) -> KnightsState:
    """Return a new game whose tiles come in the given order."""
    return KnightsState.new(KnightsSetup(players, youngest, sword, tuple(tiles)))


def play(state: KnightsState, *moves: str) -> KnightsState:
    """Play moves in notation ('draw:brick-big', 'play:dragon+shepherd', 'recruit:knight') with full checks."""
    for move in moves:
        state.play(parse_action(move))
    return state


def round_events(state: KnightsState, kind: type) -> list[object]:
    return [e for e in state.events if isinstance(e, kind)]


ORDER = ["brick-big", "wood-small", "stone-big", "drum", "brick-small", "stone-small", "wood-big", "drum"]


# ----------------------------------------------------------------------------- K1-K3: cards, tiles, setup


def test_k1_every_player_holds_six_army_cards_and_two_shepherds() -> None:
    state = KnightsState.new(KnightsSetup(players=4))
    for p in range(4):
        assert state.hands[p] == [1, 1, 1, 1, 1, 1, 2]
        assert state.hand_size(p) == 8 and state.camp_size(p) == 0


def test_k2_the_strength_table_meets_the_conditions() -> None:
    table = load_cards()
    assert [table.of(K, k) for k in CastleKind] == [6, 3, 2]
    for kind in CastleKind:
        assert len({table.of(c, kind) for c in ARMY}) == 6
    assert table.of(D, CastleKind.BRICK) > table.of(F, CastleKind.BRICK)
    for card in ARMY:
        assert any(table.rank(card, kind) >= 4 for kind in CastleKind), card
        for other in ARMY:
            if other is not card:
                assert any(table.of(card, k) > table.of(other, k) for k in CastleKind), (card, other)


def test_k2_the_data_file_says_it_is_a_reconstruction() -> None:
    text = (SRC / "knights" / "data" / "cards.toml").read_text("utf-8")
    assert "RECONSTRUCTION" in text


GOOD = """
[card.dragon]
stone = 2
brick = 9
wood = 5
[card.mounted-knight]
stone = 8
brick = 2
wood = 1
[card.knight]
stone = 6
brick = 3
wood = 2
[card.foot-soldier]
stone = 5
brick = 7
wood = 3
[card.peasant]
stone = 3
brick = 1
wood = 8
[card.hog]
stone = 4
brick = 5
wood = 6
"""


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("[card.knight]\nstone = 6", "[card.knight]\nstone = 7", "knight is printed with 6"),
        ("[card.hog]\nstone = 4", "[card.hog]\nstone = 5", "foot-soldier and hog are both 5 against stone"),
        ("brick = 9", "brick = 6", "dragon must beat the foot soldier"),
        ("[card.peasant]\nstone = 3\nbrick = 1\nwood = 8", "[card.peasant]\nstone = 3\nbrick = 1\nwood = 4",
         "peasant is not among the two strongest"),
        ("[card.foot-soldier]\nstone = 5", "[card.foot-soldier]\nstone = 1",
         "foot-soldier is weaker than dragon against every castle kind"),
        ("[card.hog]", "[card.pig]", "missing ['hog'], unknown ['pig']"),
        ("wood = 6", "wood = 0", "whole number >= 1"),
        ("wood = 6", "wood = \"six\"", "whole number >= 1"),
    ],
)
def test_k2_the_loader_refuses_a_broken_table(old: str, new: str, message: str) -> None:
    assert parse_cards(GOOD) == load_cards()
    assert old in GOOD
    with pytest.raises(DataError, match=message.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(")):
        parse_cards(GOOD.replace(old, new, 1))


def test_k3_eight_tiles_seven_rounds_one_left_unseen() -> None:
    assert len(TILE_SET) == 8 and TILE_SET.count("drum") == 2
    assert sorted(TILES[t].points for t in TILE_SET if TILES[t].is_castle) == [1, 1, 1, 2, 2, 2]
    state = play_game(11, ["random"] * 3).state
    assert state.round == ROUNDS == 7
    assert len(state.drawn) == 7 and len(state.undrawn) == 1
    assert sorted([*state.drawn, *state.undrawn]) == sorted(TILE_SET)


def test_k3_the_youngest_starts_with_the_sword() -> None:
    assert KnightsState.new(KnightsSetup(players=3)).sword == 2
    assert KnightsState.new(KnightsSetup(players=4, youngest=1)).sword == 1
    assert KnightsState.new(KnightsSetup(players=4, youngest=1, sword=3)).sword == 3


def test_k3_the_draw_is_uniform_over_the_tiles_not_seen() -> None:
    state = KnightsState.new(KnightsSetup(players=2))
    outcomes = dict(state.chance_outcomes())
    assert outcomes[Draw("drum")] == pytest.approx(2 / 8)
    assert sum(outcomes.values()) == pytest.approx(1.0)
    state.play(Draw("drum"))
    assert dict(state.chance_outcomes())[Draw("drum")] == pytest.approx(1 / 7)


def test_k3_setup_is_checked() -> None:
    for bad in (dict(players=1), dict(players=5), dict(players=3, youngest=3), dict(players=2, sword=-1),
                dict(players=2, tile_order=("drum",) * 7), dict(players=2, tile_order=("castle",) * 7)):
        with pytest.raises(ValueError):
            KnightsSetup(**bad)


# ----------------------------------------------------------------------------- K4: taking a castle


def test_k4_rulebook_example_the_dragon_takes_the_big_brick_castle() -> None:
    state = play(game(ORDER), "draw:brick-big",
                 "play:foot-soldier+shepherd",      # Antek
                 "play:dragon+mounted-knight",      # Hania
                 "play:mounted-knight+shepherd")    # Julka
    steps = state.events[-6:]
    assert steps[0] == CardsRevealed(1, ((F, S), (D, MK), (MK, S)))
    assert steps[1] == ShepherdsReturn(1, (1, 0, 1))
    assert steps[2] == DuplicatesCancelled(1, ((MK, (HANIA, JULKA)),))
    assert steps[3] == CastleTaken(1, "brick-big", HANIA, D, 9)
    assert steps[4] == CardsToCamp(1, ((ANTEK, F), (HANIA, D)))
    assert steps[5] == SwordPassed(1, JULKA, JULKA, (ANTEK, JULKA))
    assert state.castles == [[], ["brick-big"], []] and state.points == [0, 2, 0]
    assert state.camps[HANIA][D] == state.camps[HANIA][MK] == 1
    assert state.camps[JULKA][MK] == 1 and state.camps[ANTEK][F] == 1
    assert [state.hands[p][S] for p in range(3)] == [2, 2, 2]


def test_k4_rulebook_example_all_cancelled_the_sword_holder_takes_the_small_wooden_castle() -> None:
    tiles = ["wood-small", "brick-big", "stone-big", "drum", "brick-small", "stone-small", "wood-big"]
    state = play(game(tiles, sword=ANTEK), "draw:wood-small",
                 "play:hog+shepherd",               # Antek, who holds the sword
                 "play:peasant+hog",                # Hania
                 "play:peasant+shepherd")           # Julka
    assert round_events(state, DuplicatesCancelled) == [DuplicatesCancelled(1, ((P, (HANIA, JULKA)),
                                                                                  (H, (ANTEK, HANIA))))]
    assert round_events(state, CastleTaken) == [CastleTaken(1, "wood-small", ANTEK, None)]
    assert round_events(state, CardsToCamp) == [CardsToCamp(1, ())]
    assert state.castles[ANTEK] == ["wood-small"]
    # Antek now leads, so the sword goes to the youngest of the two with no points.
    assert state.sword == JULKA


def test_k4_1_shepherds_go_back_to_the_hand() -> None:
    state = play(game(ORDER), "draw:brick-big", "play:shepherd+shepherd", "play:dragon+shepherd",
                 "play:knight+shepherd")
    assert state.hands[ANTEK][S] == 2 and state.camps[ANTEK][S] == 0
    assert state.hands[HANIA][S] == 2 and state.hands[HANIA][D] == 0
    assert round_events(state, ShepherdsReturn) == [ShepherdsReturn(1, (2, 1, 1))]


def test_k4_2_duplicates_are_cancelled_every_copy() -> None:
    state = play(game(ORDER), "draw:brick-big", "play:dragon+foot-soldier", "play:dragon+shepherd",
                 "play:dragon+hog")
    assert round_events(state, DuplicatesCancelled) == [DuplicatesCancelled(1, ((D, (0, 1, 2)),))]
    assert all(state.camps[p][D] == 1 and state.hands[p][D] == 0 for p in range(3))
    # The foot soldier (7) beats the hog (5) at brick: the strongest card *left* wins.
    assert round_events(state, CastleTaken) == [CastleTaken(1, "brick-big", ANTEK, F, 7)]


def test_k4_3_the_strongest_card_left_wins_even_two_of_one_player() -> None:
    state = play(game(ORDER), "draw:brick-big", "play:dragon+foot-soldier", "play:hog+shepherd",
                 "play:shepherd+shepherd")
    assert round_events(state, CastleTaken) == [CastleTaken(1, "brick-big", ANTEK, D, 9)]
    assert round_events(state, CardsToCamp) == [CardsToCamp(1, ((ANTEK, D), (ANTEK, F), (HANIA, H)))]


def test_k4_3_no_card_left_the_sword_holder_takes_the_castle() -> None:
    state = play(game(ORDER, players=2), "draw:brick-big", "play:shepherd+shepherd", "play:shepherd+shepherd")
    assert round_events(state, CastleTaken) == [CastleTaken(1, "brick-big", 1, None)]
    assert state.points == [0, 2] and state.sword == 0


def test_k4_4_every_card_left_goes_to_its_owners_camp() -> None:
    state = play(game(["stone-big", *ORDER[3:], "wood-small", "brick-big"]), "draw:stone-big",
                 "play:mounted-knight+knight", "play:knight+hog",
                 "play:peasant+dragon")
    assert round_events(state, CardsToCamp) == [CardsToCamp(1, ((ANTEK, MK), (HANIA, H), (JULKA, D), (JULKA, P)))]
    assert state.camps[ANTEK][:6] == [0, 1, 1, 0, 0, 0]
    assert state.camps[HANIA][:6] == [0, 0, 1, 0, 0, 1]
    assert state.camps[JULKA][:6] == [1, 0, 0, 0, 1, 0]


def test_k4_5_the_sword_goes_to_the_fewest_points_and_a_tie_to_the_youngest() -> None:
    state = play(game(ORDER, players=4), "draw:brick-big", "play:dragon+shepherd", "play:shepherd+shepherd",
                 "play:shepherd+shepherd", "play:shepherd+shepherd")
    # Seats 1, 2, 3 tie on 0 points; seat 3 is the youngest (the last seat, by default).
    assert round_events(state, SwordPassed) == [SwordPassed(1, 3, 3, (1, 2, 3))]
    play(state, "draw:wood-small", "play:shepherd+shepherd", "play:shepherd+shepherd", "play:shepherd+shepherd",
         "play:peasant+shepherd")
    # Seats 1 and 2 tie; going round the table against seat order from the youngest, seat 2 is younger.
    assert state.events[-1] == SwordPassed(2, 2, 3, (1, 2))


def test_k4_5_the_youngest_is_a_setting() -> None:
    state = play(game(ORDER, players=4, youngest=1), "draw:brick-big", "play:dragon+shepherd",
                 "play:shepherd+shepherd", "play:shepherd+shepherd", "play:shepherd+shepherd")
    assert state.events[-1] == SwordPassed(1, 1, 1, (1, 2, 3))
    assert [state.setup.age(p) for p in range(4)] == [1, 0, 3, 2]


# ----------------------------------------------------------------------------- K5: recruitment


def test_k5_recruitment_with_empty_camps_asks_nobody() -> None:
    state = play(game(["drum", *ORDER[:6]]), "draw:drum")
    assert state.phase is Phase.DRAW
    assert state.events[-3:] == [EmptyCamp(1, 0), EmptyCamp(1, 1), EmptyCamp(1, 2)]
    with pytest.raises(IllegalActionError, match="next tile must be turned up"):
        state.play(Recruit(D))


def test_k5_only_players_with_a_camp_recruit() -> None:
    state = play(game(ORDER), "draw:brick-big", "play:dragon+foot-soldier", "play:shepherd+shepherd",
                 "play:hog+shepherd", "draw:wood-small", "play:shepherd+shepherd", "play:shepherd+shepherd",
                 "play:shepherd+shepherd", "draw:stone-big", "play:shepherd+shepherd", "play:shepherd+shepherd",
                 "play:shepherd+shepherd", "draw:drum")
    assert state.phase is Phase.RECRUIT and state.current == ANTEK
    assert state.legal_actions() == [Recruit(D), Recruit(F)]
    with pytest.raises(IllegalActionError, match="your camp holds no knight"):
        state.play(Recruit(K))
    play(state, "recruit:foot-soldier")
    assert state.current == JULKA  # Hania's camp is empty: she is skipped
    play(state, "recruit:hog")
    assert state.is_chance()
    assert state.hands[ANTEK][F] == 1 and state.camps[ANTEK][F] == 0 and state.camps[ANTEK][D] == 1
    assert state.events[-3:] == [Recruited(4, ANTEK, F), EmptyCamp(4, HANIA), Recruited(4, JULKA, H)]


# ----------------------------------------------------------------------------- K6: the end


TIE_GAME = [
    "draw:brick-big", "play:dragon+shepherd", "play:shepherd+shepherd",
    "draw:wood-big", "play:shepherd+shepherd", "play:peasant+shepherd",
    "draw:stone-big", "play:mounted-knight+knight", "play:mounted-knight+shepherd",
    "draw:drum", "recruit:knight", "recruit:peasant",
    "draw:drum", "recruit:mounted-knight", "recruit:mounted-knight",
    "draw:stone-small", "play:shepherd+shepherd", "play:mounted-knight+shepherd",
    "draw:brick-small", "play:shepherd+shepherd", "play:dragon+shepherd",
]


def test_k6_a_tie_on_points_goes_to_more_cards_in_hand() -> None:
    tiles = ["brick-big", "wood-big", "stone-big", "drum", "drum", "stone-small", "brick-small"]
    state = play(game(tiles, players=2), *TIE_GAME)
    result = state.result()
    assert result is not None and state.is_over()
    assert result.points == (4, 4)
    assert result.hand_sizes == (7, 6)
    assert result.winner == 0  # not the youngest (seat 1): more cards in hand comes first
    assert state.events[-1] == GameEnded((4, 4), (7, 6), (0, 1))


def test_k6_then_the_youngest() -> None:
    setup = KnightsSetup(players=3)
    assert ranking(setup, [3, 3, 1], [5, 5, 8]) == (1, 0, 2)
    assert ranking(KnightsSetup(players=3, youngest=0), [3, 3, 1], [5, 5, 8]) == (0, 1, 2)
    assert ranking(setup, [2, 3, 3], [5, 4, 5]) == (2, 1, 0)


def test_k6_the_game_ends_after_round_seven() -> None:
    tiles = ["brick-big", "wood-big", "stone-big", "drum", "drum", "stone-small", "brick-small"]
    state = play(game(tiles, players=2), *TIE_GAME)
    with pytest.raises(IllegalActionError, match="game is over"):
        state.play(Draw("wood-small"))
    assert state.legal_actions() == [] and state.chance_outcomes() == []


# ----------------------------------------------------------------------------- K7: the match


def test_k7_a_match_has_as_many_games_as_players_and_adds_points() -> None:
    setups = match_setups(3)
    assert len(setups) == 3
    results = []
    for g, setup in enumerate(setups):
        result = play_game(100 + g, ["random"] * 3, setup).state.result()
        assert result is not None
        results.append(result)
    outcome = match_result(setups[0], results)
    assert outcome.points == tuple(sum(r.points[p] for r in results) for p in range(3))
    assert outcome.ranking == ranking(setups[0], outcome.points, outcome.hand_sizes)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_k7_every_game_of_a_match_starts_with_the_sword_at_the_youngest(players: int) -> None:
    for youngest in (None, 0, 1):
        single = KnightsSetup(players=players, youngest=youngest)
        setups = match_setups(players, youngest)
        assert setups == [single] * players  # each game is set up as a single game is
        for g, setup in enumerate(setups):
            assert setup.first_sword == single.youngest_seat
            assert KnightsState.new(setup).sword == single.youngest_seat
            events = play_game(40 + g, ["random"] * players, setup).state.events
            first_pass = next(e for e in events if isinstance(e, SwordPassed))
            assert first_pass.previous == single.youngest_seat  # who held it through the first castle


def test_k7_the_match_commands_start_every_game_with_the_youngest(tmp_path: Path) -> None:
    result = run("knights", "selfplay", "--players", "3", "--games", "1", "--seed", "2", "--json", "--match",
                 "--save", str(tmp_path))
    assert result.exit_code == 0, result.output
    saved = sorted(tmp_path.glob("*.json"))
    assert len(saved) == 3
    for file in saved:
        assert json.loads(file.read_text("utf-8"))["setup"]["sword"] == 2  # the last seat is the youngest
    for lang in ("en", "pl"):
        played = run("knights", "play", "--players", "2", "--seed", "5", "--match", "--lang", lang,
                     input=SCRIPT * 2)
        assert played.exit_code == 0, played.output
        you = reader_of(0)
        lines = [say("knights.match-game", lang, None, you, game=g, games=2, player=Seat(1)) for g in (1, 2)]
        assert all(line in played.stdout for line in lines)
        assert any(say("knights.match-winner", lang, None, you, player=Seat(p)) in played.stdout for p in (0, 1))


def test_k7_a_match_tie_goes_to_cards_in_hand_then_the_youngest() -> None:
    from zamek.knights.rules.engine import KnightsResult

    setup = KnightsSetup(players=2)
    a = KnightsResult((3, 1), (5, 6), (0, 1))
    b = KnightsResult((1, 3), (5, 4), (1, 0))
    assert match_result(setup, [a, b]).points == (4, 4)
    assert match_result(setup, [a, b]).ranking == (1, 0)  # 10 cards to 10: the youngest (seat 1)
    c = KnightsResult((1, 3), (6, 3), (1, 0))
    assert match_result(setup, [a, c]).ranking == (0, 1)  # 11 cards to 9


# ----------------------------------------------------------------------------- K8: hidden information


def test_k8_a_hidden_choice_is_not_in_another_players_view() -> None:
    views = []
    for choice in ("play:dragon+shepherd", "play:shepherd+shepherd", "play:hog+knight"):
        state = play(game(ORDER), "draw:brick-big", choice)
        assert state.view(ANTEK).my_choice == parse_action(choice)
        views.append((state.view(HANIA), state.view(JULKA)))
        assert state.view(HANIA).chosen == (True, False, False)
        assert state.view(HANIA).my_choice is None
    assert views[0] == views[1] == views[2]


def test_k8_a_recruited_card_stays_hidden_and_the_view_hides_the_tile_order() -> None:
    views = []
    for recruit in ("recruit:dragon", "recruit:foot-soldier"):
        state = play(game(ORDER), "draw:brick-big", "play:dragon+foot-soldier", "play:shepherd+shepherd",
                     "play:shepherd+shepherd", "draw:wood-small", "play:shepherd+shepherd",
                     "play:shepherd+shepherd", "play:shepherd+shepherd", "draw:stone-big",
                     "play:shepherd+shepherd", "play:shepherd+shepherd", "play:shepherd+shepherd", "draw:drum",
                     recruit)
        view = state.view(HANIA)
        assert view.setup.tile_order is None
        assert view.unseen == tuple(sorted(state.undrawn))
        assert Recruited(4, ANTEK, None) in view.events
        assert Recruited(4, ANTEK, parse_action(recruit).card) in state.view(ANTEK).events  # type: ignore[union-attr]
        views.append(view)
    assert views[0] == views[1]
    known = deduce(views[0], ANTEK)
    assert known.either == (D, F)
    assert set(known.in_hand) == {MK, K, P, H}
    assert dict(possible_hands(views[0], ANTEK)) == {(1, 1, 1, 0, 1, 1): 0.5, (0, 1, 1, 1, 1, 1): 0.5}


def test_k8_a_later_play_settles_what_was_recruited() -> None:
    state = play(game(ORDER), "draw:brick-big", "play:dragon+foot-soldier", "play:shepherd+shepherd",
                 "play:shepherd+shepherd", "draw:wood-small", "play:shepherd+shepherd", "play:shepherd+shepherd",
                 "play:shepherd+shepherd", "draw:stone-big", "play:shepherd+shepherd", "play:shepherd+shepherd",
                 "play:shepherd+shepherd", "draw:drum", "recruit:dragon", "draw:brick-small",
                 "play:dragon+shepherd", "play:shepherd+shepherd", "play:shepherd+shepherd")
    known = deduce(state.view(JULKA), ANTEK)
    assert known.either == () and set(known.in_camp) == {D, F}


# ----------------------------------------------------------------------------- notation and checks


def test_notation_round_trips_and_indices_are_stable() -> None:
    assert len(ALL_CHOICES) == 22 and ACTION_COUNT == 28
    for index in range(ACTION_COUNT):
        action = action_from_index(index)
        assert action.index == index
        assert parse_action(str(action)) == action
    assert parse_action("play:shepherd+dragon") == Choose(D, S) and str(Choose(S, D)) == "play:dragon+shepherd"
    assert parse_action("draw:brick-big") == Draw("brick-big")
    assert str(Recruit(MK)) == "recruit:mounted-knight"


@pytest.mark.parametrize("text", ["play:dragon+dragon", "play:dragon", "recruit:shepherd", "draw:castle",
                                  "play:wizard+shepherd", "attack", ""])
def test_malformed_actions_are_refused(text: str) -> None:
    with pytest.raises(MalformedActionError):
        parse_action(text)


def test_illegal_actions_are_refused_with_a_reason_and_change_nothing() -> None:
    state = play(game(ORDER), "draw:brick-big", "play:dragon+shepherd", "play:shepherd+shepherd",
                 "play:shepherd+shepherd", "draw:wood-small")
    before = state.copy()
    with pytest.raises(IllegalActionError, match="your dragon is in your camp"):
        state.play(Choose(D, S))
    with pytest.raises(IllegalActionError, match="recruit"):
        state.play(Recruit(D))
    with pytest.raises(IllegalActionError, match="no tile is due"):
        state.play(Draw("drum"))
    assert state == before
    fresh = game(ORDER)
    with pytest.raises(IllegalActionError, match="cannot come now"):
        fresh.play(Draw("drum"))


# ----------------------------------------------------------------------------- saved games


def test_saved_games_replay_exactly() -> None:
    played = play_game(7, ["heuristic", "random", "mc:4"])
    record = json.loads(json.dumps(make_record(played.setup, 7, played.actions, played.state)))
    assert record["format"] == "zamek-knights-game" and record["version"] == 1
    assert record["setup"] == {"players": 3, "youngest": 2, "sword": 2, "tile_order": None}
    state = replay(record)
    assert state.events == played.state.events
    assert state.points == played.state.points and state.hands == played.state.hands
    partial = KnightsState.new(played.setup)
    partial.apply_all(played.actions[:5])
    assert replay(record, upto=5) == partial


def test_a_corrupt_record_names_the_first_bad_move() -> None:
    played = play_game(8, ["random"] * 2)
    record = make_record(played.setup, 8, played.actions, played.state)
    bad = json.loads(json.dumps(record))
    bad["moves"][1] = "play:dragon+dragon"
    with pytest.raises(RecordError, match="move 2"):
        replay(bad)
    bad = json.loads(json.dumps(record))
    bad["result"]["points"] = [99, 0]
    with pytest.raises(RecordError, match="result"):
        replay(bad)
    with pytest.raises(RecordError, match="format"):
        replay({"format": "zamek-game", "version": 1, "moves": []})
    with pytest.raises(RecordError, match="setup"):
        replay({**record, "setup": {"players": 9}})


# ----------------------------------------------------------------------------- property tests

seeds = st.integers(min_value=0, max_value=2**32 - 1)
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(state: KnightsState) -> None:
    for p in range(state.players):
        assert state.hands[p][S] == 2 and state.camps[p][S] == 0
        for card in ARMY:
            assert state.hands[p][card] + state.camps[p][card] == 1
        assert state.points[p] == sum(TILES[t].points for t in state.castles[p])
    taken = sorted(t for castles in state.castles for t in castles)
    assert taken == sorted(t for t in state.drawn if TILES[t].is_castle and (t != state.tile or state.phase
                                                                            is Phase.DRAW or state.is_over()))
    assert sorted([*state.drawn, *state.undrawn]) == sorted(TILE_SET)


@PROPERTY
@given(seeds, st.integers(min_value=2, max_value=4), st.sampled_from(["random", "heuristic"]))
def test_property_random_games_conserve_cards_and_points(seed: int, players: int, bot: str) -> None:
    rng = random.Random(seed)
    bots = [make_bot(bot if p % 2 else "random") for p in range(players)]
    state = KnightsState.new(KnightsSetup(players=players))
    actions: list[Action] = []
    while not state.is_over():
        action: Action
        if state.is_chance():
            outcomes = state.chance_outcomes()
            action = rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            assert state.legal_actions()
            chosen = bots[state.current].choose(state, rng)
            assert chosen in state.legal_actions()
            action = chosen
        state.play(action)
        actions.append(action)
        check_invariants(state)
    assert state.round == 7 and len(round_events(state, TileRevealed)) == 7
    result = state.result()
    assert result is not None
    assert sum(result.points) == sum(TILES[t].points for t in state.drawn)
    assert sorted(result.ranking) == list(range(players))
    castle_rounds = sum(TILES[t].is_castle for t in state.drawn)
    assert len(round_events(state, CastleTaken)) == castle_rounds
    replayed = replay(make_record(state.setup, seed, actions, state))
    assert replayed.events == state.events


@PROPERTY
@given(seeds, st.integers(min_value=2, max_value=4))
def test_property_copies_are_independent_and_views_hide_pending_choices(seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = KnightsState.new(KnightsSetup(players=players))
    while not state.is_over():
        if state.is_chance():
            state.play(Draw(rng.choice(state.undrawn)))
            continue
        copy = state.copy()
        others_before = [state.view(p) for p in range(players) if p != state.current]
        action = rng.choice(state.legal_actions())
        copy.apply(action)
        if copy.phase is state.phase and copy.round == state.round:
            # The choice is pending: nobody else can tell it from any other choice but that it was made.
            for view in (copy.view(p) for p in range(players) if p != state.current):
                before = next(v for v in others_before if v.player == view.player)
                assert view.chosen[state.current] and not before.chosen[state.current]
                assert replace(view, chosen=before.chosen, current=before.current) == before
        state.play(action)
        assert copy.view(0).events == state.view(0).events


# ----------------------------------------------------------------------------- bots


@pytest.mark.parametrize("name", [*BOT_NAMES, "mc:3"])
def test_bots_are_always_legal(name: str) -> None:
    bot = make_bot(name)
    budget = Budget(iterations=3) if name.startswith("mc") else None
    for seed in range(3):
        rng = random.Random(seed)
        state = KnightsState.new(KnightsSetup(players=2 + seed))
        while not state.is_over():
            if state.is_chance():
                state.play(Draw(rng.choice(state.undrawn)))
                continue
            before = state.copy()
            action = bot.choose(state, rng, budget)
            assert state == before
            assert action in state.legal_actions()
            state.play(action)


@pytest.mark.parametrize("name", ["heuristic", "mc:6"])
def test_bots_decide_from_the_view_alone(name: str) -> None:
    """Two positions that differ only in what the bot's player cannot see get the same decision."""
    a = play(game(ORDER), "draw:brick-big", "play:dragon+shepherd", "play:foot-soldier+hog")
    b = play(game(["brick-big", "drum", "drum", "wood-small", "stone-big", "brick-small", "wood-big"]),
             "draw:brick-big", "play:shepherd+shepherd", "play:foot-soldier+hog")
    assert a.view(JULKA) == b.view(JULKA)
    bot = make_bot(name)
    assert bot.choose(a, random.Random(3)) == bot.choose(b, random.Random(3))


def test_mc_takes_a_castle_it_cannot_lose() -> None:
    # Last round, a big brick castle: the other player has laid dragon and foot soldier before, so
    # Julka's dragon cannot be cancelled and wins; the Monte Carlo bot sees it.
    tiles = ["brick-small", "drum", "wood-small", "stone-small", "wood-big", "stone-big", "brick-big"]
    state = play(game(tiles, players=2),
                 "draw:brick-small", "play:dragon+foot-soldier", "play:shepherd+shepherd",
                 "draw:drum", "recruit:dragon",
                 "draw:wood-small", "play:dragon+shepherd", "play:shepherd+shepherd",
                 "draw:stone-small", "play:shepherd+shepherd", "play:shepherd+shepherd",
                 "draw:wood-big", "play:shepherd+shepherd", "play:shepherd+shepherd",
                 "draw:stone-big", "play:shepherd+shepherd", "play:shepherd+shepherd",
                 "draw:brick-big", "play:shepherd+shepherd")
    assert state.current == 1 and state.round == 7
    choice = MonteCarloBot(iterations=8).choose(state, random.Random(1))
    assert isinstance(choice, Choose) and D in choice.cards


def test_castle_winner_matches_the_engine() -> None:
    strength = load_cards().strength[CastleKind.BRICK]
    assert castle_winner(strength, {0: (F, S), 1: (D, MK), 2: (MK, S)}, 2) == 1
    assert castle_winner(strength, {0: (H, S), 1: (P, H), 2: (P, S)}, 0) == 0


def test_make_bot_refuses_unknown_names() -> None:
    for bad in ("wizard", "heuristic:3", "mc:0", "mc:x"):
        with pytest.raises(ValueError):
            make_bot(bad)


# ----------------------------------------------------------------------------- arena


def test_arena_rotates_seats_and_counts_every_game() -> None:
    assert seating(3, 0) == (0, 1, 2) and seating(3, 1) == (1, 2, 0)
    assert labels(("mc", "heuristic", "heuristic")) == ["mc", "heuristic#1", "heuristic#2"]
    report = run_arena(("heuristic", "random", "random"), 6, 5)
    assert [(g.seed, g.rotation) for g in report.games] == [(5, 0), (5, 1), (5, 2), (6, 0), (6, 1), (6, 2)]
    entrants = report.entrants()
    assert sum(s.wins for s in entrants) == 6 and all(s.games == 6 for s in entrants)
    bots = report.bots()
    assert [b.name for b in bots] == ["heuristic", "random"] and bots[1].games == 12
    # Rotations of one seed see the same tiles.
    first, again = play_arena_game(("random", "random"), 9, 0), play_arena_game(("random", "random"), 9, 1)
    assert first.entrants == (0, 1) and again.entrants == (1, 0)
    assert first.points == play_arena_game(("random", "random"), 9, 0).points
    assert "95% CI" in report.text()
    data = report.to_json()
    assert data["games"] == 6 and len(data["results"]) == 6  # type: ignore[arg-type]
    assert isinstance(ArenaReport(("a", "b")).text(), str)


# ----------------------------------------------------------------------------- words and the command line


def test_every_event_has_its_words_in_both_languages() -> None:
    state = play_game(3, ["random"] * 3).state
    for lang in ("en", "pl"):
        for event in state.events:
            assert all(line.strip() for line in event_lines(event, lang))


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_cli_selfplay_json() -> None:
    result = run("knights", "selfplay", "--players", "3", "--games", "3", "--seed", "4", "--json")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.strip().splitlines()]
    games, summary = lines[:3], lines[3]["summary"]
    assert [g["seed"] for g in games] == [4, 5, 6]
    for g in games:
        assert len(g["tiles"]) == 7 and len(g["points"]) == 3 and g["winner"] == g["ranking"][0]
        state = play_game(g["seed"], ["random"] * 3).state
        assert list(state.points) == g["points"] and state.drawn == g["tiles"]
    assert summary["games"] == 3 and sum(summary["wins"]) == 3
    assert result.stdout == run("knights", "selfplay", "--players", "3", "--games", "3", "--seed", "4",
                                "--json").stdout


def test_cli_selfplay_match_and_save(tmp_path: Path) -> None:
    result = run("knights", "selfplay", "--players", "2", "--games", "1", "--seed", "1", "--json", "--match",
                 "--save", str(tmp_path))
    assert result.exit_code == 0, result.output
    match = json.loads(result.stdout.splitlines()[0])
    assert len(match["games"]) == 2
    assert match["points"] == [sum(g["points"][p] for g in match["games"]) for p in range(2)]
    for file in sorted(tmp_path.glob("*.json")):
        replayed = run("knights", "replay", str(file), "--lang", "pl")
        assert replayed.exit_code == 0 and "odtwarza się dokładnie, gra skończona" in replayed.stdout
        assert "Koniec gry" in replayed.stdout


SCRIPT = "1 2\n1 1\n1\n" * 40
"""Answers that satisfy every prompt sooner or later: two cards, the shepherd twice, one camp card."""


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_cli_play_a_terminal_game(tmp_path: Path, lang: str) -> None:
    saved = tmp_path / "game.json"
    result = run("knights", "play", "--players", "3", "--seed", "12", "--lang", lang, "--save", str(saved),
                 input=SCRIPT)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert say("knights.game-over", lang) in out
    assert say("knights.revealed", lang) in out and "1. " in out and "5. " in out
    assert say("knights.your-hand", lang, kind="?").split("(")[0] in out
    state = replay(json.loads(saved.read_text("utf-8")))
    assert state.is_over()
    # The person sees no other player's recruited card.
    for event in state.events:
        if isinstance(event, Recruited) and event.player != 0:
            assert event_lines(Recruited(event.round, event.player, event.card), lang)[0] not in out


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_k8_the_terminal_game_shows_its_seed_only_when_it_is_over(lang: str) -> None:
    """The seed fixes the tile order (K8: hidden) and the computers' choices: shown at the end, for a replay."""
    seed_words = re.escape(say("knights.seed-end", lang, seed=987654321)).replace("987654321", r"(\d+)")
    game_over = say("knights.game-over", lang)
    given = run("knights", "play", "--players", "3", "--seed", "2718281828", "--lang", lang, input=SCRIPT)
    assert given.exit_code == 0, given.output
    before, _, after = given.stdout.partition(game_over)
    assert after and "2718281828" not in before and "Seed" not in before
    assert after.rstrip().splitlines()[-1] == say("knights.seed-end", lang, seed=2718281828)
    # A random seed: not shown before the end either, and the one shown at the end replays the game.
    drawn = run("knights", "play", "--players", "3", "--lang", lang, input=SCRIPT)
    assert drawn.exit_code == 0, drawn.output
    found = re.fullmatch(seed_words, drawn.stdout.rstrip().splitlines()[-1])
    assert found is not None and found.group(1) == found.group(2)
    seed = found.group(1)
    before, _, after = drawn.stdout.partition(game_over)
    assert after and seed not in before
    again = run("knights", "play", "--players", "3", "--seed", seed, "--lang", lang, input=SCRIPT)
    assert again.stdout == drawn.stdout


def test_cli_play_refuses_what_is_not_in_the_hand() -> None:
    result = run("knights", "play", "--players", "2", "--seed", "3", input="1 1\nwizard shepherd\n" + SCRIPT)
    assert result.exit_code == 0
    assert "only the shepherd can be laid twice" in result.stdout or "not a card" in result.stdout
    assert "‘wizard’ is not a card" in result.stdout


def test_cli_arena() -> None:
    result = run("knights", "arena", "--players", "heuristic,random,random", "--games", "3", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "heuristic" in result.stdout and "95% CI" in result.stdout
    bad = CliRunner().invoke(main, ["knights", "arena", "--players", "heuristic"])
    assert bad.exit_code == 2


def test_cli_cards_table() -> None:
    result = run("knights", "cards", "--lang", "pl")
    assert "rycerz" in result.stdout and "6" in result.stdout


def test_k8_a_hidden_recruit_is_told_in_the_readers_person() -> None:
    """A recruit whose card the reader does not see (a page's public log) speaks to its own player in the second
    person, in both languages."""
    hidden = Recruited(4, 0, None)
    assert event_lines(hidden, "en", you=0) == ["You take a card back from the camp."]
    assert event_lines(hidden, "en", you=1) == ["Player 1 takes a card back from the camp."]
    assert event_lines(hidden, "pl", you=0) == ["Odzyskujesz jedną kartę z obozu."]
    assert event_lines(hidden, "pl", you=1) == ["Gracz 1 odzyskuje jedną kartę z obozu."]
