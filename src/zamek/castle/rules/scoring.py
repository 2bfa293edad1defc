"""Scoring features as they close and at the end (Z13-Z18, Z20, F2-F8), at the rules' rates (``rates``), and the
previews of scoring that the views and the bots ask instead of restating a rule."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from typing import Final

from zamek.castle.rules.actions import Piece
from zamek.castle.rules.board import EMPTY, TRACK_LENGTH
from zamek.castle.rules.breakdown import ScoreItem
from zamek.castle.rules.features import FeatureView
from zamek.castle.rules.legality import Legality
from zamek.castle.rules.rates import RATES, Rates
from zamek.castle.rules.regions import majority
from zamek.castle.rules.setup import Phase
from zamek.castle.rules.tiles import FeatureKind
from zamek.castle.rules.tokens import DOUBLING_TOKENS, TokenKind

CHAPEL_POINTS: Final = RATES.chapel
"""F2: a complete chapel's points by its tiles, in the rulebook's rates (``rates.Rates.chapel``)."""


def chapel_points(tiles: int, rates: Rates = RATES) -> int:
    """Return the points of a complete chapel of ``tiles`` tiles (F2)."""
    return rates.chapel_points(tiles)


# ---------------------------------------------------------------------------------- a game's scoring

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


@dataclass(frozen=True, slots=True)
class MarkerMove:
    """Where a movement of a score marker ends (Z16, F8)."""

    score: int
    on_gate: bool
    tower: int | None
    """The tower whose token the movement takes, if it takes one."""


@dataclass(frozen=True, slots=True)
class OrderPreview:
    """What scoring one feature next would do (Z15): for the order question's choices."""

    owner: int | None
    points: int
    marker: int | None = None
    """Where the owner's marker ends."""
    tower: int | None = None
    """The tower whose token that movement takes, if any."""
    gate: bool = False
    """The movement stops on a gate (F8)."""


_OrderOutcome = tuple[int, bool, tuple[int, ...], int, int, int]
"""Where scoring a group can lead: (score, on a gate, towers emptied, house x2 and pigsty x2 held, other tokens)."""


class Scoring(Legality):
    """Scoring completed features as they close, the turn's end, and the final scoring (Z11-Z18, Z20, F2-F8).

    Scoring is resumable: completed regions wait in ``queue`` and are scored one at a time, pausing for
    the decisions the rules give the current player (the order, Z15; a x2 token, Z19) and for the reveal
    of a token taken on the way (Z16).
    """

    __slots__ = ()

    def feature_being_scored(self) -> FeatureView | None:
        """The feature scored next, while the order (Z15) or a x2 token (Z19) is being decided; else None."""
        return self.feature(self.queue[0]) if self.queue else None

    def order_choices(self) -> list[FeatureView]:
        """The features the player may have scored next (Z15), in the order of ``Order(k)``."""
        return [self.feature(root) for root in self.order_group()]

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
        rates = self.rules.rates
        details = []
        if kind is FeatureKind.CHAPEL:
            count = 1  # a chapel scores by its size, not by the tile (F2)
            rate = rates.chapel_points(tiles)
            details.append(f"chapel-size:{tiles}")
        else:
            rate, count = rates.complete_rate(kind, self.stocks[root]), tiles
            if kind is FeatureKind.ROAD and self.stocks[root]:
                details.append("stocks")
        multiplier = 1
        if owner is not None and self.prince[root] >> owner & 1:
            multiplier = rates.prince_factor
            details.append("prince")
        return count, rate, multiplier, details

    def _order_matters(self) -> bool:
        """Return whether the choice of the feature scored next could change anything (Z15, C3, C5, F8).

        Every order is played out on paper, with every use of the x2 tokens the player may choose and,
        where a token taken is usable at once (C3), every kind it may turn out to be. An outcome is the
        marker's final space (a gate under F8 can swallow points), the towers emptied, the x2 tokens of
        each kind still held and the other tokens revealed. The engine asks when two first choices can
        reach different outcomes (whatever follows them: the next choice is asked in its turn), and only
        then; otherwise it scores in its fixed order.
        """
        group = self.order_group()
        if len(group) < 2:
            return False
        reach_of_first: set[_OrderOutcome] | None = None
        for first in group:
            reach: set[_OrderOutcome] = set()
            for rest in permutations([root for root in group if root != first]):
                reach |= self._order_outcomes((first, *rest))
            if reach_of_first is None:
                reach_of_first = reach
            elif reach != reach_of_first:
                return True
        return False

    def _order_outcomes(self, order: tuple[int, ...]) -> set[_OrderOutcome]:
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
            token = DOUBLING_TOKENS.get(FeatureKind(self.kind[root]))
            # F4: a prince's doubling leaves no room for a token's; tokens double the mover's features only.
            eligible = owner == self.current and token is not None and not self.prince[root] >> owner & 1
            doubling.append(token if eligible else None)
        outcomes: set[_OrderOutcome] = set()
        house, pigsty = TokenKind.HOUSE_X2, TokenKind.PIGSTY_X2
        factor = self.rules.rates.token_factor

        def walk(i: int, score: int, on_gate: bool, towers: tuple[bool, ...], usable: dict[TokenKind, int],
                 pool: tuple[int, ...], emptied: tuple[int, ...], others: int) -> None:
            if i == len(order):
                outcomes.add((score, on_gate, tuple(sorted(emptied)), usable[house], usable[pigsty], others))
                return
            token = doubling[i]
            choices = [points[i]] + ([factor * points[i]] if token is not None and usable[token] else [])
            for gain in choices:
                spent = dict(usable)
                if gain != points[i]:
                    assert token is not None
                    spent[token] -= 1
                moved, gated = advance_marker(score, on_gate, gain, gates)
                tower = tower_at[moved % TRACK_LENGTH]
                if moved == score or gated or tower < 0 or not towers[tower]:
                    walk(i + 1, moved, gated, towers, spent, pool, emptied, others)
                    continue
                left = (*towers[:tower], False, *towers[tower + 1:])
                now = (*emptied, tower)
                if not same_turn:  # Z19: its kind matters from the next turn on, alike for every order
                    walk(i + 1, moved, gated, left, spent, pool, now, others + 1)
                    continue
                # C3: usable at once; what it turns out to be decides what the rest of the group can do.
                for kind in (house, pigsty):
                    if pool[kind]:
                        revealed = (*pool[:kind], pool[kind] - 1, *pool[kind + 1:])
                        walk(i + 1, moved, gated, left, {**spent, kind: spent[kind] + 1}, revealed, now, others)
                if sum(pool) > pool[house] + pool[pigsty]:
                    walk(i + 1, moved, gated, left, spent, pool, now, others + 1)

        usable = {t: self.usable_tokens(t) for t in DOUBLING_TOKENS.values()}
        walk(0, self.scores[owner], self.on_gate[owner], tuple(self.tower_token), usable,
             tuple(self.token_pool), (), 0)
        return outcomes

    def _score_head(self, doubled_by: TokenKind | None) -> None:
        """Score the region at the head of the queue (Z13, Z14, Z18, F2, F4, F5)."""
        root = self.queue.pop(0)
        self.head_chosen = False
        owner = self.region_owner(root)
        kind = FeatureKind(self.kind[root])
        count, rate, multiplier, details = self._base_points(root, owner)
        if doubled_by is not None:
            multiplier *= self.rules.rates.token_factor
            details.append(f"token:{int(doubled_by)}")
        if owner is None:
            if self.fol0[root] + self.fol1[root] == 0:
                return  # nobody stood on it: nothing to report (Z13)
            self.log.append(ScoreItem(kind.key, None, count, rate, 0, self.turn, self.cells[root], ",".join(details)))
            return
        points = count * rate * multiplier
        nests = self.region_nests[root] + (self.rules.rates.falconer_nests if self.falconer[root] >> owner & 1 else 0)
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
        score, on_gate, tower = self._marker_after(player, points)
        self.scores[player] = score
        if self.rules.gate_guard:
            self.on_gate[player] = on_gate
        if tower >= 0:
            self.tower_token[tower] = False
            self.pending_reveals.append(player)
        return score - before

    def _marker_after(self, player: int, points: int) -> tuple[int, bool, int]:
        """(score, on a gate, the tower whose token the movement takes or -1) after a movement (Z16, F8)."""
        before = self.scores[player]
        on_gate = self.on_gate[player]
        if self.rules.gate_guard:
            score, on_gate = advance_marker(before, on_gate, points, self.rules.gates)
        else:
            score = before + points
        if score == before or on_gate:
            return score, on_gate, -1
        tower = self.rules.tower_at[score % TRACK_LENGTH]
        return score, on_gate, tower if tower >= 0 and self.tower_token[tower] else -1

    # --------------------------------------------------------------------- previews (for the views and the bots)

    def marker_move(self, player: int, points: int) -> MarkerMove:
        """Where ``player``'s marker would end after a movement of ``points``, without moving it (Z16, F8)."""
        score, on_gate, tower = self._marker_after(player, points)
        return MarkerMove(score, on_gate, tower if tower >= 0 else None)

    def worth(self, feature: FeatureView) -> int:
        """What ``feature`` is worth to its controller: a road, house, pigsty or chapel complete (now, or were it
        completed now; Z14, F2), a meadow at the end (its shrines, Z20); times the controller's prince (F4).
        Before a x2 token (Z19)."""
        rates = self.rules.rates
        if feature.kind is FeatureKind.MEADOW:
            points = feature.shrines * rates.shrine
        else:
            points = rates.complete_points(feature.kind, feature.tiles, feature.stocks)
        if feature.controller is not None and feature.prince_of(feature.controller):
            points *= rates.prince_factor
        return points

    def order_preview(self, feature: FeatureView) -> OrderPreview:
        """What scoring ``feature`` next does (Z15, Z16, F8): its points, where its owner's marker ends, the tower
        whose token that movement takes, and whether it stops on a gate. A x2 token left aside (it is asked after)."""
        owner = feature.controller
        if owner is None:
            return OrderPreview(None, 0)
        points = self.worth(feature)
        move = self.marker_move(owner, points)
        gate = move.on_gate if self.rules.gate_guard else False
        return OrderPreview(owner, points, move.score, move.tower, gate)

    def token_tower_ahead(self, player: int, reach: int) -> bool:
        """Whether a tower still holding its token lies 1 to ``reach`` numbers ahead of ``player``'s marker (Z16;
        the track's gates aside)."""
        position = self.scores[player]
        tower_at = self.rules.tower_at
        for step in range(1, reach + 1):
            tower = tower_at[(position + step) % TRACK_LENGTH]
            if tower >= 0 and self.tower_token[tower]:
                return True
        return False

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

    def _end_turn(self) -> None:
        if not self.remaining:
            self._finish()
            return
        self.current = 1 - self.current
        self.turn += 1
        self.phase = Phase.DRAW

    # --------------------------------------------------------------------- final scoring

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
        """Return the end-of-game breakdown for the current position (Z20, Z19 end tokens, F6).

        End tokens are applied in their owner's best interest; two tokens of one kind go on
        different features.
        """
        items: list[ScoreItem] = []
        turn = self.turn
        rates = self.rules.rates
        # Ordered by the spaces they cover, not by node number: a position rebuilt from text scores alike.
        roots = {self.find(f.node) for f in self.followers if self.kind[f.node] == FeatureKind.MEADOW}
        meadows = sorted(roots, key=self.place_key)
        upgraded = self._meadows_upgraded(meadows)
        for root in meadows:
            owner = self.region_owner(root)
            shrines = self.shrines[root]
            details = []
            rate = rates.shrine
            multiplier = 1
            if owner is not None:
                multiplier = self._prince_factor(root, owner)
                if self.prince[root] >> owner & 1:
                    details.append("prince")
                if root in upgraded:
                    rate = rates.meadow_token
                    details.append(f"token:{int(TokenKind.MEADOW_4)}")
            points = shrines * rate * multiplier if owner is not None else 0
            items.append(ScoreItem("meadow", owner, shrines, rate, points, turn, self.cells[root],
                                   ",".join(details), multiplier, final=True))
        area = self.largest_empty_area()
        sizes = self._family_sizes()
        owner = majority((sizes[0], sizes[1]))
        detail = ""
        if owner is not None and sizes[owner] != self.family_size[owner]:
            detail = f"token:{int(TokenKind.FAMILY_PLUS_2)}"
        worth = area * rates.empty_space
        items.append(ScoreItem("family-house", owner, area, rates.empty_space, worth if owner is not None else 0, turn,
                               self.family_cells[owner] if owner is not None else 0, detail, final=True))
        for player in (0, 1):
            items.extend(self._end_token_items(player, turn))
        if self.rules.sokol:
            owner = majority((self.nests[0], self.nests[1]))
            items.append(ScoreItem("nests", owner, area, rates.empty_space, worth if owner is not None else 0, turn,
                                   final=True))
        return items

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
