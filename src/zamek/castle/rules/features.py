"""The feature view: a position's features (regions) and spaces as small read-only values.

Code outside the core reads a position through these methods, never through the state's arrays: a
``FeatureView`` says what a feature is, how big, how open, who stands on it and who controls it.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from zamek.castle.rules.board import EMPTY
from zamek.castle.rules.geometry import side_segments
from zamek.castle.rules.regions import Regions
from zamek.castle.rules.tiles import FeatureKind, TileDef


class FeatureView(NamedTuple):
    """One feature of the position as it stands (a region joined across tiles and start spaces)."""

    id: int
    """Identifies the feature in this position (it may change when a later tile joins it to another)."""
    kind: FeatureKind
    tiles: int
    """Distinct tiles and start spaces it covers (Z14)."""
    cells: int
    """Bit mask of the cells it covers."""
    open_edges: int
    """Edge segments that face an empty space: 0 when it is complete (Z12)."""
    followers: tuple[int, int]
    """Figures of each player on it (a prince or a falconer counts once, F3)."""
    princes: int
    """Bit ``p`` set when player ``p``'s prince stands on it (F4)."""
    falconers: int
    """Bit ``p`` set when player ``p``'s falconer stands on it (F5)."""
    stocks: int
    shrines: int
    nests: int
    controller: int | None
    """The player with more figures on it, or None on a tie or when empty (Z13)."""

    @property
    def complete(self) -> bool:
        return self.open_edges == 0

    @property
    def occupied(self) -> bool:
        return self.followers[0] + self.followers[1] > 0

    def prince_of(self, player: int) -> bool:
        """Whether ``player``'s prince stands on it (it doubles their points, F4)."""
        return bool(self.princes >> player & 1)

    def falconer_of(self, player: int) -> bool:
        return bool(self.falconers >> player & 1)

    def cell_list(self) -> list[int]:
        """The cells it covers, in increasing order."""
        bits, result = self.cells, []
        while bits:
            low = bits & -bits
            bits ^= low
            result.append(low.bit_length() - 1)
        return result


_NEW_VIEW: Final = tuple.__new__


class Features(Regions):
    """Reading features and spaces: the public view of the regions."""

    __slots__ = ()

    def feature(self, node: int) -> FeatureView:
        """Return the feature holding ``node`` (a feature id, or any node of the region)."""
        return self._view(self.find(node))

    def _view(self, root: int) -> FeatureView:
        a, b = self.fol0[root], self.fol1[root]
        cells = self.cells[root]
        # tuple.__new__ skips the keyword handling of FeatureView(...): the bots read views in their inner loop.
        return _NEW_VIEW(FeatureView, (
            root, self.kind[root], cells.bit_count(), cells, self.open[root], (a, b), self.prince[root],
            self.falconer[root], self.stocks[root], self.shrines[root], self.region_nests[root],
            0 if a > b else 1 if b > a else None,  # Z13, as regions.majority
        ))

    def place_key(self, node: int) -> tuple[int, int, int]:
        """A key that orders features by where they lie: the spaces they cover, then the first tile part.

        It depends on the position only, never on the order the tiles came in (node numbers do), so a
        position rebuilt from text breaks ties between features the same way (two meadows either side of
        a road may cover the same spaces: their first parts differ).
        """
        root = self.find(node)
        cells = self.cells[root]
        bits = cells
        while bits:
            low = bits & -bits
            bits ^= low
            cell = low.bit_length() - 1
            base = self.cell_node[cell]
            for part in range(max(self.cell_table[cell]) + 1):
                if self.find(base + part) == root:
                    return cells, cell, part
        return cells, -1, -1

    def completed_features(self) -> list[FeatureView]:
        """The roads, houses, pigsties and chapels the tile just placed completed (Z12), scored or not."""
        return [self.feature(root) for root in self.completed]

    def feature_at(self, space: str | int, part: int) -> FeatureView:
        """Return the feature that part ``part`` of the tile (or start space) on ``space`` belongs to.

        ``space`` is a space name (``e10``) or a cell; ``part`` is the tile's feature index.
        """
        cell = self.castle.cell_of(space) if isinstance(space, str) else space
        if self.cell_node[cell] < 0:
            raise ValueError(f"{self.castle.name_of(cell)} holds no tile")
        return self.feature(self.cell_node[cell] + part)

    def features(self) -> list[FeatureView]:
        """Every feature of the position, in the order they were made."""
        return [self.feature(n) for n, p in enumerate(self.parent) if n == p]

    def occupied_features(self) -> list[FeatureView]:
        """The features with at least one figure on them, each once, in the order the figures came."""
        seen: set[int] = set()
        result = []
        find = self.find
        fol0, fol1, cells, kind, open_edges = self.fol0, self.fol1, self.cells, self.kind, self.open
        for follower in self.followers:
            root = find(follower.node)
            if root in seen:
                continue
            seen.add(root)
            a, b = fol0[root], fol1[root]
            mask = cells[root]
            result.append(_NEW_VIEW(FeatureView, (  # as _view, inlined: this is the bots' inner loop
                root, kind[root], mask.bit_count(), mask, open_edges[root], (a, b), self.prince[root],
                self.falconer[root], self.stocks[root], self.shrines[root], self.region_nests[root],
                0 if a > b else 1 if b > a else None,
            )))
        return result

    def frontier(self, feature: FeatureView) -> set[int]:
        """Return the empty cells that the open edges of ``feature`` face."""
        result: set[int] = set()
        status = self.status
        offsets = self.castle.offsets
        root = feature.id
        inward = self.rules.start_inward_side
        for cell in feature.cell_list():
            base = self.cell_node[cell]
            table = self.cell_table[cell]
            sides = (inward[cell],) if inward[cell] >= 0 else range(4)
            for side in sides:
                neighbour = cell + offsets[side]
                if status[neighbour] != EMPTY:
                    continue
                for s in side_segments(side):
                    if table[s] >= 0 and self.find(base + table[s]) == root:
                        result.add(neighbour)
                        break
        return result

    def is_empty(self, cell: int) -> bool:
        """Whether ``cell`` is a space inside the castle with no tile yet."""
        return self.status[cell] == EMPTY

    def space_needs(self, cell: int) -> tuple[int, int]:
        """Return (sides that touch a tile or start space, those of them with a road) of an empty space (Z7)."""
        return self.need_mask[cell], self.need_road[cell]

    def tile_on(self, cell: int) -> tuple[TileDef, int] | None:
        """Return the tile placed on ``cell`` and its rotation, or None (also for a start space)."""
        for placed, tile, rotation in self.placements:
            if placed == cell:
                return self.tiles.tiles[tile], rotation
        return None

    def segment_parts(self, cell: int) -> tuple[int, ...]:
        """Return, for each of the 12 segments of a tile or start space (board-oriented), its part index (-1: wall)."""
        return self.cell_table[cell]
