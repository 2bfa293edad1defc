"""Every rate is stated once (zamek.castle.rules.rates): a copy of the table with other numbers is played alike by
the Python engine, the compiled core and the web view, and no rate is written anywhere else (Z14, Z19, Z20, F2,
F4, F5, F6)."""

from __future__ import annotations

import random
import re
from dataclasses import fields, replace
from pathlib import Path

import pytest

from zamek.castle import fast
from zamek.castle.data.loader import rules_for
from zamek.castle.rules.actions import Action, Decline, Order
from zamek.castle.rules.board import TRACK_LENGTH
from zamek.castle.rules.features import FeatureView
from zamek.castle.rules.rates import RATES, Rates
from zamek.castle.rules.setup import Phase, Setup
from zamek.castle.rules.state import GameState
from zamek.castle.rules.tiles import FeatureKind
from zamek.castle.runner import play_game
from zamek.castle.seeding import SeededChance, player_rng
from zamek.server.views import Spaces, feature_infos, order_outcome

SRC = Path(__file__).resolve().parents[2] / "src" / "zamek"

OTHER: Rates = replace(
    RATES, road=3, road_with_stocks=7, house=2, pigsty=5, chapel=(0, 2, 4, 8, 16, 32), shrine=6, meadow_token=11,
    family_token_tiles=5, five_points=9, open_house=4, open_pigsty=6, open_road=3, open_road_with_stocks=8,
    empty_space=2, prince_factor=3, token_factor=4, falconer_nests=2,
)
"""Every rate changed: none equals the rulebook's, so a rate taken from anywhere but the table shows."""

SETUPS = [Setup.parse("zamek+sokol"), Setup.parse("castle2003+sokol+gate-guard"), Setup.parse("zamek")]


def other_rules(setup: Setup) -> GameState:
    return GameState.new(setup, replace(rules_for(setup), rates=OTHER))


def expected_worth(feature: FeatureView) -> int:
    """What a feature is worth at OTHER's rates, worked out here from the rules (Z14, F2, Z20, F4)."""
    if feature.kind is FeatureKind.MEADOW:
        points = feature.shrines * OTHER.shrine
    elif feature.kind is FeatureKind.CHAPEL:
        points = OTHER.chapel[min(feature.tiles, len(OTHER.chapel) - 1)]
    elif feature.kind is FeatureKind.ROAD:
        points = feature.tiles * (OTHER.road_with_stocks if feature.stocks else OTHER.road)
    else:
        points = feature.tiles * (OTHER.house if feature.kind is FeatureKind.HOUSE else OTHER.pigsty)
    if feature.controller is not None and feature.prince_of(feature.controller):
        points *= OTHER.prince_factor
    return points


def play(state: GameState, seed: int) -> list[Action]:
    """Play ``state`` to its end with random players and the seeding convention; return the moves."""
    chance = SeededChance(seed, state.tiles)
    rngs = [player_rng(seed, seat) for seat in (0, 1)]
    moves: list[Action] = []
    while not state.is_over():
        if state.is_chance():
            action: Action = chance.outcome(state)
        else:
            action = rngs[state.current].choice(state.legal_actions())
        moves.append(action)
        state.apply(action)
    return moves


@pytest.mark.parametrize("setup", SETUPS, ids=str)
def test_another_table_is_played_by_the_python_engine_and_the_compiled_core_alike(setup: Setup) -> None:
    if not fast.AVAILABLE:
        pytest.skip(f"the compiled core is not built: {fast.UNAVAILABLE}")
    import zamek.castle.fast._core as _core

    for seed in range(12):
        state = other_rules(setup)
        core_rules = _core.CoreRules(setup, state.rules)
        core = _core.CoreState(core_rules, True)
        for action in play(state, seed):
            core.apply(core_rules.encode(action))
        assert core.scores == tuple(state.scores), (setup.name, seed)
        assert core.log_items() == state.log, (setup.name, seed)
        usual = play_game(seed, setup=setup)
        assert tuple(state.scores) != tuple(usual.state.scores) or not state.log, (setup.name, seed)


def test_the_breakdown_uses_the_table() -> None:
    seen: set[str] = set()
    for seed in range(30):
        state = other_rules(Setup.parse("zamek+sokol"))
        play(state, seed)
        for item in state.log:
            if item.reason in ("road", "house", "pigsty") and not item.final:
                stocks = "stocks" in item.details
                rate = {"road": OTHER.road_with_stocks if stocks else OTHER.road, "house": OTHER.house,
                        "pigsty": OTHER.pigsty}[item.reason]
                assert item.rate == rate, item
                seen.add(item.reason)
            if item.reason == "meadow" and item.player is not None:
                assert item.rate in (OTHER.shrine, OTHER.meadow_token), item
                seen.add("meadow")
            if item.reason in ("family-house", "nests"):
                assert item.rate == OTHER.empty_space and item.points in (0, item.count * OTHER.empty_space), item
                seen.add(item.reason)
            if "prince" in item.details:
                assert item.multiplier % OTHER.prince_factor == 0, item
                seen.add("prince")
            if item.nests and item.player is not None:
                seen.add("nests-taken")
    assert {"road", "house", "pigsty", "meadow", "family-house", "nests", "prince"} <= seen


def test_the_view_shows_the_engines_worth_and_order_outcome_at_the_tables_rates() -> None:
    checked = 0
    for seed in range(8):
        state = other_rules(Setup.parse("zamek+sokol"))
        chance = SeededChance(seed, state.tiles)
        rngs = [player_rng(seed, seat) for seat in (0, 1)]
        while not state.is_over():
            if state.placements and not state.is_chance():
                spaces = Spaces(state)
                _, infos = feature_infos(state, spaces)
                by_id = {f.id: f for f in state.features()}
                for info in infos:
                    assert info.points == expected_worth(by_id[info.id]) == state.worth(by_id[info.id])
                    checked += 1
                for choice in state.order_choices():
                    outcome = order_outcome(state, choice)
                    if choice.controller is not None:
                        assert outcome["points"] == expected_worth(choice)
            action = chance.outcome(state) if state.is_chance() else rngs[state.current].choice(state.legal_actions())
            state.apply(action)
    assert checked > 1000


def test_the_compiled_core_is_given_every_rate() -> None:
    if not fast.AVAILABLE:
        pytest.skip(f"the compiled core is not built: {fast.UNAVAILABLE}")
    import zamek.castle.fast._core as _core

    assert set(_core.RATE_FIELDS) == {f.name for f in fields(Rates)}


# Rates written outside the table: their names, and their values where rates are computed.
RATE_LITERALS = [
    r"\b(ROAD|HOUSE|PIGSTY|SHRINE|MEADOW_TOKEN|ROAD_WITH_STOCKS)_RATE\b",
    r"\bZB_SHRINE_RATE\b|\bOPEN_RATES\b|\bFAMILY_TOKEN_BONUS\b|\bFIVE_POINTS\s*:\s*Final",
    r"0, 1, 3, 6, 10, 15, 21, 28, 36",
    r"\brate\s*=\s*\d",
    r"\bopen_rates\[\d\]\s*=\s*\{\s*\d",
    r"prince\b[^;\n]*\?\s*2\s*:\s*1|2 if [a-z_.]*prince",
    r"(?<!\bn )%\s*100\b",  # the track's length (a plural rule's n % 100 is not one)
    r"gain\[\w+\]\s*\+=\s*\d",
    r"kind === \"pigsty\" \? \"\d\"",
    r"\b(points|worth|gain|mult\w*|double|value|rate)\s*\*=\s*\d",  # a factor: the prince's doubling, a x2 token
    r"\btiles\s*\*\s*\d|\d\s*\*\s*tiles\b",  # points a tile
    r"\bstocks\b[^;\n]*\?\s*\d",  # a road's rate by its stocks
]


def test_no_rate_is_written_outside_the_table() -> None:
    sources = [p for p in SRC.rglob("*") if p.suffix in (".py", ".pyx", ".h", ".js")
               and p.name != "rates.py" and "__pycache__" not in p.parts]
    assert len(sources) > 100
    found = []
    for path in sources:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern in RATE_LITERALS:
                if re.search(pattern, line):
                    found.append(f"{path.relative_to(SRC)}:{number}: {line.strip()}")
    assert not found, "rates written outside zamek/castle/rules/rates.py:\n" + "\n".join(found)


def test_the_search_for_rate_literals_finds_them() -> None:
    planted = [
        "SHRINE_RATE: Final = 3", "#define ZB_SHRINE_RATE 3", "int shrines = 1, rate = 3, mult = 1;",
        "static const int open_rates[3] = {1, 2, 1};", "int mult = (node->prince >> p & 1) ? 2 : 1;",
        "tower = tower_at[(position + step) % 100]", "gain[p] += 5;", "CHAPEL = (0, 1, 3, 6, 10, 15, 21, 28, 36)",
        'pointsBadge(svg, [1.75, 0.22], kind === "pigsty" ? "4" : "2");', "double = 2 if feature.princes >> o & 1",
        "        points *= 2", "    if (kind == ZC_ROAD) return tiles * (stocks > 0 ? 2 : 1);", "    return tiles * 2;",
        "        if (n->kind == ZC_ROAD) { *rate = n->stocks ? 2 : 1; if (n->stocks) *flags |= ZC_D_STOCKS; }",
    ]
    for line in planted:
        assert any(re.search(pattern, line) for pattern in RATE_LITERALS), line
    for line in [
        "if kind is TokenKind.FIVE_POINTS:", "    FIVE_POINTS = 6", "few = n % 10 in (2, 3, 4) and n % 100 not in",
        "const int open_rates[3] = {R->rates.open_house, R->rates.open_pigsty, R->rates.open_road};",
    ]:
        assert not any(re.search(pattern, line) for pattern in RATE_LITERALS), line


def test_rates_are_a_value() -> None:
    assert Rates() == RATES and hash(RATES) == hash(Rates())
    assert OTHER != RATES and all(getattr(OTHER, f.name) != getattr(RATES, f.name) for f in fields(Rates))
    assert RATES.chapel_points(20) == RATES.chapel[-1] and RATES.chapel_points(2) == 3
    rng = random.Random(0)
    for _ in range(100):
        kind = rng.choice([FeatureKind.ROAD, FeatureKind.HOUSE, FeatureKind.PIGSTY])
        tiles, stocks = rng.randrange(1, 20), rng.randrange(2)
        assert RATES.complete_points(kind, tiles, stocks) == tiles * RATES.complete_rate(kind, stocks)


def test_the_server_tells_the_page_every_rate(tmp_path: Path) -> None:
    from tests.web_client import client_for

    with client_for(tmp_path / "games.sqlite3") as client:
        rates = client.get("/api/meta").json()["rates"]
    assert rates == {f.name: list(v) if isinstance(v := getattr(RATES, f.name), tuple) else v for f in fields(Rates)}


def test_the_order_preview_is_what_scoring_that_feature_first_then_does() -> None:
    """Z15, Z16, F8: at every order question of random games (the gate guard, another table of rates), each choice's
    preview (points, where the marker ends, the tower token taken, a gate) is what the engine does when it is chosen
    (its x2 token, if one is offered, kept): the first line the engine then writes, and the token taken."""
    checked = towers_taken = 0
    for seed in range(400):
        state = other_rules(Setup.parse("zamek+sokol+gate-guard"))
        chance = SeededChance(seed, state.tiles)
        rngs = [player_rng(seed, seat) for seat in (0, 1)]
        while not state.is_over():
            if state.phase is Phase.ORDER:
                for k, feature in enumerate(state.order_choices()):
                    preview = state.order_preview(feature)
                    assert preview.owner is not None and preview.marker is not None
                    chosen = state.copy()
                    before, logged = chosen.scores[preview.owner], len(chosen.log)
                    chosen.play(Order(k))
                    if chosen.phase is Phase.DOUBLE:
                        chosen.play(Decline())
                    item = chosen.log[logged]  # the chosen feature's line (the others may follow it)
                    assert (item.player, item.points + item.lost) == (preview.owner, preview.points)
                    assert preview.marker == before + item.points and preview.gate == (item.lost > 0)
                    tower = state.rules.tower_at[preview.marker % TRACK_LENGTH]
                    takes = item.points > 0 and not preview.gate and tower >= 0 and state.tower_token[tower]
                    assert preview.tower == (tower if takes else None)
                    if takes:  # the token is gone, and its reveal comes before anything else is scored (Z16)
                        assert chosen.phase is Phase.REVEAL and not chosen.tower_token[tower]
                        towers_taken += 1
                    checked += 1
            if state.is_chance():
                action: Action = chance.outcome(state)
            else:
                action = rngs[state.current].choice(state.legal_actions())
            state.apply(action)
        if checked >= 60 and towers_taken >= 3:
            break
    assert checked >= 60 and towers_taken >= 3


def test_the_compiled_bots_estimate_at_the_tables_rates() -> None:
    """The computer players' estimates, in C and in Python, read the same table (Z14, Z20, F4)."""
    if not fast.AVAILABLE:
        pytest.skip(f"the compiled core is not built: {fast.UNAVAILABLE}")
    from zamek.castle.bots import compiled
    from zamek.castle.bots.evaluate import DEFAULT
    from zamek.castle.bots.value import default_model

    states = []
    for seed in range(3):
        state = other_rules(Setup.parse("zamek+sokol"))
        chance = SeededChance(seed, state.tiles)
        rngs = [player_rng(seed, seat) for seat in (0, 1)]
        while not state.is_over():
            if state.phase is Phase.PLACE and len(state.placements) % 5 == 0:
                states.append(state.copy())
            action: Action = chance.outcome(state) if state.is_chance() else rngs[state.current].choice(
                state.legal_actions())
            state.apply(action)
    usual = [GameState.new(s.setup, rules_for(s.setup)) for s in states[:1]]
    for estimate in (DEFAULT, default_model()):
        leads = compiled.evaluate(states, estimate, 1)
        assert leads == [estimate.lead(s, 1) for s in states]
        assert compiled.evaluate(usual, estimate, 1) == [estimate.lead(s, 1) for s in usual]
    assert len(states) > 30
