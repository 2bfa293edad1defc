"""Driving games of Rycerze i zamki: sampling the tiles and letting bots choose."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from zamek.knights.actions import Action, Draw
from zamek.knights.bots import KnightsBot, make_bot
from zamek.knights.engine import KnightsSetup, KnightsState


def sample_chance(state: KnightsState, rng: random.Random) -> Draw:
    """Pick the next tile with its probability."""
    outcomes = state.chance_outcomes()
    if len(outcomes) == 1:
        return outcomes[0][0]
    return rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]


@dataclass
class PlayedGame:
    """A finished game: setup, seed, every action in order, the final state, and each seat's thinking."""

    setup: KnightsSetup
    seed: int
    actions: list[Action]
    state: KnightsState
    decisions: list[int] = field(default_factory=list)
    think_seconds: list[float] = field(default_factory=list)
    max_seconds: list[float] = field(default_factory=list)


def bot_rng(seed: int, seat: int) -> random.Random:
    """Return a seat's own generator for a game seed (its choices never shift the tiles)."""
    return random.Random(seed * 1_000_003 + seat)


def play_game(
    seed: int,
    bots: Sequence[KnightsBot | str] | None = None,
    setup: KnightsSetup | None = None,
    on_action: Callable[[KnightsState, Action], None] | None = None,
) -> PlayedGame:
    """Play a whole game. The tiles come from a generator seeded with ``seed`` alone, so any bots on
    the same seed see the same tiles; each seat thinks with its own generator (``bot_rng``)."""
    setup = setup or KnightsSetup(players=len(bots) if bots else 3)
    players = [make_bot(b) if isinstance(b, str) else b for b in (bots or ["random"] * setup.players)]
    if len(players) != setup.players:
        raise ValueError(f"{len(players)} bots for a {setup.players}-player game")
    tiles = random.Random(seed)
    rngs = [bot_rng(seed, seat) for seat in range(setup.players)]
    state = KnightsState.new(setup)
    game = PlayedGame(setup, seed, [], state, [0] * setup.players, [0.0] * setup.players, [0.0] * setup.players)
    while not state.is_over():
        action: Action
        if state.is_chance():
            action = sample_chance(state, tiles)
        else:
            seat = state.current
            start = time.perf_counter()
            action = players[seat].choose(state, rngs[seat])
            spent = time.perf_counter() - start
            game.decisions[seat] += 1
            game.think_seconds[seat] += spent
            game.max_seconds[seat] = max(game.max_seconds[seat], spent)
        if on_action is not None:
            on_action(state, action)
        state.play(action)
        game.actions.append(action)
    return game
