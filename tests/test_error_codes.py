"""The errors of the rules engines and the record readers: a code, the rule (RULES.md) and values, no sentence;
their words come from the catalogue (``src/zamek/i18n/<lang>/errors.toml``) in every language.

The first tests read the source: every error raised with a literal code has its message in English and Polish,
and every value a message names is given where the error is raised. The others refuse real moves, setups,
records and positions and check the code, the rule, the values and the Polish words.
"""

from __future__ import annotations

import ast
import pickle
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.castle.rules.test_rules_sokol import draw_and_place
from tests.castle.rules.test_rules_sokol import new_game as sokol_game
from tests.helpers import SRC, house, meadow, play, position, road, tile_toml
from zamek.castle.data.loader import read_position
from zamek.castle.record import make_record
from zamek.castle.record import replay as replay_castle
from zamek.castle.rules.actions import Follower, Pass, parse_action
from zamek.castle.rules.errors import (
    IllegalActionError,
    MalformedActionError,
    PositionError,
    RecordError,
    SetupError,
    ZamekError,
)
from zamek.castle.rules.legality import _WAITING as CASTLE_WAITING
from zamek.castle.rules.setup import Setup
from zamek.castle.rules.state import GameState
from zamek.i18n import Message, Term, catalogue
from zamek.i18n.messageformat import arguments
from zamek.knights.record import make_record as make_knights_record
from zamek.knights.record import replay as replay_knights
from zamek.knights.rules.actions import parse_action as parse_knights_action
from zamek.knights.rules.engine import _WAITING as KNIGHTS_WAITING
from zamek.knights.rules.engine import KnightsSetup, KnightsState

BASE_ERRORS = {"ZamekError", "MalformedActionError", "IllegalActionError", "RecordError", "PositionError",
               "SetupError"}


# ------------------------------------------------------------------------------ the source and the catalogue


@dataclass(frozen=True)
class Raise:
    """An error made in the source with a literal code."""

    where: str
    code: str
    params: frozenset[str] | None
    """The keyword values given; None where the call passes ``**values`` (not checked)."""
    has_rule: bool


def _trees() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(SRC.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def _error_classes() -> set[str]:
    """The names of ZamekError and of every class in the source that derives from one of them."""
    names = set(BASE_ERRORS)
    classes = [node for _, tree in _trees() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    grown = True
    while grown:
        grown = False
        for node in classes:
            bases = {b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else "" for b in
                     node.bases}
            if node.name not in names and bases & names:
                names.add(node.name)
                grown = True
    return names


def _raises() -> list[Raise]:
    classes = _error_classes()
    found = []
    for path, tree in _trees():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name not in classes or not node.args:
                continue
            code = node.args[0]
            if not (isinstance(code, ast.Constant) and isinstance(code.value, str)):
                continue
            keywords = {k.arg for k in node.keywords}
            rule = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "rule"),
                                                                   None)
            has_rule = rule is not None and not (isinstance(rule, ast.Constant) and rule.value is None)
            found.append(Raise(f"{path.relative_to(SRC)}:{node.lineno}", code.value,
                               None if None in keywords else frozenset(k for k in keywords if k is not None),
                               has_rule))
    return found


RAISES = _raises()


def own(lang: str) -> frozenset[str]:
    """The keys the catalogue of ``lang`` defines itself (edition forms included), not through the fallback."""
    return catalogue(lang).keys()


def _forms(lang: str, key: str) -> list[str]:
    """The key and its edition forms (``key@castle2003``) the language defines."""
    return [k for k in own(lang) if k == key or k.startswith(f"{key}@")]


def test_the_source_raises_errors_with_codes() -> None:
    assert len(RAISES) > 100
    assert {"road-mismatch", "feature-occupied", "completed-feature", "card-not-in-hand", "record-move",
            "position-cut-off", "option-needs"} <= {r.code for r in RAISES}


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_every_code_raised_has_its_message_in_english_and_polish(lang: str) -> None:
    """Z7, F3, K4 and every other rule's refusal: ``error.<code>`` is in the catalogue of ``lang`` itself (not
    only through the English fallback)."""
    missing = sorted({f"{r.code} ({r.where})" for r in RAISES if f"error.{r.code}" not in own(lang)})
    assert not missing, f"no message in {lang}/errors.toml for: {', '.join(missing)}"


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_every_value_a_message_names_is_given_where_the_error_is_raised(lang: str) -> None:
    """A message names {rule} only where the error carries its rule (Z7, Z10, F3, K4...); every other value it
    names is a keyword of each call that raises it."""
    wrong = []
    for r in RAISES:
        if r.params is None:
            continue
        for key in _forms(lang, f"error.{r.code}"):
            used = arguments(catalogue(lang).pattern(*key.split("@", 1)))
            missing = used - r.params - ({"rule"} if r.has_rule else set())
            if missing:
                wrong.append(f"{r.where}: {key} needs {', '.join(sorted(missing))}")
    assert not wrong, "\n".join(wrong)


def test_english_and_polish_define_the_same_error_messages() -> None:
    """Every language says every error (edition forms included, C1: The Castle 2003's own words)."""
    keys = {lang: {k for k in own(lang) if k.startswith("error.")} for lang in ("en", "pl")}
    assert keys["en"] == keys["pl"]
    assert keys["en"]


def test_what_the_game_waits_for_has_a_message_in_each_phase() -> None:
    """Z6, Z9, Z15, Z19 (castle) and K4, K5 (Rycerze i zamki): each phase's ``error.waiting.<key>``."""
    for key, _ in [*CASTLE_WAITING.values(), *KNIGHTS_WAITING.values(), ("nothing", None)]:
        for lang in ("en", "pl"):
            assert f"error.waiting.{key}" in own(lang)


# ------------------------------------------------------------------------------ refused moves, in two languages


T1 = tile_toml("T1", road(10), house(1, 2, 3, 4, 5, 6, 7, 8), meadow(9), meadow(11, 0))
"""A road from the west side ends at a house (the rulebook's first example)."""
STRAIGHT = tile_toml("STRAIGHT", road(4, 10), meadow(11, 0, 1, 2, 3), meadow(5, 6, 7, 8, 9))
SHRINE = tile_toml("SHRINE", road(4, 10), meadow(11, 0, 1, 2, 3), meadow(5, 6, 7, 8, 9, shrines=1))
SPARE = tile_toml("SPARE", house(0, 1, 2, 3, 4, 5), meadow(6, 7, 8, 9, 10, 11))
TILES = (T1, STRAIGHT, SHRINE, SPARE)
FIRST_TURN = (
    "{rules} board=2 tiles=- figures=- score=0/0 supply=6f/6f tokens=-/- "
    "towers=12,19,23,32,36,43,56,59,65,71,76,88,94 pool=222222222 family=-/- nests=0/0 left={left} out=- "
    "turn=1 player=0 phase=place:{tile}"
)


def first_turn(tile: str = "T1", rules: str = "zamek") -> GameState:
    """White to place ``tile`` in turn 1 in the real castle, the other test tiles left to draw."""
    left = ",".join(t for t in ("SHRINE", "SPARE", "STRAIGHT", "T1") if t != tile)
    return position(FIRST_TURN.format(rules=rules, left=left, tile=tile), *TILES)


def refusal(state: GameState, move: str) -> ZamekError:
    with pytest.raises(ZamekError) as refused:
        state.play(parse_action(move))
    return refused.value


def test_z7_a_road_meeting_a_house_is_refused_with_its_code_rule_and_sides() -> None:
    """Z7: S5 (east of j4) shows a house; T1 turned 180° has its road on the east side."""
    error = refusal(first_turn(), "j4/180")
    assert isinstance(error, IllegalActionError)
    assert (error.code, error.rule) == ("road-mismatch", "Z7")
    assert error.params == {"action": "j4/180", "side": "E", "mine": "road", "theirs": "none"}
    assert str(error) == ("j4/180: the tile’s E side has a road where its neighbour has no road; roads must meet "
                          "roads (Z7)")
    assert error.text("pl") == ("j4/180: wschodni bok kafelka: droga, a u sąsiada: brak drogi; droga musi trafiać "
                                "na drogę (Z7)")
    assert error.to_json() == {"code": "road-mismatch", "rule": "Z7", "params": error.params}


def test_z7_in_the_castle_2003_the_road_is_a_path() -> None:
    """Z7 with C1's names: The Castle (2003) says path (ścieżka) where Zamek says road (droga)."""
    error = refusal(first_turn(rules="castle2003"), "a6/90")
    assert (error.code, error.rule, error.params["side"], error.params["mine"]) == ("road-mismatch", "Z7", "W", "none")
    assert error.text("pl", "castle2003") == ("a6/90: zachodni bok kafelka: brak ścieżki, a u sąsiada: ścieżka; "
                                              "ścieżka musi trafiać na ścieżkę (Z7)")
    assert error.text("en", "castle2003").endswith("has no path where its neighbour has a path; paths must meet "
                                                   "paths (Z7)")


def test_z7_a_tile_away_from_the_start_spaces_is_refused() -> None:
    """Z7 (a): the first tile touches a start space."""
    error = refusal(first_turn(), "e5/0")
    assert (error.code, error.rule, error.params) == ("tile-not-adjacent", "Z7", {"action": "e5/0"})
    assert error.text("pl") == ("e5/0: kafelek musi stykać się bokiem z położonym kafelkiem albo z polem startowym "
                                "(Z7)")


def test_z6_a_taken_space_and_a_move_out_of_turn_say_what_the_game_waits_for() -> None:
    """Z6: a tile goes on an empty space; a follower waits until the tile is placed (the value is a message)."""
    state = first_turn()
    error = refusal(state, "follower:0")
    assert (error.code, error.rule) == ("not-now", "Z6")
    assert error.params == {"action": "follower:0", "waiting": Message("error.waiting.place-tile")}
    assert error.text("pl") == "follower:0: najpierw połóż dobrany kafelek"
    assert str(error) == "follower:0: place the drawn tile first"
    state.play(parse_action("a6/0"))
    state.play(Pass())
    state.play(state.chance_outcomes()[0][0])
    error = refusal(state, "a6/0")
    assert (error.code, error.rule, error.params) == ("space-taken", "Z6", {"action": "a6/0", "space": "a6"})
    assert error.text("pl") == "a6/0: na polu a6 leży już kafelek"


def test_z10_a_follower_on_a_held_road_names_the_feature_in_the_editions_words() -> None:
    """Z10: the road from S1 already holds White's herald when the next tile extends it."""
    state = play(first_turn("STRAIGHT"), "a6/0", "follower:0", "draw:SHRINE", "b6/0")
    with pytest.raises(IllegalActionError) as refused:
        state.play(Follower(0))
    error = refused.value
    assert (error.code, error.rule) == ("feature-occupied", "Z10")
    assert error.params == {"action": "follower:0", "kind": Term("term.road")}
    assert str(error) == "follower:0: that road already holds a follower (Z10)"
    assert error.text("pl") == "follower:0: na tym obszarze (droga) stoi już poddany (Z10)"
    assert error.text("pl", "castle2003") == "follower:0: na tym obszarze (ścieżka) stoi już poddany (Z10)"
    assert error.to_json()["params"]["kind"] == {"term": "term.road"}


def test_f3_a_prince_on_a_feature_the_tile_completes() -> None:
    """F3: a prince may not go on a feature its own tile completes (an ordinary follower may, Z11)."""
    state = sokol_game(["C1"])
    draw_and_place(state, "f11/0")  # closes G1's chapel
    error = refusal(state, "prince:0")
    assert (error.code, error.rule, error.params) == ("completed-feature", "F3",
                                                      {"action": "prince:0", "piece": Term("term.prince")})
    assert str(error) == "prince:0: a prince may not go on a feature this tile completes (F3)"
    assert error.text("pl") == "prince:0: książę nie może stanąć na obszarze ukończonym przez ten kafelek (F3)"


def test_k4_and_k5_cards_not_in_the_hand_or_the_camp_are_named_in_polish() -> None:
    """K4: cards are played from the hand; K5: recruitment takes a card from the camp."""
    order = ("brick-big", "wood-small", "stone-big", "drum", "brick-small", "stone-small", "wood-big", "drum")
    state = KnightsState.new(KnightsSetup(3, None, None, order))
    for move in ("draw:brick-big", "play:dragon+shepherd", "play:shepherd+shepherd", "play:shepherd+shepherd",
                 "draw:wood-small"):
        state.play(parse_knights_action(move))
    with pytest.raises(IllegalActionError) as refused:
        state.play(parse_knights_action("play:dragon+shepherd"))
    error = refused.value
    assert (error.code, error.rule) == ("card-not-in-hand", "K4")
    assert error.params == {"action": "play:dragon+shepherd", "card": Term("card.dragon"), "where": "camp"}
    assert str(error) == "play:dragon+shepherd: your dragon is in your camp (K4: play cards from your hand)"
    assert error.text("pl") == ("play:dragon+shepherd: karta „smok” leży w twoim obozie (K4: zagrywa się karty z "
                                "ręki)")
    with pytest.raises(IllegalActionError) as refused:
        state.play(parse_knights_action("recruit:knight"))
    error = refused.value
    assert (error.code, error.rule, error.params["waiting"]) == ("not-now", "K4", Message("error.waiting.choose-cards"))
    assert error.text("pl") == ("recruit:knight: na stole leży zamek: wybierz dwie karty (play:KARTA+KARTA)")


def test_k5_a_card_not_in_the_camp() -> None:
    """K5: the camp holds the cards lost in earlier castles; its list is said in the reader's words."""
    order = ("brick-big", "drum", "stone-big", "wood-small", "brick-small", "stone-small", "wood-big", "drum")
    state = KnightsState.new(KnightsSetup(2, None, None, order))
    for move in ("draw:brick-big", "play:dragon+foot-soldier", "play:dragon+hog", "draw:drum"):
        state.play(parse_knights_action(move))
    with pytest.raises(IllegalActionError) as refused:
        state.play(parse_knights_action("recruit:knight"))
    error = refused.value
    assert (error.code, error.rule) == ("card-not-in-camp", "K5")
    assert error.params["held"] == [Term("card.dragon"), Term("card.foot-soldier")]
    assert error.text("pl") == ("recruit:knight: w twoim obozie nie ma karty „rycerz” (są w nim: smok, piechur) "
                                "(K5)")


def test_k1_a_set_holds_one_of_each_army_card() -> None:
    """K1: only the shepherd comes twice in a set."""
    with pytest.raises(MalformedActionError) as refused:
        parse_knights_action("play:mounted-knight+mounted-knight")
    error = refused.value
    assert (error.code, error.rule) == ("card-twice", "K1")
    assert error.text("pl") == ("'play:mounted-knight+mounted-knight': w zestawie jest jedna karta „rycerz na "
                                "koniu”; tylko pasterz jest dwa razy")


# ------------------------------------------------------------------------------ setups, records, positions


def test_f8_a_rule_set_with_the_gate_guard_needs_the_sokol_expansion() -> None:
    """F8 is a variant of the Sokół expansion: the setup refuses it alone, as a SetupError (a ValueError)."""
    with pytest.raises(ValueError) as refused:
        Setup.parse("zamek+gate-guard")
    error = refused.value
    assert isinstance(error, SetupError)
    assert (error.code, error.rule, error.params) == ("option-needs", "F8", {"option": "gate-guard",
                                                                             "needed": "sokol"})
    assert str(error) == "the option 'gate-guard' needs 'sokol'"
    assert error.text("pl") == "opcja 'gate-guard' wymaga 'sokol'"


def test_k3_a_knights_setup_with_too_few_tiles() -> None:
    """K3: 7 rounds, 8 tiles; a fixed order names 7 or 8 (Polish plural: 8 kafelków)."""
    with pytest.raises(SetupError) as refused:
        KnightsSetup(3, None, None, ("drum",))
    error = refused.value
    assert (error.code, error.rule) == ("tile-order-length", "K3")
    assert str(error) == "tile_order must name 7 or 8 tiles, not 1"
    assert error.text("pl") == "tile_order musi wymieniać 7 albo 8 kafelków, nie 1"


def test_z7_a_records_bad_move_nests_the_engines_reason() -> None:
    """Z7 inside a record: the record's error holds the engine's error as a value, said in the same language."""
    record = make_record(Setup(), 1, [parse_action(m) for m in ("draw:Z24", "e5/0")])
    with pytest.raises(RecordError) as refused:
        replay_castle(record)
    error = refused.value
    assert (error.code, error.rule, error.params["number"], error.params["action"]) == ("record-move", None, 2, "e5/0")
    reason = error.params["reason"]
    assert isinstance(reason, IllegalActionError) and (reason.code, reason.rule) == ("tile-not-adjacent", "Z7")
    assert str(error) == "move 2 (e5/0): e5/0: a tile must touch a placed tile or a start space with a side (Z7)"
    assert error.text("pl") == ("ruch 2 (e5/0): e5/0: kafelek musi stykać się bokiem z położonym kafelkiem albo z "
                                "polem startowym (Z7)")
    assert error.to_json()["params"]["reason"] == {"key": "error.tile-not-adjacent",
                                                   "params": {"action": "e5/0", "rule": "Z7"}}


@pytest.mark.parametrize(("moves", "english", "polish"), [
    (1, "the record has 1 move; there is no move 5", "zapis ma 1 ruch; nie ma ruchu 5"),
    (2, "the record has 2 moves; there is no move 5", "zapis ma 2 ruchy; nie ma ruchu 5"),
    (0, "the record has 0 moves; there is no move 5", "zapis ma 0 ruchów; nie ma ruchu 5"),
])
def test_k8_a_record_counts_its_moves_in_the_languages_plural(moves: int, english: str, polish: str) -> None:
    """K8 (a record is the whole game, read after it): asking for a move past its end names how many it has."""
    state = KnightsState.new(KnightsSetup())
    actions = []
    for _ in range(moves):
        action = state.chance_outcomes()[0][0] if state.is_chance() else state.legal_actions()[0]
        state.play(action)
        actions.append(action)
    with pytest.raises(RecordError) as refused:
        replay_knights(make_knights_record(KnightsSetup(), 1, actions), upto=5)
    assert (refused.value.code, refused.value.params) == ("record-no-move", {"moves": moves, "upto": 5})
    assert (str(refused.value), refused.value.text("pl")) == (english, polish)


def test_z7_a_position_with_a_tile_cut_off_from_the_start_spaces() -> None:
    """Z7 in a position's text: every tile is reached from a start space."""
    text = (FIRST_TURN.format(rules="zamek", left="SHRINE,SPARE", tile="STRAIGHT")
            .replace("tiles=-", "tiles=T1@e5/0").replace("turn=1", "turn=2"))
    with pytest.raises(PositionError) as refused:
        position(text, *TILES)
    error = refused.value
    assert (error.code, error.rule, error.params) == ("position-cut-off", "Z7", {"space": "e5"})
    assert error.text("pl") == ("tiles: kafelek na polu e5 jest odcięty: każdy kafelek leży obok położonego "
                                "kafelka albo pola startowego (Z7)")


def test_a_position_naming_an_unknown_rule_set_nests_the_setups_error() -> None:
    """The setup's own error (C1/F: the editions and options) inside the position's."""
    with pytest.raises(PositionError) as refused:
        read_position(FIRST_TURN.format(rules="zamek+falcon", left="SPARE", tile="T1"))
    error = refused.value
    assert error.code == "position-rules"
    assert isinstance(error.params["reason"], SetupError)
    assert str(error).startswith("rules: 'zamek+falcon': unknown part 'falcon' (known: zamek, castle2003, sokol")
    assert error.text("pl").startswith("rules: 'zamek+falcon': nieznana część 'falcon' (znane: zamek, castle2003")


# ------------------------------------------------------------------------------ pickling


def test_z7_an_error_survives_pickling_with_its_code_rule_values_and_nested_reason() -> None:
    """Z7 (and any rule): errors cross process boundaries (the arena's workers) whole."""
    record = make_record(Setup(), 1, [parse_action(m) for m in ("draw:Z24", "e5/0")])
    with pytest.raises(RecordError) as refused:
        replay_castle(record)
    error = refused.value
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is RecordError
    assert (copy.code, copy.rule, copy.params["number"]) == (error.code, error.rule, 2)
    reason = copy.params["reason"]
    assert type(reason) is IllegalActionError and (reason.code, reason.rule) == ("tile-not-adjacent", "Z7")
    assert str(copy) == str(error) and copy.text("pl") == error.text("pl")
    occupied = IllegalActionError("feature-occupied", "Z10", action="follower:0", kind=Term("term.road"))
    again = pickle.loads(pickle.dumps(occupied))
    assert (again.code, again.rule, again.params) == (occupied.code, occupied.rule, occupied.params)
    assert again.text("pl", "castle2003") == "follower:0: na tym obszarze (ścieżka) stoi już poddany (Z10)"
