"""What a game of Rycerze i zamki waits for: its phase."""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    """What the game waits for."""

    DRAW = 0
    """Chance: the next tile is revealed."""
    CHOOSE = 1
    """Every player lays two cards face down for the castle (K4); ``current`` is the next to choose."""
    RECRUIT = 2
    """Every player with cards in the camp takes one back (K5); ``current`` is the next to choose."""
    OVER = 3
