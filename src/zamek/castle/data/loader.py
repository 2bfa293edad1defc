"""The data files: reading and checking the TOML tile sets and castles, and the rules of a setup.

The rules core (:mod:`zamek.castle.rules`) reads no files: this module turns the data files shipped in
``zamek/castle/data`` into the plain values the core plays with, refusing a file that breaks the data model
with a :class:`~zamek.castle.rules.errors.DataError` that names the tile or space and the problem.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from importlib import resources
from itertools import combinations
from typing import Any, Final

from zamek.castle.rules.board import (
    BOARDS,
    CURRENT_BOARD,
    TRACK_LENGTH,
    CastleDef,
    StartSpace,
    Tower,
    is_corner,
    wall_corners,
)
from zamek.castle.rules.errors import DataError
from zamek.castle.rules.geometry import MIDDLE_SEGMENTS, SEGMENTS, SIDE_OFFSETS, Side, parse_space, side_segments
from zamek.castle.rules.position import Position
from zamek.castle.rules.setup import Rules, Setup, make_rules
from zamek.castle.rules.state import GameState
from zamek.castle.rules.tiles import (
    NEST_KINDS,
    FeatureDef,
    FeatureKind,
    TileDef,
    TileSet,
    check_distinct,
    merge_tilesets,
    orientations_of,
)

# ------------------------------------------------------------------------------------------- tiles

_FEATURE_KEYS: Final = frozenset({"kind", "segments", "stocks", "shrines", "nests"})
_TILE_KEYS: Final = frozenset({"id", "fountain", "features"})


def _as_count(value: Any, what: str, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise DataError(f"{where}: {what} must be a whole number >= 0, not {value!r}")
    return value


def parse_feature(raw: Any, where: str, *, allowed_segments: frozenset[int] | None = None) -> FeatureDef:
    """Parse and check one feature table."""
    if not isinstance(raw, dict):
        raise DataError(f"{where}: a feature must be a table like {{kind = \"road\", segments = [1, 7]}}")
    unknown = set(raw) - _FEATURE_KEYS
    if unknown:
        raise DataError(f"{where}: unknown feature field(s) {sorted(unknown)}")
    if "kind" not in raw or "segments" not in raw:
        raise DataError(f"{where}: a feature needs 'kind' and 'segments'")
    try:
        kind = FeatureKind.from_key(str(raw["kind"]))
    except DataError as exc:
        raise DataError(f"{where}: {exc}") from None
    segments = raw["segments"]
    if not isinstance(segments, list) or not segments:
        raise DataError(f"{where}: {kind.key} needs a non-empty list of segments")
    valid = allowed_segments if allowed_segments is not None else frozenset(range(SEGMENTS))
    for s in segments:
        if not isinstance(s, int) or isinstance(s, bool) or s not in valid:
            raise DataError(f"{where}: {kind.key} has segment {s!r}; segments are {sorted(valid)}")
    feature = FeatureDef(
        kind=kind,
        segments=tuple(segments),
        stocks=_as_count(raw.get("stocks", 0), "stocks", where),
        shrines=_as_count(raw.get("shrines", 0), "shrines", where),
        nests=_as_count(raw.get("nests", 0), "nests", where),
    )
    if kind is FeatureKind.ROAD and any(s not in MIDDLE_SEGMENTS for s in feature.segments):
        raise DataError(f"{where}: a road may only use middle segments {MIDDLE_SEGMENTS}, not {list(feature.segments)}")
    if feature.stocks and kind is not FeatureKind.ROAD:
        raise DataError(f"{where}: stocks must stand beside a road, not on a {kind.key}")
    if feature.shrines and kind is not FeatureKind.MEADOW:
        raise DataError(f"{where}: shrines must stand on a meadow, not on a {kind.key}")
    if feature.nests and kind not in NEST_KINDS:
        raise DataError(f"{where}: falcon nests belong to a house, pigsty, road or chapel, not a {kind.key}")
    return feature


def _crossing(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Return True when two features interleave around the tile edge (not drawable)."""
    marks = sorted([(s, 0) for s in a] + [(s, 1) for s in b])
    changes = sum(1 for (_, x), (_, y) in zip(marks, marks[1:] + marks[:1], strict=True) if x != y)
    return changes > 2


def parse_tile(raw: Any, index: int, allowed_kinds: frozenset[FeatureKind]) -> TileDef:
    """Parse and validate one tile table."""
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
        raise DataError(f"tile #{index + 1}: every tile needs an 'id' string")
    tile_id = raw["id"]
    unknown = set(raw) - _TILE_KEYS
    if unknown:
        raise DataError(f"tile {tile_id}: unknown field(s) {sorted(unknown)}")
    fountain = raw.get("fountain", False)
    if not isinstance(fountain, bool):
        raise DataError(f"tile {tile_id}: 'fountain' must be true or false")
    raw_features = raw.get("features")
    if not isinstance(raw_features, list) or not raw_features:
        raise DataError(f"tile {tile_id}: needs a non-empty 'features' list")
    features = tuple(
        parse_feature(f, f"tile {tile_id}, feature {i + 1}") for i, f in enumerate(raw_features)
    )
    for f in features:
        if f.kind not in allowed_kinds:
            raise DataError(f"tile {tile_id}: {f.kind.key} is not part of this tile set")
    seen: dict[int, int] = {}
    for i, f in enumerate(features):
        for s in f.segments:
            if s in seen:
                raise DataError(
                    f"tile {tile_id}: segment {s} belongs to feature {seen[s] + 1} and feature {i + 1}; "
                    "the segments must be partitioned into features"
                )
            seen[s] = i
    missing = sorted(set(range(SEGMENTS)) - set(seen))
    if missing:
        raise DataError(f"tile {tile_id}: segment(s) {missing} belong to no feature; every segment needs one")
    for (i, a), (j, b) in combinations(enumerate(features), 2):
        if _crossing(a.segments, b.segments):
            raise DataError(
                f"tile {tile_id}: features {i + 1} ({a.kind.key}) and {j + 1} ({b.kind.key}) cross each other, "
                "which cannot be drawn"
            )
    roads = [f for f in features if f.kind is FeatureKind.ROAD]
    has_building = any(f.kind.is_building for f in features)
    for f in roads:
        if len(f.segments) == 1 and not (fountain or has_building):
            raise DataError(
                f"tile {tile_id}: the road at segment {f.segments[0]} ends on the tile, "
                "so the tile needs a fountain or a building for it to end at"
            )
    if fountain:
        arms = [f for f in roads if len(f.segments) == 1]
        if len(arms) < 3 or len(arms) != len(roads):
            raise DataError(f"tile {tile_id}: a fountain splits 3 or 4 road arms of one segment each")
    return TileDef(tile_id, index, features, fountain, orientations_of(features))


def parse_tileset(text: str, name: str, allowed_kinds: frozenset[FeatureKind] | None = None) -> TileSet:
    """Parse and validate a tile-set TOML document."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"tile set {name}: not valid TOML: {exc}") from None
    raw_tiles = doc.get("tile")
    if not isinstance(raw_tiles, list) or not raw_tiles:
        raise DataError(f"tile set {name}: no [[tile]] entries")
    kinds = allowed_kinds if allowed_kinds is not None else frozenset(FeatureKind)
    tiles = tuple(parse_tile(raw, i, kinds) for i, raw in enumerate(raw_tiles))
    return check_distinct(TileSet(name, tiles))


_BASE_KINDS: Final = frozenset(FeatureKind) - {FeatureKind.CHAPEL}

TILESET_FILES: Final = {
    "zamek": ("zamek_tiles.toml", _BASE_KINDS),
    "sokol": ("sokol_tiles.toml", frozenset(FeatureKind)),
}


def load_tileset(name: str) -> TileSet:
    """Load a tile set shipped with the package (``zamek`` or ``sokol``)."""
    try:
        filename, kinds = TILESET_FILES[name]
    except KeyError:
        raise DataError(f"unknown tile set {name!r} (known: {', '.join(TILESET_FILES)})") from None
    text = resources.files("zamek.castle.data").joinpath(filename).read_text(encoding="utf-8")
    return parse_tileset(text, name, kinds)


# ------------------------------------------------------------------------------------------ castles

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
        if not (isinstance(corner, list) and len(corner) == 2) or not is_corner((corner[0], corner[1]), inside):
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
    text = resources.files("zamek.castle.data").joinpath(filename).read_text(encoding="utf-8")
    return parse_castle(text, name)


# -------------------------------------------------------------------------------------------- rules

def load_rules(setup: Setup) -> Rules:
    """Return the castle and tiles for a setup."""
    if setup.sokol:
        tiles = merge_tilesets("zamek+sokol", load_tileset("zamek"), load_tileset("sokol"))
        return make_rules(load_castle("sokol", setup.board), tiles, setup)
    return make_rules(load_castle("zamek", setup.board), load_tileset("zamek"), setup)


_RULES_CACHE: dict[Setup, Rules] = {}


def rules_for(setup: Setup) -> Rules:
    """Return the (cached, immutable) rules for a setup."""
    key = replace(setup, first_player=0, draw_order=None)
    if key not in _RULES_CACHE:
        _RULES_CACHE[key] = load_rules(key)
    return _RULES_CACHE[key]


def new_game(setup: Setup | None = None) -> GameState:
    """Return a new game of ``setup`` (the default game when None), played with the rules of the data files."""
    setup = setup or Setup()
    return GameState.new(setup, rules_for(setup))


def read_position(text: str) -> Position:
    """Read a position of the shipped castle and tiles from its text (``Position.parse``)."""
    return Position.parse(text, rules_for)


def position_state(position: Position | str) -> GameState:
    """Return a playable state of a position (or its text) in the shipped castle and tiles."""
    if isinstance(position, str):
        position = read_position(position)
    return position.to_state(rules_for)
