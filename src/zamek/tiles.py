"""Tiles: the data model, loading and validation of tile sets, per-rotation tables.

A tile is a set of *features*; every one of its 12 edge segments (see
:mod:`zamek.geometry`) belongs to exactly one feature. Tile sets live in TOML data
files under ``zamek/data`` so that they can be corrected without touching code.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from enum import IntEnum
from importlib import resources
from itertools import combinations
from typing import Any, Final

from zamek.geometry import MIDDLE_SEGMENTS, SEGMENTS, rotate_segment


class DataError(ValueError):
    """A data file (tiles, castle, cards) breaks the data model."""


class FeatureKind(IntEnum):
    """What a feature is."""

    ROAD = 0
    HOUSE = 1
    PIGSTY = 2
    MEADOW = 3
    CHAPEL = 4

    @property
    def key(self) -> str:
        return self.name.lower()

    @property
    def is_building(self) -> bool:
        return self in (FeatureKind.HOUSE, FeatureKind.PIGSTY, FeatureKind.CHAPEL)

    @classmethod
    def from_key(cls, key: str) -> FeatureKind:
        try:
            return cls[key.upper()]
        except KeyError:
            known = ", ".join(k.key for k in cls)
            raise DataError(f"unknown feature kind {key!r} (known: {known})") from None


SCORED_KINDS: Final = frozenset({FeatureKind.ROAD, FeatureKind.HOUSE, FeatureKind.PIGSTY, FeatureKind.CHAPEL})
NEST_KINDS: Final = SCORED_KINDS


@dataclass(frozen=True, slots=True)
class FeatureDef:
    """One feature drawn on a tile (or a start space)."""

    kind: FeatureKind
    segments: tuple[int, ...]
    stocks: int = 0
    shrines: int = 0
    nests: int = 0


@dataclass(frozen=True, slots=True)
class Orientation:
    """A tile turned ``rotation`` quarter turns clockwise, as lookup tables."""

    rotation: int
    segment_feature: tuple[int, ...]
    """Local feature index at each board-oriented segment 0..11."""
    road_sides: int
    """Bit ``k`` set when side ``k`` has a road crossing its middle segment."""


@dataclass(frozen=True, slots=True)
class TileDef:
    """A tile of the game, with precomputed orientations."""

    id: str
    index: int
    features: tuple[FeatureDef, ...]
    fountain: bool = False
    orientations: tuple[Orientation, ...] = field(default=(), compare=False, repr=False)

    def has(self, kind: FeatureKind) -> bool:
        return any(f.kind is kind for f in self.features)

    @property
    def stocks(self) -> int:
        return sum(f.stocks for f in self.features)

    @property
    def shrines(self) -> int:
        return sum(f.shrines for f in self.features)

    @property
    def nests(self) -> int:
        return sum(f.nests for f in self.features)


@dataclass(frozen=True, slots=True)
class TileSet:
    """An ordered, validated collection of tiles."""

    name: str
    tiles: tuple[TileDef, ...]

    def __len__(self) -> int:
        return len(self.tiles)

    def by_id(self, tile_id: str) -> TileDef:
        for tile in self.tiles:
            if tile.id == tile_id:
                return tile
        raise KeyError(tile_id)

    def ids(self) -> tuple[str, ...]:
        return tuple(t.id for t in self.tiles)


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


def canonical_form(features: tuple[FeatureDef, ...], fountain: bool, rotation: int) -> tuple[object, ...]:
    """Return a comparable description of a tile turned ``rotation`` quarter turns."""
    owner = [0] * SEGMENTS
    for index, feature in enumerate(features):
        for s in feature.segments:
            owner[rotate_segment(s, rotation)] = index
    relabel: dict[int, int] = {}
    shape = []
    for s in range(SEGMENTS):
        f = owner[s]
        relabel.setdefault(f, len(relabel))
        feat = features[f]
        shape.append((relabel[f], feat.kind.value, feat.stocks, feat.shrines, feat.nests))
    return (fountain, tuple(shape))


def _orientations(features: tuple[FeatureDef, ...]) -> tuple[Orientation, ...]:
    result = []
    for rotation in range(4):
        seg_feature = [0] * SEGMENTS
        for index, feature in enumerate(features):
            for s in feature.segments:
                seg_feature[rotate_segment(s, rotation)] = index
        road_sides = 0
        for side, middle in enumerate(MIDDLE_SEGMENTS):
            if features[seg_feature[middle]].kind is FeatureKind.ROAD:
                road_sides |= 1 << side
        result.append(Orientation(rotation, tuple(seg_feature), road_sides))
    return tuple(result)


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
    return TileDef(tile_id, index, features, fountain, _orientations(features))


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


def check_distinct(tileset: TileSet) -> TileSet:
    """Raise when two tiles share an id or are equal under rotation."""
    ids: dict[str, TileDef] = {}
    forms: dict[tuple[object, ...], TileDef] = {}
    for tile in tileset.tiles:
        if tile.id in ids:
            raise DataError(f"tile {tile.id}: the id is used twice")
        ids[tile.id] = tile
        form = canonical_form(tile.features, tile.fountain, 0)
        other = forms.get(form)
        if other is not None:
            raise DataError(f"tile {tile.id}: equal to tile {other.id} under rotation; all tiles must differ")
        for rotation in range(4):
            forms.setdefault(canonical_form(tile.features, tile.fountain, rotation), tile)
    return tileset


def merge_tilesets(name: str, *sets: TileSet) -> TileSet:
    """Return one tile set holding all tiles of ``sets``, re-indexed."""
    tiles: list[TileDef] = []
    for ts in sets:
        for tile in ts.tiles:
            tiles.append(TileDef(tile.id, len(tiles), tile.features, tile.fountain, tile.orientations))
    return check_distinct(TileSet(name, tuple(tiles)))


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
    text = resources.files("zamek.data").joinpath(filename).read_text(encoding="utf-8")
    return parse_tileset(text, name, kinds)
