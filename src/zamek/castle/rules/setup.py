"""What fixes a game before its first draw: the setup, the rules tables, and the small values of a position.

``Setup`` is what a player chooses (edition, expansion, variant, first player, board); ``Rules`` is what
the engine plays with (the castle, the tiles and tables made from them), built by :func:`make_rules` from
plain values. Reading the data files is :mod:`zamek.castle.data.loader`' job.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Any, Final

from zamek.castle.rules.actions import Piece, Place
from zamek.castle.rules.board import BOARDS, CURRENT_BOARD, TRACK_LENGTH, CastleDef
from zamek.castle.rules.editions import Edition, edition_of
from zamek.castle.rules.errors import SetupError
from zamek.castle.rules.geometry import SEGMENTS
from zamek.castle.rules.rates import RATES, Rates
from zamek.castle.rules.rulesets import OPTIONS, check_options, parse_rule_set, rule_set_name
from zamek.castle.rules.tiles import FeatureKind, TileSet

PLAYERS: Final = 2
FOLLOWERS_IN_SUPPLY: Final = 6
TOKEN_KINDS: Final = 9
TOKENS_PER_KIND: Final = 2

ROLES: Final = {
    FeatureKind.ROAD: "herald",
    FeatureKind.HOUSE: "squire",
    FeatureKind.PIGSTY: "farmer",
    FeatureKind.MEADOW: "monk",
    FeatureKind.CHAPEL: "preacher",
}


class Phase(IntEnum):
    """What the game waits for."""

    DRAW = 0
    """Chance: a tile is drawn."""
    PLACE = 1
    """The current player places the drawn tile."""
    FOLLOWER = 2
    """The current player places a follower on the new tile, or passes."""
    REVEAL = 3
    """Chance: the kind of a token just taken from a tower is revealed."""
    OVER = 4
    ORDER = 5
    """The current player chooses which completed feature is scored next (Z15)."""
    DOUBLE = 6
    """The current player may use a house/pigsty x2 token on the feature being scored (Z19)."""
    EXTRA_TURN = 7
    """The current player may use an extra-turn token at the end of the turn (Z19)."""


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything that fixes a game before the first draw."""

    edition: Edition = Edition.ZAMEK
    """Zamek (2020) or The Castle (2003); a name (``zamek``, ``castle2003``) is accepted and made an Edition."""
    sokol: bool = False
    gate_guard: bool = False
    """The Sokół variant "Stój! Kto idzie?" (F8)."""
    first_player: int = 0
    draw_order: tuple[str, ...] | None = None
    """A fixed order of draws (tests, puzzles); None draws at random."""
    board: int = CURRENT_BOARD
    """The revision of the reconstructed castle (``castle.BOARDS``); older ones replay old records."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "edition", edition_of(self.edition))
        check_options(self.options)
        if self.first_player not in (0, 1):
            raise SetupError("first-player", "Z5", value=repr(self.first_player))
        if self.board not in BOARDS:
            raise SetupError("unknown-board", board=repr(self.board), known=[str(board) for board in BOARDS])

    @classmethod
    def parse(cls, name: str, *, first_player: int = 0, draw_order: tuple[str, ...] | None = None,
              board: int = CURRENT_BOARD) -> Setup:
        """The setup of the rule set ``name`` (``"castle2003+sokol+gate-guard"``, see :mod:`rulesets`), with what the
        rule set leaves open. Raise SetupError (a ValueError) naming what is wrong."""
        edition, keys = parse_rule_set(name)
        switched: dict[str, Any] = {
            entry.setup_field: True for entry in OPTIONS if entry.key in keys and entry.setup_field}
        return replace(cls(edition=edition, first_player=first_player, draw_order=draw_order, board=board), **switched)

    @property
    def options(self) -> frozenset[str]:
        """The keys of the expansions and variants this setup plays with."""
        return frozenset(entry.key for entry in OPTIONS if entry.setup_field and getattr(self, entry.setup_field))

    @property
    def name(self) -> str:
        """The rule set's name (``zamek+sokol``): ``Setup.parse(setup.name)`` plays the same rules."""
        return rule_set_name(self.edition, self.options)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class HeldToken:
    """A special token a player has taken (Z16); usable from a later turn (Z19)."""

    kind: int
    turn_taken: int


@dataclass(frozen=True, slots=True)
class PlacedFollower:
    """A follower standing (or a monk lying) on a feature."""

    player: int
    cell: int
    feature: int
    node: int
    piece: Piece = Piece.FOLLOWER


@dataclass(frozen=True, slots=True)
class Rules:
    """The castle, tiles and options a game is played with."""

    castle: CastleDef
    tiles: TileSet
    tower_at: tuple[int, ...]
    """Tower index at each track position, -1 where there is none."""
    start_tables: tuple[tuple[int, ...], ...]
    """For each start space, local feature index per segment (-1 for wall)."""
    edition: Edition = Edition.ZAMEK
    sokol: bool = False
    gate_guard: bool = False
    place_actions: tuple[tuple[Place, ...], ...] = ()
    """The Place action for each cell and rotation (shared, immutable: saves building them per call)."""
    start_inward_side: tuple[int, ...] = ()
    """For each cell, the side a start space there faces the interior by; -1 for other cells."""
    rates: Rates = RATES
    """What everything scores (:mod:`zamek.castle.rules.rates`)."""

    @property
    def gates(self) -> frozenset[int]:
        return frozenset(self.castle.gates)


def make_rules(castle: CastleDef, tiles: TileSet, setup: Setup | None = None, rates: Rates = RATES) -> Rules:
    """Return rules tables for a castle and a tile set, scored at ``rates``."""
    setup = setup or Setup()
    tower_at = [-1] * TRACK_LENGTH
    for tower in castle.towers:
        for position in tower.track:
            tower_at[position] = tower.index
    start_tables = []
    for start in castle.starts:
        table = [-1] * SEGMENTS
        for index, feature in enumerate(start.features):
            for s in feature.segments:
                table[s] = index
        start_tables.append(tuple(table))
    place_actions = []
    for cell in range(castle.cell_count):
        x, y = castle.xy(cell)
        place_actions.append(tuple(Place(x, y, r) for r in range(4)))
    inward = [-1] * castle.cell_count
    for start in castle.starts:
        inward[start.cell] = (start.side + 2) % 4
    return Rules(
        castle=castle, tiles=tiles, tower_at=tuple(tower_at), start_tables=tuple(start_tables), edition=setup.edition,
        sokol=setup.sokol, gate_guard=setup.gate_guard, place_actions=tuple(place_actions),
        start_inward_side=tuple(inward), rates=rates,
    )


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of a finished game."""

    scores: tuple[int, int]
    winners: tuple[int, ...]
    """One player, or both on a shared victory (Z21)."""
