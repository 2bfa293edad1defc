"""Speed on one core: random playouts in the Python engine and in the compiled core side by side, and the
hard level's search."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from zamek import fast
from zamek.bots.levels import make_bot
from zamek.bots.mcts import MCTSBot
from zamek.core.actions import Action
from zamek.core.editions import Edition
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


RULE_SETS: dict[str, Setup] = {
    setup.name: setup for setup in (
        Setup(),
        Setup(edition=Edition.CASTLE_2003),
        Setup(sokol=True),
        Setup(edition=Edition.CASTLE_2003, sokol=True),
        Setup(sokol=True, gate_guard=True),
        Setup(edition=Edition.CASTLE_2003, sokol=True, gate_guard=True),
    )
}
"""Every rule set, by name."""


def core_description() -> str:
    """Which core the fast paths use here: the compiled one, or the Python engine where it was not built."""
    return "compiled (zamek.fast)" if fast.AVAILABLE else f"python only: the compiled core is {fast.UNAVAILABLE}"


def compiled_playouts(seconds: float, seed: int = 0, setup: Setup | None = None) -> BenchResult | None:
    """Play random games in the compiled core (``zamek.fast.playouts``) for about ``seconds``; None where it
    was not built. Chance follows the seeding convention of seeds ``seed``, ``seed + 1``, ..."""
    if not fast.AVAILABLE:
        return None
    setup = setup or Setup()
    games = actions = 0
    batch = 16
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        before = time.perf_counter()
        result = fast.playouts(setup, n=batch, seed=seed + games)
        games += len(result.games)
        actions += result.actions
        now = time.perf_counter()
        if now >= deadline:
            break
        batch = max(1, min(4096, int(batch * 0.05 / max(now - before, 1e-6))))  # about 50 ms a batch
    return BenchResult(games, actions, time.perf_counter() - start)


@dataclass(frozen=True)
class SideBySide:
    """Random playouts of one rule set in both engines."""

    rules: str
    python: BenchResult
    compiled: BenchResult | None

    @property
    def speedup(self) -> float | None:
        """Compiled actions per second over the Python engine's."""
        if self.compiled is None:
            return None
        return self.compiled.actions_per_second / self.python.actions_per_second


def side_by_side(seconds: float, seed: int, setups: Sequence[Setup]) -> list[SideBySide]:
    """Random playouts for ``seconds`` in each engine, for each rule set."""
    return [SideBySide(setup.name, random_playouts(seconds, seed, setup), compiled_playouts(seconds, seed, setup))
            for setup in setups]


def playout_figures(result: BenchResult | None) -> dict[str, Any] | None:
    """Every figure of a playout run, for JSON."""
    if result is None:
        return None
    return {"games": result.games, "actions": result.actions, "seconds": round(result.seconds, 3),
            "actions_per_second": round(result.actions_per_second, 1),
            "games_per_second": round(result.games_per_second, 2)}


def playout_lines(row: SideBySide) -> list[str]:
    """The text lines of one rule set's playouts, both engines."""
    lines = [f"random playouts, {row.rules}:"]
    for name, result in (("python", row.python), ("compiled", row.compiled)):
        if result is None:
            lines.append(f"  {name + ':':<9} not built ({fast.UNAVAILABLE})")
            continue
        speedup = f" ({row.speedup:,.1f}x the Python engine)" if name == "compiled" and row.speedup else ""
        lines.append(f"  {name + ':':<9} {result.games:,} games, {result.actions:,} actions in {result.seconds:.1f} s: "
                     f"{result.actions_per_second:,.0f} actions/s, {result.games_per_second:,.1f} games/s{speedup}")
    return lines


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

    def figures(self) -> dict[str, Any]:
        """Every figure, for JSON."""
        return {"decisions": self.decisions, "iterations": self.iterations, "seconds": round(self.seconds, 3),
                "iterations_per_second": round(self.iterations_per_second, 1),
                "seconds_per_decision": round(self.seconds_per_decision, 4)}


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
