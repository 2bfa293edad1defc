"""Speed of random playouts on one core."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from zamek.engine import GameState, Setup
from zamek.runner import sample_chance


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
    root = GameState.new(setup or Setup())
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
