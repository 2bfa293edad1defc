"""Actions of Rycerze i zamki: small immutable values with a text notation and a stable integer index.

Player actions (the player is the one the game waits for, ``state.current``):

- ``Choose(a, b)`` lays two cards face down for the castle on the table (K4); text
  ``play:dragon+shepherd``. The pair is kept in card order (``Choose(SHEPHERD, DRAGON)``
  is ``Choose(DRAGON, SHEPHERD)``), so ``parse_action(str(a)) == a``.
- ``Recruit(card)`` takes an army card from the camp back to the hand (K5); text ``recruit:knight``.

Chance outcome (recorded in saved games like actions):

- ``Draw(tile)`` the tile revealed this round; text ``draw:brick-big``.

Indices: ``Choose`` 0..21 (the 21 pairs of different cards and the two shepherds),
``Recruit`` 22..27.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from zamek.i18n import Term
from zamek.kit.errors import MalformedActionError
from zamek.knights.rules.cards import ARMY, TILES, Card


@dataclass(frozen=True, slots=True, init=False)
class Choose:
    """Lay two cards face down for the castle on the table (K4)."""

    first: Card
    second: Card

    def __init__(self, a: Card, b: Card) -> None:
        low, high = (a, b) if a <= b else (b, a)
        object.__setattr__(self, "first", Card(low))
        object.__setattr__(self, "second", Card(high))

    @property
    def cards(self) -> tuple[Card, Card]:
        return self.first, self.second

    def __str__(self) -> str:
        return f"play:{self.first.key}+{self.second.key}"

    @property
    def index(self) -> int:
        return _CHOICE_INDEX[(self.first, self.second)]


@dataclass(frozen=True, slots=True)
class Recruit:
    """Take an army card from the camp back into the hand (K5)."""

    card: Card

    def __str__(self) -> str:
        return f"recruit:{self.card.key}"

    @property
    def index(self) -> int:
        return RECRUIT_BASE + self.card


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the tile revealed at the start of a round (K3, K4)."""

    tile: str

    def __str__(self) -> str:
        return f"draw:{self.tile}"


PlayerAction = Choose | Recruit
Action = PlayerAction | Draw

ALL_CHOICES: Final = tuple(
    Choose(a, b) for a in Card for b in Card if a < b or (a == b and a is Card.SHEPHERD)
)
"""Every pair a player could lay down, in index order."""
_CHOICE_INDEX: Final = {(c.first, c.second): i for i, c in enumerate(ALL_CHOICES)}
RECRUIT_BASE: Final = len(ALL_CHOICES)
ACTION_COUNT: Final = RECRUIT_BASE + len(ARMY)

_CARD: Final = r"([a-z-]+)"
_CHOOSE: Final = re.compile(rf"^play:{_CARD}\+{_CARD}$")
_RECRUIT: Final = re.compile(rf"^recruit:{_CARD}$")
_DRAW: Final = re.compile(r"^draw:([a-z-]+)$")


def parse_card(text: str) -> Card:
    """Return the card named ``text`` (``dragon``, ``mounted-knight``…); raise MalformedActionError."""
    try:
        return Card.from_key(text)
    except KeyError:
        raise MalformedActionError("not-a-card", "K1", text=text, cards=[c.key for c in Card]) from None


def parse_action(text: str) -> Action:
    """Parse an action from its notation; raise MalformedActionError otherwise."""
    if not isinstance(text, str):
        raise MalformedActionError("action-not-text", type=type(text).__name__)
    t = text.strip().lower()
    if m := _CHOOSE.match(t):
        a, b = parse_card(m.group(1)), parse_card(m.group(2))
        if a == b and a is not Card.SHEPHERD:
            raise MalformedActionError("card-twice", "K1", text=text, card=Term(f"card.{a.key}"))
        return Choose(a, b)
    if m := _RECRUIT.match(t):
        card = parse_card(m.group(1))
        if not card.is_army:
            raise MalformedActionError("shepherd-to-camp", "K4", text=text)
        return Recruit(card)
    if m := _DRAW.match(t):
        if m.group(1) not in TILES:
            raise MalformedActionError("no-such-card-tile", "K3", text=text, tiles=list(TILES))
        return Draw(m.group(1))
    raise MalformedActionError("not-a-knights-action", text=text)


def action_from_index(index: int) -> PlayerAction:
    """Return the player action with a given integer index."""
    if 0 <= index < RECRUIT_BASE:
        return ALL_CHOICES[index]
    if RECRUIT_BASE <= index < ACTION_COUNT:
        return Recruit(Card(index - RECRUIT_BASE))
    raise MalformedActionError("not-an-action-index", index=int(index), last=ACTION_COUNT - 1)
