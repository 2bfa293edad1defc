"""The match variant (K7): as many games as players, castle points added up.

Rulings (docs/knights.md, "Rulings for Rycerze i zamki"): each game of a match is set up as a single game is (K7), so
the sword starts with the youngest in every game (K3); a tie on total points goes to more cards
in hand at the ends of the games added up, then to the youngest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from zamek.knights.rules.engine import KnightsResult, KnightsSetup, ranking


def match_setups(players: int, youngest: int | None = None) -> list[KnightsSetup]:
    """Return the setups of a match's games, in order: one per player, each set up as a single game
    (K7), so every game starts with the sword at the youngest (K3)."""
    return [KnightsSetup(players=players, youngest=youngest) for _ in range(players)]


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
