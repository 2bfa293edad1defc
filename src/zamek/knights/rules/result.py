"""The outcome of a finished game of Rycerze i zamki (K6): castle points, then more cards in hand, then the youngest."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zamek.knights.rules.engine import KnightsSetup


@dataclass(frozen=True, slots=True)
class KnightsResult:
    """The outcome of a finished game (K6)."""

    points: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    ranking: tuple[int, ...]
    """Seats from the winner down."""

    @property
    def winner(self) -> int:
        return self.ranking[0]


def ranking(setup: KnightsSetup, points: Sequence[int], hand_sizes: Sequence[int]) -> tuple[int, ...]:
    """Return the seats from first to last by K6: points, then more cards in hand, then the youngest."""
    return tuple(sorted(range(setup.players), key=lambda p: (-points[p], -hand_sizes[p], setup.age(p))))
