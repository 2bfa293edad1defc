"""Many games at once (``zamek.castle.fast.Batch``) against games stepped one by one in the Python engine.

A batch's game ``i`` is the game of seed ``seed + i`` under the seeding convention: the same first player, the
same tiles and tokens, so that stepped with the same actions it is the game the Python engine plays, legal
actions and scores included, to its end. Arrays come as numpy arrays where numpy is installed and as
memoryviews otherwise; both are checked (numpy only where it is installed).
"""

from __future__ import annotations

import importlib.util
import random
from typing import Any

import pytest

from zamek.castle import fast
from zamek.castle.data.loader import new_game
from zamek.castle.rules.actions import ACTION_COUNT
from zamek.castle.rules.editions import Edition
from zamek.castle.rules.setup import Phase, Setup
from zamek.castle.rules.state import GameState
from zamek.castle.runner import play_game, resolve_setup
from zamek.castle.seeding import SeededChance, first_player, player_rng

if not fast.AVAILABLE:
    if fast.required():
        raise ImportError(f"the compiled core is required (ZAMEK_REQUIRE_COMPILED/CI) but {fast.UNAVAILABLE}")
    pytest.skip(f"the compiled core is not built: {fast.UNAVAILABLE}", allow_module_level=True)

HAVE_NUMPY = importlib.util.find_spec("numpy") is not None
RULE_SETS = [Setup(), Setup(edition=Edition.CASTLE_2003, sokol=True), Setup(sokol=True, gate_guard=True)]


def rows(masks: Any, n: int) -> list[list[int]]:
    """The legal actions of each game, from a mask array of either kind."""
    return [[k for k in range(fast.ACTIONS) if masks[i, k]] for i in range(n)]


def python_games(setup: Setup, seed: int, n: int) -> tuple[list[GameState], list[SeededChance]]:
    """The Python engine's games of seeds ``seed`` .. ``seed + n - 1``, each at its first decision."""
    states, chances = [], []
    for k in range(n):
        state = new_game(resolve_setup(setup, seed + k, None))
        chance = SeededChance(seed + k, state.tiles)
        advance(state, chance)
        states.append(state)
        chances.append(chance)
    return states, chances


def advance(state: GameState, chance: SeededChance) -> None:
    while state.is_chance():
        state.apply(chance.outcome(state))


@pytest.mark.parametrize("setup", RULE_SETS, ids=[s.name for s in RULE_SETS])
def test_a_batch_steps_the_games_the_python_engine_steps(setup: Setup) -> None:
    n, seed = 6, 40
    batch = fast.Batch(setup, n, seed, numpy=False)
    states, chances = python_games(setup, seed, n)
    rng = random.Random(1)
    steps = 0
    while not all(state.is_over() for state in states):
        legal = rows(batch.legal_masks(), n)
        assert legal == [sorted(a.index for a in s.legal_actions()) for s in states]
        assert list(batch.current()) == [-1 if s.is_over() else s.current for s in states]
        assert list(batch.phases()) == [int(s.phase) for s in states]
        actions = [-1 if s.is_over() else rng.choice(s.legal_actions()).index for s in states]
        batch.step(actions)
        for state, chance, action in zip(states, chances, actions, strict=True):
            if not state.is_over():
                state.apply(next(a for a in state.legal_actions() if a.index == action))
                advance(state, chance)
        assert batch.scores().tolist() == [list(s.scores) for s in states]
        steps += 1
    assert list(batch.done()) == [1] * n
    assert batch.scores().tolist() == [list(s.scores) for s in states] and steps > 100


def test_game_k_of_a_batch_is_play_game_of_seed_plus_k() -> None:
    # Random players choosing as zamek.castle.runner.random_policy does, from the legal actions in the engine's order.
    n, seed = 5, 70
    batch = fast.Batch(Setup(), n, seed)
    rngs = [[player_rng(seed + k, seat) for seat in (0, 1)] for k in range(n)]
    assert list(batch.current()) == [first_player(seed + k) for k in range(n)]
    while not all(batch.done()):
        current = batch.current()
        actions = [-1 if current[k] < 0 else rngs[k][current[k]].choice(batch.state(k).legal_actions())
                   for k in range(n)]
        batch.step(actions)
    for k in range(n):
        played = play_game(seed + k)
        assert batch.scores().tolist()[k] == list(played.state.scores)
    assert list(batch.seeds()) == list(range(seed, seed + n))


def test_reset_starts_the_next_seed_and_a_finished_game_ignores_its_action() -> None:
    batch = fast.Batch(Setup(), 3, 10, numpy=False)
    rng = random.Random(2)
    while not batch.done()[1]:
        masks = batch.legal_masks()
        batch.step([rng.choice([k for k in range(fast.ACTIONS) if masks[i, k]]) if not batch.done()[i] else 999
                    for i in range(3)])
    finished = batch.scores()[1, 0], batch.scores()[1, 1]
    assert rows(batch.legal_masks(), 3)[1] == [] and batch.phases()[1] == Phase.OVER
    batch.step([batch.state(0).legal_actions()[0] if not batch.done()[0] else -1,
                12345,  # over: ignored
                batch.state(2).legal_actions()[0] if not batch.done()[2] else -1])
    assert (batch.scores()[1, 0], batch.scores()[1, 1]) == finished
    assert batch.reset(1) == 13 and batch.reset(1) == 14  # seeds go on after the first 10, 11, 12
    assert list(batch.seeds())[1] == 14 and not batch.done()[1]
    fresh = new_game(resolve_setup(Setup(), 14, None))
    advance(fresh, SeededChance(14, fresh.tiles))
    assert batch.state(1).snapshot()["remaining"] == sorted(fresh.remaining)
    assert batch.current()[1] == fresh.current


def test_an_illegal_action_changes_nothing() -> None:
    batch = fast.Batch(Setup(sokol=True), 4, 0, numpy=False)
    before = [batch.state(i).snapshot() for i in range(4)]
    legal = [batch.state(i).legal_actions() for i in range(4)]
    with pytest.raises(ValueError, match="game 2: action 1099 is not legal"):
        batch.step([legal[0][0], legal[1][0], 1099, legal[3][0]])
    with pytest.raises(ValueError, match="one action per game"):
        batch.step([legal[0][0]])
    assert [batch.state(i).snapshot() for i in range(4)] == before
    batch.step([a[0] for a in legal])
    assert [batch.state(i).snapshot() for i in range(4)] != before
    assert fast.ACTIONS == ACTION_COUNT


def test_first_player_can_be_fixed_for_every_game() -> None:
    batch = fast.Batch(Setup(), 8, 0, first_player=1)
    assert list(batch.current()) == [1] * 8


def test_memoryviews_without_numpy() -> None:
    batch = fast.Batch(Setup(), 3, 5, numpy=False)
    masks, scores, done = batch.legal_masks(), batch.scores(), batch.done()
    assert isinstance(masks, memoryview) and masks.shape == (3, fast.ACTIONS) and masks.format == "B"
    assert isinstance(scores, memoryview) and scores.shape == (3, 2)
    assert [scores[i, j] for i in range(3) for j in range(2)] == [0] * 6
    assert isinstance(done, memoryview) and done.tolist() == [0, 0, 0]
    assert batch.seeds().tolist() == [5, 6, 7] and len(batch) == 3


@pytest.mark.skipif(not HAVE_NUMPY, reason="numpy is not installed")
def test_numpy_arrays_where_numpy_is_installed() -> None:
    import numpy as np  # type: ignore[import-not-found,unused-ignore]
    batch = fast.Batch(Setup(), 4, 5)
    masks = batch.legal_masks()
    assert isinstance(masks, np.ndarray) and masks.shape == (4, fast.ACTIONS) and masks.dtype == np.uint8
    assert batch.scores().shape == (4, 2) and batch.done().dtype == bool and not batch.done().any()
    rng = np.random.default_rng(0)
    while not batch.done().all():
        masks = batch.legal_masks()
        choice = np.array([rng.choice(np.flatnonzero(row)) if row.any() else -1 for row in masks])
        batch.step(choice)
    assert (batch.current() == -1).all() and batch.scores().sum() > 0


def test_numpy_cannot_be_asked_for_where_it_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    from zamek.castle.fast import batch as batch_module
    monkeypatch.setattr(batch_module, "_NUMPY", None)
    with pytest.raises(ImportError, match="numpy"):
        fast.Batch(Setup(), 2, 0, numpy=True)
    assert isinstance(fast.Batch(Setup(), 2, 0).legal_masks(), memoryview)
