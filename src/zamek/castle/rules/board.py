"""The board: interior spaces, the wall with its score track, towers, gates and start spaces.

Cells are numbered on a grid padded by one cell of wall on every side, so that each of a space's
four neighbours is a cell too (``cell + CastleDef.offsets[side]``). Castles are read from TOML data
files by :mod:`zamek.castle.data.loader`; this module holds only plain values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from zamek.castle.rules.geometry import Side, parse_space, space_name
from zamek.castle.rules.tiles import FeatureDef

TRACK_LENGTH: Final = 100


@dataclass(frozen=True, slots=True)
class StartSpace:
    """A half tile printed on the wall, facing one interior space; it counts as a tile."""

    id: str
    faces: int
    """Cell of the interior space it faces."""
    side: Side
    """Side of that interior space on which the start space lies."""
    cell: int
    """Cell the start space occupies (outside the interior)."""
    features: tuple[FeatureDef, ...]
    """Features with segments in tile numbering, on the side facing the interior."""


@dataclass(frozen=True, slots=True)
class Tower:
    """A defence tower on the wall: two track numbers, maybe a face-down token."""

    index: int
    track: tuple[int, int]
    corner: tuple[int, int]
    holds_token: bool


@dataclass(frozen=True, slots=True)
class CastleDef:
    """A validated castle layout."""

    name: str
    width: int
    height: int
    interior: tuple[int, ...]
    """Cells of the interior spaces, in reading order (west to east, south to north)."""
    starts: tuple[StartSpace, ...]
    towers: tuple[Tower, ...]
    gates: tuple[int, ...]
    """Track numbers after which a gate sits in the wall (Sokół)."""

    @property
    def stride(self) -> int:
        return self.width + 2

    @property
    def cell_count(self) -> int:
        return (self.width + 2) * (self.height + 2)

    @property
    def offsets(self) -> tuple[int, int, int, int]:
        w = self.stride
        return (w, 1, -w, -1)

    def cell(self, x: int, y: int) -> int:
        return (y + 1) * self.stride + (x + 1)

    def xy(self, cell: int) -> tuple[int, int]:
        y, x = divmod(cell, self.stride)
        return x - 1, y - 1

    def name_of(self, cell: int) -> str:
        return space_name(*self.xy(cell))

    def cell_of(self, name: str) -> int:
        """Return the cell of an interior space name; raise ValueError for others."""
        x, y = parse_space(name)
        if 0 <= x < self.width and 0 <= y < self.height:
            cell = self.cell(x, y)
            if cell in self._interior_set:
                return cell
        raise ValueError(f"{name} is not a space inside the castle")

    @property
    def _interior_set(self) -> frozenset[int]:
        return frozenset(self.interior)


# What a cell holds.
WALL: Final = 0
EMPTY: Final = 1
TAKEN: Final = 2


BOARDS: Final = (1, 2)
"""Revisions of the reconstructed castles. Board 2 puts a tower on 56/57 (the Zamek rulebook's example);
board 1, the first design, stays so that games saved on it replay exactly."""
CURRENT_BOARD: Final = 2


def is_corner(point: tuple[int, int], inside: set[tuple[int, int]]) -> bool:
    """Return whether a lattice point is a corner of the outline of ``inside``."""
    px, py = point
    around = [(px - 1, py - 1), (px, py - 1), (px - 1, py), (px, py)]
    filled = [c in inside for c in around]
    count = sum(filled)
    return count in (1, 3) or (count == 2 and filled[0] == filled[3])


def wall_corners(inside: set[tuple[int, int]], start: tuple[int, int]) -> list[tuple[int, int]]:
    """Return the corners of the outline of ``inside`` (spaces as (x, y)), clockwise from the corner ``start``.

    Corners are lattice points (x from 0 at column a's west side, y from 0 at row 1's south side).
    """
    following: dict[tuple[int, int], tuple[int, int]] = {}
    for x, y in inside:
        if (x - 1, y) not in inside:
            following[(x, y)] = (x, y + 1)
        if (x, y + 1) not in inside:
            following[(x, y + 1)] = (x + 1, y + 1)
        if (x + 1, y) not in inside:
            following[(x + 1, y + 1)] = (x + 1, y)
        if (x, y - 1) not in inside:
            following[(x + 1, y)] = (x, y)
    points = [start]
    point = following[start]
    while point != start:
        points.append(point)
        point = following[point]
    corners = []
    for i, p in enumerate(points):
        a, b = points[i - 1], points[(i + 1) % len(points)]
        if (p[0] - a[0], p[1] - a[1]) != (b[0] - p[0], b[1] - p[1]):
            corners.append(p)
    return corners
