"""The one interface every computer player shares."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from zamek.core.actions import PlayerAction
from zamek.core.state import GameState


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a bot may think: a number of iterations, or seconds, or both (whichever ends first)."""

    iterations: int | None = None
    seconds: float | None = None


class Bot(Protocol):
    """A computer player: chooses an action for the player to move."""

    name: str

    def choose(self, state: GameState, rng: random.Random, budget: Budget | None = None) -> PlayerAction:
        """Return a legal action for ``state.current``; never change ``state``."""
        ...
