"""The catalogues: every language has the same messages with the same values, every message is well formed,
numbers take the right plural form by CLDR's rules, and the message syntax reads and fills in as documented."""

from __future__ import annotations

from pathlib import Path

import pytest

from zamek import i18n
from zamek.castle.rules.editions import EDITIONS
from zamek.i18n import BASE, Message, Reader, Seat, Term, catalogue, languages, say
from zamek.i18n.messageformat import MessageSyntaxError, arguments, format_pattern, parse, unparse

OTHERS = [lang for lang in languages() if lang != BASE]


def base_keys(lang: str) -> set[str]:
    return {key.partition("@")[0] for key in catalogue(lang).own}


def test_english_and_polish_are_both_there() -> None:
    assert languages()[:1] == (BASE,)
    assert "pl" in languages()


@pytest.mark.parametrize("lang", OTHERS)
def test_every_language_has_the_same_messages_as_english(lang: str) -> None:
    assert base_keys(lang) == base_keys(BASE)


@pytest.mark.parametrize("lang", languages())
def test_edition_forms_name_an_edition_and_a_message(lang: str) -> None:
    for key in catalogue(lang).own:
        if "@" in key:
            name, _, edition = key.partition("@")
            assert edition in EDITIONS, key
            assert name in base_keys(lang), key


@pytest.mark.parametrize("lang", OTHERS)
def test_a_translation_uses_the_values_its_english_message_uses(lang: str) -> None:
    english, translated = catalogue(BASE), catalogue(lang)
    for key in sorted(translated.keys()):
        name, _, edition = key.partition("@")
        in_english = english.pattern(name, edition or None)
        assert arguments(translated.pattern(name, edition or None)) == arguments(in_english), key


@pytest.mark.parametrize("lang", languages())
def test_every_message_reads_back_as_written(lang: str) -> None:
    for key, text in catalogue(lang).own.items():
        assert parse(unparse(parse(text))) == parse(text), key


def polish_form(n: int) -> str:
    """CLDR's Polish integer rule, written out: one (1), few (2-4, 22-24... not 12-14), many (the rest)."""
    if n == 1:
        return "one"
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return "few"
    return "many"


@pytest.mark.parametrize("n", range(0, 1001))
def test_numbers_take_their_plural_form_from_0_to_1000(n: int) -> None:
    english = "tile" if n == 1 else "tiles"
    assert say("count.tiles", "en", None, n=n) == f"{n} {english}"
    assert say("count.shrines", "en", "castle2003", n=n) == f"{n} market stall{'' if n == 1 else 's'}"
    polish = {"one": "kafelek", "few": "kafelki", "many": "kafelków"}[polish_form(n)]
    assert say("count.tiles", "pl", None, n=n) == f"{n} {polish}"
    stalls = {"one": "stragan", "few": "stragany", "many": "straganów"}[polish_form(n)]
    assert say("count.shrines", "pl", "castle2003", n=n) == f"{n} {stalls}"
    assert catalogue("pl").plural(n) == polish_form(n)


def test_an_edition_has_its_own_words() -> None:
    """C1: The Castle 2003 names the road a path."""
    assert say("term.road", "en", "zamek") == "road"
    assert say("term.road", "en", "castle2003") == "path"
    assert say("term.road", "pl", "castle2003") == "ścieżka"
    assert say("term.chapel", "pl", "castle2003") == "kaplica"  # no form of its own: the plain word


def test_a_person_is_addressed_in_the_second_person() -> None:
    you = Reader(you=frozenset({0}))
    draw = Message("move.draw", {"turn": 7, "player": Seat(0), "tile": "Z53"})
    assert draw.text("en", None, you) == "Turn 7: you draw Z53"
    assert draw.text("en") == "Turn 7: Player 1 draws Z53"
    assert draw.text("pl", None, you) == "Tura 7: dobierasz Z53"
    assert draw.text("pl", None, Reader(names={0: "Komputer"})) == "Tura 7: Komputer dobiera Z53"


def test_values_are_words_seats_messages_and_lists() -> None:
    message = Message("report.discarded", {"tiles": ["Z1", Term("term.road"), Seat(1)]})
    assert message.text("pl") == "Odrzucone (brak miejsca): Z1, droga, Gracz 2"
    assert message.to_json() == {"key": "report.discarded",
                                 "params": {"tiles": ["Z1", {"term": "term.road"}, {"seat": 1}]}}


def test_a_language_lacking_a_message_says_it_in_english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "de"
    folder.mkdir()
    (folder / "language.toml").write_text('[language]\nname = "Deutsch"\nplural_rules = "de"\n', encoding="utf-8")
    (folder / "words.toml").write_text('[term]\nroad = "Straße"\n', encoding="utf-8")
    monkeypatch.setenv(i18n.CATALOGUES_ENV, str(tmp_path))
    i18n.reset()
    try:
        assert "de" in languages()
        assert say("term.road", "de") == "Straße"
        assert say("term.house", "de") == "house"
        assert catalogue("de").export()["messages"]["term.road"] == "Straße"
        assert catalogue("de").plural(1) == "one"
    finally:
        monkeypatch.delenv(i18n.CATALOGUES_ENV)
        i18n.reset()
    assert "de" not in languages()


def test_a_catalogue_defining_a_key_twice_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "de"
    folder.mkdir()
    (folder / "language.toml").write_text('[language]\nname = "Deutsch"\nplural_rules = "de"\n', encoding="utf-8")
    (folder / "a.toml").write_text('[term]\nroad = "Straße"\n', encoding="utf-8")
    (folder / "b.toml").write_text('"term.road" = "Weg"\n', encoding="utf-8")
    monkeypatch.setenv(i18n.CATALOGUES_ENV, str(tmp_path))
    i18n.reset()
    try:
        with pytest.raises(ValueError, match="defined twice"):
            say("term.road", "de")
    finally:
        monkeypatch.delenv(i18n.CATALOGUES_ENV)
        i18n.reset()


@pytest.mark.parametrize("text", [
    "{n, plural, one {# a}}",            # no other form
    "{n, plural, several {a} other {b}}",  # not a CLDR category
    "{n, choice, one {a} other {b}}",    # not plural or select
    "an {open",
    "a } too many",
    "'{ never closed",
])
def test_a_malformed_message_is_refused(text: str) -> None:
    with pytest.raises(MessageSyntaxError):
        parse(text)


def test_the_syntax_fills_in_exact_numbers_quotes_and_nested_choices() -> None:
    english = catalogue(BASE)
    pattern = parse("{n, plural, =0 {none} one {# thing} other {# things}}, '{'quoted'}' it''s {who, select, "
                    "you {yours} other {{who}’s}}")

    def fill(**values: object) -> str:
        return format_pattern(pattern, values, english.plural, english.value)

    assert fill(n=0, who="you") == "none, {quoted} it's yours"
    assert fill(n=1, who="Ann") == "1 thing, {quoted} it's Ann’s"
    assert fill(n=21, who="Ann") == "21 things, {quoted} it's Ann’s"
