"""The fields of a game state: flat lists, so that a copy is cheap.

Features are regions merged incrementally with union-find over flat arrays: every feature of every
placed tile and start space is a node; a region's root holds its kind, the number of its edge segments
that face an empty space (``open``), the cells it covers (a bit mask, so a tile counts once), its
followers per player, its stocks, shrines and nests, and (Sokół) whose princes and falconers stand on
it. These arrays are the core's own: code outside ``zamek.castle.rules`` reads positions through the public
methods of :class:`zamek.castle.rules.state.GameState`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from zamek.castle.rules.board import CastleDef
from zamek.castle.rules.breakdown import ScoreItem
from zamek.castle.rules.setup import HeldToken, Phase, PlacedFollower, Rules, Setup
from zamek.castle.rules.tiles import FeatureKind, TileSet


@dataclass(slots=True)
class StateFields:
    """The data of a position; the behaviour comes from the mixins of :class:`zamek.castle.rules.state.GameState`."""

    setup: Setup
    rules: Rules
    phase: Phase
    current: int
    turn: int
    scores: list[int]
    supply: list[int]
    """Ordinary followers in each player's supply."""
    princes: list[int]
    """Princes in each player's supply (Sokół: 1 each at the start)."""
    falconers: list[int]
    family_size: list[int]
    family_cells: list[int]
    nests: list[int]
    on_gate: list[bool]
    tokens: list[list[HeldToken]]
    tower_token: list[bool]
    token_pool: list[int]
    """Tokens of each kind (index 1..9) not yet revealed."""
    pending_reveals: list[int]
    """Players who took a token whose kind is still to be revealed."""
    remaining: list[int]
    draw_position: int
    drawn: int
    drawn_placements: list[tuple[int, int]]
    """Legal (cell, rotation) pairs of the drawn tile, computed once at the draw (never mutated)."""
    discarded: list[int]
    placements: list[tuple[int, int, int]]
    """(cell, tile index, rotation) in order of placement."""
    status: list[int]
    cell_node: list[int]
    cell_table: list[tuple[int, ...]]
    need_mask: list[int]
    need_road: list[int]
    parent: list[int]
    kind: list[FeatureKind]
    open: list[int]
    cells: list[int]
    fol0: list[int]
    fol1: list[int]
    prince: list[int]
    """Per region, bit p set when player p's prince stands on it."""
    falconer: list[int]
    stocks: list[int]
    shrines: list[int]
    region_nests: list[int]
    followers: list[PlacedFollower]
    completed: list[int]
    """Roots of regions the last placement completed."""
    queue: list[int]
    """Completed regions still to be scored this turn, in scoring order."""
    head_chosen: bool
    """The player has chosen the region at the head of the queue (Z15)."""
    log: list[ScoreItem] = field(default_factory=list)

    @property
    def tiles(self) -> TileSet:
        return self.rules.tiles

    @property
    def castle(self) -> CastleDef:
        return self.rules.castle
