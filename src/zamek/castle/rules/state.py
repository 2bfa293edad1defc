"""The game state of the castle game: creation, copying, and the turn's flow (Z6-Z9).

``GameState`` is mutable on purpose: ``apply`` changes it in place (fast, checks nothing, for search and
replays of trusted records) and ``play`` checks legality first and raises :class:`IllegalActionError` or
:class:`MalformedActionError` with a message a person can act on. ``copy`` is cheap (flat lists), so
search copies a state and applies actions to the copy.

Each concern lives in its own module, as a layer of the class: regions (:mod:`zamek.castle.rules.regions`),
tokens (:mod:`zamek.castle.rules.tokens`), legality (:mod:`zamek.castle.rules.legality`), scoring
(:mod:`zamek.castle.rules.scoring`), chance (:mod:`zamek.castle.rules.chance`); the fields are in
:mod:`zamek.castle.rules.fields`.
"""

from __future__ import annotations

from dataclasses import replace

from zamek.castle.rules.actions import Action, Decline, Draw, Follower, Order, Pass, Piece, Place, Reveal, UseToken
from zamek.castle.rules.board import EMPTY, TAKEN, WALL
from zamek.castle.rules.errors import MalformedActionError
from zamek.castle.rules.geometry import FACING, MIDDLE_SEGMENTS, side_segments
from zamek.castle.rules.scoring import Scoring
from zamek.castle.rules.setup import (
    FOLLOWERS_IN_SUPPLY,
    PLAYERS,
    TOKEN_KINDS,
    TOKENS_PER_KIND,
    HeldToken,
    Phase,
    PlacedFollower,
    Result,
    Rules,
    Setup,
)
from zamek.castle.rules.tiles import SCORED_KINDS, FeatureKind
from zamek.castle.rules.tokens import TokenKind
from zamek.kit.protocol import CHANCE, TERMINAL


class GameState(Scoring):
    """A position of a Zamek game. Mutable: see the module docstring."""

    __slots__ = ()

    @classmethod
    def new(cls, setup: Setup, rules: Rules) -> GameState:
        """Return the position before the first draw, with the rules the setup is played with.

        ``zamek.castle.data.loader.new_game(setup)`` reads those rules from the data files; tests may build their own.
        """
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
        return type(self)(
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

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    # ------------------------------------------------------- the game protocol (zamek.kit.protocol)

    @property
    def num_players(self) -> int:
        return PLAYERS

    @property
    def current_player(self) -> int:
        """The player to move; ``CHANCE`` while a tile or token is to be drawn; ``TERMINAL`` at the end."""
        if self.phase is Phase.OVER:
            return TERMINAL
        return CHANCE if self.is_chance() else self.current

    def returns(self) -> tuple[float, ...]:
        """1 to the winner at the end, a half each on a shared victory (Z21); nothing before the end."""
        result = self.result()
        if result is None:
            return (0.0,) * PLAYERS
        return tuple(1 / len(result.winners) if p in result.winners else 0.0 for p in range(PLAYERS))

    def view(self, player: int) -> GameState:
        """What ``player`` may see: the whole position (open information, Z22) but never a fixed draw order."""
        seen = self.copy()
        seen.setup = replace(self.setup, draw_order=None)
        return seen

    def result(self) -> Result | None:
        if self.phase is not Phase.OVER:
            return None
        s = (self.scores[0], self.scores[1])
        winners = (0,) if s[0] > s[1] else (1,) if s[1] > s[0] else (0, 1)
        return Result(s, winners)

    def play(self, action: Action) -> None:
        """Apply an action after checking it; raise a ZamekError that explains a refusal."""
        self.check(action)
        self.apply(action)

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
            raise MalformedActionError("not-an-action-value", value=repr(action))

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

    def _reveal(self, kind: int) -> None:
        player = self.pending_reveals.pop(0)
        self.token_pool[kind] -= 1
        self.tokens[player].append(HeldToken(kind, self.turn))
        self._continue_scoring()
