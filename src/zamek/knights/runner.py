"""Driving games of Rycerze i zamki: seeds and bots (the loop is :func:`zamek.kit.play.run`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from zamek.kit.play import run, sample_chance
from zamek.knights.bots import KnightsBot, make_bot
from zamek.knights.rules.actions import Action
from zamek.knights.rules.engine import KnightsSetup, KnightsState
from zamek.knights.seeding import SeededTiles, player_rng

__all__ = ["PlayedGame", "bot_rng", "play_game", "sample_chance"]


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
    """Return a seat's own generator for a game seed (its choices never shift the tiles): the seeding
    convention's (:mod:`zamek.knights.seeding`)."""
    return player_rng(seed, seat)


def play_game(
    seed: int,
    bots: Sequence[KnightsBot | str] | None = None,
    setup: KnightsSetup | None = None,
    on_action: Callable[[KnightsState, Action], None] | None = None,
) -> PlayedGame:
    """Play a whole game. The tiles come from ``seed`` alone (:mod:`zamek.knights.seeding`), so any bots on the
    same seed see the same tiles; each seat thinks with its own generator (``bot_rng``)."""
    setup = setup or KnightsSetup(players=len(bots) if bots else 3)
    players = [make_bot(b) if isinstance(b, str) else b for b in (bots or ["random"] * setup.players)]
    if len(players) != setup.players:
        raise ValueError(f"{len(players)} bots for a {setup.players}-player game")
    tiles = SeededTiles(seed, setup)
    rngs = [bot_rng(seed, seat) for seat in range(setup.players)]
    state = KnightsState.new(setup)
    played = run(state, [bot.choose for bot in players], rngs, tiles.outcome, on_action=on_action)
    return PlayedGame(setup, seed, played.actions, state, played.decisions, played.think_seconds,
                      played.max_seconds)
