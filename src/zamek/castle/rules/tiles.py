"""Tiles: the data model, per-rotation tables, and the checks that tiles differ.

A tile is a set of *features*; every one of its 12 edge segments (see
:mod:`zamek.castle.rules.geometry`) belongs to exactly one feature. Tile sets are read from TOML data files
by :mod:`zamek.castle.data.loader`; this module holds only plain values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final

from zamek.castle.rules.errors import DataError
from zamek.castle.rules.geometry import MIDDLE_SEGMENTS, SEGMENTS, rotate_segment


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


def orientations_of(features: tuple[FeatureDef, ...]) -> tuple[Orientation, ...]:
    """Return the four turned lookup tables of a tile's features."""
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
