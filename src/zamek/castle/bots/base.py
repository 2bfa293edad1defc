"""The one interface every computer player shares."""

from __future__ import annotations

import random
from typing import Protocol

from zamek.castle.rules.actions import PlayerAction
from zamek.castle.rules.state import GameState
from zamek.kit.budget import Budget

__all__ = ["Bot", "Budget"]


class Bot(Protocol):
    """A computer player: chooses an action for the player to move."""

    name: str

    def choose(self, state: GameState, rng: random.Random, budget: Budget | None = None) -> PlayerAction:
        """Return a legal action for ``state.current``; never change ``state``."""
        ...
