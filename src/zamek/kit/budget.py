"""How much a computer player may think, in either game."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a bot may think: a number of iterations, or seconds, or both (whichever ends first)."""

    iterations: int | None = None
    seconds: float | None = None
