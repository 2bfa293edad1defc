"""Speed of random playouts on one core."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from zamek.bots.levels import make_bot
from zamek.bots.mcts import MCTSBot
from zamek.core.actions import Action
from zamek.core.setup import Phase, Setup
from zamek.core.state import GameState
from zamek.datafiles import new_game
from zamek.runner import play_game, sample_chance


@dataclass(frozen=True)
class BenchResult:
    games: int
    actions: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds


def random_playouts(seconds: float, seed: int = 0, setup: Setup | None = None) -> BenchResult:
    """Play random games (chance events included) for about ``seconds``; count games and actions."""
    rng = random.Random(seed)
    root = new_game(setup or Setup())
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = root.copy()
        while not state.is_over():
            if state.is_chance():
                state.apply(sample_chance(state, rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
            actions += 1
        games += 1
    return BenchResult(games, actions, time.perf_counter() - start)


@dataclass(frozen=True)
class SearchBench:
    decisions: int
    iterations: int
    seconds: float

    @property
    def iterations_per_second(self) -> float:
        return self.iterations / self.seconds

    @property
    def seconds_per_decision(self) -> float:
        return self.seconds / self.decisions


def mcts_search(iterations: int, positions: int = 10, seed: int = 0, setup: Setup | None = None,
                game: tuple[Setup, Sequence[Action]] | None = None) -> SearchBench:
    """Time placement decisions of the ``mcts:iterations`` bot (the hard level's search) in positions
    from a random game of ``seed``, or from ``game`` (a saved game's setup and moves: the same positions
    whatever the version of the program, to compare versions)."""
    if game is None:
        played = play_game(seed, setup=setup)
        game = (played.setup, played.actions)
    state = new_game(game[0])
    chosen: list[GameState] = []
    step = max(1, len(game[1]) // (positions + 1))
    for i, action in enumerate(game[1]):
        if state.phase is Phase.PLACE and i >= step * (len(chosen) + 1) and len(chosen) < positions:
            chosen.append(state.copy())
        state.apply(action)
    bot = make_bot(f"mcts:{iterations}")
    assert isinstance(bot, MCTSBot)
    rng = random.Random(seed)
    total = 0
    start = time.perf_counter()
    for position in chosen:
        bot.choose(position, rng)
        total += bot.last_iterations
    return SearchBench(len(chosen), total, time.perf_counter() - start)
