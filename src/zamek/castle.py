"""The castle: interior spaces, the wall with its score track, towers, gates and start spaces.

Castles are TOML data files under ``zamek/data``, validated when loaded. Cells are
numbered on a grid padded by one cell of wall on every side, so that each of a
space's four neighbours is a cell too (``cell + CastleDef.offsets[side]``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

from zamek.geometry import SIDE_OFFSETS, Side, parse_space, side_segments, space_name
from zamek.tiles import DataError, FeatureDef, FeatureKind, parse_feature

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


def _parse_rows(rows: Any, name: str) -> tuple[int, int, list[tuple[int, int]]]:
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise DataError(f"castle {name}: 'rows' must be a list of strings, north first")
    width = max(len(r) for r in rows)
    height = len(rows)
    spaces = []
    for line_no, row in enumerate(rows):
        y = height - 1 - line_no
        for x, ch in enumerate(row):
            if ch == ".":
                spaces.append((x, y))
            elif ch != " ":
                raise DataError(f"castle {name}: row {y + 1} has {ch!r}; use '.' for a space and ' ' for outside")
    return width, height, spaces


def _is_corner(point: tuple[int, int], inside: set[tuple[int, int]]) -> bool:
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


def parse_castle(text: str, name: str) -> CastleDef:
    """Parse and validate a castle TOML document."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"castle {name}: not valid TOML: {exc}") from None
    width, height, spaces = _parse_rows(doc.get("rows"), name)
    expected = doc.get("spaces")
    if expected is not None and expected != len(spaces):
        raise DataError(f"castle {name}: the rows show {len(spaces)} spaces but 'spaces' says {expected}")
    inside = set(spaces)
    stride = width + 2

    def cell(x: int, y: int) -> int:
        return (y + 1) * stride + (x + 1)

    towers = []
    previous = -1
    for i, raw in enumerate(doc.get("tower", [])):
        where = f"castle {name}, tower {i + 1}"
        track = raw.get("track")
        corner = raw.get("corner")
        if not (isinstance(track, list) and len(track) == 2 and all(isinstance(t, int) for t in track)):
            raise DataError(f"{where}: 'track' must be two track numbers")
        if track[1] != track[0] + 1 or not 0 <= track[0] < track[1] < TRACK_LENGTH or track[0] <= previous:
            raise DataError(f"{where}: track {track} must be two consecutive numbers 0-99, after the previous tower")
        previous = track[1]
        if not (isinstance(corner, list) and len(corner) == 2) or not _is_corner((corner[0], corner[1]), inside):
            raise DataError(f"{where}: corner {corner} is not a corner of the wall")
        towers.append(Tower(i, (track[0], track[1]), (corner[0], corner[1]), bool(raw.get("token", True))))
    if not towers:
        raise DataError(f"castle {name}: no towers")
    # A tower stands on every corner of the wall (2003: "na każdym narożniku murów z wieżą"), in track order.
    corners = wall_corners(inside, towers[0].corner)
    if [t.corner for t in towers] != corners:
        listed = ", ".join(f"[{x}, {y}]" for x, y in corners)
        raise DataError(
            f"castle {name}: the towers must stand on every corner of the wall, clockwise from the first "
            f"tower's: {listed}"
        )

    starts = []
    used_cells: dict[int, str] = {}
    for i, raw in enumerate(doc.get("start", [])):
        sid = raw.get("id", f"#{i + 1}")
        where = f"castle {name}, start space {sid}"
        try:
            fx, fy = parse_space(str(raw.get("faces", "")))
        except ValueError as exc:
            raise DataError(f"{where}: {exc}") from None
        if (fx, fy) not in inside:
            raise DataError(f"{where}: faces {raw.get('faces')}, which is not a space inside the castle")
        try:
            side = Side[str(raw.get("side", ""))]
        except KeyError:
            raise DataError(f"{where}: 'side' must be N, E, S or W") from None
        dx, dy = SIDE_OFFSETS[side]
        if (fx + dx, fy + dy) in inside:
            raise DataError(f"{where}: side {side.name} of {raw.get('faces')} is not on the wall")
        own_cell = cell(fx + dx, fy + dy)
        if own_cell in used_cells:
            raise DataError(f"{where}: sits where start space {used_cells[own_cell]} already is")
        used_cells[own_cell] = sid
        for ox, oy in SIDE_OFFSETS:
            if (fx + dx + ox, fy + dy + oy) in inside and (ox, oy) != (-dx, -dy):
                raise DataError(f"{where}: it would touch a second space inside the castle")
        raw_features = raw.get("features")
        if not isinstance(raw_features, list) or not raw_features:
            raise DataError(f"{where}: needs a 'features' list on its segments 0, 1, 2")
        local = [
            parse_feature(f, f"{where}, feature {j + 1}", allowed_segments=frozenset({0, 1, 2}))
            for j, f in enumerate(raw_features)
        ]
        covered = sorted(s for f in local for s in f.segments)
        if covered != [0, 1, 2]:
            raise DataError(f"{where}: its features must cover segments 0, 1, 2 once each, not {covered}")
        facing = side_segments(side.opposite)
        features = tuple(
            FeatureDef(f.kind, tuple(facing[s] for s in f.segments), f.stocks, f.shrines, f.nests) for f in local
        )
        if any(f.kind is FeatureKind.ROAD and len(f.segments) != 1 for f in local):
            raise DataError(f"{where}: a road on a start space uses the middle segment only")
        starts.append(StartSpace(sid, cell(fx, fy), side, own_cell, features))
    if not starts:
        raise DataError(f"castle {name}: no start spaces")

    gates = doc.get("gates", [])
    if not isinstance(gates, list) or not all(isinstance(g, int) and 0 <= g < TRACK_LENGTH for g in gates):
        raise DataError(f"castle {name}: 'gates' must list track numbers after which a gate sits")
    interior = tuple(sorted((cell(x, y) for x, y in spaces)))
    return CastleDef(name, width, height, interior, tuple(starts), tuple(towers), tuple(sorted(gates)))


BOARDS: Final = (1, 2)
"""Revisions of the reconstructed castles. Board 2 puts a tower on 56/57 (the Zamek rulebook's example);
board 1, the first design, stays so that games saved on it replay exactly."""
CURRENT_BOARD: Final = 2

CASTLE_FILES: Final = {
    ("zamek", 2): "zamek_castle.toml",
    ("sokol", 2): "sokol_castle.toml",
    ("zamek", 1): "zamek_castle_board1.toml",
    ("sokol", 1): "sokol_castle_board1.toml",
}


def load_castle(name: str, board: int = CURRENT_BOARD) -> CastleDef:
    """Load a castle shipped with the package (``zamek`` or ``sokol``), on the current board by default."""
    try:
        filename = CASTLE_FILES[(name, board)]
    except KeyError:
        known = ", ".join(sorted({n for n, _ in CASTLE_FILES}))
        raise DataError(f"unknown castle {name!r} on board {board} (castles: {known}; boards: {BOARDS})") from None
    text = resources.files("zamek.data").joinpath(filename).read_text(encoding="utf-8")
    return parse_castle(text, name)
