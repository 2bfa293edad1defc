"""Legality: where a tile may go (Z7), which figures may go where (Z9, Z10, F3), what may be played now.

The checked ``play`` and the fast ``apply`` share these tables: ``check`` only explains a refusal.
"""

from __future__ import annotations

from typing import Final

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
from zamek.i18n import Message, Term


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
            raise MalformedActionError("not-an-action-value", value=repr(action))
        phase = self.phase
        if phase is Phase.OVER:
            raise IllegalActionError("game-over", "Z20")
        if isinstance(action, (Draw, Reveal)):
            if not any(action == outcome for outcome, _ in self.chance_outcomes()):
                if not self.is_chance():
                    raise IllegalActionError("no-chance-due", action=str(action))
                raise IllegalActionError("impossible-outcome", "Z3" if phase is Phase.DRAW else "Z4",
                                         action=str(action))
            return
        if self.is_chance():
            raise IllegalActionError("waiting-for-chance", action=str(action),
                                     chance="draw" if phase is Phase.DRAW else "reveal")
        if isinstance(action, Place):
            if phase is not Phase.PLACE:
                raise self._not_now(action)
            self._check_place(action)
            return
        if isinstance(action, (Follower, Pass)):
            if phase is not Phase.FOLLOWER:
                raise self._not_now(action)
            if isinstance(action, Follower):
                self._check_follower(action)
            return
        if action not in self.legal_actions():
            raise self._not_now(action)

    def _not_now(self, action: Action) -> IllegalActionError:
        """The refusal of an action that does not fit the moment: it says what the game waits for."""
        key, rule = _WAITING.get(self.phase, ("nothing", None))
        return IllegalActionError("not-now", rule, action=str(action), waiting=Message(f"error.waiting.{key}"))

    def _check_place(self, action: Place) -> None:
        castle = self.castle
        if not (0 <= action.rotation < 4):
            raise MalformedActionError("bad-rotation", "Z6", action=str(action))
        if not (0 <= action.x < castle.width and 0 <= action.y < castle.height):
            raise IllegalActionError("outside-castle", "Z6", action=str(action))
        cell = castle.cell(action.x, action.y)
        name = castle.name_of(cell)
        if self.status[cell] == WALL:
            raise IllegalActionError("not-a-castle-space", "Z6", action=str(action), space=name)
        if self.status[cell] == TAKEN:
            raise IllegalActionError("space-taken", "Z6", action=str(action), space=name)
        mask = self.need_mask[cell]
        if not mask:
            raise IllegalActionError("tile-not-adjacent", "Z7", action=str(action))
        road = self.tiles.tiles[self.drawn].orientations[action.rotation].road_sides
        bad = (road ^ self.need_road[cell]) & mask
        if bad:
            side = Side((bad & -bad).bit_length() - 1)
            raise IllegalActionError(
                "road-mismatch", "Z7", action=str(action), side=side.name,
                mine="road" if road >> side & 1 else "none",
                theirs="road" if self.need_road[cell] >> side & 1 else "none",
            )

    def _check_follower(self, action: Follower) -> None:
        tile = self.tiles.tiles[self.placements[-1][1]]
        player = self.current
        if not 0 <= action.feature < len(tile.features):
            raise IllegalActionError("no-such-feature", "Z9", action=str(action), tile=tile.id,
                                     last=len(tile.features) - 1)
        piece = action.piece
        if piece is not Piece.FOLLOWER and not self.rules.sokol:
            raise IllegalActionError("sokol-only", "F1", action=str(action))
        left = {Piece.FOLLOWER: self.supply, Piece.PRINCE: self.princes, Piece.FALCONER: self.falconers}[piece]
        if not left[player]:
            raise IllegalActionError("no-piece-left", "Z9", action=str(action), piece=Term(f"term.{piece.key}"))
        root = self.region_of(self.placements[-1][0], action.feature)
        if self.fol0[root] + self.fol1[root]:
            kind = tile.features[action.feature].kind.key
            raise IllegalActionError("feature-occupied", "Z10", action=str(action), kind=Term(f"term.{kind}"))
        if action.feature not in [i for i, _ in self._free_features()]:
            raise IllegalActionError("feature-joined", "Z9", action=str(action))
        if piece not in self._pieces_for(root):
            raise IllegalActionError("completed-feature", "F3", action=str(action), piece=Term(f"term.{piece.key}"))


_WAITING: Final[dict[Phase, tuple[str, str | None]]] = {
    Phase.PLACE: ("place-tile", "Z6"),
    Phase.FOLLOWER: ("place-follower", "Z9"),
    Phase.ORDER: ("order", "Z15"),
    Phase.DOUBLE: ("double", "Z19"),
    Phase.EXTRA_TURN: ("extra-turn", "Z19"),
}
"""What the game waits for in each phase a player acts in (``error.waiting.<key>``), and the rule that says so."""
