"""Scoring rules: rates per feature and the itemised breakdown (Z13, Z14, Z18, Z20)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from zamek.tiles import FeatureKind

ROAD_RATE: Final = 1
ROAD_WITH_STOCKS_RATE: Final = 2
HOUSE_RATE: Final = 1
PIGSTY_RATE: Final = 2
SHRINE_RATE: Final = 3


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


def majority(counts: tuple[int, int]) -> int | None:
    """Return the player with more followers, or None on a tie (Z13)."""
    if counts[0] > counts[1]:
        return 0
    if counts[1] > counts[0]:
        return 1
    return None


CHAPEL_POINTS: Final = (0, 1, 3, 6, 10, 15, 21, 28, 36)


def chapel_points(tiles: int) -> int:
    """Return the points of a complete chapel of ``tiles`` tiles (F2)."""
    return CHAPEL_POINTS[min(tiles, len(CHAPEL_POINTS) - 1)]


def feature_rate(kind: FeatureKind, stocks: int) -> tuple[int, str]:
    """Return the points per tile of a complete feature and a word on why (Z14)."""
    if kind is FeatureKind.ROAD:
        return (ROAD_WITH_STOCKS_RATE, "stocks") if stocks else (ROAD_RATE, "")
    if kind is FeatureKind.HOUSE:
        return HOUSE_RATE, ""
    if kind is FeatureKind.PIGSTY:
        return PIGSTY_RATE, ""
    raise ValueError(f"{kind.key} is not scored at completion in the base game")


def totals(items: list[ScoreItem], players: int = 2) -> list[int]:
    """Sum a breakdown per player."""
    result = [0] * players
    for item in items:
        if item.player is not None:
            result[item.player] += item.points
    return result
