"""Legality: where a tile may go (Z7), which figures may go where (Z9, Z10, F3), what may be played now.

The checked ``play`` and the fast ``apply`` share these tables: ``check`` only explains a refusal.
"""

from __future__ import annotations

from zamek.castle.rules.actions import (
    Action,
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
from zamek.castle.rules.board import EMPTY, TAKEN, WALL
from zamek.castle.rules.chance import Chance
from zamek.castle.rules.errors import IllegalActionError, MalformedActionError
from zamek.castle.rules.geometry import Side
from zamek.castle.rules.setup import Phase
from zamek.castle.rules.tokens import TokenKind


class Legality(Chance):
    """The legal actions, and the reasons for refusing the others."""

    __slots__ = ()

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
