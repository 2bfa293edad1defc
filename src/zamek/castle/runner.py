"""Driving castle games: policies, and whole games by the seed (the loop is :func:`zamek.kit.play.run`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from zamek.castle.data.loader import new_game
from zamek.castle.rules.actions import Action, PlayerAction
from zamek.castle.rules.setup import Setup
from zamek.castle.rules.state import GameState
from zamek.castle.seeding import SeededChance, player_rng
from zamek.castle.seeding import first_player as seeded_first_player
from zamek.kit.play import run, sample_chance

__all__ = ["PlayedGame", "Policy", "play_game", "random_policy", "resolve_setup", "sample_chance"]

Policy = Callable[[GameState, random.Random], PlayerAction]


def random_policy(state: GameState, rng: random.Random) -> PlayerAction:
    """Choose uniformly among the legal actions."""
    return rng.choice(state.legal_actions())


def resolve_setup(setup: Setup | None, seed: int, first_player: int | None) -> Setup:
    """Return a setup whose first player is fixed: given, or chosen by the seed (Z5, ``zamek.castle.seeding``)."""
    base = setup or Setup()
    chosen = first_player if first_player is not None else seeded_first_player(seed)
    return replace(base, first_player=chosen)


@dataclass
class PlayedGame:
    """A finished game: its setup, seed, every action in order and the final state."""

    setup: Setup
    seed: int
    actions: list[Action]
    state: GameState


def play_game(
    seed: int,
    policies: Sequence[Policy] = (random_policy, random_policy),
    setup: Setup | None = None,
    first_player: int | None = None,
    on_action: Callable[[GameState, Action], None] | None = None,
) -> PlayedGame:
    """Play a whole game of seed ``seed`` (its chance and each player's randomness as in ``zamek.castle.seeding``)."""
    setup = resolve_setup(setup, seed, first_player)
    state = new_game(setup)
    chance = SeededChance(seed, state.tiles)
    rngs = [player_rng(seed, seat) for seat in (0, 1)]
    played = run(state, policies, rngs, chance.outcome, checked=False, on_action=on_action)
    return PlayedGame(setup, seed, played.actions, state)
