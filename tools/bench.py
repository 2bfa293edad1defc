"""Speed on one core, the Python engine and the compiled core side by side: random playouts, the hard level's
search (MCTS iterations per second, seconds per decision) and its one-turn look (microseconds per child).

Run from the repository's root: ``python -m tools.bench`` (``--help`` lists the options, ``--json`` prints the
figures as JSON)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from zamek.castle import fast
from zamek.castle import record as records
from zamek.castle.bots import compiled as compiled_bots
from zamek.castle.bots.levels import make_bot
from zamek.castle.bots.mcts import MCTSBot, ranked_moves
from zamek.castle.bots.value import default_model
from zamek.castle.data.loader import new_game
from zamek.castle.rules import rulesets
from zamek.castle.rules.actions import Action
from zamek.castle.rules.setup import Phase, Setup
from zamek.castle.rules.state import GameState
from zamek.castle.runner import play_game, sample_chance
from zamek.cli.options import rule_options


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


RULE_SETS: dict[str, Setup] = {name: Setup.parse(name) for name in rulesets.RULE_SETS}
"""Every rule set, by name (:mod:`zamek.castle.rules.rulesets`)."""


def compiled_playouts(seconds: float, seed: int = 0, setup: Setup | None = None) -> BenchResult | None:
    """Play random games in the compiled core (``zamek.castle.fast.playouts``) for about ``seconds``; None where it
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
    """Search decisions timed in one engine."""

    decisions: int
    iterations: int
    seconds: float
    choices: tuple[str, ...] = ()
    """The actions chosen, in order (the engines must agree)."""

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
                "seconds_per_decision": round(self.seconds_per_decision, 5)}


def bench_positions(positions: int = 10, seed: int = 0, setup: Setup | None = None,
                    game: tuple[Setup, Sequence[Action]] | None = None) -> list[GameState]:
    """Placement positions spread over a random game of ``seed``, or over ``game`` (a saved game's setup and
    moves: the same positions whatever the version of the program, to compare versions)."""
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
    return chosen


def mcts_search(iterations: int, positions: int = 10, seed: int = 0, setup: Setup | None = None,
                game: tuple[Setup, Sequence[Action]] | None = None, compiled: bool = False) -> SearchBench | None:
    """Time placement decisions of the ``mcts:iterations`` bot (the hard level's search) in ``bench_positions``,
    in the Python engine or in the compiled core (None where it was not built). Both make the same decisions."""
    if compiled and not fast.AVAILABLE:
        return None
    chosen = bench_positions(positions, seed, setup, game)
    bot = make_bot(f"mcts:{iterations}")
    assert isinstance(bot, MCTSBot)
    bot.compiled = compiled
    rng = random.Random(seed)
    total = 0
    choices = []
    start = time.perf_counter()
    for position in chosen:
        choices.append(str(bot.choose(position, rng)))
        total += bot.last_iterations
    return SearchBench(len(chosen), total, time.perf_counter() - start, tuple(choices))


@dataclass(frozen=True)
class LookBench:
    """The one-turn look (``mcts.ranked_moves``: every placement with every figure choice judged after its
    settled turn) timed in one engine."""

    positions: int
    children: int
    """Moves judged: each placement with each of its figure choices."""
    seconds: float

    @property
    def microseconds_per_child(self) -> float:
        return 1e6 * self.seconds / self.children

    def figures(self) -> dict[str, Any]:
        return {"positions": self.positions, "children": self.children, "seconds": round(self.seconds, 4),
                "us_per_child": round(self.microseconds_per_child, 2)}


def one_turn_look(positions: Sequence[GameState], compiled: bool = False, min_seconds: float = 0.2
                  ) -> LookBench | None:
    """Time the one-turn look with the learned value (as the hard level ranks its own moves) in ``positions``,
    in the Python engine or the compiled core (None where it was not built); repeated until ``min_seconds``."""
    if compiled and not fast.AVAILABLE:
        return None
    model = default_model()
    children = 0
    for position in positions:
        for place in position.legal_actions():
            placed = position.copy()
            placed.apply(place)
            children += len(placed.legal_actions())
    rank = compiled_bots.ranked_moves if compiled else ranked_moves
    rounds = 0
    start = time.perf_counter()
    while True:
        for i, position in enumerate(positions):
            rank(position, random.Random(i), 8, model)
        rounds += 1
        if time.perf_counter() - start >= min_seconds:
            break
    return LookBench(len(positions), children * rounds, time.perf_counter() - start)


@dataclass(frozen=True)
class SearchSideBySide:
    """The search and the one-turn look in both engines, in the same positions."""

    iterations: int
    rules: str
    python: SearchBench | None
    compiled: SearchBench | None
    look_python: LookBench | None
    look_compiled: LookBench | None

    @property
    def speedup(self) -> float | None:
        """Compiled iterations per second over the Python engine's."""
        if self.python is None or self.compiled is None:
            return None
        return self.compiled.iterations_per_second / self.python.iterations_per_second

    @property
    def look_speedup(self) -> float | None:
        if self.look_python is None or self.look_compiled is None:
            return None
        return self.look_python.microseconds_per_child / self.look_compiled.microseconds_per_child

    @property
    def same_decisions(self) -> bool | None:
        if self.python is None or self.compiled is None:
            return None
        return self.python.choices == self.compiled.choices

    def figures(self) -> dict[str, Any]:
        """Every figure, for JSON."""
        def rounded(x: float | None) -> float | None:
            return None if x is None else round(x, 2)
        return {
            "iterations_per_decision": self.iterations, "rules": self.rules,
            "python": None if self.python is None else self.python.figures(),
            "compiled": None if self.compiled is None else self.compiled.figures(),
            "speedup": rounded(self.speedup), "same_decisions": self.same_decisions,
            "one_turn_look": {
                "evaluator": "learned",
                "python": None if self.look_python is None else self.look_python.figures(),
                "compiled": None if self.look_compiled is None else self.look_compiled.figures(),
                "speedup": rounded(self.look_speedup),
            },
        }

    def lines(self) -> list[str]:
        """The text lines."""
        searched = self.python or self.compiled
        decisions = searched.decisions if searched is not None else 0
        lines = [f"MCTS ({self.iterations} iterations per decision), {decisions} placement decisions:"]
        for name, result in (("python", self.python), ("compiled", self.compiled)):
            if result is None:
                lines.append(f"  {name + ':':<9} not built ({fast.UNAVAILABLE})")
                continue
            extra = ""
            if name == "compiled" and self.speedup is not None:
                agree = "the same decisions" if self.same_decisions else "OTHER DECISIONS"
                extra = f" ({self.speedup:,.1f}x the Python engine; {agree})"
            lines.append(f"  {name + ':':<9} {result.iterations_per_second:,.0f} iterations/s, "
                         f"{result.seconds_per_decision:.4f} s per decision{extra}")
        look = self.look_python or self.look_compiled
        if look is not None:
            lines.append(f"one-turn look (the learned value), {look.positions} placement positions:")
            for name, timed in (("python", self.look_python), ("compiled", self.look_compiled)):
                if timed is None:
                    lines.append(f"  {name + ':':<9} not built ({fast.UNAVAILABLE})")
                    continue
                extra = (f" ({self.look_speedup:,.1f}x the Python engine)"
                         if name == "compiled" and self.look_speedup is not None else "")
                lines.append(f"  {name + ':':<9} {timed.microseconds_per_child:,.2f} µs per child, "
                             f"{timed.children:,} children in {timed.seconds:.2f} s{extra}")
        return lines


def search_side_by_side(iterations: int, positions: int = 10, seed: int = 0, setup: Setup | None = None,
                        game: tuple[Setup, Sequence[Action]] | None = None) -> SearchSideBySide:
    """The hard level's search and its one-turn look in both engines, in the same positions."""
    chosen = bench_positions(positions, seed, setup, game)
    rules = (game[0] if game else setup or Setup()).name
    return SearchSideBySide(
        iterations, rules,
        mcts_search(iterations, positions, seed, setup, game, compiled=False),
        mcts_search(iterations, positions, seed, setup, game, compiled=True),
        one_turn_look(chosen, compiled=False), one_turn_look(chosen, compiled=True),
    )


@click.command()
@click.option("--seconds", type=float, default=5.0, show_default=True,
              help="Length of each random-playout run (per engine and rule set).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--mcts-iterations", type=int, default=128, show_default=True,
              help="Budget of each MCTS decision, timed in both engines (0: no search timing).")
@click.option("--mcts-game", "mcts_game", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Time the search in positions of this saved game (the same whatever the version) instead of "
                   "a random game of SEED.")
@click.option("--all-rules", is_flag=True, help="Random playouts in every rule set (else the one chosen).")
@click.option("--json", "as_json", is_flag=True, help="Print every figure as one JSON object instead.")
@rule_options
def bench(seconds: float, seed: int, mcts_iterations: int, mcts_game: Path | None, all_rules: bool, as_json: bool,
          setup: Setup) -> None:
    """Measure speed on one core, the Python engine and the compiled core side by side: random playouts, the
    hard level's search and its one-turn look."""
    saved = None
    if mcts_game is not None:
        try:
            saved = records.read_record(json.loads(mcts_game.read_text(encoding="utf-8")))
        except (ValueError, UnicodeDecodeError) as exc:
            raise click.UsageError(f"{mcts_game}: {exc}") from None
    if not as_json:
        click.echo(f"core: {fast.core_description()}")
    rows = []
    for rules in (RULE_SETS.values() if all_rules else [setup]):
        row = side_by_side(seconds, seed, [rules])[0]
        rows.append(row)
        if not as_json:
            click.echo("\n".join(playout_lines(row)))
    search = None
    if mcts_iterations > 0:
        search = search_side_by_side(mcts_iterations, positions=10, seed=seed, setup=setup, game=saved)
        if not as_json:
            click.echo("\n".join(search.lines()))
    if as_json:
        click.echo(json.dumps({
            "core": "compiled" if fast.AVAILABLE else "python",
            "compiled_unavailable": fast.UNAVAILABLE,
            "seconds": seconds,
            "seed": seed,
            "playouts": [{"rules": row.rules, "python": playout_figures(row.python),
                          "compiled": playout_figures(row.compiled),
                          "speedup": None if row.speedup is None else round(row.speedup, 2)} for row in rows],
            "mcts": None if search is None else search.figures(),
        }))


if __name__ == "__main__":
    bench()
