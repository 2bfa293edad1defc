"""The rules of Zamek: game state, legal actions and transitions.

``GameState`` is mutable on purpose: ``apply`` changes it in place (fast, checks
nothing, for search and replays of trusted records) and ``play`` checks legality
first and raises :class:`IllegalActionError` or :class:`MalformedActionError` with a
message a person can act on. ``copy`` is cheap (flat lists), so search copies a
state and applies actions to the copy.

Features are regions merged incrementally with union-find over flat arrays: every
feature of every placed tile and start space is a node; a region's root holds its
kind, the number of its edge segments that face an empty space (``open``), the
cells it covers (a bit mask, so a tile counts once), its followers per player, and
its stocks, shrines and nests, and (Sokół) whose princes and falconers stand on it.

Scoring is resumable: completed regions wait in ``queue`` and are scored one at a
time, pausing for the decisions the rules give the current player (the order, Z15;
a x2 token, Z19) and for the reveal of a token taken on the way (Z16).

Chance is explicit: when ``is_chance()`` the caller picks one of
``chance_outcomes()`` (with a random generator it owns) and applies it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import IntEnum
from itertools import permutations
from typing import Final

from zamek.actions import (
    Action,
    ChanceOutcome,
    Decline,
    Draw,
    Follower,
    Order,
    Pass,
    Piece,
    Place,
    PlayerAction,
    Reveal,
    UseToken,
)
from zamek.castle import BOARDS, CURRENT_BOARD, TRACK_LENGTH, CastleDef, load_castle
from zamek.editions import Edition, edition_of
from zamek.errors import IllegalActionError, MalformedActionError
from zamek.geometry import FACING, MIDDLE_SEGMENTS, SEGMENTS, Side, side_segments
from zamek.scoring import SHRINE_RATE, ScoreItem, chapel_points, feature_rate, majority
from zamek.tiles import SCORED_KINDS, FeatureKind, TileSet, load_tileset, merge_tilesets
from zamek.tokens import TokenKind

FOLLOWERS_IN_SUPPLY: Final = 6
TOKEN_KINDS: Final = 9
TOKENS_PER_KIND: Final = 2

# Cell status.
WALL: Final = 0
EMPTY: Final = 1
TAKEN: Final = 2

ROLES: Final = {
    FeatureKind.ROAD: "herald",
    FeatureKind.HOUSE: "squire",
    FeatureKind.PIGSTY: "farmer",
    FeatureKind.MEADOW: "monk",
    FeatureKind.CHAPEL: "preacher",
}

_DOUBLING_TOKENS: Final = {FeatureKind.HOUSE: TokenKind.HOUSE_X2, FeatureKind.PIGSTY: TokenKind.PIGSTY_X2}
_OPEN_TOKENS: Final = {
    TokenKind.OPEN_HOUSE: FeatureKind.HOUSE,
    TokenKind.OPEN_PIGSTY: FeatureKind.PIGSTY,
    TokenKind.OPEN_ROAD: FeatureKind.ROAD,
}
OPEN_RATES: Final = {FeatureKind.HOUSE: 1, FeatureKind.PIGSTY: 2, FeatureKind.ROAD: 1}
MEADOW_TOKEN_RATE: Final = 4
FAMILY_TOKEN_BONUS: Final = 2
FIVE_POINTS: Final = 5

_TowerTaken = tuple[int, tuple[tuple[int, int], ...]]
"""A tower emptied while scoring, and the (x2 token kind, points) of each later feature its token could double."""
_OrderOutcome = tuple[int, bool, tuple[_TowerTaken, ...]]
"""Where scoring a group in some order can lead: (score, on a gate, the towers emptied)."""


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
        if self.gate_guard and not self.sokol:
            raise ValueError("the gate-guard variant needs the Sokół expansion")
        if self.first_player not in (0, 1):
            raise ValueError("first_player must be 0 or 1")
        if self.board not in BOARDS:
            raise ValueError(f"unknown board {self.board!r} (known: {', '.join(map(str, BOARDS))})")

    @property
    def name(self) -> str:
        parts = [self.edition.value] + (["sokol"] if self.sokol else []) + (["gate-guard"] if self.gate_guard else [])
        return "+".join(parts)


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

    @property
    def gates(self) -> frozenset[int]:
        return frozenset(self.castle.gates)


def load_rules(setup: Setup) -> Rules:
    """Return the castle and tiles for a setup."""
    if setup.sokol:
        tiles = merge_tilesets("zamek+sokol", load_tileset("zamek"), load_tileset("sokol"))
        return make_rules(load_castle("sokol", setup.board), tiles, setup)
    return make_rules(load_castle("zamek", setup.board), load_tileset("zamek"), setup)


def make_rules(castle: CastleDef, tiles: TileSet, setup: Setup | None = None) -> Rules:
    """Return rules tables for a castle and a tile set."""
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
    return Rules(
        castle, tiles, tuple(tower_at), tuple(start_tables), setup.edition, setup.sokol, setup.gate_guard,
        tuple(place_actions),
    )


_RULES_CACHE: dict[Setup, Rules] = {}


def rules_for(setup: Setup) -> Rules:
    """Return the (cached, immutable) rules for a setup."""
    key = replace(setup, first_player=0, draw_order=None)
    if key not in _RULES_CACHE:
        _RULES_CACHE[key] = load_rules(key)
    return _RULES_CACHE[key]


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of a finished game."""

    scores: tuple[int, int]
    winners: tuple[int, ...]
    """One player, or both on a shared victory (Z21)."""


def advance_marker(score: int, on_gate: bool, points: int, gates: frozenset[int]) -> tuple[int, bool]:
    """Return (score, on_gate) after a movement of ``points`` under the gate-guard variant (F8).

    Stepping onto a gate costs one point, adds none and ends the movement; a marker on a gate
    leaves it with its next point, to the number after the gate.
    """
    if on_gate and points > 0:
        score += 1
        points -= 1
        on_gate = False
    while points > 0:
        if score % TRACK_LENGTH in gates:
            return score, True
        score += 1
        points -= 1
    return score, on_gate


@dataclass(slots=True)
class GameState:
    """A position of a Zamek game. Mutable: see the module docstring."""

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
    kind: list[int]
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

    # ----------------------------------------------------------------- creation

    @classmethod
    def new(cls, setup: Setup | None = None, rules: Rules | None = None) -> GameState:
        """Return the position before the first draw (``rules`` overrides the setup's data, for tests)."""
        setup = setup or Setup()
        rules = rules or rules_for(setup)
        castle = rules.castle
        n = castle.cell_count
        status = [WALL] * n
        for c in castle.interior:
            status[c] = EMPTY
        extra = 1 if rules.sokol else 0
        state = cls(
            setup=setup,
            rules=rules,
            phase=Phase.DRAW,
            current=setup.first_player,
            turn=1,
            scores=[0, 0],
            supply=[FOLLOWERS_IN_SUPPLY, FOLLOWERS_IN_SUPPLY],
            princes=[extra, extra],
            falconers=[extra, extra],
            family_size=[0, 0],
            family_cells=[0, 0],
            nests=[0, 0],
            on_gate=[False, False],
            tokens=[[], []],
            tower_token=[t.holds_token for t in castle.towers],
            token_pool=[0] + [TOKENS_PER_KIND] * TOKEN_KINDS,
            pending_reveals=[],
            remaining=list(range(len(rules.tiles))),
            draw_position=0,
            drawn=-1,
            drawn_placements=[],
            discarded=[],
            placements=[],
            status=status,
            cell_node=[-1] * n,
            cell_table=[()] * n,
            need_mask=[0] * n,
            need_road=[0] * n,
            parent=[],
            kind=[],
            open=[],
            cells=[],
            fol0=[],
            fol1=[],
            prince=[],
            falconer=[],
            stocks=[],
            shrines=[],
            region_nests=[],
            followers=[],
            completed=[],
            queue=[],
            head_chosen=False,
        )
        offsets = castle.offsets
        for start, table in zip(castle.starts, rules.start_tables, strict=True):
            base = len(state.parent)
            for feature in start.features:
                state._add_node(feature.kind, 1 << start.cell, feature.stocks, feature.shrines, feature.nests)
                state.open[-1] = len(feature.segments)
            state.status[start.cell] = TAKEN
            state.cell_node[start.cell] = base
            state.cell_table[start.cell] = table
            middle = MIDDLE_SEGMENTS[start.side.opposite]
            face = start.faces
            assert start.cell == face + offsets[start.side]
            state.need_mask[face] |= 1 << start.side
            if start.features[table[middle]].kind is FeatureKind.ROAD:
                state.need_road[face] |= 1 << start.side
        return state

    def copy(self) -> GameState:
        """Return an independent copy (cheap: flat lists)."""
        return GameState(
            setup=self.setup,
            rules=self.rules,
            phase=self.phase,
            current=self.current,
            turn=self.turn,
            scores=self.scores[:],
            supply=self.supply[:],
            princes=self.princes[:],
            falconers=self.falconers[:],
            family_size=self.family_size[:],
            family_cells=self.family_cells[:],
            nests=self.nests[:],
            on_gate=self.on_gate[:],
            tokens=[self.tokens[0][:], self.tokens[1][:]],
            tower_token=self.tower_token[:],
            token_pool=self.token_pool[:],
            pending_reveals=self.pending_reveals[:],
            remaining=self.remaining[:],
            draw_position=self.draw_position,
            drawn=self.drawn,
            drawn_placements=self.drawn_placements,
            discarded=self.discarded[:],
            placements=self.placements[:],
            status=self.status[:],
            cell_node=self.cell_node[:],
            cell_table=self.cell_table[:],
            need_mask=self.need_mask[:],
            need_road=self.need_road[:],
            parent=self.parent[:],
            kind=self.kind[:],
            open=self.open[:],
            cells=self.cells[:],
            fol0=self.fol0[:],
            fol1=self.fol1[:],
            prince=self.prince[:],
            falconer=self.falconer[:],
            stocks=self.stocks[:],
            shrines=self.shrines[:],
            region_nests=self.region_nests[:],
            followers=self.followers[:],
            completed=self.completed[:],
            queue=self.queue[:],
            head_chosen=self.head_chosen,
            log=self.log[:],
        )

    # ------------------------------------------------------------------ regions

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

    # ------------------------------------------------------------------ queries

    @property
    def tiles(self) -> TileSet:
        return self.rules.tiles

    @property
    def castle(self) -> CastleDef:
        return self.rules.castle

    def is_chance(self) -> bool:
        return self.phase is Phase.DRAW or self.phase is Phase.REVEAL

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def chance_outcomes(self) -> list[tuple[ChanceOutcome, float]]:
        """Return the possible chance outcomes with their probabilities."""
        if self.phase is Phase.DRAW:
            order = self.setup.draw_order
            if order is not None:
                return [(Draw(order[self.draw_position]), 1.0)]
            p = 1.0 / len(self.remaining)
            ids = self.tiles.tiles
            return [(Draw(ids[t].id), p) for t in self.remaining]
        if self.phase is Phase.REVEAL:
            total = sum(self.token_pool)
            return [(Reveal(k), n / total) for k, n in enumerate(self.token_pool) if n]
        return []

    def placements_for(self, tile: int) -> list[tuple[int, int]]:
        """Return the legal (cell, rotation) pairs for a tile (Z7)."""
        orientations = self.tiles.tiles[tile].orientations
        road = [o.road_sides for o in orientations]
        status = self.status
        need_mask = self.need_mask
        need_road = self.need_road
        result = []
        for cell in self.castle.interior:
            mask = need_mask[cell]
            if mask and status[cell] == EMPTY:
                want = need_road[cell]
                for rotation in range(4):
                    if (road[rotation] ^ want) & mask == 0:
                        result.append((cell, rotation))
        return result

    def _pieces_for(self, root: int) -> list[Piece]:
        """Return the figures the current player may put on a free region of the new tile (Z9, F3)."""
        player = self.current
        pieces = [Piece.FOLLOWER] if self.supply[player] else []
        if root not in self.completed:
            if self.princes[player]:
                pieces.append(Piece.PRINCE)
            if self.falconers[player]:
                pieces.append(Piece.FALCONER)
        return pieces

    def _free_features(self) -> list[tuple[int, int]]:
        """Return (feature, root) for each region of the new tile without followers, once per region (Z10)."""
        cell, tile, _ = self.placements[-1]
        base = self.cell_node[cell]
        seen = set()
        free = []
        for i in range(len(self.tiles.tiles[tile].features)):
            root = self.find(base + i)
            if root in seen:
                continue
            seen.add(root)
            if self.fol0[root] + self.fol1[root] == 0:
                free.append((i, root))
        return free

    def follower_options(self) -> list[int]:
        """Return the features of the tile just placed that may take one of the player's figures (Z9, Z10)."""
        return [i for i, root in self._free_features() if self._pieces_for(root)]

    def usable_tokens(self, kind: TokenKind) -> int:
        """Return how many tokens of ``kind`` the current player may use now (Z19, C3)."""
        same_turn = self.rules.edition.tokens_usable_same_turn
        return sum(
            1 for t in self.tokens[self.current] if t.kind == kind and (same_turn or t.turn_taken < self.turn)
        )

    def order_group(self) -> list[int]:
        """Return the regions the current player may choose among for scoring next (Z15)."""
        if not self.queue:
            return []
        owner = self.region_owner(self.queue[0])
        if owner is None:
            return []
        group = []
        for root in self.queue:
            if self.region_owner(root) != owner:
                break
            group.append(root)
        return group

    def doubling_token(self, root: int | None = None) -> TokenKind | None:
        """Return the x2 token the current player may use on the region about to be scored (or ``root``), if any."""
        root = self.queue[0] if root is None else root
        owner = self.region_owner(root)
        token = _DOUBLING_TOKENS.get(FeatureKind(self.kind[root]))
        if token is None or owner != self.current or self.prince[root] >> owner & 1:
            return None  # F4: a prince's doubling leaves no room for a token's
        return token if self.usable_tokens(token) else None

    def legal_actions(self) -> list[PlayerAction]:
        """Return the actions the player to move may take (empty at chance nodes and at the end)."""
        phase = self.phase
        if phase is Phase.PLACE:
            table = self.rules.place_actions
            return [table[cell][rotation] for cell, rotation in self.drawn_placements]
        if phase is Phase.FOLLOWER:
            actions: list[PlayerAction] = []
            for i, root in self._free_features():
                actions.extend(Follower(i, piece) for piece in self._pieces_for(root))
            actions.append(Pass())
            return actions
        if phase is Phase.ORDER:
            return [Order(k) for k in range(len(self.order_group()))]
        if phase is Phase.DOUBLE:
            token = self.doubling_token()
            return [UseToken(token), Decline()] if token is not None else [Decline()]
        if phase is Phase.EXTRA_TURN:
            return [UseToken(TokenKind.EXTRA_TURN), Decline()]
        return []

    def result(self) -> Result | None:
        if self.phase is not Phase.OVER:
            return None
        s = (self.scores[0], self.scores[1])
        winners = (0,) if s[0] > s[1] else (1,) if s[1] > s[0] else (0, 1)
        return Result(s, winners)

    # -------------------------------------------------------------- transitions

    def play(self, action: Action) -> None:
        """Apply an action after checking it; raise a ZamekError that explains a refusal."""
        self.check(action)
        self.apply(action)

    def check(self, action: Action) -> None:
        """Raise IllegalActionError (or MalformedActionError) unless ``action`` is legal now."""
        if not isinstance(action, (Place, Follower, Pass, Order, UseToken, Decline, Draw, Reveal)):
            raise MalformedActionError(f"{action!r} is not an action")
        phase = self.phase
        if phase is Phase.OVER:
            raise IllegalActionError("the game is over")
        if isinstance(action, (Draw, Reveal)):
            if not any(action == outcome for outcome, _ in self.chance_outcomes()):
                if not self.is_chance():
                    raise IllegalActionError(f"{action}: no chance event is due; the player to move must act")
                raise IllegalActionError(f"{action}: not a possible outcome now")
            return
        if self.is_chance():
            what = "a tile to be drawn" if phase is Phase.DRAW else "a token to be revealed"
            raise IllegalActionError(f"{action}: the game is waiting for {what}")
        if isinstance(action, Place):
            if phase is not Phase.PLACE:
                raise IllegalActionError(f"{action}: {self._waiting_for()}")
            self._check_place(action)
            return
        if isinstance(action, (Follower, Pass)):
            if phase is not Phase.FOLLOWER:
                raise IllegalActionError(f"{action}: {self._waiting_for()}")
            if isinstance(action, Follower):
                self._check_follower(action)
            return
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action}: {self._waiting_for()}")

    def _waiting_for(self) -> str:
        return {
            Phase.PLACE: "place the drawn tile first",
            Phase.FOLLOWER: "the tile is placed already; place a follower or pass",
            Phase.ORDER: "choose which completed feature is scored next (order:N)",
            Phase.DOUBLE: "decide whether to use your x2 token on this feature (use:N or decline)",
            Phase.EXTRA_TURN: "decide whether to use your extra-turn token (use:1 or decline)",
        }.get(self.phase, "that is not possible now")

    def _check_place(self, action: Place) -> None:
        castle = self.castle
        if not (0 <= action.rotation < 4):
            raise MalformedActionError(f"{action}: rotation must be 0, 90, 180 or 270")
        if not (0 <= action.x < castle.width and 0 <= action.y < castle.height):
            raise IllegalActionError(f"{action}: that space is not inside the castle")
        cell = castle.cell(action.x, action.y)
        name = castle.name_of(cell)
        if self.status[cell] == WALL:
            raise IllegalActionError(f"{action}: {name} is not a space inside the castle")
        if self.status[cell] == TAKEN:
            raise IllegalActionError(f"{action}: {name} already holds a tile")
        mask = self.need_mask[cell]
        if not mask:
            raise IllegalActionError(f"{action}: a tile must touch a placed tile or a start space with a side (Z7)")
        road = self.tiles.tiles[self.drawn].orientations[action.rotation].road_sides
        bad = (road ^ self.need_road[cell]) & mask
        if bad:
            side = Side((bad & -bad).bit_length() - 1)
            mine = "a road" if road >> side & 1 else "no road"
            theirs = "a road" if self.need_road[cell] >> side & 1 else "no road"
            raise IllegalActionError(
                f"{action}: the tile's {side.name} side has {mine} where its neighbour has {theirs}; "
                "roads must meet roads (Z7)"
            )

    def _check_follower(self, action: Follower) -> None:
        tile = self.tiles.tiles[self.placements[-1][1]]
        player = self.current
        if not 0 <= action.feature < len(tile.features):
            raise IllegalActionError(f"{action}: tile {tile.id} has features 0 to {len(tile.features) - 1}")
        piece = action.piece
        if piece is not Piece.FOLLOWER and not self.rules.sokol:
            raise IllegalActionError(f"{action}: princes and falconers come with the Sokół expansion only")
        left = {Piece.FOLLOWER: self.supply, Piece.PRINCE: self.princes, Piece.FALCONER: self.falconers}[piece]
        if not left[player]:
            raise IllegalActionError(f"{action}: you have no {piece.key} left in your supply")
        root = self.region_of(self.placements[-1][0], action.feature)
        if self.fol0[root] + self.fol1[root]:
            raise IllegalActionError(
                f"{action}: that {tile.features[action.feature].kind.key} already holds a follower (Z10)"
            )
        if action.feature not in [i for i, _ in self._free_features()]:
            raise IllegalActionError(f"{action}: that part joins another feature of this tile; choose that one")
        if piece not in self._pieces_for(root):
            raise IllegalActionError(
                f"{action}: a {piece.key} may not go on a feature this tile completes (F3)"
            )

    def apply(self, action: Action) -> None:
        """Apply an action without checking it (fast; for search and trusted records)."""
        if isinstance(action, Place):
            self._place(self.castle.cell(action.x, action.y), action.rotation)
        elif isinstance(action, Follower):
            self._put_follower(action.feature, action.piece)
            self._start_scoring()
        elif isinstance(action, Pass):
            self._start_scoring()
        elif isinstance(action, Draw):
            self._draw(self.tiles.by_id(action.tile).index)
        elif isinstance(action, Reveal):
            self._reveal(action.kind)
        elif isinstance(action, Order):
            root = self.order_group()[action.choice]
            self.queue.remove(root)
            self.queue.insert(0, root)
            self.head_chosen = True
            self._continue_scoring()
        elif isinstance(action, UseToken):
            if self.phase is Phase.EXTRA_TURN:
                self._spend_token(TokenKind.EXTRA_TURN)
                self.turn += 1  # Z19: the same player takes another turn straight away
                self.phase = Phase.DRAW
            else:
                self._spend_token(TokenKind(action.kind))
                self._score_head(doubled_by=TokenKind(action.kind))
                self._continue_scoring()
        elif isinstance(action, Decline):
            if self.phase is Phase.EXTRA_TURN:
                self._end_turn()
            else:
                self._score_head(doubled_by=None)
                self._continue_scoring()
        else:
            raise MalformedActionError(f"{action!r} is not an action")

    def _draw(self, tile: int) -> None:
        self.remaining.remove(tile)
        self.draw_position += 1
        placements = self.placements_for(tile)
        if placements:
            self.drawn = tile
            self.drawn_placements = placements
            self.phase = Phase.PLACE
            return
        # Z8: shown, removed from the game; the same player draws again.
        self.discarded.append(tile)
        if not self.remaining:
            self._finish()

    def _place(self, cell: int, rotation: int) -> None:
        tile = self.tiles.tiles[self.drawn]
        table = tile.orientations[rotation].segment_feature
        base = len(self.parent)
        bit = 1 << cell
        for feature in tile.features:
            self._add_node(feature.kind, bit, feature.stocks, feature.shrines, feature.nests)
        self.status[cell] = TAKEN
        self.cell_node[cell] = base
        self.cell_table[cell] = table
        self.need_mask[cell] = 0
        self.placements.append((cell, tile.index, rotation))
        self.drawn = -1
        self.drawn_placements = []
        touched = [base + i for i in range(len(tile.features))]
        status = self.status
        kind = self.kind
        offsets = self.castle.offsets
        for side in range(4):
            neighbour = cell + offsets[side]
            state = status[neighbour]
            if state == WALL:
                continue
            segments = side_segments(side)
            if state == EMPTY:
                for s in segments:
                    # The feature may have joined a neighbour's region on an earlier side.
                    self.open[self.find(base + table[s])] += 1
                back = (side + 2) % 4
                self.need_mask[neighbour] |= 1 << back
                if kind[base + table[MIDDLE_SEGMENTS[side]]] == FeatureKind.ROAD:
                    self.need_road[neighbour] |= 1 << back
                continue
            their_base = self.cell_node[neighbour]
            their_table = self.cell_table[neighbour]
            for s in segments:
                their_feature = their_table[FACING[s]]
                if their_feature < 0:  # the wall part of a start space
                    continue
                theirs = their_base + their_feature
                root = self.find(theirs)
                self.open[root] -= 1
                mine = base + table[s]
                if kind[mine] == kind[theirs]:
                    self._union(mine, root)
                else:
                    touched.append(root)
        completed = []
        for node in touched:
            root = self.find(node)
            if self.open[root] == 0 and FeatureKind(kind[root]) in SCORED_KINDS and root not in completed:
                completed.append(root)
        self.completed = completed
        self.phase = Phase.FOLLOWER

    def _put_follower(self, feature: int, piece: Piece) -> None:
        player = self.current
        cell = self.placements[-1][0]
        node = self.cell_node[cell] + feature
        root = self.find(node)
        if player == 0:
            self.fol0[root] += 1
        else:
            self.fol1[root] += 1
        if piece is Piece.PRINCE:
            self.princes[player] -= 1
            self.prince[root] |= 1 << player
        elif piece is Piece.FALCONER:
            self.falconers[player] -= 1
            self.falconer[root] |= 1 << player
        else:
            self.supply[player] -= 1
        self.followers.append(PlacedFollower(player, cell, feature, node, piece))

    # ------------------------------------------------------------------ scoring

    def _start_scoring(self) -> None:
        """Queue the completed regions: the current player's first, then the opponent's (Z15, C5)."""
        current = self.current
        roots = [self.find(r) for r in self.completed]

        def group(root: int) -> int:
            owner = self.region_owner(root)
            return 0 if owner == current else 1 if owner is not None else 2

        self.queue = sorted(roots, key=group)
        self.head_chosen = False
        self._continue_scoring()

    def _continue_scoring(self) -> None:
        """Score queued regions until a decision or a chance event is due, then finish the turn."""
        while True:
            if self.pending_reveals:
                self.phase = Phase.REVEAL
                return
            if not self.queue:
                break
            if not self.head_chosen and self._order_matters():
                self.phase = Phase.ORDER
                return
            if self.doubling_token() is not None:
                self.phase = Phase.DOUBLE
                return
            self._score_head(doubled_by=None)
        self._return_followers()
        if self.remaining and self.usable_tokens(TokenKind.EXTRA_TURN):
            self.phase = Phase.EXTRA_TURN
            return
        self._end_turn()

    def _base_points(self, root: int, owner: int | None) -> tuple[int, int, int, list[str]]:
        """Return (count, rate, multiplier, details) of a complete region for its owner (Z14, F2, F4)."""
        kind = FeatureKind(self.kind[root])
        tiles = self.region_tiles(root)
        details = []
        if kind is FeatureKind.CHAPEL:
            count, rate = 1, chapel_points(tiles)
            details.append(f"chapel-size:{tiles}")
        else:
            rate, detail = feature_rate(kind, self.stocks[root])
            count = tiles
            if detail:
                details.append(detail)
        multiplier = 1
        if owner is not None and self.prince[root] >> owner & 1:
            multiplier = 2
            details.append("prince")
        return count, rate, multiplier, details

    def _order_matters(self) -> bool:
        """Return whether the order of the head group could change anything (Z15, C3, C5, F8).

        Every order is played out on paper, with every use of the x2 tokens the player may choose and,
        where a token taken is usable at once (C3), every kind it may turn out to be. Two orders are
        the same when they reach the same outcomes: the marker's final space (a gate under F8 can
        swallow points), each tower emptied, and for each the features of the group still to be scored
        after it that a token taken there could double (by kind and points: two houses of one size are
        alike). Only then may the engine choose the order.
        """
        group = self.order_group()
        if len(group) < 2:
            return False
        first: frozenset[_OrderOutcome] | None = None
        for order in permutations(group):
            outcomes = self._order_outcomes(order)
            if first is None:
                first = outcomes
            elif outcomes != first:
                return True
        return False

    def _order_outcomes(self, order: tuple[int, ...]) -> frozenset[_OrderOutcome]:
        """Return what scoring ``order`` (one owner's regions) can lead to; see ``_order_matters``."""
        owner = self.region_owner(order[0])
        assert owner is not None
        same_turn = owner == self.current and self.rules.edition.tokens_usable_same_turn
        gates = self.rules.gates if self.rules.gate_guard else frozenset()
        tower_at = self.rules.tower_at
        points = []
        doubling: list[TokenKind | None] = []
        for root in order:
            count, rate, multiplier, _ = self._base_points(root, owner)
            points.append(count * rate * multiplier)
            token = _DOUBLING_TOKENS.get(FeatureKind(self.kind[root]))
            # F4: a prince's doubling leaves no room for a token's; tokens double the mover's features only.
            eligible = owner == self.current and token is not None and not self.prince[root] >> owner & 1
            doubling.append(token if eligible else None)
        outcomes: set[_OrderOutcome] = set()

        def walk(i: int, score: int, on_gate: bool, towers: tuple[bool, ...], usable: dict[TokenKind, int],
                 pool: tuple[int, ...], taken: tuple[_TowerTaken, ...]) -> None:
            if i == len(order):
                outcomes.add((score, on_gate, tuple(sorted(taken))))
                return
            token = doubling[i]
            choices = [points[i]] + ([2 * points[i]] if token is not None and usable[token] else [])
            for gain in choices:
                spent = dict(usable)
                if gain != points[i]:
                    assert token is not None
                    spent[token] -= 1
                moved, gated = advance_marker(score, on_gate, gain, gates)
                tower = tower_at[moved % TRACK_LENGTH]
                if moved == score or gated or tower < 0 or not towers[tower]:
                    walk(i + 1, moved, gated, towers, spent, pool, taken)
                    continue
                emptied = (*towers[:tower], False, *towers[tower + 1:])
                if not same_turn:
                    walk(i + 1, moved, gated, emptied, spent, pool, (*taken, (tower, ())))
                    continue
                # C3: the token is usable at once; what it may be decides what the rest of the group can do.
                later = tuple(sorted(
                    (t, points[j]) for j in range(i + 1, len(order)) if (t := doubling[j]) is not None and pool[t]
                ))
                after = (*taken, (tower, later))
                for kind in (TokenKind.HOUSE_X2, TokenKind.PIGSTY_X2):
                    if pool[kind]:
                        revealed = (*pool[:kind], pool[kind] - 1, *pool[kind + 1:])
                        walk(i + 1, moved, gated, emptied, {**spent, kind: spent[kind] + 1}, revealed, after)
                if sum(pool) > pool[TokenKind.HOUSE_X2] + pool[TokenKind.PIGSTY_X2]:
                    walk(i + 1, moved, gated, emptied, spent, pool, after)

        usable = {t: self.usable_tokens(t) for t in _DOUBLING_TOKENS.values()}
        walk(0, self.scores[owner], self.on_gate[owner], tuple(self.tower_token), usable,
             tuple(self.token_pool), ())
        return frozenset(outcomes)

    def _score_head(self, doubled_by: TokenKind | None) -> None:
        """Score the region at the head of the queue (Z13, Z14, Z18, F2, F4, F5)."""
        root = self.queue.pop(0)
        self.head_chosen = False
        owner = self.region_owner(root)
        kind = FeatureKind(self.kind[root])
        count, rate, multiplier, details = self._base_points(root, owner)
        if doubled_by is not None:
            multiplier *= 2
            details.append(f"token:{int(doubled_by)}")
        if owner is None:
            if self.fol0[root] + self.fol1[root] == 0:
                return  # nobody stood on it: nothing to report (Z13)
            self.log.append(ScoreItem(kind.key, None, count, rate, 0, self.turn, self.cells[root], ",".join(details)))
            return
        points = count * rate * multiplier
        nests = self.region_nests[root] + (1 if self.falconer[root] >> owner & 1 else 0)
        gained = self._move_marker(owner, points)
        self.nests[owner] += nests
        self.log.append(
            ScoreItem(kind.key, owner, count, rate, gained, self.turn, self.cells[root], ",".join(details),
                      multiplier, points - gained, nests)
        )
        tiles = self.region_tiles(root)
        if kind is FeatureKind.HOUSE and tiles > self.family_size[owner]:
            self.family_size[owner] = tiles
            self.family_cells[owner] = self.cells[root]

    def _move_marker(self, player: int, points: int) -> int:
        """Move a score marker; return the points gained. A movement ending on a tower with a token takes it (Z16)."""
        before = self.scores[player]
        if self.rules.gate_guard:
            score, self.on_gate[player] = advance_marker(before, self.on_gate[player], points, self.rules.gates)
        else:
            score = before + points
        self.scores[player] = score
        if score != before and not self.on_gate[player]:
            tower = self.rules.tower_at[score % TRACK_LENGTH]
            if tower >= 0 and self.tower_token[tower]:
                self.tower_token[tower] = False
                self.pending_reveals.append(player)
        return score - before

    def _return_followers(self) -> None:
        """Send the figures on complete regions home (Z17); monks stay."""
        if not self.completed:
            return
        done = {self.find(r) for r in self.completed}
        keep = []
        for f in self.followers:
            root = self.find(f.node)
            if root not in done:
                keep.append(f)
                continue
            # The region keeps no count of figures that went home.
            (self.fol0 if f.player == 0 else self.fol1)[root] -= 1
            if f.piece is Piece.PRINCE:
                self.prince[root] &= ~(1 << f.player)
                self.princes[f.player] += 1
            elif f.piece is Piece.FALCONER:
                self.falconer[root] &= ~(1 << f.player)
                self.falconers[f.player] += 1
            else:
                self.supply[f.player] += 1
        self.followers = keep
        self.completed = []

    def _spend_token(self, kind: TokenKind) -> None:
        same_turn = self.rules.edition.tokens_usable_same_turn
        held = self.tokens[self.current]
        for i, t in enumerate(held):
            if t.kind == kind and (same_turn or t.turn_taken < self.turn):
                del held[i]
                return
        raise IllegalActionError(f"no usable token {int(kind)} to spend")

    def _reveal(self, kind: int) -> None:
        player = self.pending_reveals.pop(0)
        self.token_pool[kind] -= 1
        self.tokens[player].append(HeldToken(kind, self.turn))
        self._continue_scoring()

    def _end_turn(self) -> None:
        if not self.remaining:
            self._finish()
            return
        self.current = 1 - self.current
        self.turn += 1
        self.phase = Phase.DRAW

    # -------------------------------------------------------------- final score

    def largest_empty_area(self) -> int:
        """Return the size of the largest group of side-connected empty spaces (Z20)."""
        status = self.status
        offsets = self.castle.offsets
        seen: set[int] = set()
        best = 0
        for start in self.castle.interior:
            if status[start] != EMPTY or start in seen:
                continue
            seen.add(start)
            stack = [start]
            size = 0
            while stack:
                c = stack.pop()
                size += 1
                for off in offsets:
                    n = c + off
                    if status[n] == EMPTY and n not in seen:
                        seen.add(n)
                        stack.append(n)
            best = max(best, size)
        return best

    def _held(self, player: int, kind: TokenKind) -> int:
        return sum(1 for t in self.tokens[player] if t.kind == kind)

    def final_items(self) -> list[ScoreItem]:
        """Return the end-of-game breakdown for the current position (Z20, Z19 end tokens, F6).

        End tokens are applied in their owner's best interest; two tokens of one kind go on
        different features.
        """
        items: list[ScoreItem] = []
        turn = self.turn
        # Meadows, with token 4 on the owner's best meadows (rates combine with a prince, F4).
        meadows = sorted({self.find(f.node) for f in self.followers if self.kind[f.node] == FeatureKind.MEADOW})
        upgraded: set[int] = set()
        for player in (0, 1):
            mine = [r for r in meadows if self.region_owner(r) == player and self.shrines[r]]
            mine.sort(key=lambda r: (-self.shrines[r] * self._prince_factor(r, player), r))
            upgraded.update(mine[: self._held(player, TokenKind.MEADOW_4)])
        for root in meadows:
            owner = self.region_owner(root)
            shrines = self.shrines[root]
            details = []
            rate = SHRINE_RATE
            multiplier = 1
            if owner is not None:
                multiplier = self._prince_factor(root, owner)
                if multiplier == 2:
                    details.append("prince")
                if root in upgraded:
                    rate = MEADOW_TOKEN_RATE
                    details.append(f"token:{int(TokenKind.MEADOW_4)}")
            points = shrines * rate * multiplier if owner is not None else 0
            items.append(ScoreItem("meadow", owner, shrines, rate, points, turn, self.cells[root],
                                   ",".join(details), multiplier, final=True))
        area = self.largest_empty_area()
        # Family house, with token 5 (+2 tiles each, only to an existing family house).
        sizes = []
        for player in (0, 1):
            size = self.family_size[player]
            if size:
                size += FAMILY_TOKEN_BONUS * self._held(player, TokenKind.FAMILY_PLUS_2)
            sizes.append(size)
        owner = majority((sizes[0], sizes[1]))
        detail = ""
        if owner is not None and sizes[owner] != self.family_size[owner]:
            detail = f"token:{int(TokenKind.FAMILY_PLUS_2)}"
        items.append(ScoreItem("family-house", owner, area, 1, area if owner is not None else 0, turn,
                               self.family_cells[owner] if owner is not None else 0, detail, final=True))
        # Tokens 7-9: the owner's best unfinished features of the kind, a prince doubling (F4).
        for player in (0, 1):
            for token, kind in _OPEN_TOKENS.items():
                held = self._held(player, token)
                if not held:
                    continue
                options = []
                for root in self.roots():
                    if self.kind[root] != kind or self.open[root] == 0 or self.region_owner(root) != player:
                        continue
                    rate = OPEN_RATES[kind]
                    details = ["unfinished"]
                    counts_stocks = self.rules.edition.open_road_token_counts_stocks
                    if kind is FeatureKind.ROAD and counts_stocks and self.stocks[root]:
                        rate = 2  # C4: the 2003 path token counts a fountain
                        details.append("stocks")
                    multiplier = self._prince_factor(root, player)
                    if multiplier == 2:
                        details.append("prince")
                    details.append(f"token:{int(token)}")
                    tiles = self.region_tiles(root)
                    options.append((tiles * rate * multiplier, root, tiles, rate, multiplier, details))
                options.sort(key=lambda o: (-o[0], o[1]))
                for points, root, tiles, rate, multiplier, details in options[:held]:
                    items.append(ScoreItem(kind.key, player, tiles, rate, points, turn, self.cells[root],
                                           ",".join(details), multiplier, final=True))
            for _ in range(self._held(player, TokenKind.FIVE_POINTS)):
                items.append(ScoreItem("token", player, 1, FIVE_POINTS, FIVE_POINTS, turn,
                                       detail=f"token:{int(TokenKind.FIVE_POINTS)}", final=True))
        if self.rules.sokol:
            owner = majority((self.nests[0], self.nests[1]))
            items.append(ScoreItem("nests", owner, area, 1, area if owner is not None else 0, turn, final=True))
        return items

    def _prince_factor(self, root: int, player: int) -> int:
        return 2 if self.prince[root] >> player & 1 else 1

    def _finish(self) -> None:
        # Z20: tokens left on towers go back to the box; nothing more can be taken; gates stop nobody.
        self.tower_token = [False] * len(self.tower_token)
        for item in self.final_items():
            self.log.append(item)
            if item.player is not None:
                self.scores[item.player] += item.points
        self.drawn = -1
        self.queue = []
        self.phase = Phase.OVER
