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
its stocks, shrines and nests.

Chance is explicit: when ``is_chance()`` the caller picks one of
``chance_outcomes()`` (with a random generator it owns) and applies it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Final

from zamek.actions import Action, ChanceOutcome, Draw, Follower, Pass, Piece, Place, PlayerAction, Reveal
from zamek.castle import TRACK_LENGTH, CastleDef, load_castle
from zamek.errors import IllegalActionError, MalformedActionError
from zamek.geometry import FACING, MIDDLE_SEGMENTS, SEGMENTS, Side, side_segments
from zamek.scoring import SHRINE_RATE, ScoreItem, feature_rate, majority
from zamek.tiles import SCORED_KINDS, FeatureKind, TileSet, load_tileset

PLAYERS: Final = 2
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


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything that fixes a game before the first draw."""

    edition: str = "zamek"
    sokol: bool = False
    gate_guard: bool = False
    first_player: int = 0
    draw_order: tuple[str, ...] | None = None
    """A fixed order of draws (tests, puzzles); None draws at random."""

    def __post_init__(self) -> None:
        if self.edition != "zamek" or self.sokol or self.gate_guard:
            raise ValueError("only the base game of Zamek is playable so far")
        if self.first_player not in (0, 1):
            raise ValueError("first_player must be 0 or 1")


@dataclass(frozen=True, slots=True)
class HeldToken:
    """A special token a player has taken (Z16); usable from a later turn (Z19)."""

    kind: int
    turn_taken: int


@dataclass(slots=True)
class PlacedFollower:
    """A follower standing (or a monk lying) on a feature."""

    player: int
    cell: int
    feature: int
    node: int
    piece: Piece = Piece.FOLLOWER


@dataclass(frozen=True, slots=True)
class Rules:
    """The castle and tiles a game is played with."""

    castle: CastleDef
    tiles: TileSet
    tower_at: tuple[int, ...]
    """Tower index at each track position, -1 where there is none."""
    start_tables: tuple[tuple[int, ...], ...]
    """For each start space, local feature index per segment (-1 for wall)."""


def load_rules(setup: Setup) -> Rules:
    """Return the castle and tiles for a setup."""
    return make_rules(load_castle("zamek"), load_tileset("zamek"))


def make_rules(castle: CastleDef, tiles: TileSet) -> Rules:
    """Return rules tables for a castle and a tile set."""
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
    return Rules(castle, tiles, tuple(tower_at), tuple(start_tables))


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
    family_size: list[int]
    family_cells: list[int]
    tokens: list[list[HeldToken]]
    tower_token: list[bool]
    token_pool: list[int]
    """Tokens of each kind (index 1..9) not yet revealed."""
    pending_reveals: list[int]
    """Players who took a token whose kind is still to be revealed."""
    remaining: list[int]
    draw_position: int
    drawn: int
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
    stocks: list[int]
    shrines: list[int]
    nests: list[int]
    followers: list[PlacedFollower]
    completed: list[int]
    """Roots of regions the last placement completed, to score after the follower step."""
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
        state = cls(
            setup=setup,
            rules=rules,
            phase=Phase.DRAW,
            current=setup.first_player,
            turn=1,
            scores=[0, 0],
            supply=[FOLLOWERS_IN_SUPPLY, FOLLOWERS_IN_SUPPLY],
            family_size=[0, 0],
            family_cells=[0, 0],
            tokens=[[], []],
            tower_token=[t.holds_token for t in castle.towers],
            token_pool=[0] + [TOKENS_PER_KIND] * TOKEN_KINDS,
            pending_reveals=[],
            remaining=list(range(len(rules.tiles))),
            draw_position=0,
            drawn=-1,
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
            stocks=[],
            shrines=[],
            nests=[],
            followers=[],
            completed=[],
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
            facing_side = start.side.opposite
            middle = MIDDLE_SEGMENTS[facing_side]
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
            family_size=self.family_size[:],
            family_cells=self.family_cells[:],
            tokens=[self.tokens[0][:], self.tokens[1][:]],
            tower_token=self.tower_token[:],
            token_pool=self.token_pool[:],
            pending_reveals=self.pending_reveals[:],
            remaining=self.remaining[:],
            draw_position=self.draw_position,
            drawn=self.drawn,
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
            stocks=self.stocks[:],
            shrines=self.shrines[:],
            nests=self.nests[:],
            followers=[replace(f) for f in self.followers],
            completed=self.completed[:],
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
        self.stocks.append(stocks)
        self.shrines.append(shrines)
        self.nests.append(nests)
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
        self.stocks[ra] += self.stocks[rb]
        self.shrines[ra] += self.shrines[rb]
        self.nests[ra] += self.nests[rb]
        return ra

    def region_of(self, cell: int, feature: int) -> int:
        """Return the root node of the region holding a feature of a placed tile or start space."""
        return self.find(self.cell_node[cell] + feature)

    def region_tiles(self, root: int) -> int:
        """Return the number of distinct tiles and start spaces a region covers (Z14)."""
        return self.cells[root].bit_count()

    def region_followers(self, root: int) -> tuple[int, int]:
        return self.fol0[root], self.fol1[root]

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

    def follower_options(self) -> list[int]:
        """Return the features of the tile just placed that may take a follower (Z9, Z10)."""
        if self.supply[self.current] == 0:
            return []
        cell, tile, _ = self.placements[-1]
        base = self.cell_node[cell]
        seen = set()
        options = []
        for i in range(len(self.tiles.tiles[tile].features)):
            root = self.find(base + i)
            if root in seen:
                continue
            seen.add(root)
            if self.fol0[root] + self.fol1[root] == 0:
                options.append(i)
        return options

    def legal_actions(self) -> list[PlayerAction]:
        """Return the actions the player to move may take (empty at chance nodes and at the end)."""
        if self.phase is Phase.PLACE:
            xy = self.castle.xy
            result: list[PlayerAction] = []
            for cell, rotation in self.placements_for(self.drawn):
                x, y = xy(cell)
                result.append(Place(x, y, rotation))
            return result
        if self.phase is Phase.FOLLOWER:
            actions: list[PlayerAction] = [Follower(i) for i in self.follower_options()]
            actions.append(Pass())
            return actions
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
        if not isinstance(action, (Place, Follower, Pass, Draw, Reveal)):
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
                raise IllegalActionError(f"{action}: the tile is placed already; place a follower or pass")
            self._check_place(action)
            return
        if phase is not Phase.FOLLOWER:
            raise IllegalActionError(f"{action}: place the drawn tile first")
        if isinstance(action, Follower):
            self._check_follower(action)

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
        if action.piece is not Piece.FOLLOWER:
            raise IllegalActionError(f"{action}: princes and falconers come with the Sokół expansion only")
        if not 0 <= action.feature < len(tile.features):
            raise IllegalActionError(f"{action}: tile {tile.id} has features 0 to {len(tile.features) - 1}")
        if self.supply[self.current] == 0:
            raise IllegalActionError(f"{action}: no follower left in your supply")
        if action.feature not in self.follower_options():
            root = self.region_of(self.placements[-1][0], action.feature)
            if self.fol0[root] + self.fol1[root]:
                raise IllegalActionError(
                    f"{action}: that {tile.features[action.feature].kind.key} already holds a follower (Z10)"
                )
            raise IllegalActionError(f"{action}: that part joins another feature of this tile; choose that one")

    def apply(self, action: Action) -> None:
        """Apply an action without checking it (fast; for search and trusted records)."""
        if isinstance(action, Place):
            self._place(self.castle.cell(action.x, action.y), action.rotation)
        elif isinstance(action, Follower):
            self._put_follower(action.feature, action.piece)
            self._score_turn()
        elif isinstance(action, Pass):
            self._score_turn()
        elif isinstance(action, Draw):
            self._draw(self.tiles.by_id(action.tile).index)
        elif isinstance(action, Reveal):
            self._reveal(action.kind)
        else:
            raise MalformedActionError(f"{action!r} is not an action")

    def _draw(self, tile: int) -> None:
        self.remaining.remove(tile)
        self.draw_position += 1
        if self.placements_for(tile):
            self.drawn = tile
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
                    self.open[base + table[s]] += 1
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
        self.supply[player] -= 1
        self.followers.append(PlacedFollower(player, cell, feature, node, piece))

    def _score_turn(self) -> None:
        """Score the features the placement completed, then return their followers (Z13-Z18)."""
        completed = [self.find(r) for r in self.completed]
        items = []
        for root in completed:
            owner = majority((self.fol0[root], self.fol1[root]))
            kind = FeatureKind(self.kind[root])
            tiles = self.region_tiles(root)
            rate, detail = feature_rate(kind, self.stocks[root])
            points = tiles * rate if owner is not None else 0
            items.append(ScoreItem(kind.key, owner, tiles, rate, points, self.turn, self.cells[root], detail))
        # Z15: the current player's features first, then the opponent's; fixed order within each.
        items.sort(key=lambda item: 0 if item.player == self.current else 1)
        for item in items:
            self.log.append(item)
            if item.player is None:
                continue
            self._move_marker(item.player, item.points)
            if item.reason == "house" and item.count > self.family_size[item.player]:
                self.family_size[item.player] = item.count
                self.family_cells[item.player] = item.cells
        if completed:
            done = set(completed)
            keep = []
            for f in self.followers:
                if self.find(f.node) in done:
                    self.supply[f.player] += 1
                else:
                    keep.append(f)
            self.followers = keep
        self.completed = []
        if self.pending_reveals:
            self.phase = Phase.REVEAL
        else:
            self._end_turn()

    def _move_marker(self, player: int, points: int) -> None:
        """Move a score marker; a movement ending on a tower with a token takes it (Z16)."""
        self.scores[player] += points
        tower = self.rules.tower_at[self.scores[player] % TRACK_LENGTH]
        if tower >= 0 and self.tower_token[tower]:
            self.tower_token[tower] = False
            self.pending_reveals.append(player)

    def _reveal(self, kind: int) -> None:
        player = self.pending_reveals.pop(0)
        self.token_pool[kind] -= 1
        self.tokens[player].append(HeldToken(kind, self.turn))
        if not self.pending_reveals:
            self._end_turn()

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

    def final_items(self) -> list[ScoreItem]:
        """Return the end-of-game breakdown for the current position (Z20)."""
        items = []
        meadows = sorted({self.find(f.node) for f in self.followers if self.kind[f.node] == FeatureKind.MEADOW})
        for root in meadows:
            owner = majority((self.fol0[root], self.fol1[root]))
            shrines = self.shrines[root]
            points = shrines * SHRINE_RATE if owner is not None else 0
            items.append(ScoreItem("meadow", owner, shrines, SHRINE_RATE, points, self.turn, self.cells[root]))
        area = self.largest_empty_area()
        owner = majority((self.family_size[0], self.family_size[1]))
        cells = self.family_cells[owner] if owner is not None else 0
        points = area if owner is not None else 0
        items.append(ScoreItem("family-house", owner, area, 1, points, self.turn, cells))
        return items

    def _finish(self) -> None:
        # Z20: tokens left on towers go back to the box; nothing more can be taken.
        self.tower_token = [False] * len(self.tower_token)
        for item in self.final_items():
            self.log.append(item)
            if item.player is not None:
                self.scores[item.player] += item.points
        self.drawn = -1
        self.phase = Phase.OVER

    # -------------------------------------------------------------- convenience

    def apply_all(self, actions: Iterable[Action]) -> None:
        """Apply a sequence of actions with checks."""
        for action in actions:
            self.play(action)
