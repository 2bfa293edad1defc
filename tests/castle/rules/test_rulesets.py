"""Rule sets as values (zamek.castle.rules.rulesets): names round-trip, bad names are refused with the reason, and
every entry of the registry is wired where docs/adding-a-variant.md says (Setup and Rules, the compiled core, the
page's words)."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest

from tests.helpers import SRC
from zamek.castle.data.loader import rules_for
from zamek.castle.rules.editions import Edition
from zamek.castle.rules.rulesets import EDITION_OPTIONS, OPTIONS, RULE_SETS, option, parse_rule_set
from zamek.castle.rules.setup import Rules, Setup
from zamek.i18n import catalogue, languages

CORE_H = (SRC / "castle" / "fast" / "zamek_core.h").read_text(encoding="utf-8")
CORE_PYX = (SRC / "castle" / "fast" / "_core.pyx").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", RULE_SETS)
def test_every_rule_set_round_trips(name: str) -> None:
    setup = Setup.parse(name)
    assert str(setup) == setup.name == name
    assert Setup.parse(str(setup)) == setup
    assert rules_for(setup).sokol == setup.sokol and rules_for(setup).gate_guard == setup.gate_guard


def test_rule_sets_are_every_edition_with_every_allowed_choice_of_options() -> None:
    assert RULE_SETS[0] == "zamek"
    assert len(RULE_SETS) == len(set(RULE_SETS)) == 6
    assert {parse_rule_set(name)[0] for name in RULE_SETS} == set(Edition)


@pytest.mark.parametrize(("text", "same_as"), [
    ("sokol", "zamek+sokol"), ("gate-guard+sokol", "zamek+sokol+gate-guard"),
    (" Castle2003+SOKOL ", "castle2003+sokol"),
])
def test_a_name_may_leave_out_the_edition_and_order_its_options_freely(text: str, same_as: str) -> None:
    assert Setup.parse(text).name == same_as


@pytest.mark.parametrize(("text", "reason"), [
    ("chess", "'chess': unknown part 'chess'"), ("zamek+castle2003", "one edition only"),
    ("sokol+sokol", "'sokol' twice"), ("gate-guard", "the option 'gate-guard' needs 'sokol'"),  # F8 needs F1-F7
    ("", "a rule set is a name"), ("zamek++sokol", "unknown part ''"),
])
def test_a_bad_name_is_refused_with_its_reason(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=re.escape(reason)):
        Setup.parse(text)


def test_parse_takes_only_what_the_rule_set_leaves_open() -> None:
    setup = Setup.parse("castle2003+sokol", first_player=1, draw_order=("Z01",), board=1)
    assert (setup.first_player, setup.draw_order, setup.board, setup.name) == (1, ("Z01",), 1, "castle2003+sokol")
    with pytest.raises(TypeError):
        Setup.parse("zamek+sokol", sokol=False)  # type: ignore[call-arg]


def test_every_option_is_wired_where_adding_a_variant_says() -> None:
    setup_fields = {f.name: f for f in fields(Setup)}
    rules_fields = {f.name: f for f in fields(Rules)}
    declared = re.search(r"typedef struct \{[^}]*int sokol[^}]*\} zc_rules;", CORE_H, re.S)
    assert declared is not None
    keys = {entry.key for entry in (*EDITION_OPTIONS, *OPTIONS)}
    for entry in OPTIONS:
        assert entry.kind in ("expansion", "variant") and entry.rule_ids and set(entry.requires) <= keys, entry
        assert entry.setup_field and setup_fields[entry.setup_field].type == "bool", entry
        assert rules_fields[entry.setup_field].type == "bool", entry
        assert entry.compiled_flag and re.search(rf"\b{entry.compiled_flag}\b", declared.group(0)), entry
        assert re.search(rf"\bR\.{entry.compiled_flag} = 1 if rules\.{entry.setup_field} else 0", CORE_PYX), entry
        assert Setup.parse(entry.key if not entry.requires else "+".join([*entry.requires, entry.key])).options >= {
            entry.key}
    for entry in (*EDITION_OPTIONS, *OPTIONS):
        assert option(entry.key) is entry
        # Every language names it in its own words (the catalogue's page.rules.<key>).
        for lang in languages():
            assert entry.words == f"page.rules.{entry.key}" and entry.words in catalogue(lang).own, (lang, entry)
    for lang in languages():
        for entry in OPTIONS:  # its short name in a game's line and panel (ui.js describeGame)
            assert f"page.rules.short.{entry.key}" in catalogue(lang).own, (lang, entry.key)
        assert "page.rules.needs" in catalogue(lang).own  # "(needs Sokół)", an option's requirement
    assert [entry.key for entry in EDITION_OPTIONS] == [edition.value for edition in Edition]
