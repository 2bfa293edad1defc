"""What each number of an observation means: named index ranges, for both games.

An observation is one flat array. Its parts are listed here in order; ``docs/environment.md``'s tables are
``markdown()``'s output, and a test keeps the two equal and
checks the ranges against the compiled core's layout (``zamek_obs.h``) and against real positions.
"""

from __future__ import annotations

from typing import Final

from zamek.env.knights_spec import KNIGHTS
from zamek.env.layout import Layout, Part

CASTLE_SIDE: Final = 13
"""The castle planes' width and height: the largest castle (Sokół's, 11 x 11) and its wall around it."""
CASTLE_AREA: Final = CASTLE_SIDE * CASTLE_SIDE
MAX_TILES: Final = 128
"""Room for every tile index of a rule set (Zamek has 60 tiles, Sokół adds 18)."""
FEATURE_SIZE: Final = 10
"""Numbers that describe one feature of the tile placed last (``last_features``)."""
CASTLE_ACTIONS: Final = 1100
"""Player actions: the engine's stable indices (``zamek.castle.rules.actions``)."""
CASTLE_CHANCE_ACTIONS: Final = MAX_TILES + 10
"""The chance player's actions (``chance="explicit"``): draw tile t is t; reveal token kind k is 128 + k."""


_SIDES = ("N", "E", "S", "W")
_KINDS = ("road", "house", "pigsty", "meadow", "chapel")
_TOKENS = ("extra turn", "house x2", "pigsty x2", "meadow 4", "family +2", "5 points", "open house",
           "open pigsty", "open road")
_PHASES = ("draw", "place", "follower", "reveal", "over", "order", "double", "extra")

CASTLE: Final = Layout(
    planes=(
        Part("interior", 1, "an interior space of this castle (a tile may go there)"),
        Part("start", 1, "a start space on the wall"),
        Part("taken", 1, "a tile lies here, or a start space"),
        Part("frontier", 1, "an empty space beside a tile or start space"),
        Part("kind", 5, "a feature of this kind lies here", _KINDS),
        Part("needs_match", 4, "an empty space whose neighbour on this side is a tile or start space", _SIDES),
        Part("needs_road", 4, "...and that neighbour brings a road to this side", _SIDES),
        Part("figures", 6, "figures standing on this tile (counts)",
             ("my follower", "my prince", "my falconer", "their follower", "their prince", "their falconer")),
        Part("held", 3, "an occupied feature here (a meadow or one still to score too) has more of my figures, "
                        "more of theirs, or as many",
             ("mine", "theirs", "tied")),
        Part("stocks", 1, "stocks on this tile's features (count)"),
        Part("shrines", 1, "shrines on this tile's features (count)"),
        Part("nests", 1, "falcon nests on this tile's features (count)"),
        Part("family", 2, "a space of a family house", ("mine", "theirs")),
        Part("last", 1, "the tile placed last"),
        Part("queue", 1, "1 + the place in the scoring queue of a complete feature here still to score"),
        Part("open_edges", 3, "open edges of the unfinished feature of this kind here (the larger of two)",
             ("road", "house", "pigsty")),
        Part("feature_tiles", 3, "tiles of that unfinished feature", ("road", "house", "pigsty")),
    ),
    vector=(
        Part("score", 2, "points (the true total, past 99)", ("mine", "theirs")),
        Part("track", 2, "the marker's space on the score track (score mod 100)", ("mine", "theirs")),
        Part("supply", 2, "followers in the supply", ("mine", "theirs")),
        Part("princes", 2, "princes in the supply (Sokół)", ("mine", "theirs")),
        Part("falconers", 2, "falconers in the supply (Sokół)", ("mine", "theirs")),
        Part("on_gate", 2, "the marker stands on a gate (gate guard)", ("mine", "theirs")),
        Part("family_size", 2, "the family house's size in tiles", ("mine", "theirs")),
        Part("nests", 2, "falcon nests won (Sokół)", ("mine", "theirs")),
        Part("my_tokens", 9, "special tokens I hold, by kind 1..9", _TOKENS),
        Part("their_tokens", 9, "special tokens they hold, by kind", _TOKENS),
        Part("usable", 9, "tokens I may use now, by kind (0 unless I am to move)", _TOKENS),
        Part("towers", 16, "the tower (by index) still holds a face-down token"),
        Part("unrevealed", 9, "tokens of each kind not yet taken: on towers or in the box", _TOKENS),
        Part("phase", 8, "what the game waits for, one-hot", _PHASES),
        Part("my_turn", 1, "1 when I am to move"),
        Part("turn", 1, "the turn number, from 1"),
        Part("tiles_left", 1, "tiles left in the pile"),
        Part("drawn", MAX_TILES, "the tile to place, one-hot by tile index"),
        Part("pile", MAX_TILES, "1 for each tile still in the pile, by tile index (which, not their order)"),
        Part("last_rotation", 4, "the rotation of the tile placed last, one-hot"),
        Part("last_tile", MAX_TILES, "the tile placed last, one-hot by tile index"),
        Part("last_features", 12 * FEATURE_SIZE,
             f"for each feature f (0..11) of the tile placed last (the feature a Follower action names), "
             f"{FEATURE_SIZE} numbers from this part's start + {FEATURE_SIZE} f: its kind one-hot (road, house, "
             "pigsty, meadow, chapel), then the whole feature it is part of: tiles, open edges, my figures, their "
             "figures, complete (1/0); 0 past the tile's features"),
    ),
    area=CASTLE_AREA,
    dtype="int16",
)
"""The castle observation (``castle_v0``), the same for every rule set: a smaller castle leaves planes' outer
rows and columns empty, and tile indices above its count stay 0."""


def castle_square(place_action: int) -> tuple[int, int]:
    """The (row, column) of the castle planes where a Place action (0..1023) puts its tile."""
    if not 0 <= place_action < 1024:
        raise ValueError(f"{place_action} is not a Place action (0 to 1023)")
    square = place_action // 4
    x, y = square % 16, square // 16
    return y + 1, x + 1


def markdown() -> str:
    """The observation spec as the Markdown of ``docs/environment.md``'s tables."""
    lines: list[str] = []

    def table(layout: Layout, planes_title: str) -> None:
        start = 0
        if layout.planes:
            lines.append(f"### {planes_title}\n")
            lines.append("| indices | planes | name | meaning |")
            lines.append("|---|---|---|---|")
            plane = 0
            for part in layout.planes:
                stop = start + part.size * layout.area
                labels = f" ({', '.join(part.labels)})" if part.labels else ""
                planes = f"{plane}" if part.size == 1 else f"{plane}–{plane + part.size - 1}"
                lines.append(f"| {start}–{stop - 1} | {planes} | `{part.name}` | {part.meaning}{labels} |")
                start, plane = stop, plane + part.size
            lines.append("")
            lines.append("### Vector part\n")
        lines.append("| indices | size | name | meaning |")
        lines.append("|---|---|---|---|")
        for part in layout.vector:
            stop = start + part.size
            labels = f" ({', '.join(part.labels)})" if part.labels else ""
            lines.append(f"| {start}–{stop - 1} | {part.size} | `{part.name}` | {part.meaning}{labels} |")
            start = stop
        lines.append("")

    lines.append(f"## castle_v0: `observation`, {CASTLE.size} × {CASTLE.dtype}\n")
    lines.append(f"{CASTLE.plane_count} planes of {CASTLE_SIDE} × {CASTLE_SIDE} (row = y + 1, column = x + 1, "
                 "y growing to the north; reshape the first "
                 f"{CASTLE.plane_count * CASTLE.area} numbers to ({CASTLE.plane_count}, {CASTLE_SIDE}, "
                 f"{CASTLE_SIDE})), then {CASTLE.size - CASTLE.plane_count * CASTLE.area} numbers.\n")
    table(CASTLE, "Planes")
    lines.append(f"## knights_v0: `observation`, {KNIGHTS.size} × {KNIGHTS.dtype}\n")
    lines.append("Seats are counted from the observer: seat block 0 is mine, 1 the next player in seat order, "
                 "and so on; blocks of absent seats (fewer than 4 players) are 0.\n")
    table(KNIGHTS, "")
    return "\n".join(lines)

