"""Rule sets as values on the web: ``POST /api/games`` takes a rule set's name (``rules``), the older fields
(``edition``, ``sokol``, ``gate_guard``) still work and mean the same, a bad name or a contradiction is a 422 with a
message in both languages, and ``/api/meta`` lists the registry (``zamek.castle.rules.rulesets``)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web_client import Json, WebClient
from zamek import Setup, i18n
from zamek.castle.rules.rulesets import EDITION_OPTIONS, OPTIONS, RULE_SETS, RuleOption
from zamek.server.schemas import API_VERSION, Meta, SeatedView

ENGLISH = re.compile(r"\b(the|is|are|an|must|not|has|have|your|you|no|of|or|and|with|only|first|be|this|that|"
                     r"unknown|part|known|needs|send|alone|set|contradict|each|other)\b")


def create(client: WebClient, status: int = 201, lang: str | None = None, **fields: Any) -> Json:
    body = {"mode": "hotseat", "seed": 7} | fields
    response = client.post("/api/games" + (f"?lang={lang}" if lang else ""), json=body)
    assert response.status_code == status, response.text
    answer: Json = response.json()
    return answer


def older_fields(setup: Setup) -> dict[str, Any]:
    """The fields of protocol 3 before ``rules`` that ask for ``setup``'s rule set."""
    return {"edition": setup.edition.value, "sokol": setup.sokol, "gate_guard": setup.gate_guard}


def same_game(view: Json) -> Json:
    """A new game's view without what differs from one game to another of the same rules and seed."""
    return {k: v for k, v in view.items() if k not in ("id", "tokens")}


@pytest.mark.parametrize("name", RULE_SETS)
def test_a_game_of_every_rule_set_by_its_name(client: WebClient, name: str) -> None:
    view = create(client, rules=name)
    SeatedView.model_validate(view)
    setup = Setup.parse(name)
    assert view["rules"] == name == setup.name
    assert (view["edition"], view["sokol"], view["gate_guard"]) == (setup.edition.value, setup.sokol, setup.gate_guard)
    record = client.get(f"/api/games/{view['id']}/record").json()
    assert record["setup"]["edition"] == setup.edition.value
    assert record["setup"]["expansions"] == (["sokol"] if setup.sokol else [])
    assert record["setup"]["variants"] == (["gate-guard"] if setup.gate_guard else [])
    assert client.get(f"/api/games/{view['id']}").json()["rules"] == name


@pytest.mark.parametrize("name", RULE_SETS)
def test_the_older_fields_still_work_and_give_the_same_game(client: WebClient, name: str) -> None:
    setup = Setup.parse(name)
    by_name = create(client, rules=name)
    by_fields = create(client, **older_fields(setup))
    both = create(client, rules=name, **older_fields(setup))  # the older fields may come along where they agree
    assert by_fields["rules"] == name
    assert same_game(by_name) == same_game(by_fields) == same_game(both)


def test_a_rule_set_named_another_way_is_the_same(client: WebClient) -> None:
    """The edition may be left out (``sokol`` is ``zamek+sokol``) and the parts come in any order."""
    assert create(client, rules="sokol")["rules"] == "zamek+sokol"
    assert create(client, rules="castle2003+gate-guard+sokol")["rules"] == "castle2003+sokol+gate-guard"
    assert create(client)["rules"] == "zamek"  # neither rules nor the older fields: the default


@pytest.mark.parametrize("name", ["zamek+foo", "", "castle2003+gate-guard", "zamek+castle2003", "sokol+sokol",
                                  "chess"])
def test_a_bad_rule_set_is_refused_in_both_languages(client: WebClient, name: str) -> None:
    """The engine's own refusal of the name (its code, values and message), in the request's language."""
    refused = create(client, 422, rules=name)
    assert refused["error"] == "invalid" and f"error.{refused['code']}" in i18n.catalogue("en")
    said = i18n.Message(f"error.{refused['code']}", refused["params"] | ({"rule": refused["rule"]}
                                                                         if refused["rule"] else {}))
    assert refused["message"] == said.text("en") and len(refused["message"]) > 10
    polish = create(client, 422, lang="pl", rules=name)
    assert {k: v for k, v in polish.items() if k != "message"} == {k: v for k, v in refused.items() if k != "message"}
    assert polish["message"] == said.text("pl") != refused["message"]
    assert not ENGLISH.search(re.sub(r"'[^']*'", "", polish["message"])), polish
    assert client.lobby()["castle"] == []  # nothing was stored


@pytest.mark.parametrize(("fields", "against"), [
    ({"rules": "zamek+sokol", "sokol": False}, "sokol=false"),
    ({"rules": "zamek", "edition": "castle2003"}, "edition=castle2003"),
    ({"rules": "castle2003", "edition": "zamek"}, "edition=zamek"),
    ({"rules": "zamek+sokol", "gate_guard": True}, "gate_guard=true"),
    ({"rules": "zamek+sokol+gate-guard", "gate_guard": False}, "gate_guard=false"),
    ({"rules": "zamek", "gate_guard": True}, "gate_guard=true"),
])
def test_a_contradiction_is_refused_in_both_languages(client: WebClient, fields: Json, against: str) -> None:
    refused = create(client, 422, **fields)
    assert refused["error"] == "invalid" and refused["code"] == "rules-contradict"
    assert refused["params"] == {"rules": fields["rules"], "field": against}
    assert refused["message"] == (f"The rule set “{fields['rules']}” and {against} contradict each other: send the "
                                  "rule set alone.")
    polish = create(client, 422, lang="pl", **fields)["message"]
    assert polish == f"Zestaw zasad „{fields['rules']}” i {against} przeczą sobie: wyślij sam zestaw zasad."
    assert client.lobby()["castle"] == []


def test_the_older_check_of_the_gate_guard_is_kept(client: WebClient) -> None:
    refused = create(client, 422, gate_guard=True)
    assert refused["message"] == "The gate-guard variant needs the Sokół expansion."
    assert create(client, 422, lang="pl", gate_guard=True)["message"] == (
        "Wariant „Stój! Kto idzie?” wymaga dodatku Sokół.")


def option_json(option: RuleOption) -> Json:
    return {"key": option.key, "kind": option.kind, "rule_ids": list(option.rule_ids), "words": option.words,
            "requires": list(option.requires)}


def test_meta_lists_every_rule_set_and_option(client: WebClient) -> None:
    answer = client.get("/api/meta")
    meta = answer.json()
    Meta.model_validate_json(answer.text)
    assert meta["api"] == API_VERSION == 5
    assert meta["rule_sets"] == list(RULE_SETS)
    assert meta["options"] == [option_json(o) for o in OPTIONS]
    assert meta["edition_options"] == [option_json(o) for o in EDITION_OPTIONS]
    assert meta["editions"] == [o.key for o in EDITION_OPTIONS]
    keys = {o["key"] for o in meta["edition_options"] + meta["options"]}
    for name in meta["rule_sets"]:  # every name is made of the keys listed, and every listed name plays
        assert set(name.split("+")) <= keys
        assert create(client, rules=name)["rules"] == name


def test_the_geometry_of_a_rule_set(client: WebClient) -> None:
    for name in RULE_SETS:
        setup = Setup.parse(name)
        by_name = client.get("/api/geometry", params={"rules": name, "board": 1})
        assert by_name.status_code == 200, by_name.text
        by_field = client.get("/api/geometry", params={"sokol": str(setup.sokol).lower(), "board": 1})
        assert by_name.json() == by_field.json()
    refused = client.get("/api/geometry", params={"rules": "zamek+foo"})
    assert refused.status_code == 422 and refused.json()["code"] == "bad-rules"
    assert refused.json()["params"]["reason"]["key"] == "error.unknown-rule-part"
    assert refused.json()["message"].startswith("The rule set cannot be read: 'zamek+foo': unknown part")
    polish = client.get("/api/geometry", params={"rules": "zamek+foo", "lang": "pl"}).json()["message"]
    assert polish.startswith("Nie można odczytać zestawu zasad: 'zamek+foo': nieznana część"), polish
