"""Regions: features joined across tiles, by union-find over the state's flat arrays (Z10-Z13)."""

from __future__ import annotations

from zamek.castle.rules.fields import StateFields
from zamek.castle.rules.tiles import FeatureKind


def majority(counts: tuple[int, int]) -> int | None:
    """Return the player with more followers, or None on a tie (Z13)."""
    if counts[0] > counts[1]:
        return 0
    if counts[1] > counts[0]:
        return 1
    return None


class Regions(StateFields):
    """Making, joining and reading regions."""

    __slots__ = ()

    def _add_node(self, kind: FeatureKind, cells: int, stocks: int, shrines: int, nests: int) -> int:
        node = len(self.parent)
        self.parent.append(node)
        self.kind.append(kind)
        self.open.append(0)
        self.cells.append(cells)
        self.fol0.append(0)
        self.fol1.append(0)
        self.prince.append(0)
        self.falconer.append(0)
        self.stocks.append(stocks)
        self.shrines.append(shrines)
        self.region_nests.append(nests)
        return node

    def find(self, node: int) -> int:
        """Return the root of a node's region."""
        parent = self.parent
        root = node
        while parent[root] != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    def _union(self, a: int, b: int) -> int:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        if rb < ra:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.open[ra] += self.open[rb]
        self.cells[ra] |= self.cells[rb]
        self.fol0[ra] += self.fol0[rb]
        self.fol1[ra] += self.fol1[rb]
        self.prince[ra] |= self.prince[rb]
        self.falconer[ra] |= self.falconer[rb]
        self.stocks[ra] += self.stocks[rb]
        self.shrines[ra] += self.shrines[rb]
        self.region_nests[ra] += self.region_nests[rb]
        return ra

    def region_of(self, cell: int, feature: int) -> int:
        """Return the root node of the region holding a feature of a placed tile or start space."""
        return self.find(self.cell_node[cell] + feature)

    def region_tiles(self, root: int) -> int:
        """Return the number of distinct tiles and start spaces a region covers (Z14)."""
        return self.cells[root].bit_count()

    def region_followers(self, root: int) -> tuple[int, int]:
        return self.fol0[root], self.fol1[root]

    def region_owner(self, root: int) -> int | None:
        """Return the player with more followers on a region, or None (Z13; F3 counts each figure once)."""
        return majority((self.fol0[root], self.fol1[root]))

    def roots(self) -> list[int]:
        """Return every region's root, in creation order."""
        return [n for n, p in enumerate(self.parent) if n == p]
