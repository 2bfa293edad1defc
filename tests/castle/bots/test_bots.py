"""The computer players (zamek.castle.bots) and the arena that measures them.

Random positions come from random play in every rule set; the rarer decisions (Z15 order, Z19 x2
token, Z19 extra turn) come up in random play because both players are handed those tokens at the
start, and are also arranged directly. Hand-made positions use custom tiles in the real castle and
a fixed draw order (``tests.helpers.custom_game``); each says who holds what, and its test checks
that the position is what it claims before asking a bot. MCTS budgets are kept tiny: the file
must stay fast.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Iterator
from itertools import chain
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import (
    ALL,
    SHORT_TILES,
    changed,
    custom_game,
    holding,
    house,
    marker,
    meadow,
    pigsty,
    road,
    snapshot,
    tile_toml,
)
from zamek.castle import arena as arena_module
from zamek.castle import fast
from zamek.castle.arena import (
    ArenaReport,
    GameResult,
    pair_file_name,
    play_match_game,
    progress_line,
    results_from_json,
    run_arena,
    wilson_interval,
)
from zamek.castle.bots import compiled
from zamek.castle.bots import mcts as mcts_module
from zamek.castle.bots.base import Bot, Budget
from zamek.castle.bots.compiled import SearchResult
from zamek.castle.bots.evaluate import DEFAULT
from zamek.castle.bots.levels import BOT_NAMES, LEVELS, make_bot
from zamek.castle.bots.mcts import MCTSBot, ranked_moves
from zamek.castle.bots.simple import GreedyBot, RandomBot
from zamek.castle.bots.value import ValueModel
from zamek.castle.data import loader as datafiles
from zamek.castle.rules import rulesets
from zamek.castle.rules.actions import Decline, Order, Place, PlayerAction, UseToken, parse_action
from zamek.castle.rules.board import TRACK_LENGTH
from zamek.castle.rules.features import FeatureView
from zamek.castle.rules.position import Position
from zamek.castle.rules.setup import HeldToken, Phase, Setup
from zamek.castle.rules.state import GameState
from zamek.castle.rules.tiles import FeatureKind
from zamek.castle.rules.tokens import TokenKind
from zamek.castle.runner import sample_chance
from zamek.cli import main

RULE_SETS = [Setup.parse(name) for name in rulesets.RULE_SETS]
RULE_IDS = [s.name for s in RULE_SETS]
BASE = RULE_SETS[0]

TINY = Budget(iterations=2)
"""The budget MCTS players get in the legality tests (at a placement they still search every candidate)."""


def phase(state: GameState) -> Phase:
    """Return the phase (a call, so that type checkers do not narrow it across actions)."""
    return state.phase


def place(state: GameState, text: str) -> Place:
    action = parse_action(text)
    assert isinstance(action, Place)
    assert action in state.legal_actions(), f"{text} is not legal here"
    return action


def turn(state: GameState, where: str, figure: str = "pass") -> GameState:
    """Draw the next tile of the fixed order, place it, then place a figure or pass (with checks)."""
    ((outcome, _),) = state.chance_outcomes()
    state.play(outcome)
    state.play(parse_action(where))
    state.play(parse_action(figure))
    return state


def draw(state: GameState) -> GameState:
    """Draw the next tile of the fixed order."""
    assert phase(state) is Phase.DRAW
    ((outcome, _),) = state.chance_outcomes()
    state.play(outcome)
    assert phase(state) is Phase.PLACE
    return state


def finish_turn(state: GameState, action: PlayerAction, rng: random.Random, bot: Bot) -> GameState:
    """Play ``action`` on a copy, then let ``bot`` finish the turn (chance by sampling)."""
    state = state.copy()
    state.play(action)
    player = state.current
    while not state.is_over() and phase(state) is not Phase.DRAW and state.current == player:
        if state.is_chance():
            state.play(sample_chance(state, rng))
        else:
            state.play(bot.choose(state, rng))
    return state


# ------------------------------------------------------------------------------- custom tiles



# Tiles in board orientation (rotation 0). Every tile differs from every other, also when turned
# (meadows split differently tell otherwise equal tiles apart). Only M1 has a shrine; elsewhere a
# monk earns something only on the start space S3's shrine meadow (at e10).
TILES = {
    # A pigsty running north-south: b8, b7, b6 under S2 make one pigsty open to the south (b5).
    "PA": tile_toml("PA", pigsty(0, 1, 2, 6, 7, 8), meadow(3, 4, 5), meadow(9, 10, 11)),
    "PB": tile_toml("PB", pigsty(0, 1, 2, 6, 7, 8), meadow(3), meadow(4, 5), meadow(9, 10, 11)),
    "PC": tile_toml("PC", pigsty(0, 1, 2, 6, 7, 8), meadow(3, 4), meadow(5), meadow(9, 10, 11)),
    # d3/0: S7's road goes on north, open (d4).
    "RA": tile_toml("RA", road(1, 7), meadow(2, 3, 4, 5, 6), meadow(8, 9, 10, 11, 0)),
    # a6/0: S1's road turns south past stocks (2 points a tile), open (a5). a5/0 (RD): it turns east, open (b5).
    "RC": tile_toml("RC", road(10, 7, stocks=1), meadow(11, 0, 1, 2, 3, 4, 5, 6), meadow(8, 9)),
    "RD": tile_toml("RD", road(1, 4), meadow(2, 3), meadow(5, 6, 7, 8), meadow(9, 10, 11, 0)),
    # A pigsty to the north, a road ending to the south: b5/0 closes the pigsty above, d4/0 the road below.
    "PR": tile_toml("PR", pigsty(0, 1, 2), meadow(3, 4, 5, 6), road(7), meadow(8, 9, 10, 11)),
    # A pigsty to the north, a road ending to the west: b5/0 closes the pigsty above and the road from a5.
    "PW": tile_toml("PW", pigsty(0, 1, 2), meadow(3, 4, 5, 6, 7, 8, 9), road(10), meadow(11)),
    # Meadows, for turns that only pass time.
    "M0": tile_toml("M0", meadow(*ALL)),
    "MF": tile_toml("MF", meadow(0, 1, 2, 3), meadow(4, 5, 6, 7, 8, 9, 10, 11)),
    "M2": tile_toml("M2", meadow(0, 1, 2, 3, 4, 5), meadow(6, 7, 8, 9, 10, 11)),
    "M3": tile_toml("M3", meadow(0, 1, 2, 3, 4, 5, 6, 7, 8), meadow(9, 10, 11)),
    "M4": tile_toml("M4", meadow(0), meadow(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)),
    # The Z15 column of tests/castle/rules/test_rules_tokens.py: a6 house open north, a8 pigsty open south,
    # a7 closes both (a house of 2 tiles, 2 points, and a pigsty of 2 tiles, 4 points).
    "R1": tile_toml("R1", house(0, 1, 2), meadow(3, 4, 5, 6, 7, 8, 9), road(10), meadow(11)),
    "PG1": tile_toml("PG1", pigsty(0, 1, 2), meadow(3, 4, 5, 6, 7, 8, 9, 10, 11)),
    "A7": tile_toml("A7", house(6, 7, 8), meadow(9, 10, 11), pigsty(0, 1, 2), meadow(3, 4, 5)),
    "M1": tile_toml("M1", meadow(*ALL, shrines=1)),
    # Never drawn: it keeps a game going.
    "SPARE": tile_toml("SPARE", pigsty(0, 1, 2, 3, 4, 5), house(6, 7, 8, 9, 10, 11)),
}


def new_game(order: list[str], *, first_player: int = 0, spare: bool = False, rules: Setup = BASE) -> GameState:
    """Return a game under ``rules`` whose tile set is exactly the tiles of ``order`` (plus SPARE), drawn in
    that order."""
    order = [*order, "SPARE"] if spare else order
    return custom_game(
        [TILES[t] for t in order], order, first_player=first_player,
        edition=rules.edition, sokol=rules.sokol, gate_guard=rules.gate_guard,
    )


def region(state: GameState, space: str, feature: int) -> FeatureView:
    """Return the feature (region) holding part ``feature`` of the tile on ``space``."""
    return state.feature_at(space, feature)


# ------------------------------------------------------------------------------ the bots


def all_bots() -> Iterator[tuple[str, Bot, Budget | None]]:
    """Yield every computer player: each name make_bot knows (MCTS ones on a tiny budget), and greedy
    with a budget of placements."""
    for name in BOT_NAMES:
        bot = make_bot(name)
        yield name, bot, TINY if isinstance(bot, MCTSBot) else None
    yield "GreedyBot+budget", GreedyBot(), Budget(iterations=2)


def assert_bots_choose_legally(state: GameState, seed: int = 0) -> None:
    """Every bot returns a legal action that ``play`` accepts, and leaves the position untouched."""
    legal = state.legal_actions()
    assert legal, "not a decision"
    before = snapshot(state)
    for name, bot, budget in all_bots():
        action = bot.choose(state, random.Random(seed), budget)
        assert snapshot(state) == before, f"{name} changed the position it was given"
        assert action in legal, f"{name} chose {action}, not one of {[str(a) for a in legal]}"
        state.copy().play(action)  # with checks: raises if illegal


def random_decisions(setup: Setup, seed: int) -> list[GameState]:
    """Return every decision position of one random game, both players holding x2 and extra-turn tokens."""
    rng = random.Random(seed)
    state = datafiles.new_game(dataclasses.replace(setup, first_player=seed % 2))
    # Written into the state on purpose: tokens usable from turn 1 and markers anywhere (full towers too) reach the
    # rare decisions in every game, which positions of a game would not.
    for player in (0, 1):
        for kind in (TokenKind.EXTRA_TURN, TokenKind.HOUSE_X2, TokenKind.PIGSTY_X2):
            state.tokens[player].append(HeldToken(kind, 0))
    positions = []
    while not state.is_over():
        if state.is_chance():
            state.apply(sample_chance(state, rng))
            continue
        positions.append(state.copy())
        if rng.random() < 0.05:  # markers anywhere on the track: towers, gates, wrapping
            state.scores[state.current] = rng.randrange(0, 110)
        state.apply(rng.choice(state.legal_actions()))
    return positions


DECISIONS = [Phase.PLACE, Phase.FOLLOWER, Phase.DOUBLE, Phase.EXTRA_TURN]
"""The decisions random play with tokens reaches in every game or so (ORDER is rarer: arranged below)."""


@pytest.mark.parametrize("setup", RULE_SETS, ids=RULE_IDS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), wanted=st.sampled_from([*DECISIONS, Phase.ORDER]), pick=st.integers(0, 1000))
def test_every_bot_chooses_a_legal_action_in_random_positions(
    setup: Setup, seed: int, wanted: Phase, pick: int
) -> None:
    positions = random_decisions(setup, seed)
    matching = [p for p in positions if p.phase is wanted] or positions  # else any decision
    state = matching[pick % len(matching)]
    assert_bots_choose_legally(state, seed)


def test_random_play_with_tokens_reaches_every_decision_phase() -> None:
    # The property above only covers DOUBLE and EXTRA_TURN if random play with tokens reaches them.
    seen = {p.phase for seed in range(4) for p in random_decisions(BASE, seed)}
    assert set(DECISIONS) <= seen


def z15_column(setup: Setup, *, score: int = 0, tokens: tuple[TokenKind, ...] = ()) -> GameState:
    """Return the Z15 column position (``test_rules_tokens``) after White places a7/0, under any rules.

    White owns the house a6 (open north) and the pigsty a8 (open south); a7 closes both. The Sokół
    castle has one more row, so every space there is one row higher.
    """

    def at(space: str) -> str:
        column, row = space[0], int(space[1:].split("/")[0])
        rest = space.split("/")[1]
        return f"{column}{row + 1 if setup.sokol else row}/{rest}"

    g = new_game(["R1", "M0", "PG1", "M1", "A7"], spare=True, rules=setup)
    turn(g, at("a6/0"), "follower:0")
    turn(g, at("b8/0"))
    turn(g, at("a8/180"), "follower:0")
    turn(g, at("e10/0"))
    # White took the tokens in turn 1, from the tower the marker now stands on (if any) and the farthest ones.
    under = tuple(t.track[0] for t in g.castle.towers if t.index == g.rules.tower_at[score % TRACK_LENGTH])
    g = marker(holding(g, 0, *tokens, towers=under), 0, score)
    turn(g, at("a7/0"))
    return g


@pytest.mark.parametrize("setup", RULE_SETS, ids=RULE_IDS)
def test_every_bot_chooses_legally_in_arranged_order_double_and_extra_turn(setup: Setup) -> None:
    # Z15: from 11 the house first ends on the tower 12/13, the pigsty first does not.
    g = z15_column(setup, score=11)
    assert phase(g) is Phase.ORDER
    assert g.legal_actions() == [Order(0), Order(1)]
    assert_bots_choose_legally(g)
    # Z15 then Z19: with both x2 tokens from 12, the order matters, then each x2 is a decision.
    g = z15_column(setup, score=12, tokens=(TokenKind.HOUSE_X2, TokenKind.PIGSTY_X2))
    assert phase(g) is Phase.ORDER
    g.play(Order(0))
    assert phase(g) is Phase.DOUBLE
    assert len(g.legal_actions()) == 2
    assert_bots_choose_legally(g)
    # Z19: the extra turn, offered once the scoring is done.
    g = z15_column(setup, tokens=(TokenKind.EXTRA_TURN,))
    assert phase(g) is Phase.EXTRA_TURN
    assert g.legal_actions() == [UseToken(TokenKind.EXTRA_TURN), Decline()]
    assert_bots_choose_legally(g)


@pytest.mark.parametrize("name", ["greedy", "mcts"])
def test_order_decision_takes_the_tower_token(name: str) -> None:
    # From 11, the house first ends on 13 and takes a token; the pigsty first passes the tower.
    # Both orders end on 17: the token is free, and both bots must take it.
    g = z15_column(BASE, score=11)
    kinds = [f.kind for f in g.order_choices()]
    bot = make_bot(name)
    action = bot.choose(g, random.Random(3), TINY)
    assert action == Order(kinds.index(FeatureKind.HOUSE))
    after = finish_turn(g, action, random.Random(3), bot)
    assert after.scores[0] == 17 and len(after.tokens[0]) == 1


# ------------------------------------------------------------------------ obvious good moves


def big_pigsty_or_small_road(scores: tuple[int, int]) -> GameState:
    """White holds a pigsty of 4 tiles (S2, b8, b7, b6), open only to the south (b5), and a road
    of 2 tiles (S7, d3), open only to the north (d4). White draws PR: b5/0 closes the pigsty with
    PR's pigsty in it (5 tiles, 10 points); d4/0 closes the road (3 tiles, 3 points). Black then
    places one last meadow tile (a monk on S3's shrine meadow would earn Black 3 at the end)."""
    g = new_game(["PA", "M0", "PB", "MF", "PC", "M2", "RA", "M3", "PR", "M4"])
    turn(g, "b8/0", "follower:0")
    turn(g, "e10/0")
    turn(g, "b7/0")
    turn(g, "e9/0")
    turn(g, "b6/0")
    turn(g, "e8/0")
    turn(g, "d3/0", "follower:0")
    turn(g, "e7/0")
    g = changed(g, scores=scores)
    return draw(g)


def test_pigsty_position_is_as_described() -> None:
    g = big_pigsty_or_small_road((0, 6))
    sty, path = region(g, "b6", 0), region(g, "d3", 0)
    assert sty.controller == 0 and sty.tiles == 4 and sty.open_edges == 3
    assert path.controller == 0 and path.tiles == 2 and path.open_edges == 1
    closed = g.copy()
    closed.play(place(g, "b5/0"))
    closed.play(parse_action("pass"))
    assert closed.scores == [10, 6]
    closed = g.copy()
    closed.play(place(g, "d4/0"))
    closed.play(parse_action("pass"))
    assert closed.scores == [3, 6]


OBVIOUS_BOTS: list[tuple[str, Callable[[], Bot], Budget | None]] = [
    ("greedy", GreedyBot, None),
    ("learned", lambda: make_bot("learned"), None),
    ("mcts", lambda: MCTSBot(iterations=24), None),
    ("hard", lambda: make_bot("hard"), Budget(iterations=16)),
]


@pytest.mark.parametrize(("name", "factory", "budget"), OBVIOUS_BOTS, ids=[b[0] for b in OBVIOUS_BOTS])
def test_bot_completes_the_big_pigsty_rather_than_the_small_road(
    name: str, factory: Callable[[], Bot], budget: Budget | None
) -> None:
    # At 0 against 6: only the 10-point pigsty wins (the road gives 3; b5 turned another way closes
    # the pigsty without PR's part, 8; Black can still put a monk on S3's shrine meadow, 3).
    g = big_pigsty_or_small_road((0, 6))
    for seed in (1, 2):
        bot = factory()
        action = bot.choose(g, random.Random(seed), budget)
        assert action == place(g, "b5/0"), f"{name} chose {action}"
        after = finish_turn(g, action, random.Random(seed), bot)
        assert after.scores[0] == 10


def trap_position() -> GameState:
    """Black holds a pigsty of 4 tiles (S2, b8, b7, b6), open only to the south (b5). White holds
    a road with stocks of 3 tiles (S1, a6, a5), open only to the east (b5). White draws PW, which
    fits b5 only as b5/0: that closes White's road (8 points, White's best score this turn) and
    Black's pigsty with PW's pigsty in it (10 points for Black). Black then places one last meadow
    tile (a monk on S3's shrine meadow would earn Black 3 at the end).

    At 20 against 16, b5/0 loses (28 against 26 + 3); anything else wins (20 against 16 + 3)."""
    g = new_game(["PA", "RC", "PB", "RD", "PC", "PW", "M0"], first_player=1)
    turn(g, "b8/0", "follower:0")
    turn(g, "a6/0", "follower:0")
    turn(g, "b7/0")
    turn(g, "a5/0")
    turn(g, "b6/0")
    # White's marker stands on the tower 19/20, so its token was taken: an extra turn, used since.
    towers = tuple(t for t in Position.from_state(g).towers if t != 19)
    g = changed(g, scores=(20, 16), towers=towers, pool=(1, 2, 2, 2, 2, 2, 2, 2, 2))
    return draw(g)


def test_trap_position_is_as_described() -> None:
    g = trap_position()
    assert g.current == 0
    sty, path = region(g, "b6", 0), region(g, "a5", 0)
    assert sty.controller == 1 and sty.tiles == 4 and sty.open_edges == 3
    assert path.controller == 0 and path.tiles == 3 and path.open_edges == 1
    assert [str(a) for a in g.legal_actions() if str(a).startswith("b5")] == ["b5/0"]
    trapped = g.copy()
    trapped.play(place(g, "b5/0"))
    trapped.play(parse_action("pass"))
    assert trapped.scores == [20 + 8, 16 + 10]  # the tempting 8 points cost the game
    turn(trapped, "e10/0", "follower:0")  # Black's monk on S3's shrine meadow
    assert trapped.result() is not None and trapped.result().winners == (1,)  # type: ignore[union-attr]
    safe = g.copy()
    safe.play(next(a for a in g.legal_actions() if str(a)[:3] not in ("b5/", "e10")))
    safe.play(parse_action("pass"))
    turn(safe, "e10/0", "follower:0")
    assert safe.scores == [20, 16 + 3] and safe.result().winners == (0,)  # type: ignore[union-attr]


@pytest.mark.parametrize(("name", "factory", "budget"), OBVIOUS_BOTS, ids=[b[0] for b in OBVIOUS_BOTS])
def test_bot_does_not_close_the_opponents_big_pigsty_for_its_own_small_road(
    name: str, factory: Callable[[], Bot], budget: Budget | None
) -> None:
    g = trap_position()
    for seed in (1, 2):
        bot = factory()
        action = bot.choose(g, random.Random(seed), budget)
        assert action != place(g, "b5/0"), f"{name} fell into the trap"
        after = finish_turn(g, action, random.Random(seed), bot)
        assert after.scores[1] == 16  # Black scored nothing
        assert after.scores[0] >= 20


def test_mcts_takes_the_extra_turn_that_completes_its_pigsty() -> None:
    # The position of the pigsty test one turn earlier: White holds an extra-turn token and has just
    # placed a meadow tile. The next tile is PR: taken now, it closes White's pigsty (10 points);
    # declined, it goes to Black. Greedy looks no further than the end of the turn (and keeps the
    # token); MCTS must look ahead.
    g = new_game(["PA", "M0", "PB", "MF", "PC", "M2", "RA", "M3", "M4", "PR", "M1"])
    for where, figure in (("b8/0", "follower:0"), ("e10/0", "pass"), ("b7/0", "pass"), ("e9/0", "pass"),
                          ("b6/0", "pass"), ("e8/0", "pass"), ("d3/0", "follower:0"), ("e7/0", "pass")):
        turn(g, where, figure)
    g = holding(g, 0, TokenKind.EXTRA_TURN)
    turn(g, "e6/0")
    assert phase(g) is Phase.EXTRA_TURN and g.current == 0
    for seed in (1, 2):
        bot = MCTSBot(iterations=24)
        assert bot.choose(g, random.Random(seed)) == UseToken(TokenKind.EXTRA_TURN)
        after = g.copy()
        after.play(UseToken(TokenKind.EXTRA_TURN))
        draw(after)
        assert bot.choose(after, random.Random(seed)) == place(after, "b5/0")


# ------------------------------------------------------------------------------ determinism


def mid_game(seed: int, setup: Setup | None = None) -> GameState:
    """Return a PLACE position about a third into a random game."""
    rng = random.Random(seed)
    state = datafiles.new_game(setup or Setup())
    while True:
        if state.is_chance():
            state.apply(sample_chance(state, rng))
        elif state.phase is Phase.PLACE and len(state.placements) >= 20 and len(state.legal_actions()) > 8:
            return state
        else:
            state.apply(rng.choice(state.legal_actions()))


def test_same_seed_same_choice() -> None:
    g = mid_game(6)  # a position where MCTS on a small budget chooses differently with different seeds
    greedy = [GreedyBot().choose(g, random.Random(5)) for _ in range(2)]
    assert greedy[0] == greedy[1]
    for seed in (0, 1, 2):
        sampled = [GreedyBot(placements=4).choose(g, random.Random(seed)) for _ in range(2)]
        assert sampled[0] == sampled[1]
    bot = MCTSBot(iterations=16)
    for seed in (2, 3):
        first = MCTSBot(iterations=16).choose(g, random.Random(seed))
        again = bot.choose(g, random.Random(seed))
        assert again == first and again in g.legal_actions()
        assert bot.choose(g, random.Random(seed)) == first  # the same bot again: its memory does not matter


@pytest.mark.usefixtures("short_games")
def test_a_whole_game_between_mcts_and_greedy_is_reproducible() -> None:
    first = play_match_game(("mcts:8", "greedy"), 3, Setup())
    second = play_match_game(("mcts:8", "greedy"), 3, Setup())
    assert sum(first.decisions) >= SHORT_TILES  # a real game: a placement and a figure choice per tile
    assert (first.scores, first.decisions) == (second.scores, second.decisions)
    assert first.seats == ("mcts:8", "greedy") and first.seed == 3


# ---------------------------------------------------------------------------------- levels


@pytest.mark.parametrize(
    ("spec", "kind", "budget"),
    [
        ("random", RandomBot, None),
        ("greedy", GreedyBot, None),
        ("greedy:5", GreedyBot, 5),
        ("mcts:10", MCTSBot, 10),
        ("learned", GreedyBot, None),
        ("learned:4", GreedyBot, 4),
        ("mcts", MCTSBot, MCTSBot.iterations),
        (" Greedy:7 ", GreedyBot, 7),
        ("beginner", GreedyBot, 3),
        ("easy", GreedyBot, 8),
        ("medium", GreedyBot, None),
        ("hard", MCTSBot, 128),
    ],
)
def test_make_bot_builds_each_named_player(spec: str, kind: type, budget: int | None) -> None:
    bot = make_bot(spec)
    assert isinstance(bot, kind)
    if isinstance(bot, GreedyBot):
        assert bot.placements == budget
    if isinstance(bot, MCTSBot):
        assert bot.iterations == budget
        assert isinstance(bot.evaluator, ValueModel) and bot.opponent is DEFAULT  # learned value, greedy opponent
    if spec.strip().startswith("learned"):
        assert isinstance(bot.evaluator, ValueModel)  # type: ignore[attr-defined]
    if spec in LEVELS:
        assert bot.name == spec


def test_levels_are_named_bots_with_budgets() -> None:
    assert set(LEVELS) == {"beginner", "easy", "medium", "hard"}
    for level, spec in LEVELS.items():
        assert level in BOT_NAMES
        make_bot(spec)  # each level's spec is itself a valid player


@pytest.mark.parametrize(
    "spec",
    ["", "foo", "greedy:0", "mcts:0", "greedy:-1", "greedy:x", "mcts:1.5", "mcts:10:2", "random:3", "hard:5", ":5"],
)
def test_make_bot_rejects_unknown_names_and_bad_budgets(spec: str) -> None:
    with pytest.raises(ValueError, match="'"):
        make_bot(spec)


class Spy(GreedyBot):
    """A greedy bot that records the placements it evaluates (in Python: the compiled bot makes the same
    choices, ``tests/castle/fast/test_fast_bots.py``, but cannot be watched from here)."""

    compiled = False

    def __init__(self, placements: int | None = None) -> None:
        super().__init__(placements)
        self.examined: list[PlayerAction] = []

    def _best_follow_up(self, state: GameState, place: PlayerAction, rng: random.Random, player: int) -> float:
        self.examined.append(place)
        return super()._best_follow_up(state, place, rng, player)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_greedy_with_a_budget_examines_only_that_many_placements(seed: int) -> None:
    g = mid_game(seed)
    legal = g.legal_actions()
    assert len(legal) > 5
    full = Spy()
    best = full.choose(g, random.Random(seed))
    assert sorted(map(str, full.examined)) == sorted(map(str, legal))
    for spy, budget in ((Spy(placements=5), None), (Spy(), Budget(iterations=5)), (Spy(placements=40), Budget(5))):
        choice = spy.choose(g, random.Random(seed), budget)
        assert len(spy.examined) == 5
        assert len(set(spy.examined)) == 5
        assert choice in spy.examined
        # The placements looked at are a sample drawn with the bot's generator: the same seed, the same ones.
        assert spy.examined == random.Random(seed).sample(legal, 5)
        if best in spy.examined:
            assert choice == best
    # A budget larger than the choice is no limit.
    roomy = Spy(placements=len(legal) + 1)
    assert roomy.choose(g, random.Random(seed)) == best
    assert len(roomy.examined) == len(legal)


@dataclasses.dataclass
class CountingEvaluator:
    """The plain estimate, counting the positions it is asked to judge and whose turn they were."""

    movers: list[int] = dataclasses.field(default_factory=list)

    def lead(self, state: GameState, player: int) -> float:
        self.movers.append(player)
        return DEFAULT.lead(state, player)

    def win_chance(self, state: GameState, player: int) -> float:
        return DEFAULT.win_chance(state, player)


def test_mcts_judges_the_opponents_moves_by_its_opponent_model() -> None:
    g = mid_game(5)
    mine, theirs = CountingEvaluator(), CountingEvaluator()
    action = MCTSBot(iterations=24, evaluator=mine, opponent=theirs).choose(g, random.Random(1))
    assert action in g.legal_actions()
    assert set(theirs.movers) == {1 - g.current}  # the opponent model judged only the opponent's moves
    assert set(mine.movers) == {g.current}
    alone = CountingEvaluator()
    MCTSBot(iterations=24, evaluator=alone).choose(g, random.Random(1))
    assert set(alone.movers) == {0, 1}  # without one, its own estimate judges both sides


class SteppingClock:
    """A clock that moves on 1 ms at every reading: a time budget becomes a count of readings."""

    def __init__(self) -> None:
        self.now = 0.0
        self.readings = 0

    def perf_counter(self) -> float:
        self.readings += 1
        self.now += 0.001
        return self.now


def test_mcts_respects_a_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    g = mid_game(7)
    clock = SteppingClock()
    monkeypatch.setattr(mcts_module, "time", clock)
    bot = MCTSBot(iterations=10**6, compiled=False)  # the Python search reads this clock
    action = bot.choose(g, random.Random(1), Budget(seconds=0.2))
    assert action in g.legal_actions()
    # 0.2 s are 200 readings of the clock: the search stops there, not at its million iterations.
    assert 150 <= bot.last_iterations <= 200
    assert clock.now < 0.21  # and it reads the clock no more once past the deadline


def play_against_random(bot: Bot, seed: int) -> None:
    """A whole Sokół game: ``bot`` first, then a random player, chance and both from ``Random(seed)``."""
    state = datafiles.new_game(Setup(sokol=True, first_player=0))
    rng = random.Random(seed)
    while not state.is_over():
        if state.is_chance():
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()) if state.current == 1 else bot.choose(state, rng))


class SpendingClock:
    """A clock that moves only when a (stand-in) search spends the seconds it is given."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


def test_all_the_decisions_of_one_turn_share_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn of several decisions (placement, figure, order of scoring, a x2 token, an extra turn's question)
    ends within the turn's seconds even when each search uses all it is given; the placement gets the most."""
    clock = SpendingClock()
    given: list[tuple[tuple[int, int], Phase, float]] = []

    def search(state: GameState, rng: random.Random, *, seconds: float | None, **_: object) -> object:
        assert seconds is not None
        given.append(((state.turn, state.current), state.phase, seconds))
        clock.now += seconds
        # A one-action move plans no figure: the figure is a decision of its own, searched too.
        return SearchResult((state.legal_actions()[0],), 1, True, 0, seconds)

    monkeypatch.setattr(mcts_module, "time", clock)
    monkeypatch.setattr(fast, "AVAILABLE", True)
    monkeypatch.setattr(compiled, "search", search)
    bot = MCTSBot(max_seconds=2.5, turn_seconds=2.5)
    play_against_random(bot, seed=3)
    per_turn: dict[tuple[int, int], float] = {}
    for turn, _, seconds in given:
        per_turn[turn] = per_turn.get(turn, 0.0) + seconds
    assert max(per_turn.values()) <= 2.5
    several = [turn for turn in per_turn if sum(1 for t, _, _ in given if t == turn) >= 2]
    assert several  # turns of more than one search, each of which would have had 2.5 s alone
    assert {round(seconds, 6) for _, phase, seconds in given if phase is Phase.PLACE} == {2.0}  # 80% of the turn


def test_the_expert_searches_a_question_with_its_candidates_share_of_the_iterations(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A placement gets the expert's whole budget; a question of the scoring (Z15 order, Z19 x2 token or extra
    turn) with two answers an eighth of it, two of the sixteen candidates it is sized for."""
    asked: dict[Phase, set[tuple[int, int]]] = {}

    def search(state: GameState, rng: random.Random, *, iterations: int, **_: object) -> object:
        asked.setdefault(state.phase, set()).add((len(state.legal_actions()), iterations))
        return SearchResult((state.legal_actions()[0],), iterations, True, 0, 0.0)

    monkeypatch.setattr(fast, "AVAILABLE", True)
    monkeypatch.setattr(compiled, "search", search)
    expert = make_bot("expert")
    assert isinstance(expert, MCTSBot) and expert.scaled_questions and not make_bot("hard").scaled_questions  # type: ignore[attr-defined]
    play_against_random(expert, seed=5)
    assert {iterations for _, iterations in asked[Phase.PLACE]} == {expert.iterations}
    questions = [pair for phase, pairs in asked.items() if phase is not Phase.PLACE for pair in pairs]
    assert (2, expert.iterations // 8) in questions
    assert all(iterations == expert.iterations * min(n, 16) // 16 for n, iterations in questions)


def test_ranked_moves_are_sorted_and_legal() -> None:
    g = mid_game(8)
    moves = ranked_moves(g, random.Random(1), 5)
    assert len(moves) == 5
    values = [v for v, _ in moves]
    assert values == sorted(values, reverse=True)
    for _, move in moves:
        child = g.copy()
        for action in move:
            child.play(action)  # each move is a placement and a legal figure choice
        assert len(move) == 2


# ----------------------------------------------------------------------------------- arena


def result(a_seat: int, scores: tuple[int, int], decisions: tuple[int, int] = (10, 10),
           seconds: tuple[float, float] = (1.0, 2.0), seed: int = 1) -> GameResult:
    """A game whose turns are half its decisions, its longest decision half its thinking, its longest turn
    three quarters of it."""
    seats = ("A", "B") if a_seat == 0 else ("B", "A")
    return GameResult(seed, seats, a_seat, scores, decisions, seconds, (seconds[0] / 2, seconds[1] / 2),
                      (decisions[0] // 2, decisions[1] // 2), (seconds[0] * 3 / 4, seconds[1] * 3 / 4))


def test_arena_report_counts_wins_draws_points_and_time() -> None:
    report = ArenaReport(("A", "B"), "zamek")
    report.games = [
        result(0, (10, 5), decisions=(4, 5), seconds=(0.4, 1.0)),  # A first, wins
        result(1, (10, 5), decisions=(6, 2), seconds=(3.0, 0.2)),  # B first, wins
        result(1, (3, 8), decisions=(1, 3), seconds=(0.5, 0.6)),  # B first, A wins
        result(0, (7, 7), decisions=(2, 2), seconds=(0.2, 0.2)),  # a draw
    ]
    a, b, draws = report.summaries()
    assert (a.wins, b.wins, draws) == (2, 1, 1)
    assert (a.points, b.points) == (10 + 5 + 8 + 7, 5 + 10 + 3 + 7)
    assert (a.decisions, b.decisions) == (4 + 2 + 3 + 2, 5 + 6 + 1 + 2)
    assert a.think_seconds == pytest.approx(0.4 + 0.2 + 0.6 + 0.2)
    assert a.mean_seconds == pytest.approx(1.4 / 11)
    assert b.mean_seconds == pytest.approx((1.0 + 3.0 + 0.5 + 0.2) / 14)
    assert (a.max_seconds, b.max_seconds) == pytest.approx((0.3, 1.5))
    assert (a.turns, b.turns) == (2 + 1 + 1 + 1, 2 + 3 + 0 + 1)
    assert a.mean_turn_seconds == pytest.approx(1.4 / 5)
    assert (a.max_turn_seconds, b.max_turn_seconds) == pytest.approx((0.45, 2.25))
    data = report.to_json()
    json.dumps(data)  # plain JSON
    assert data["games"] == 4 and data["wins"] == [2, 1] and data["draws"] == 1
    assert data["win_rate_a"] == pytest.approx(2.5 / 4)
    assert data["ci95_a"] == pytest.approx(list(wilson_interval(2.5, 4)))
    assert data["mean_scores"] == pytest.approx([30 / 4, 25 / 4])
    assert data["players"] == ["A", "B"] and data["rules"] == "zamek"
    assert len(data["results"]) == 4  # type: ignore[arg-type]
    text = report.text()
    assert "wins: A 2, B 1, draws 1" in text
    assert "win rate of A: 62.5%" in text
    assert "mean score: A 7.5, B 6.2" in text
    assert "time per decision: A mean 0.127 s, max 0.300 s" in text
    assert "time per turn: A mean 0.280 s, max 0.450 s" in text
    assert data["mean_seconds_per_turn"] == pytest.approx([1.4 / 5, 4.7 / 6])
    assert data["max_seconds_per_turn"] == pytest.approx([0.45, 2.25])
    assert data["max_seconds_per_decision"] == pytest.approx([0.3, 1.5])


def test_an_arena_report_written_before_turns_were_counted_still_reads() -> None:
    report = ArenaReport(("A", "B"), "zamek")
    report.games = [result(0, (10, 5))]
    data = report.to_json()
    for row in data["results"]:  # type: ignore[attr-defined]
        del row["turns"], row["max_turn_seconds"]
    _, _, games = results_from_json(json.loads(json.dumps(data)))
    assert games[0].turns == (0, 0) and games[0].max_seconds == (0.5, 1.0)
    again = ArenaReport(("A", "B"), "zamek", games)
    assert again.summaries()[0].mean_turn_seconds == 0.0  # unknown, not a division by zero


def test_arena_report_of_a_clean_sweep_and_of_no_games() -> None:
    report = ArenaReport(("A", "B"), "zamek")
    report.games = [result(i % 2, (9, 1) if i % 2 == 0 else (1, 9)) for i in range(10)]
    a, b, draws = report.summaries()
    assert (a.wins, b.wins, draws) == (10, 0, 0)
    assert report.to_json()["ci95_a"] == pytest.approx([0.7225, 1.0], abs=1e-4)
    assert "win rate of A: 100.0% (95% CI 72.2-100.0%" in report.text()
    empty = ArenaReport(("A", "B"), "zamek").to_json()
    assert empty["games"] == 0 and empty["win_rate_a"] == 0.0 and empty["ci95_a"] == [0.0, 1.0]


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [(10, 10, 0.72246, 1.0), (0, 10, 0.0, 0.27754), (5, 10, 0.23659, 0.76341), (0, 0, 0.0, 1.0)],
)
def test_wilson_interval_known_values(successes: float, n: int, low: float, high: float) -> None:
    assert wilson_interval(successes, n) == pytest.approx((low, high), abs=1e-5)


def test_run_arena_alternates_seats_on_paired_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[tuple[str, str], int, int]] = []

    def fake(players: tuple[str, str], seed: int, setup: Setup, a_seat: int = 0) -> GameResult:
        calls.append((players, seed, a_seat))
        scores = (20, 10) if players[0] == "greedy" else (10, 20)  # greedy always wins
        return GameResult(seed, players, a_seat, scores, (1, 1), (0.0, 0.0), (0.0, 0.0))

    monkeypatch.setattr(arena_module, "play_match_game", fake)
    report = run_arena("greedy", "random", 5, 40, Setup(sokol=True))
    assert calls == [
        (("greedy", "random"), 40, 0),
        (("random", "greedy"), 40, 1),
        (("greedy", "random"), 41, 0),
        (("random", "greedy"), 41, 1),
        (("greedy", "random"), 42, 0),
    ]
    assert report.players == ("greedy", "random") and report.rules == "zamek+sokol"
    a, b, draws = report.summaries()
    assert (a.wins, b.wins, draws) == (5, 0, 0)


def fake_game(players: tuple[str, str], seed: int, setup: Setup, a_seat: int = 0) -> GameResult:
    scores = (20, 10) if players[0] == "greedy" else (10, 20)  # greedy always wins
    return GameResult(seed, players, a_seat, scores, (1, 1), (0.1, 0.2), (0.05, 0.1), (1, 1), (0.08, 0.15))


def test_run_arena_tells_of_each_game_as_it_finishes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arena_module, "play_match_game", fake_game)
    heard: list[tuple[int, int, str]] = []

    def listen(so_far: ArenaReport, result: GameResult) -> None:
        heard.append((len(so_far.games), so_far.planned, progress_line(so_far, result)))

    report = run_arena("greedy", "random", 3, 7, BASE, on_game=listen)
    assert [(n, planned) for n, planned, _ in heard] == [(1, 3), (2, 3), (3, 3)]
    assert heard[0][2] == ("[1/3] seed 7, greedy first: greedy 20, random 10; "
                           "longest decision greedy 0.05 s / random 0.10 s, turn greedy 0.08 s / random 0.15 s; "
                           "so far greedy 1, random 0, draws 0")
    assert heard[1][2].startswith("[2/3] seed 7, random first: random 10, greedy 20;")
    assert heard[2][2].endswith("so far greedy 3, random 0, draws 0")
    assert report.to_json()["games_planned"] == 3


@pytest.mark.usefixtures("short_games")
def test_run_arena_plays_real_games_in_both_seat_orders() -> None:
    report = run_arena("greedy", "random", 4, 11, Setup())
    assert [(g.seats, g.seed, g.a_seat) for g in report.games] == [
        (("greedy", "random"), 11, 0), (("random", "greedy"), 11, 1),
        (("greedy", "random"), 12, 0), (("random", "greedy"), 12, 1),
    ]
    for game in report.games:
        again = play_match_game(game.seats, game.seed, Setup(), game.a_seat)
        assert (again.scores, again.decisions, again.turns) == (game.scores, game.decisions, game.turns)
        assert sum(game.decisions) >= SHORT_TILES
        assert all(0 < t <= d for t, d in zip(game.turns, game.decisions, strict=True))
        assert all(most >= longest for most, longest in zip(game.max_turn_seconds, game.max_seconds, strict=True))
    a, b, draws = report.summaries()
    assert a.wins + b.wins + draws == 4
    assert a.points + b.points == sum(sum(g.scores) for g in report.games)


def test_run_arena_in_parallel_plays_the_same_games() -> None:
    # Worker processes build their own bots and generators: the games are those of a serial run.
    serial = run_arena("random", "greedy:1", 2, 5, BASE)
    finished: list[int] = []
    parallel = run_arena("random", "greedy:1", 2, 5, BASE, workers=2,
                         on_game=lambda so_far, _: finished.append(len(so_far.games)))
    key = [(g.seats, g.seed, g.a_seat, g.scores, g.decisions) for g in serial.games]
    assert [(g.seats, g.seed, g.a_seat, g.scores, g.decisions) for g in parallel.games] == key
    assert finished == [1, 2]  # heard of each game once, whatever order they finished in


@pytest.mark.usefixtures("short_games")
def test_cli_arena_reports_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    run = CliRunner().invoke(main, ["arena", "--players", "greedy,random", "--games", "2", "--seed", "1",
                                    "--json", str(out)])
    assert run.exit_code == 0, run.output
    assert "greedy vs random, zamek, 2 games" in run.output
    assert "win rate of greedy:" in run.output
    assert "time per decision: greedy mean" in run.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["players"] == ["greedy", "random"] and data["games"] == 2
    assert [g["seed"] for g in data["results"]] == [1, 1]
    assert [g["a_seat"] for g in data["results"]] == [0, 1]
    assert sum(data["wins"]) + data["draws"] == 2
    assert all(t > 0 for t in data["mean_seconds_per_decision"])
    assert data["games_planned"] == 2
    assert "[1/2] seed 1, greedy first:" in run.stderr and "[2/2] seed 1, random first:" in run.stderr
    assert "[1/2]" not in run.stdout
    progress = run.stderr.splitlines()
    assert progress[0].endswith(" min left") and progress[1].endswith("; about 0 min left")  # the time it should end
    quiet = CliRunner().invoke(main, ["arena", "--players", "greedy,random", "--games", "2", "--quiet"])
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_cli_arena_stopped_midway_keeps_the_games_it_finished(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    def stopped_after_two(players: tuple[str, str], seed: int, setup: Setup, a_seat: int = 0) -> GameResult:
        if seed > 1:
            raise KeyboardInterrupt  # as if someone pressed Ctrl-C in the third game
        return fake_game(players, seed, setup, a_seat)

    monkeypatch.setattr(arena_module, "play_match_game", stopped_after_two)
    out = tmp_path / "arena.json"
    run = CliRunner().invoke(main, ["arena", "--players", "greedy,random", "--games", "6", "--json", str(out)])
    assert run.exit_code != 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert (data["games"], data["games_planned"], data["wins"]) == (2, 6, [2, 0])
    assert [g["seed"] for g in data["results"]] == [1, 1]
    assert not (tmp_path / "arena.json.partial").exists()


def game_keys(path: Path) -> list[tuple[int, list[str], int, list[int], list[int]]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [(g["seed"], g["seats"], g["a_seat"], g["scores"], g["decisions"]) for g in data["results"]]


@pytest.mark.usefixtures("short_games")
def test_cli_arena_resumed_after_a_stop_is_the_match_played_at_once(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    match = ["arena", "--players", "greedy,random", "--games", "6", "--seed", "3", "--quiet"]
    at_once = tmp_path / "at_once.json"
    assert CliRunner().invoke(main, [*match, "--json", str(at_once)]).exit_code == 0
    real = arena_module.play_match_game
    played: list[tuple[int, int]] = []

    def stopped_in_the_third(players: tuple[str, str], seed: int, setup: Setup, a_seat: int = 0) -> GameResult:
        if seed > 3:
            raise KeyboardInterrupt
        return real(players, seed, setup, a_seat)

    def counted(players: tuple[str, str], seed: int, setup: Setup, a_seat: int = 0) -> GameResult:
        played.append((seed, a_seat))
        return real(players, seed, setup, a_seat)

    pieces = tmp_path / "pieces.json"
    monkeypatch.setattr(arena_module, "play_match_game", stopped_in_the_third)
    assert CliRunner().invoke(main, [*match, "--json", str(pieces), "--resume"]).exit_code != 0  # no file yet: all
    assert len(game_keys(pieces)) == 2
    monkeypatch.setattr(arena_module, "play_match_game", counted)
    resumed = CliRunner().invoke(main, [*match, "--json", str(pieces), "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert played == [(4, 0), (4, 1), (5, 0), (5, 1)]  # the two games already there are not played again
    assert game_keys(pieces) == game_keys(at_once)
    assert "6 games" in resumed.output


@pytest.mark.parametrize(("change", "complaint"), [
    (["--players", "random,greedy"], "holds greedy,random in zamek"),
    (["--sokol"], "holds greedy,random in zamek"),
    (["--seed", "2"], "games this match would not play (seed 1)"),
    (["--games", "1"], "games this match would not play (seed 1)"),
])
def test_cli_arena_resumes_only_its_own_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: list[str],
                                              complaint: str) -> None:
    monkeypatch.setattr(arena_module, "play_match_game", fake_game)
    out = tmp_path / "arena.json"
    match = {"--players": "greedy,random", "--games": "2", "--seed": "1"}
    assert CliRunner().invoke(main, ["arena", *chain(*match.items()), "--json", str(out)]).exit_code == 0
    before = out.read_bytes()
    options = dict(match, **dict(zip(change[::2], change[1::2], strict=False)))
    flags = [c for c in change if c == "--sokol"]
    run = CliRunner().invoke(main, ["arena", *chain(*options.items()), *flags, "--json", str(out), "--resume"])
    assert run.exit_code == 2
    assert complaint in run.output
    assert out.read_bytes() == before  # nothing it held is lost


@pytest.mark.parametrize("text", ["", "[]", '{"players": ["greedy", "random"], "rules": "zamek"}',
                                  '{"players": ["greedy", "random"], "rules": "zamek", "results": [{"seed": 1}]}'])
def test_cli_arena_refuses_to_resume_from_what_is_not_its_report(tmp_path: Path, text: str) -> None:
    out = tmp_path / "arena.json"
    out.write_text(text, encoding="utf-8")
    run = CliRunner().invoke(main, ["arena", "--players", "greedy,random", "--games", "2", "--json", str(out),
                                    "--resume"])
    assert run.exit_code == 2
    assert "arena.json" in run.output and "Traceback" not in run.output
    assert out.read_text(encoding="utf-8") == text
    without_file = CliRunner().invoke(main, ["arena", "--players", "greedy,random", "--games", "2", "--resume"])
    assert without_file.exit_code == 2 and "--resume needs --json" in without_file.output


@pytest.mark.usefixtures("short_games")
def test_cli_ladder_resumed_after_a_stop_is_the_ladder_played_at_once(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    ladder = ["ladder", "--players", "random,greedy:1,greedy", "--games", "2", "--seed", "5", "--quiet"]
    files = ["random_vs_greedy_1.json", "random_vs_greedy.json", "greedy_1_vs_greedy.json"]
    at_once = CliRunner().invoke(main, [*ladder, "--json-dir", str(tmp_path / "at_once")])
    assert at_once.exit_code == 0, at_once.output
    assert sorted(p.name for p in (tmp_path / "at_once").iterdir()) == sorted(files)
    real = arena_module.play_match_game
    played: list[tuple[str, str]] = []

    def stopped_in_the_second_pair(players: tuple[str, str], seed: int, setup: Setup, a_seat: int = 0) -> GameResult:
        if "greedy" in players:
            raise KeyboardInterrupt
        return real(players, seed, setup, a_seat)

    def counted(players: tuple[str, str], seed: int, setup: Setup, a_seat: int = 0) -> GameResult:
        played.append(players)
        return real(players, seed, setup, a_seat)

    pieces = tmp_path / "pieces"
    monkeypatch.setattr(arena_module, "play_match_game", stopped_in_the_second_pair)
    assert CliRunner().invoke(main, [*ladder, "--json-dir", str(pieces)]).exit_code != 0
    assert [p.name for p in pieces.iterdir()] == [files[0]]
    monkeypatch.setattr(arena_module, "play_match_game", counted)
    resumed = CliRunner().invoke(main, [*ladder, "--json-dir", str(pieces), "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert all("greedy" in pair for pair in played) and len(played) == 4  # the first pair is not played again
    for name in files:
        assert game_keys(pieces / name) == game_keys(tmp_path / "at_once" / name)
    def table_without_times(output: str) -> list[str]:
        return [line.rsplit("|", 4)[0] for line in output.splitlines() if line.startswith("|")]  # times: last 3

    assert table_without_times(resumed.output) == table_without_times(at_once.output)  # the same table and ratings
    assert len(table_without_times(resumed.output)) == 5
    no_dir = CliRunner().invoke(main, [*ladder, "--resume"])
    assert no_dir.exit_code == 2 and "--resume needs --json-dir" in no_dir.output


def test_ladder_files_are_named_by_their_pair() -> None:
    assert pair_file_name("hard", "expert") == "hard_vs_expert.json"
    assert pair_file_name("mcts:128@docs/v.json", "greedy:1") == "mcts_128_docs_v.json_vs_greedy_1.json"


@pytest.mark.parametrize("players", ["greedy", "greedy,random,mcts", "greedy,foo", "greedy:0,random", "greedy,"])
def test_cli_arena_rejects_bad_players(players: str) -> None:
    run = CliRunner().invoke(main, ["arena", "--players", players, "--games", "2"])
    assert run.exit_code == 2
    assert "Usage" in run.output or "Error" in run.output


def test_cli_bots_lists_the_levels() -> None:
    run = CliRunner().invoke(main, ["bots"])
    assert run.exit_code == 0
    for level, spec in LEVELS.items():
        assert level in run.output and spec in run.output
