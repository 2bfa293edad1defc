"""The itemised score breakdown: one line per scored feature, token or final award."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One line of the score breakdown: who scored what, and how it was counted.

    ``player`` is None when a tie (or no follower) left the feature unscored.
    ``count`` is the tiles (or shrines, or empty spaces) counted at ``rate`` each.
    """

    reason: str
    """road, house, pigsty, chapel, meadow or family-house."""
    player: int | None
    count: int
    rate: int
    points: int
    turn: int
    cells: int = 0
    """Bit mask of the cells of the feature, for highlighting."""
    detail: str = ""
    """Comma-separated keys of what changed the count: 'stocks', 'prince', 'token:2', 'unfinished'..."""
    multiplier: int = 1
    """2 when a prince or a doubling token doubles the points (F4, Z19)."""
    lost: int = 0
    """Points a gate took away (gate-guard variant, F8)."""
    nests: int = 0
    """Falcon nests taken with this feature (F5)."""
    final: bool = False
    """True for the lines of the final scoring (Z20)."""

    @property
    def details(self) -> tuple[str, ...]:
        return tuple(d for d in self.detail.split(",") if d)


def totals(items: list[ScoreItem], players: int = 2) -> list[int]:
    """Sum a breakdown per player."""
    result = [0] * players
    for item in items:
        if item.player is not None:
            result[item.player] += item.points
    return result
