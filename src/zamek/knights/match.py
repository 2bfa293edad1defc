"""The match variant (K7): as many games as players, castle points added up.

Rulings (README, "Rycerze i zamki"): game g of a match (from 0) starts with the sword at seat
``youngest + g`` round the table, so every player starts one game with it; a tie on total
points goes to more cards in hand at the ends of the games added up, then to the youngest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from zamek.knights.engine import KnightsResult, KnightsSetup, ranking


def match_setups(players: int, youngest: int | None = None) -> list[KnightsSetup]:
    """Return the setups of a match's games, in order (the first sword holder moves one seat on each game)."""
    base = KnightsSetup(players=players, youngest=youngest)
    return [
        KnightsSetup(players=players, youngest=youngest, sword=(base.youngest_seat + g) % players)
        for g in range(players)
    ]


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The outcome of a match: totals over its games and the ranking they give."""

    points: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    ranking: tuple[int, ...]

    @property
    def winner(self) -> int:
        return self.ranking[0]


def match_result(setup: KnightsSetup, results: Sequence[KnightsResult]) -> MatchResult:
    """Add up a match's games (K7) and rank the players."""
    n = setup.players
    points = tuple(sum(r.points[p] for r in results) for p in range(n))
    hands = tuple(sum(r.hand_sizes[p] for r in results) for p in range(n))
    return MatchResult(points, hands, ranking(setup, points, hands))
