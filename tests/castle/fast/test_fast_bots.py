"""The computer players in the compiled core (``zamek.castle.bots.compiled``) against the Python bots, the reference.

The compiled bots must decide exactly as the Python ones: for the same position and a generator in the same
state they choose the same action and leave the generator in the same state (so the next decision is the same
too). Checked over the decisions of random games in every rule set (placements, figures, the x2 and extra-turn
tokens, and the arranged Z15 order question), for the estimates (both the hand-set weights and the learned
value, to the last bit), the one-turn look, greedy with and without a budget, and MCTS; whole games between
compiled bots are the games the Python bots play. The mirror of a Python position in C is checked field by
field. Where the compiled core is missing, or an estimate or generator is of another kind, the bots think in
Python. The hard level answers quickly; the deep and expert levels are named players the web app does not offer.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from tests.castle.bots.test_bots import (
    RULE_IDS,
    RULE_SETS,
    CountingEvaluator,
    mid_game,
    random_decisions,
    z15_column,
)
from tests.helpers import SHORT_TILES
from zamek.castle import fast
from zamek.castle.arena import play_match_game
from zamek.castle.bots.base import Budget
from zamek.castle.bots.evaluate import DEFAULT, Evaluator, Weights
from zamek.castle.bots.levels import BOT_NAMES, LEVELS, STRONGER_LEVELS, make_bot
from zamek.castle.bots.mcts import MCTSBot, ranked_moves
from zamek.castle.bots.simple import GreedyBot
from zamek.castle.bots.value import ValueModel, default_model, position_features
from zamek.castle.rules.actions import Order
from zamek.castle.rules.setup import HeldToken, Phase, Setup
from zamek.castle.rules.state import GameState
from zamek.castle.rules.tokens import TokenKind
from zamek.castle.runner import sample_chance
from zamek.cli import main

if not fast.AVAILABLE:
    if fast.required():
        raise ImportError(f"the compiled core is required (ZAMEK_REQUIRE_COMPILED/CI) but {fast.UNAVAILABLE}")
    pytest.skip(f"the compiled core is not built: {fast.UNAVAILABLE}", allow_module_level=True)

import zamek.castle.fast._core as _core  # only where it was built
from tests.castle.fast.test_fast_core import (
    python_features,
    python_snapshot,
    run_without_the_core,
)
from zamek.castle.bots import compiled as players

LEARNED = default_model()
ESTIMATES: dict[str, Evaluator] = {"weights": DEFAULT, "learned": LEARNED}


def sampled_decisions(setup: Setup, seeds: range, every: int) -> Iterator[GameState]:
    """Every ``every``-th decision of random games with tokens in hand (``test_bots.random_decisions``)."""
    for seed in seeds:
        yield from random_decisions(setup, seed)[seed % every::every]


def arranged_decisions(setup: Setup) -> list[GameState]:
    """The Z15 order question, the x2 decision after it, and the extra turn (``test_bots.z15_column``)."""
    order = z15_column(setup, score=11)
    double = z15_column(setup, score=12, tokens=(TokenKind.HOUSE_X2, TokenKind.PIGSTY_X2))
    double.play(Order(0))
    extra = z15_column(setup, tokens=(TokenKind.EXTRA_TURN,))
    assert (order.phase, double.phase, extra.phase) == (Phase.ORDER, Phase.DOUBLE, Phase.EXTRA_TURN)
    return [order, double, extra]


# ------------------------------------------------------------------------------------ the mirror


@pytest.mark.parametrize("setup", RULE_SETS, ids=RULE_IDS)
def test_the_mirror_of_a_position_is_the_position(setup: Setup) -> None:
    states = [*sampled_decisions(setup, range(2), 3), *arranged_decisions(setup)]
    reveal = z15_column(setup, score=11)  # a position waiting for a token's reveal (Z16)
    reveal.play(Order(0))
    assert reveal.phase is Phase.REVEAL
    for state in [*states, reveal]:
        core = players.compiled_position(state)
        assert core is not None
        assert core.snapshot() == python_snapshot(state)
        assert core.features() == python_features(state)
        assert core.legal_actions() == [a.index for a in state.legal_actions()]
        assert core.largest_empty_area() == state.largest_empty_area()
    # and it goes on as the engine does
    for state in states[:6]:
        core = players.compiled_position(state)
        assert core is not None
        rng = random.Random(3)
        while not state.is_over() and len(state.placements) < 70:
            action = sample_chance(state, rng) if state.is_chance() else rng.choice(state.legal_actions())
            state.apply(action)
            core.apply(core.rules.encode(action))
        assert core.snapshot() == python_snapshot(state)


# ---------------------------------------------------------------------------------- the estimates


@pytest.mark.parametrize("setup", RULE_SETS, ids=RULE_IDS)
def test_the_estimates_are_the_python_estimates_to_the_last_bit(setup: Setup) -> None:
    compared = 0
    for state in [*sampled_decisions(setup, range(3), 2), *arranged_decisions(setup)]:
        core = players.compiled_position(state)
        assert core is not None
        x0, x1 = position_features(state)
        assert _core.value_features(core) == ([float(v) for v in x0], [float(v) for v in x1])
        for estimate in ESTIMATES.values():
            compiled = players.compiled_estimate(estimate)
            assert compiled is not None
            for player in (0, 1):
                assert _core.lead(core, compiled, player) == estimate.lead(state, player)
                assert _core.win_chance(core, compiled, player) == estimate.win_chance(state, player)
                compared += 1
    assert compared > 300


def test_evaluate_judges_many_positions_in_one_call() -> None:
    states = list(sampled_decisions(Setup(sokol=True), range(2), 4))
    for estimate in ESTIMATES.values():
        assert players.evaluate(states, estimate, 1) == [estimate.lead(s, 1) for s in states]
    assert players.evaluate(states, CountingEvaluator()) is None  # another kind of estimate: not in C


def test_the_value_features_are_named_as_in_python() -> None:
    from zamek.castle.bots.value import FEATURES
    assert _core.VALUE_FEATURES == FEATURES
    assert players.compiled_estimate(ValueModel(LEARNED.coefficients[:-1])) is None  # another length: Python
    assert players.compiled_estimate(Weights(token_values=(0.0, 1.0))) is None


# ---------------------------------------------------------------------------- greedy and the look


def same_choice(python: GreedyBot | MCTSBot, compiled: GreedyBot | MCTSBot, state: GameState, seed: int,
                budget: Budget | None = None) -> None:
    """Both bots choose the same action and leave their generators in the same state."""
    python.compiled, compiled.compiled = False, True
    r1, r2 = random.Random(seed), random.Random(seed)
    expected = python.choose(state, r1, budget)
    assert compiled.choose(state, r2, budget) == expected, (state.phase, seed)
    assert r1.getstate() == r2.getstate()


@pytest.mark.heavy
@pytest.mark.parametrize("setup", RULE_SETS, ids=RULE_IDS)
def test_greedy_chooses_what_the_python_greedy_chooses(setup: Setup) -> None:
    phases = set()
    states = [*sampled_decisions(setup, range(10, 12), 4), *arranged_decisions(setup)]
    for i, state in enumerate(states):
        phases.add(state.phase)
        for spec in ("greedy", "learned", "beginner", "easy"):
            bot = make_bot(spec)
            assert isinstance(bot, GreedyBot)
            same_choice(make_bot(spec), bot, state, i)  # type: ignore[arg-type]
        same_choice(GreedyBot(), GreedyBot(), state, i, Budget(iterations=5))
    assert phases == {Phase.PLACE, Phase.FOLLOWER, Phase.ORDER, Phase.DOUBLE, Phase.EXTRA_TURN}


@pytest.mark.heavy
@pytest.mark.parametrize("setup", RULE_SETS, ids=RULE_IDS)
def test_the_one_turn_look_ranks_as_in_python(setup: Setup) -> None:
    for i, state in enumerate(sampled_decisions(setup, range(20, 22), 4)):
        for estimate in ESTIMATES.values():
            r1, r2 = random.Random(i), random.Random(i)
            assert players.ranked_moves(state, r2, 8, estimate) == ranked_moves(state, r1, 8, estimate)
            assert r1.getstate() == r2.getstate()


def test_a_greedy_budget_samples_placements_as_random_sample_does() -> None:
    # Budgets from 1 to past the placements: random.sample's two ways (a pool, then a set) both come up.
    state = mid_game(2)
    n = len(state.legal_actions())
    for limit in (1, 2, 5, 6, 9, 30, n - 1, n, n + 3):
        same_choice(GreedyBot(limit), GreedyBot(limit), state, limit)


# ------------------------------------------------------------------------------------------ MCTS


@pytest.mark.heavy
@pytest.mark.parametrize("setup", RULE_SETS, ids=RULE_IDS)
def test_mcts_searches_as_the_python_mcts_does(setup: Setup) -> None:
    states = [*sampled_decisions(setup, range(30, 31), 13), *arranged_decisions(setup)[:2]]
    for i, state in enumerate(states):
        python = MCTSBot(iterations=14, evaluator=LEARNED, opponent=DEFAULT, compiled=False)
        compiled = MCTSBot(iterations=14, evaluator=LEARNED, opponent=DEFAULT)
        same_choice(python, compiled, state, i)
        assert compiled.last_iterations == python.last_iterations
        assert compiled._plan == python._plan  # the figure planned with a placement


@pytest.mark.usefixtures("short_games")
def test_a_whole_game_between_compiled_bots_is_the_python_game(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = play_match_game(("mcts:12", "learned"), 5, Setup(sokol=True))
    monkeypatch.setattr(MCTSBot, "compiled", False)
    monkeypatch.setattr(GreedyBot, "compiled", False)
    python = play_match_game(("mcts:12", "learned"), 5, Setup(sokol=True))
    assert sum(python.decisions) >= SHORT_TILES
    assert (compiled.scores, compiled.decisions) == (python.scores, python.decisions)


@pytest.mark.slow
@pytest.mark.parametrize("setup", RULE_SETS, ids=RULE_IDS)
def test_many_decisions_agree(setup: Setup) -> None:
    # Every decision of 10 random games with tokens for greedy and learned, every 6th for MCTS.
    for i, state in enumerate(sampled_decisions(setup, range(1000, 1010), 1)):
        for spec in ("greedy", "learned", "easy"):
            same_choice(make_bot(spec), make_bot(spec), state, i)  # type: ignore[arg-type]
        if i % 6 == 0:
            same_choice(MCTSBot(iterations=48, evaluator=LEARNED, opponent=DEFAULT),
                        MCTSBot(iterations=48, evaluator=LEARNED, opponent=DEFAULT), state, i)


@pytest.mark.slow
def test_whole_games_of_mcts_against_medium_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    for seed, setup in ((1, Setup()), (2, Setup(sokol=True, gate_guard=True))):
        compiled = play_match_game(("mcts:24", "medium"), seed, setup)
        with monkeypatch.context() as python:
            python.setattr(MCTSBot, "compiled", False)
            python.setattr(GreedyBot, "compiled", False)
            reference = play_match_game(("mcts:24", "medium"), seed, setup)
        assert (compiled.scores, compiled.decisions) == (reference.scores, reference.decisions)


def test_hard_searches_in_c_and_answers_quickly() -> None:
    hard = make_bot("hard")
    assert isinstance(hard, MCTSBot) and hard.compiled
    rng = random.Random(1)
    longest = 0.0
    for seed in range(3):
        state = mid_game(seed)
        start = time.perf_counter()
        action = hard.choose(state, rng)
        longest = max(longest, time.perf_counter() - start)
        assert action in state.legal_actions()
        assert 100 <= hard.last_iterations <= 128  # sequential halving rounds the budget down
    assert longest < 1.0  # about 0.01 s on a quiet machine; 1 s is the promise (docs/speed.md)


def test_a_time_budget_stops_the_compiled_search() -> None:
    state = mid_game(7)
    bot = MCTSBot(iterations=10**6)
    start = time.perf_counter()
    action = bot.choose(state, random.Random(1), Budget(seconds=0.15))
    spent = time.perf_counter() - start
    assert action in state.legal_actions()
    assert 0.15 <= spent < 0.15 + 0.5  # stops at the first iteration past the deadline
    assert 0 < bot.last_iterations < 10**6


# ------------------------------------------------------------------------------------- fallbacks


def test_without_the_compiled_core_the_bots_think_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    state = mid_game(4)
    expected = {spec: make_bot(spec).choose(state, random.Random(2)) for spec in ("medium", "mcts:8")}
    calls = []
    monkeypatch.setattr(players, "search", lambda *a, **k: calls.append(a))
    monkeypatch.setattr(players, "greedy_choice", lambda *a, **k: calls.append(a))
    monkeypatch.setattr(fast, "AVAILABLE", False)
    for spec, action in expected.items():
        assert make_bot(spec).choose(state, random.Random(2)) == action
    assert calls == []  # the compiled paths were not even asked


def test_where_the_module_was_not_built_the_levels_play_the_same_moves_in_python() -> None:
    code = ("import random; from zamek.castle.bots.levels import make_bot; "
            "from tests.castle.bots.test_bots import mid_game; "
            "g = mid_game(3); print([str(make_bot(s).choose(g, random.Random(1))) for s in ('medium', 'mcts:6')]); "
            "import zamek.castle.fast as f; print(f.AVAILABLE)")
    shown = run_without_the_core(code)
    assert shown.returncode == 0, shown.stderr
    state = mid_game(3)
    here = [str(make_bot(s).choose(state, random.Random(1))) for s in ("medium", "mcts:6")]
    assert shown.stdout.splitlines() == [str(here), "False"]


def test_an_estimate_or_generator_of_another_kind_is_asked_in_python() -> None:
    state = mid_game(5)
    counting = CountingEvaluator()
    GreedyBot(evaluator=counting).choose(state, random.Random(1))
    assert counting.movers  # it was asked, in Python
    assert players.greedy_choice(state, random.SystemRandom(), DEFAULT) is None
    assert GreedyBot().choose(state, random.SystemRandom()) in state.legal_actions()


def test_a_position_too_large_for_the_tables_is_played_in_python() -> None:
    state = mid_game(6)
    # Written into the state on purpose: 30 tokens more, which no game holds and the compiled position cannot.
    state.tokens[0].extend([HeldToken(TokenKind.FIVE_POINTS, 0)] * 30)
    assert players.compiled_position(state) is None
    assert GreedyBot().choose(state, random.Random(1)) in state.legal_actions()


# --------------------------------------------------------------------------------------- levels


def test_the_deep_level_is_a_named_player_beyond_the_web_apps_levels() -> None:
    assert "deep" in STRONGER_LEVELS and "deep" not in LEVELS and "deep" in BOT_NAMES
    deep, hard = make_bot("deep"), make_bot("hard")
    assert isinstance(deep, MCTSBot) and isinstance(hard, MCTSBot)
    assert deep.name == "deep" and deep.iterations == 32 * hard.iterations and deep.width == 2 * hard.width
    assert deep.evaluator is hard.evaluator and deep.opponent is hard.opponent
    listed = CliRunner().invoke(main, ["bots"])
    assert "deep" in listed.output


def test_the_expert_searches_wider_and_longer_than_hard_within_its_cap() -> None:
    expert, hard = make_bot("expert"), make_bot("hard")
    assert isinstance(expert, MCTSBot) and isinstance(hard, MCTSBot)
    assert expert.name == "expert" and "expert" in BOT_NAMES and "expert" not in LEVELS
    assert expert.iterations == 64 * hard.iterations and expert.width == 2 * hard.width
    assert expert.turn_seconds is not None and expert.turn_seconds < 3  # the promise: 3 s a turn at most
    assert "expert" in CliRunner().invoke(main, ["bots"]).output


@pytest.mark.heavy
@pytest.mark.parametrize("setup", RULE_SETS, ids=RULE_IDS)
def test_the_expert_chooses_a_legal_action_the_same_for_a_seed(setup: Setup) -> None:
    """In positions of random games of every rule set (placements, figures, tokens, questions), the expert's
    answer is legal, and a generator in the same state gives the same answer."""
    first, again = make_bot("expert"), make_bot("expert")
    for bot in (first, again):
        assert isinstance(bot, MCTSBot)
        bot.max_seconds = bot.turn_seconds = None  # the caps are for a busy machine; here the budget must decide
    for state in list(sampled_decisions(setup, range(2), every=9))[:3]:
        action = first.choose(state.copy(), random.Random(5))
        assert action in state.legal_actions()
        assert again.choose(state.copy(), random.Random(5)) == action
