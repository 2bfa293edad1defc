"""The computer players' thinking in the compiled core: estimates, the one-turn look, greedy choices, MCTS.

``zamek.castle.bots`` stays the reference: these functions make, in C (``zamek_bots.h``), the very decisions its
Python code makes for the same position and the same generator, and leave the generator (a ``random.Random``)
in the state the Python code would leave it in (``tests/castle/fast/test_fast_bots.py``). Python calls them once
per decision, never per action.

The position given is the Python engine's own: :func:`compiled_position` mirrors it into C field by field
(the only code outside ``zamek.castle.rules`` that reads the engine's arrays; it is the core's compiled twin, and
the tests check the mirror against the engine). Each function returns None where the compiled core cannot
do the work (not built, a rule set or position larger than its tables, an estimate or a generator of
another kind): the caller then thinks in Python.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from zamek.castle import fast
from zamek.castle.bots.evaluate import Evaluator, Weights
from zamek.castle.bots.network import NetValue
from zamek.castle.bots.value import FEATURES, ValueModel
from zamek.castle.rules.actions import PlayerAction, action_from_index
from zamek.castle.rules.setup import Rules, Setup
from zamek.castle.rules.state import GameState

if TYPE_CHECKING:
    from zamek.castle.fast._core import CoreEval, CoreRules, CoreState

__all__ = ["Move", "SearchResult", "compiled_estimate", "compiled_position", "evaluate", "greedy_choice",
           "ranked_moves", "search"]

Move = tuple[PlayerAction, ...]
"""One action, or a placement followed by a figure choice (``zamek.castle.bots.mcts.Move``)."""

_RULES: dict[tuple[int, Setup], tuple[Rules, CoreRules | None]] = {}
"""Per rules object (by identity) and setup: its C tables, or None where they do not fit."""
_RULES_KEPT: Final = 64
"""Cache sizes (rule sets and estimates): a few are in use at a time."""
_ESTIMATES: dict[object, CoreEval | None] = {}
"""The C form of each estimate (by value), or None where it has none."""


def compiled_rules(rules: Rules, setup: Setup) -> CoreRules | None:
    """The C tables of a position's rules and setup (cached), or None where they cannot be built."""
    if not fast.AVAILABLE:
        return None
    key = (id(rules), setup)
    entry = _RULES.get(key)
    if entry is None or entry[0] is not rules:
        if len(_RULES) >= _RULES_KEPT:
            _RULES.clear()
        import zamek.castle.fast._core as _core
        try:
            core: CoreRules | None = _core.CoreRules(setup, rules)
        except (ValueError, KeyError, IndexError):  # CoreLimitError, or tables of another shape
            core = None
        entry = _RULES[key] = (rules, core)
    return entry[1]


def compiled_position(state: GameState) -> CoreState | None:
    """The compiled twin of ``state`` (an independent copy), or None where it does not fit the C tables."""
    rules = compiled_rules(state.rules, state.setup)
    if rules is None:
        return None
    import zamek.castle.fast._core as _core
    try:
        return _core.mirror(rules, state)
    except ValueError:  # CoreLimitError: more tokens, figures or features than the tables hold
        return None


def compiled_estimate(evaluator: Evaluator) -> CoreEval | None:
    """The C form of an estimate: the hand-set ``Weights``, the learned ``ValueModel`` or the ``NetValue``
    (exactly those classes); None for any other (it is then asked in Python)."""
    if not fast.AVAILABLE or type(evaluator) not in (Weights, ValueModel, NetValue):
        return None
    if evaluator in _ESTIMATES:
        return _ESTIMATES[evaluator]
    import zamek.castle.fast._core as _core
    estimate: CoreEval | None = None
    try:
        if isinstance(evaluator, Weights):
            w = evaluator
            if isinstance(w.tower_reach, int) and len(w.token_values) == 10:
                estimate = _core.weights_eval(
                    w.free_follower, w.follower_cap, w.completion, w.completion_decay, w.horizon, w.tower_reach,
                    w.tower_near, w.family_race, w.nest_race, w.token_values, w.win_scale)
        elif isinstance(evaluator, ValueModel) and FEATURES == _core.VALUE_FEATURES:
            estimate = _core.value_eval(evaluator.coefficients, evaluator.win_scale)
        elif isinstance(evaluator, NetValue) and FEATURES == _core.VALUE_FEATURES:
            estimate = _core.net_eval(evaluator.linear.coefficients, evaluator.win_scale, evaluator.scale,
                                      evaluator.w1, evaluator.b1, evaluator.w2)
    except (TypeError, ValueError):
        estimate = None
    if len(_ESTIMATES) >= _RULES_KEPT:
        _ESTIMATES.clear()
    _ESTIMATES[evaluator] = estimate
    return estimate


def _generator(rng: random.Random) -> bool:
    """Whether the C code can draw from ``rng`` exactly as it would draw itself (a plain random.Random)."""
    return type(rng) is random.Random


def _move(a: int, b: int) -> Move:
    return (action_from_index(a),) if b < 0 else (action_from_index(a), action_from_index(b))


def _prepared(state: GameState, rng: random.Random, evaluator: Evaluator) -> tuple[CoreState, CoreEval] | None:
    """The position and the estimate in C, for a one-turn look drawing from ``rng``; None where it cannot run."""
    estimate = compiled_estimate(evaluator)
    if estimate is None or not _generator(rng):
        return None
    position = compiled_position(state)
    return None if position is None else (position, estimate)


def greedy_choice(state: GameState, rng: random.Random, evaluator: Evaluator, placements: int | None = None
                  ) -> PlayerAction | None:
    """``GreedyBot(placements, evaluator).choose(state, rng)`` in C; None where it cannot run here."""
    prepared = _prepared(state, rng, evaluator)
    if prepared is None:
        return None
    import zamek.castle.fast._core as _core
    return action_from_index(_core.greedy_choice(*prepared, rng, placements or 0))


def ranked_moves(state: GameState, rng: random.Random, width: int, evaluator: Evaluator
                 ) -> list[tuple[float, Move]] | None:
    """``zamek.castle.bots.mcts.ranked_moves`` (the one-turn look) in C; None where it cannot run here."""
    prepared = _prepared(state, rng, evaluator)
    if prepared is None:
        return None
    import zamek.castle.fast._core as _core
    moves, _ = _core.ranked_moves(*prepared, rng, width)
    return [(value, _move(a, b)) for value, a, b in moves]


@dataclass(frozen=True)
class SearchResult:
    """What a compiled search chose, and what it cost."""

    move: Move
    iterations: int
    searched: bool
    """False when one candidate was left after ranking: no search ran."""
    judged: int
    """Positions the one-turn looks judged (each child of a ranking or a playout step)."""
    seconds: float


def search(state: GameState, rng: random.Random, *, iterations: int, evaluator: Evaluator,
           opponent: Evaluator | None = None, width: int = 8, playout_turns: int = 1, expand_after: int = 3,
           exploration: float = 0.4, seconds: float | None = None) -> SearchResult | None:
    """``MCTSBot.choose`` after its shortcuts, in C: the move to play (a placement with its figure, or one
    action). ``seconds`` caps the thinking time. None where it cannot run here."""
    mine = compiled_estimate(evaluator)
    theirs = None if opponent is None else compiled_estimate(opponent)
    if mine is None or (opponent is not None and theirs is None) or not _generator(rng):
        return None
    position = compiled_position(state)
    if position is None:
        return None
    import zamek.castle.fast._core as _core
    start = time.perf_counter()
    a, b, done, searched, judged = _core.search(
        position, rng, iterations, width, playout_turns, expand_after, exploration,
        max(seconds, 1e-9) if seconds else 0.0, mine, theirs)
    return SearchResult(_move(a, b), done, searched, judged, time.perf_counter() - start)


def evaluate(states: Sequence[GameState], evaluator: Evaluator, player: int = 0) -> list[float] | None:
    """``evaluator.lead(state, player)`` of many positions in one call; None where it cannot run here."""
    estimate = compiled_estimate(evaluator)
    if estimate is None:
        return None
    positions = [compiled_position(state) for state in states]
    if any(p is None for p in positions):
        return None
    import zamek.castle.fast._core as _core
    return _core.leads([p for p in positions if p is not None], estimate, player)
