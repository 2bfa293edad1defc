"""What one player of Rycerze i zamki may see (K8): :class:`View`, and the pairs of cards a hand can lay."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from zamek.knights.rules.actions import ALL_CHOICES, PlayerAction, Recruit
from zamek.knights.rules.cards import ARMY, CardTable
from zamek.knights.rules.events import Event
from zamek.knights.rules.phase import Phase

if TYPE_CHECKING:
    from zamek.knights.rules.engine import KnightsSetup


@dataclass(frozen=True, slots=True)
class View:
    """Everything one player may see (K8): the open table, their own cards, and the public history.

    The other players' hands and camps are given only as sizes (what they played is in ``events``,
    from which :mod:`zamek.knights.rules.knowledge` deduces what they can hold); their pending choices
    only as whether they have chosen.
    """

    setup: KnightsSetup
    table: CardTable
    player: int
    phase: Phase
    round: int
    current: int
    tile: str | None
    drawn: tuple[str, ...]
    unseen: tuple[str, ...]
    """Tiles not yet turned up, sorted; one of them stays in the box."""
    points: tuple[int, ...]
    castles: tuple[tuple[str, ...], ...]
    sword: int
    hand: tuple[int, ...]
    """The viewer's hand: how many of each card (indexed by ``Card``)."""
    camp: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    camp_sizes: tuple[int, ...]
    chosen: tuple[bool, ...]
    """Who has already chosen in this round's secret choice."""
    my_choice: PlayerAction | None
    events: tuple[Event, ...]

    def legal_actions(self) -> list[PlayerAction]:
        """Return the viewer's possible actions now (empty unless the game waits for the viewer)."""
        if self.current != self.player:
            return []
        if self.phase is Phase.CHOOSE:
            return choices_from(self.hand)
        if self.phase is Phase.RECRUIT:
            return [Recruit(c) for c in ARMY if self.camp[c]]
        return []


def choices_from(hand: Sequence[int]) -> list[PlayerAction]:
    """Return every pair of cards that can be laid from a hand (counts per card)."""
    return [
        c for c in ALL_CHOICES
        if hand[c.first] and hand[c.second] and (c.first != c.second or hand[c.first] >= 2)
    ]
