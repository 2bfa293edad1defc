"""Grammar of whole games: the move list, the score log, the report and the card game's events, in every rule
set, in English and Polish, read by each player and by someone with no seat, hold none of the wrong forms a
person would notice ("You draws", "Ty dobiera", "1 points", "2 kafelków", "+1 sokolich gniazd")."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

import pytest

from zamek.castle.report import breakdown, describe_move, item_line
from zamek.castle.rules.rulesets import RULE_SETS
from zamek.castle.rules.setup import Setup
from zamek.castle.rules.state import GameState
from zamek.castle.runner import play_game
from zamek.i18n import NOBODY, Reader, say
from zamek.knights.rules.engine import KnightsSetup
from zamek.knights.runner import play_game as play_knights
from zamek.knights.terms import event_lines

READERS = {"first player": Reader(you=frozenset({0})), "second player": Reader(you=frozenset({1})),
           "a spectator": NOBODY}


def against_the_computer(lang: str, computer: int) -> Reader:
    """A person against the computer, named as the page names it ("Computer (hard)", "Komputer (trudny)")."""
    name = say("page.player.computer", lang, level=say("page.level.hard", lang))
    return Reader(you=frozenset({1 - computer}), names={computer: name})

ENGLISH_NOUNS = {"point": "points", "tile": "tiles", "shrine": "shrines", "market stall": "market stalls",
                 "empty space": "empty spaces", "card": "cards", "falcon nest": "falcon nests", "decision": "decisions"}
POLISH_NOUNS = {("kafelek", "kafelki", "kafelków"), ("kapliczka", "kapliczki", "kapliczek"),
                ("stragan", "stragany", "straganów"), ("puste pole", "puste pola", "pustych pól"),
                ("karta", "karty", "kart"), ("sokole gniazdo", "sokole gniazda", "sokolich gniazd")}

WRONG_PERSON = [
    re.compile(r"\b[Yy]ou:? (draws|takes|places|puts|uses|keeps|scores|has|wins|starts|is)\b"),
    re.compile(r"\b[Tt]y:? (dobiera|zdobywa|kładzie|stawia|używa|zachowuje|punktuje|odzyskuje|ma|bierze|wygrywa)\b"),
]


def polish_form(n: int) -> int:
    """0 for one, 1 for few, 2 for many (CLDR's Polish rule for whole numbers)."""
    if n == 1:
        return 0
    return 1 if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else 2


def grammar_faults(text: str) -> list[str]:
    """Every wrong form in ``text``: a verb in the third person after "you", a number with the wrong plural."""
    faults = [m.group(0) for pattern in WRONG_PERSON for m in pattern.finditer(text)]
    for singular, plural in ENGLISH_NOUNS.items():
        for m in re.finditer(rf"\b(\d+) ({re.escape(plural)}|{re.escape(singular)})\b", text):
            n, word = int(m.group(1)), m.group(2)
            if (word == singular) != (n == 1):
                faults.append(m.group(0))
    for forms in POLISH_NOUNS:
        words = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
        for m in re.finditer(rf"(\d+) ({words})(?!\w)", text):
            n, word = int(m.group(1)), m.group(2)
            if word != forms[polish_form(n)]:
                faults.append(m.group(0))
    return faults


def test_the_checker_finds_the_forms_players_reported() -> None:
    """The wrong forms of the issue, each found (a check that finds nothing would pass anything)."""
    for wrong in ("Turn 7: You draws Z53", "You takes special token 2", "Tura 5: Ty dobiera Z36", "Ty zdobywa: x",
                  "Ty: zachowuje żeton", "+1 falcon nests", "+1 sokolich gniazd", "3 pkt za 2 kafelków", "1 points",
                  "(1 cards)", "5 tile"):
        assert grammar_faults(wrong), wrong
    for right in ("Turn 7: you draw Z53", "Tura 5: dobierasz Z36", "+1 sokole gniazdo", "+5 sokolich gniazd",
                  "3 pkt za 2 kafelki", "22 kafelki", "12 kafelków", "1 point", "0 points"):
        assert not grammar_faults(right), right


@cache
def castle_game(rules: str, seed: int) -> tuple[list[tuple[GameState, object]], GameState]:
    moves: list[tuple[GameState, object]] = []
    game = play_game(seed, setup=Setup.parse(rules),
                     on_action=lambda state, action: moves.append((state.copy(), action)))
    return moves, game.state


def castle_texts(rules: str, seed: int, lang: str, reader: Reader) -> Iterator[str]:
    moves, final = castle_game(rules, seed)
    edition = final.setup.edition
    for state, action in moves:
        yield describe_move(state, action, lang, reader)  # type: ignore[arg-type]
    for item in final.log:
        yield item_line(item, lang, edition, reader)
    yield breakdown(final, lang, reader)


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("lang", ["en", "pl"])
@pytest.mark.parametrize("reader", [*READERS, "computer first", "computer second"], ids=str)
def test_a_castle_game_reads_correctly(rules: str, lang: str, reader: str) -> None:
    who = READERS.get(reader) or against_the_computer(lang, 0 if reader == "computer first" else 1)
    for seed in (1, 2):
        texts = list(castle_texts(rules, seed, lang, who))
        assert texts
        faults = [fault for text in texts for fault in grammar_faults(text)]
        assert not faults, faults[:10]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_card_game_reads_correctly_at_every_seat(players: int, lang: str) -> None:
    game = play_knights(players, ["heuristic"] * players, KnightsSetup(players=players))
    for seat in [None, *range(players)]:
        events = game.state.view(seat if seat is not None else 0).events
        lines = [line for event in events for line in event_lines(event, lang, seat)]
        assert lines
        faults = [fault for line in lines for fault in grammar_faults(line)]
        assert not faults, faults[:10]
