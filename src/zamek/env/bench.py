"""How fast the research environments step, on one core: the vector environment with masks only and with full
observations, and the AEC environments of both games (``zamek env-bench``).

The vector figures count environment steps (one action in one game, with the chance that follows and, where
asked, the next observation) per second of time spent inside ``step``; the agent's time (here the environment's
own random sampler) is measured apart and given too, so the figure with the agent is also there.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from zamek.env import castle_v0, knights_v0


@dataclass(frozen=True)
class EnvFigure:
    name: str
    steps: int
    env_seconds: float
    agent_seconds: float
    games: int

    @property
    def steps_per_second(self) -> float:
        """Steps per second of the environment's own time."""
        return self.steps / self.env_seconds

    @property
    def with_agent(self) -> float:
        """Steps per second counting the random agent's time too."""
        return self.steps / (self.env_seconds + self.agent_seconds)

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "steps_per_second": round(self.steps_per_second),
                "with_agent": round(self.with_agent)}


@contextmanager
def one_core() -> Iterator[int | None]:
    """Run on one core (the lowest this process may use) where the system allows it, and give back the others
    after; yields that core (None where it cannot pin)."""
    if not hasattr(os, "sched_setaffinity"):
        yield None
        return
    before = os.sched_getaffinity(0)
    core = min(before)
    os.sched_setaffinity(0, {core})
    try:
        yield core
    finally:
        os.sched_setaffinity(0, before)


def vector(n: int, seconds: float, observations: bool, rules: str = "zamek", seed: int = 0) -> EnvFigure:
    """Step ``n`` games together for about ``seconds`` with random legal actions (arrays not copied)."""
    venv = castle_v0.vector_env(n, rules=rules, seed=seed, observations=observations, copy=False)
    venv.reset()
    steps = games = 0
    env_time = agent_time = 0.0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        actions = venv.sample_actions()
        middle = time.perf_counter()
        result = venv.step(actions)
        end = time.perf_counter()
        agent_time += middle - start
        env_time += end - middle
        steps += n
        games += int(result.terminated.sum())
    kind = "observations and masks" if observations else "masks only"
    return EnvFigure(f"castle_v0.vector_env({n}), {kind}", steps, env_time, agent_time, games)


def aec(make: Any, name: str, seconds: float, seed: int = 0) -> EnvFigure:
    """Play whole games in an AEC environment with random legal actions for about ``seconds``: ``last()``
    (the observation and mask) and ``step`` count as the environment's time."""
    env = make()
    rng = random.Random(seed)
    steps = games = 0
    env_time = agent_time = 0.0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        env.reset(seed=seed + games)
        env_time += time.perf_counter() - start
        for agent in env.agent_iter():
            start = time.perf_counter()
            observation, _, terminated, truncated, _ = env.last()
            middle = time.perf_counter()
            action = None if terminated or truncated else rng.choice(np.flatnonzero(observation["action_mask"]))
            end = time.perf_counter()
            env.step(action)
            env_time += (middle - start) + (time.perf_counter() - end)
            agent_time += end - middle
            steps += action is not None
            del agent
        games += 1
    return EnvFigure(name, steps, env_time, agent_time, games)


def run(n: int = 1024, seconds: float = 3.0) -> list[EnvFigure]:
    """Every figure, one after the other in this process."""
    return [
        vector(n, seconds, observations=False),
        vector(n, seconds, observations=True),
        aec(castle_v0.env, "castle_v0.env() (AEC)", seconds),
        aec(lambda: knights_v0.env(players=3), "knights_v0.env(players=3) (AEC)", seconds),
    ]


def lines(figures: list[EnvFigure]) -> list[str]:
    rows = [f"{'environment':52} {'steps/s':>12} {'with agent':>12} {'steps':>10} {'games':>7}"]
    for f in figures:
        rows.append(f"{f.name:52} {f.steps_per_second:12,.0f} {f.with_agent:12,.0f} {f.steps:10,} {f.games:7,}")
    return rows
