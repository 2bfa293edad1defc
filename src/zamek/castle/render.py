"""ASCII pictures of tiles and of the castle, for the terminal and for tests.

A tile is drawn as a 5x5 block: its 12 edge segments run clockwise around the
border from the north side's west end, the middle shows a fountain (``o``) or a
road crossing (``+``). Letters: ``=`` road, ``H`` house, ``P`` pigsty, ``.`` meadow,
``C`` chapel. A follower shows as the player's number (1 or 2) on its feature.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zamek.castle.rules.tiles import FeatureDef, FeatureKind, TileDef

if TYPE_CHECKING:
    from zamek.castle.rules.state import GameState

SYMBOL = {
    FeatureKind.ROAD: "=",
    FeatureKind.HOUSE: "H",
    FeatureKind.PIGSTY: "P",
    FeatureKind.MEADOW: ".",
    FeatureKind.CHAPEL: "C",
}
ROAD_VERTICAL = "|"

# (row, column) of each segment in a 5x5 block; row 0 is north.
SEGMENT_CELLS = (
    (0, 1), (0, 2), (0, 3),
    (1, 4), (2, 4), (3, 4),
    (4, 3), (4, 2), (4, 1),
    (3, 0), (2, 0), (1, 0),
)
# The inner cell next to each segment, where a follower on its feature is drawn.
INNER_CELLS = (
    (1, 1), (1, 2), (1, 3),
    (1, 3), (2, 3), (3, 3),
    (3, 3), (3, 2), (3, 1),
    (3, 1), (2, 1), (1, 1),
)
CORNERS = {(0, 0): (11, 0), (0, 4): (2, 3), (4, 4): (5, 6), (4, 0): (8, 9)}


def _symbol(feature: FeatureDef, segment: int) -> str:
    if feature.kind is FeatureKind.ROAD and segment in (1, 7):
        return ROAD_VERTICAL
    return SYMBOL[feature.kind]


def tile_block(
    features: tuple[FeatureDef, ...],
    table: tuple[int, ...],
    fountain: bool = False,
    marks: dict[int, str] | None = None,
) -> list[str]:
    """Return the 5x5 block of a tile whose segment ``s`` belongs to ``features[table[s]]``.

    ``marks`` maps a local feature index to a character drawn on it (a follower).
    """
    grid = [[" "] * 5 for _ in range(5)]
    for s, (r, c) in enumerate(SEGMENT_CELLS):
        f = table[s]
        grid[r][c] = " " if f < 0 else _symbol(features[f], s)
    for (r, c), (a, b) in CORNERS.items():
        fa, fb = table[a], table[b]
        if fa >= 0 and fa == fb:
            grid[r][c] = SYMBOL[features[fa].kind] if features[fa].kind is not FeatureKind.ROAD else "."
        elif fa >= 0 or fb >= 0:
            grid[r][c] = "+"
    # Inner ring: each inner cell copies the feature of the edge segment next to it.
    inner = {(1, 1): 0, (1, 2): 1, (1, 3): 2, (2, 3): 4, (3, 3): 6, (3, 2): 7, (3, 1): 8, (2, 1): 10}
    for (r, c), s in inner.items():
        f = table[s]
        if f >= 0:
            feat = features[f]
            grid[r][c] = _symbol(feat, s) if feat.kind is FeatureKind.ROAD and s in (1, 4, 7, 10) else SYMBOL[feat.kind]
            if feat.kind is FeatureKind.ROAD and s not in (1, 4, 7, 10):
                grid[r][c] = "."
    if table[0] >= 0 or table[6] >= 0:
        roads = [f for f in features if f.kind is FeatureKind.ROAD]
        if fountain:
            grid[2][2] = "o"
        elif any(len(f.segments) >= 3 for f in roads):
            grid[2][2] = "+"
        elif any(len(f.segments) == 2 for f in roads):
            road = next(f for f in roads if len(f.segments) == 2)
            turned = {s for s in range(12) if table[s] >= 0 and features[table[s]] is road}
            grid[2][2] = "|" if turned == {1, 7} else "=" if turned == {4, 10} else "+"
        else:
            counts: dict[str, int] = {}
            for s in range(12):
                sym = SYMBOL[features[table[s]].kind]
                if sym != "=":
                    counts[sym] = counts.get(sym, 0) + 1
            grid[2][2] = max(counts, key=lambda k: counts[k]) if counts else "."
    for index, char in (marks or {}).items():
        segment = table.index(index)
        r, c = INNER_CELLS[segment]
        grid[r][c] = char
    return ["".join(row) for row in grid]


def extras_text(tile: TileDef) -> str:
    """Return a short list of the tile's extras (stocks, shrines, nests, fountain)."""
    parts = []
    if tile.fountain:
        parts.append("fountain")
    if tile.stocks:
        parts.append(f"stocks x{tile.stocks}")
    if tile.shrines:
        parts.append(f"shrine x{tile.shrines}")
    if tile.nests:
        parts.append(f"nest x{tile.nests}")
    return ", ".join(parts)


def render_tile(tile: TileDef, rotation: int = 0) -> str:
    """Return a tile as text: its block and a list of its features."""
    block = tile_block(tile.features, tile.orientations[rotation].segment_feature, tile.fountain)
    lines = [f"{tile.id}  {extras_text(tile)}".rstrip()]
    lines += ["  " + row for row in block]
    for i, f in enumerate(tile.features):
        extra = []
        if f.stocks:
            extra.append("stocks")
        if f.shrines:
            extra.append(f"{f.shrines} shrine")
        if f.nests:
            extra.append(f"{f.nests} nest")
        extra_text = f" ({', '.join(extra)})" if extra else ""
        lines.append(f"  {i}: {f.kind.key} on segments {list(f.segments)}{extra_text}")
    return "\n".join(lines)


def render_castle(state: GameState) -> str:
    """Return the castle of a game as text: tiles, start spaces, followers and empty spaces."""
    castle = state.castle
    starts = {s.cell: s for s in castle.starts}
    interior = set(castle.interior)
    marks: dict[int, dict[int, str]] = {}
    for f in state.followers:
        marks.setdefault(f.cell, {})[f.feature] = str(f.player + 1)
    lines = []
    header = " " * 9 + "".join(f"  {chr(ord('a') + x)}  " for x in range(castle.width))
    lines.append(header)
    for y in range(castle.height, -2, -1):
        rows = [""] * 5
        for x in range(-1, castle.width + 1):
            cell = castle.cell(x, y)
            placed = state.tile_on(cell)
            if cell in starts:
                start = starts[cell]
                block = tile_block(start.features, state.segment_parts(cell), False, marks.get(cell))
            elif cell not in interior:
                block = ["     "] * 5
            elif placed is None:
                block = ["     ", "     ", "  ·  ", "     ", "     "]
            else:
                tile = placed[0]
                block = tile_block(tile.features, state.segment_parts(cell), tile.fountain, marks.get(cell))
            for r in range(5):
                rows[r] += block[r]
        label = f"{y + 1:>3} " if 0 <= y < castle.height else "    "
        if any(row.strip() for row in rows):
            for r in range(5):
                lines.append((label if r == 2 else "    ") + rows[r].rstrip())
    return "\n".join(lines)
