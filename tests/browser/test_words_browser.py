"""The page says the catalogue's messages as Python does: static/words.js (the page's formatter, reading /api/words)
against zamek.i18n.say, over every message of both catalogues, with counts from 0 to 1000 in each plural (CLDR's
one / few / many in Polish), each form of each select, a player who is the reader or another, and values that are
words of the game, players, lists and other messages.

The browser, the server and the page are the fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from playwright.sync_api import Page

from tests.live_server import Server
from zamek.i18n import Message, Reader, Seat, Term, catalogue, languages, say
from zamek.i18n.messageformat import Argument, Choice, Pattern, parse

COUNTS = (0, 1, 2, 3, 4, 5, 7, 11, 12, 14, 21, 22, 25, 101, 102, 111, 112, 1000)
EDITIONS = (None, "castle2003")
NAMES = {1: "Ola"}  # the reader knows seat 1 by the name its player chose
Json = Any


def kinds(pattern: Pattern, found: dict[str, tuple[str, list[str]]]) -> dict[str, tuple[str, list[str]]]:
    """Every argument of a message: 'plural', 'select' (with its forms) or 'value'."""
    for part in pattern:
        if isinstance(part, Argument):
            found.setdefault(part.name, ("value", []))
        elif isinstance(part, Choice):
            forms = [key for key, _ in part.forms]
            if part.kind == "select" or found.get(part.name, ("value",))[0] == "value":
                found[part.name] = (part.kind, forms)
            for _, form in part.forms:
                kinds(form, found)
    return found


def values(key: str, arguments: dict[str, tuple[str, list[str]]]) -> Iterator[tuple[dict[str, Json], list[int]]]:
    """Values for a message's arguments (as JSON, the page's way) and the seats the reader holds: each count for
    its plurals, each form of its selects, its players as the reader and as another."""
    people = {name.removesuffix("_person") for name in arguments if name.endswith("_person")}
    plurals = [name for name, (kind, _) in arguments.items() if kind == "plural"]
    selects = {name: forms for name, (kind, forms) in arguments.items()
               if kind == "select" and name.removesuffix("_person") not in people}
    variants = max([len(COUNTS) if plurals else 1, *(len(forms) for forms in selects.values())])
    for i in range(variants):
        base: dict[str, Json] = {}
        for j, name in enumerate(sorted(arguments)):
            if name.endswith("_person") and name.removesuffix("_person") in people:
                continue
            if name in people:
                base[name] = {"seat": i % 2}
            elif name in plurals:
                base[name] = COUNTS[(i + 3 * plurals.index(name)) % len(COUNTS)]
            elif name in selects:
                forms = selects[name]
                base[name] = forms[i % len(forms)] if i % 3 else "none-of-them"
            else:  # a value as it is: text, a number, a word of the game, a player, a list, a message
                base[name] = [f"⟨{name}⟩", 7, {"term": "term.road"}, {"seat": j % 2},
                              ["Z53", {"term": "term.pigsty"}], {"key": "count.tiles", "params": {"n": i}}][(i + j) % 6]
        for you in ([[0], [1], []] if people else [[0]]):
            yield base, you


def python_value(value: Json) -> object:
    if isinstance(value, dict) and "seat" in value:
        return Seat(value["seat"])
    if isinstance(value, dict) and "term" in value:
        return Term(value["term"])
    if isinstance(value, dict) and "key" in value:
        return Message(value["key"], {k: python_value(v) for k, v in value["params"].items()})
    if isinstance(value, list):
        return [python_value(v) for v in value]
    return value


SAY_IN_THE_PAGE = """async (cases) => {
  const { loadWords } = await import('/static/words.js');
  const out = [];
  for (const [key, params, edition, lang, you] of cases) {
    const words = await loadWords(lang);
    const reader = { you, name: (seat) => ({ 1: 'Ola' })[seat] ?? null };
    try {
      out.push(words.say(key, params, edition, reader));
    } catch (err) {
      out.push(`ERROR ${err}`);
    }
  }
  return out;
}"""


def test_the_page_formats_every_message_as_python_does(page: Page, server: Server) -> None:
    cases: list[tuple[str, dict[str, Json], str | None, str, list[int]]] = []
    expected: list[str] = []
    plural_cases = 0
    for lang in languages():
        words = catalogue(lang)
        keys = sorted({key.partition("@")[0] for key in catalogue("en").keys() | words.keys()})
        for key in keys:
            for edition in EDITIONS:
                arguments = kinds(words.pattern(key, edition), {})
                for params, you in values(key, arguments):
                    reader = Reader(you=frozenset(you), names=NAMES)
                    cases.append((key, params, edition, lang, you))
                    expected.append(say(key, lang, edition, reader,
                                        **{name: python_value(v) for name, v in params.items()}))
                    plural_cases += any(kind == "plural" for kind, _ in arguments.values())
    assert plural_cases > 1000 and len(cases) > 5000, (plural_cases, len(cases))
    page.goto(server.url)
    page.wait_for_selector("#new-game")
    said: list[str] = page.evaluate(SAY_IN_THE_PAGE, cases)
    different = [(case, python, js) for case, python, js in zip(cases, expected, said, strict=True) if python != js]
    assert not different, f"{len(different)} of {len(cases)} differ, e.g. {different[:5]}"


def test_polish_counts_take_their_three_forms_in_the_page(page: Page, server: Server) -> None:
    """One, few and many, as Polish says them (CLDR): 1 kafelek, 2 kafelki, 5 kafelków, 12 kafelków, 22 kafelki."""
    page.goto(server.url)
    page.wait_for_selector("#new-game")
    cases: list[tuple[str, dict[str, int], None, str, list[int]]] = [
        ("count.tiles", {"n": n}, None, "pl", []) for n in (1, 2, 5, 12, 22, 25, 1000)]
    assert page.evaluate(SAY_IN_THE_PAGE, cases) == [
        "1 kafelek", "2 kafelki", "5 kafelków", "12 kafelków", "22 kafelki", "25 kafelków", "1000 kafelków"]


def test_a_message_is_parsed_alike_in_the_page(page: Page, server: Server) -> None:
    """Quotes, a '#' outside a plural, a plural inside a select and an exact form (=0) read alike."""
    texts = [
        "It''s '{'literal'}' and # stays",
        "{n, plural, =0 {none} one {# item, '#' sign} other {# items}}",
        "{player_person, select, you {You have {n, plural, one {# card} other {# cards}}} other {{player}: {n}}}",
    ]
    for text in texts:
        parse(text)
    page.goto(server.url)
    page.wait_for_selector("#new-game")
    said = page.evaluate("""async (texts) => {
      const { Words } = await import('/static/words.js');
      const words = new Words({ lang: 'en', name: 'English', plural_rules: 'en',
        messages: { 'player.name': 'Player {n}', 'player.you': 'You', 'list.separator': ', ',
          ...Object.fromEntries(texts.map((t, i) => [`m${i}`, t])) } });
      const reader = { you: [0], name: () => null };
      return [words.say('m0'), ...[0, 1, 2].map((n) => words.say('m1', { n })),
        words.say('m2', { player: { seat: 0 }, n: 1 }, null, reader),
        words.say('m2', { player: { seat: 1 }, n: 3 }, null, reader)];
    }""", texts)
    assert said == ["It's {literal} and # stays", "none", "1 item, # sign", "2 items", "You have 1 card", "Player 2: 3"]


def test_fractions_and_odd_select_values_are_said_alike(page: Page, server: Server) -> None:
    """A fraction is written with the language's decimal sign and takes the plural form for fractions (1,5 kafelka);
    a whole number held as a float is written as a whole number; a select value that is a name of JavaScript's
    objects ("toString", "constructor") is no form of the message, as in Python."""
    cases: list[tuple[str, dict[str, Json], str | None, str, list[int]]] = [
        ("count.tiles", {"n": 1.5}, None, "pl", [0]),
        ("count.tiles", {"n": 2.25}, None, "en", [0]),
        ("analysis.thresholds", {"inaccuracy": 3.0, "mistake": 6.5, "blunder": 12.0}, None, "pl", [0]),
        ("error.road-mismatch", {"action": "d5/0", "side": "toString", "mine": "constructor", "theirs": "road",
                                 "rule": "Z7"}, "castle2003", "pl", [0]),
    ]
    expected = [say(key, lang, edition, Reader(you=frozenset(you)), **params)
                for key, params, edition, lang, you in cases]
    assert expected[0] == "1,5 kafelka" and "od 3, błąd od 6,5" in expected[2]
    page.goto(server.url)
    page.wait_for_selector("#new-game")
    assert page.evaluate(SAY_IN_THE_PAGE, cases) == expected
