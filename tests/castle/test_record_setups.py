"""A saved game's setup names its rule set by the registry's keys (zamek.castle.rules.rulesets): anything else in
it is refused with a RecordError naming the field, never a traceback and never silently dropped."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.helpers import FIXTURES
from zamek.castle.record import make_record, read_record, setup_from_json, setup_to_json
from zamek.castle.rules.errors import RecordError
from zamek.castle.rules.rulesets import RULE_SETS
from zamek.castle.rules.setup import Setup
from zamek.castle.runner import play_game


@pytest.mark.parametrize("name", RULE_SETS)
def test_a_setup_is_written_as_the_registrys_keys_and_read_back(name: str) -> None:
    setup = Setup.parse(name, first_player=1)
    raw = setup_to_json(setup)
    assert "+".join([raw["edition"], *raw["expansions"], *raw["variants"]]) == name
    assert setup_from_json(json.loads(json.dumps(raw)), 3) == setup


@pytest.mark.parametrize(("change", "message"), [
    ({"expansions": ["falcon"]}, "setup.expansions: unknown name 'falcon'"),
    ({"expansions": ["gate-guard"]}, "setup.expansions: unknown name 'gate-guard'"),  # a variant, not an expansion
    ({"variants": ["sokol"]}, "setup.variants: unknown name 'sokol'"),
    ({"expansions": [" sokol"]}, "setup.expansions: unknown name ' sokol'"),
    ({"expansions": ["falcon", "eagle"]}, "setup.expansions: unknown names 'falcon', 'eagle'"),
    ({"expansions": [1]}, "setup: 'expansions' and 'variants' must be lists of names"),
    ({"variants": "gate-guard"}, "setup: 'expansions' and 'variants' must be lists of names"),
    ({"expansions": ["sokol", "sokol"]}, "setup.expansions: 'sokol' named twice"),
    ({"expansions": [], "variants": ["gate-guard"]}, "setup: the option 'gate-guard' needs 'sokol'"),  # F8
    ({"edition": "chess"}, "setup: unknown edition 'chess'"),
])
def test_a_setup_naming_anything_else_is_refused(change: dict[str, Any], message: str) -> None:
    game = play_game(3, setup=Setup.parse("zamek+sokol+gate-guard"))
    record = make_record(game.setup, game.seed, game.actions, game.state)
    record["setup"] = {**record["setup"], **change}
    with pytest.raises(RecordError) as refused:
        read_record(record)
    assert str(refused.value).startswith(message)


@pytest.mark.parametrize("name", ["record_v1_board1_zamek.json", "record_v1_board1_sokol_gate_guard.json"])
def test_records_of_earlier_versions_read_as_before(name: str) -> None:
    record = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    setup, moves = read_record(record)
    assert setup.board == 1 and moves
    assert setup.name == ("zamek+sokol+gate-guard" if "sokol" in name else "zamek")
