"""Drawing geometry of a castle and its tiles for the browser: the answer of ``/api/geometry`` and its models.

Coordinates are the castle's lattice: x from 0 at column a's west side, y from 0 at row 1's south
side (y grows to the north, as in the data files); a space (x, y) is the unit square from (x, y) to
(x + 1, y + 1). The browser flips y to draw.

The wall is traced as the outline of the interior spaces, clockwise from the tower that holds the
track's 0. The score track runs along a line just outside that outline: each tower sits on its
corner with its two numbers, the numbers between two towers (and Sokół's gates) are spread evenly
along the wall between them. Spaces are named (``e10``, start spaces ``S5``) as in the game views.
"""

from __future__ import annotations

import math
from typing import Final

from zamek.castle.rules.board import TRACK_LENGTH, CastleDef, wall_corners
from zamek.castle.rules.setup import ROLES, Rules
from zamek.castle.rules.tiles import FeatureDef, TileDef
from zamek.server.schemas import Answer, Space

Point = tuple[float, float]

TRACK_OFFSET: Final = 0.55
"""Distance of the track's line from the outline of the interior (start spaces fill the first half)."""
WALL_WIDTH: Final = 0.9
START_DEPTH: Final = 0.34
"""How deep a start space is drawn into the wall (a half tile, drawn thinner to leave room for the track)."""
TOWER_SPREAD: Final = 0.2
"""How far a tower's two numbers sit from its corner along the track."""


# ------------------------------------------------------------- the answer


class TrackSpace(Answer):
    n: int
    x: float
    y: float
    angle: int
    size: float


class GateGeometry(Answer):
    x: float
    y: float
    angle: int
    size: float


class TowerGeometry(Answer):
    index: int
    track: list[int]
    x: float
    y: float


class WallGeometry(Answer):
    outline: list[list[int]]
    """The corners of the interior's outline, clockwise."""
    outer: list[list[float]]
    track: list[TrackSpace]
    towers: list[TowerGeometry]
    gates: list[GateGeometry]
    start_depth: float
    track_offset: float


class FeatureGeometry(Answer):
    kind: str
    role: str
    segments: list[int]
    stocks: int
    shrines: int
    nests: int


class TileGeometry(Answer):
    id: str
    fountain: bool
    features: list[FeatureGeometry]


class SpaceGeometry(Answer):
    name: Space
    x: int
    y: int


class StartGeometry(Answer):
    id: Space
    x: int
    y: int
    side: int
    features: list[FeatureGeometry]


class Geometry(Answer):
    """A castle and its tiles as drawing data: lattice coordinates, x east and y north from the south-west corner."""

    name: str
    width: int
    height: int
    spaces: list[SpaceGeometry]
    starts: list[StartGeometry]
    wall: WallGeometry
    tiles: list[TileGeometry]


# ------------------------------------------------------------- the drawing


def outline(castle: CastleDef) -> list[tuple[int, int]]:
    """Return the corners of the interior's outline, clockwise, starting at the first tower's corner."""
    return wall_corners({castle.xy(c) for c in castle.interior}, castle.towers[0].corner)


def offset_polygon(corners: list[tuple[int, int]], distance: float) -> list[Point]:
    """Return a clockwise rectilinear polygon moved ``distance`` outwards (negative: inwards)."""
    result = []
    n = len(corners)
    for i, p in enumerate(corners):
        a, b = corners[i - 1], corners[(i + 1) % n]
        d1 = (_sign(p[0] - a[0]), _sign(p[1] - a[1]))
        d2 = (_sign(b[0] - p[0]), _sign(b[1] - p[1]))
        # Clockwise with y up: the inside is on the right, the outward normal on the left.
        n1 = (-d1[1], d1[0])
        n2 = (-d2[1], d2[0])
        result.append((p[0] + distance * (n1[0] + n2[0]), p[1] + distance * (n1[1] + n2[1])))
    return result


def _sign(v: float) -> int:
    return (v > 0) - (v < 0)


class _Path:
    """A closed polyline measured by length."""

    def __init__(self, points: list[Point]) -> None:
        self.points = points
        self.starts: list[float] = []
        total = 0.0
        for i, p in enumerate(points):
            self.starts.append(total)
            q = points[(i + 1) % len(points)]
            total += math.dist(p, q)
        self.length = total

    def at(self, s: float) -> tuple[Point, Point]:
        """Return the point at length ``s`` along the path and the direction there."""
        s %= self.length
        i = max(k for k, start in enumerate(self.starts) if start <= s)
        p = self.points[i]
        q = self.points[(i + 1) % len(self.points)]
        seg = math.dist(p, q)
        t = (s - self.starts[i]) / seg
        direction = ((q[0] - p[0]) / seg, (q[1] - p[1]) / seg)
        return (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])), direction


def track_layout(castle: CastleDef) -> WallGeometry:
    """Return the wall and score-track geometry of a castle."""
    corners = outline(castle)
    track_line = offset_polygon(corners, TRACK_OFFSET)
    path = _Path(track_line)
    corner_index = {c: i for i, c in enumerate(corners)}
    tower_s = [path.starts[corner_index[t.corner]] for t in castle.towers]
    spaces: list[TrackSpace] = []
    gates: list[GateGeometry] = []
    towers: list[TowerGeometry] = []
    gate_set = set(castle.gates)

    def place(number: int | None, s: float, size: float) -> None:
        (x, y), (dx, dy) = path.at(s)
        angle = round(math.degrees(math.atan2(dy, dx)))
        if number is None:
            gates.append(GateGeometry(x=round(x, 3), y=round(y, 3), angle=angle, size=round(size, 3)))
        else:
            spaces.append(TrackSpace(n=number, x=round(x, 3), y=round(y, 3), angle=angle, size=round(size, 3)))

    count = len(castle.towers)
    for i, tower in enumerate(castle.towers):
        s0 = tower_s[i]
        (x, y), _ = path.at(s0)
        towers.append(TowerGeometry(index=tower.index, track=list(tower.track), x=round(x, 3), y=round(y, 3)))
        place(tower.track[0], s0 - TOWER_SPREAD, 0.3)
        place(tower.track[1], s0 + TOWER_SPREAD, 0.3)
        nxt = castle.towers[(i + 1) % count]
        s1 = tower_s[(i + 1) % count]
        if s1 <= s0:
            s1 += path.length
        slots: list[int | None] = []
        number = tower.track[1]
        if number in gate_set:
            slots.append(None)
        end = nxt.track[0] if nxt.track[0] > number else nxt.track[0] + TRACK_LENGTH
        for n in range(number + 1, end):
            slots.append(n % TRACK_LENGTH)
            if n % TRACK_LENGTH in gate_set:
                slots.append(None)
        if not slots:
            continue
        # Even gaps from this tower's second number to the next tower's first.
        step = (s1 - s0 - 2 * TOWER_SPREAD) / (len(slots) + 1)
        size = min(0.34, step * 0.88)
        for k, slot in enumerate(slots, start=1):
            place(slot, s0 + TOWER_SPREAD + k * step, size)
    spaces.sort(key=lambda sp: sp.n)
    return WallGeometry(
        outline=[list(c) for c in corners],
        outer=[[round(x, 3), round(y, 3)] for x, y in offset_polygon(corners, WALL_WIDTH)],
        track=spaces,
        towers=towers,
        gates=gates,
        start_depth=START_DEPTH,
        track_offset=TRACK_OFFSET,
    )


def feature_json(feature: FeatureDef) -> FeatureGeometry:
    return FeatureGeometry(
        kind=feature.kind.key, role=ROLES[feature.kind], segments=list(feature.segments), stocks=feature.stocks,
        shrines=feature.shrines, nests=feature.nests,
    )


def tile_json(tile: TileDef) -> TileGeometry:
    return TileGeometry(id=tile.id, fountain=tile.fountain, features=[feature_json(f) for f in tile.features])


def geometry(rules: Rules) -> Geometry:
    """Return everything the browser needs to draw a rule set's castle and tiles (spaces by name, no cell numbers)."""
    castle = rules.castle
    return Geometry(
        name=castle.name,
        width=castle.width,
        height=castle.height,
        spaces=[
            SpaceGeometry(name=castle.name_of(c), x=castle.xy(c)[0], y=castle.xy(c)[1]) for c in castle.interior
        ],
        starts=[
            StartGeometry(
                id=s.id, x=castle.xy(s.cell)[0], y=castle.xy(s.cell)[1], side=int(s.side),
                features=[feature_json(f) for f in s.features],
            )
            for s in castle.starts
        ],
        wall=track_layout(castle),
        tiles=[tile_json(t) for t in rules.tiles.tiles],
    )
