"""Sides, segments, rotations and space names.

A tile has four sides, N E S W (0..3). Each side has three *segments*, numbered
clockwise around the tile starting at the north side's west end::

         0   1   2
       +---+---+---+
    11 |           | 3
       +           +
    10 |           | 4
       +           +
     9 |           | 5
       +---+---+---+
         8   7   6

Middle segments (1, 4, 7, 10) are where roads cross a side. Rotating a tile a
quarter turn clockwise maps segment ``s`` to ``(s + 3) % 12``. Segment
``s = 3k + i`` on side ``k`` faces segment ``3 * ((k + 2) % 4) + (2 - i)`` of the
neighbour on that side.

Spaces are named like chess squares: columns ``a, b, ...`` from west to east,
rows ``1, 2, ...`` from south to north (``e10``).
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Final


class Side(IntEnum):
    """A side of a square space or tile."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def opposite(self) -> Side:
        return Side((self + 2) % 4)


SEGMENTS: Final = 12
MIDDLE_SEGMENTS: Final = (1, 4, 7, 10)
ROTATIONS: Final = (0, 1, 2, 3)
"""Quarter turns clockwise."""

# (dx, dy) of the neighbour on each side; y grows to the north.
SIDE_OFFSETS: Final = ((0, 1), (1, 0), (0, -1), (-1, 0))


def side_of(segment: int) -> Side:
    """Return the side a segment lies on."""
    return Side(segment // 3)


def facing_segment(segment: int) -> int:
    """Return the neighbour's segment that ``segment`` touches."""
    side, i = divmod(segment, 3)
    return 3 * ((side + 2) % 4) + (2 - i)


def rotate_segment(segment: int, rotation: int) -> int:
    """Return where ``segment`` ends up after ``rotation`` quarter turns clockwise."""
    return (segment + 3 * rotation) % SEGMENTS


def side_segments(side: int) -> tuple[int, int, int]:
    """Return the three segments of a side, in clockwise order."""
    return (3 * side, 3 * side + 1, 3 * side + 2)


FACING: Final = tuple(facing_segment(s) for s in range(SEGMENTS))

_NAME = re.compile(r"^([a-z])([1-9][0-9]?)$")


def space_name(x: int, y: int) -> str:
    """Return the name of the space in column ``x`` and row ``y`` (both from 0)."""
    return f"{chr(ord('a') + x)}{y + 1}"


def parse_space(name: str) -> tuple[int, int]:
    """Return ``(x, y)`` (both from 0) of a space name such as ``e10``."""
    match = _NAME.match(name.strip().lower())
    if match is None:
        raise ValueError(f"{name!r} is not a space name (a column letter and a row number, like e10)")
    return ord(match.group(1)) - ord("a"), int(match.group(2)) - 1
