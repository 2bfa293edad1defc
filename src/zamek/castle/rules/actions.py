"""Actions: small immutable values with a text notation and a stable integer index.

Player actions:

- ``Place(x, y, rotation)`` puts the drawn tile on a space, turned ``rotation``
  quarter turns clockwise; text ``e10/90``.
- ``Follower(feature, piece)`` puts a follower on feature ``feature`` (its index in
  the tile's data) of the tile just placed; text ``follower:2`` (``prince:2``,
  ``falconer:2`` with Sokół).
- ``Pass()`` places no follower; text ``pass``.
- ``Order(k)`` scores the k-th of the features waiting to be scored next, when the
  order matters (Z15); text ``order:1``.
- ``UseToken(kind)`` uses a held special token now (kind in Zamek numbering, Z19);
  text ``use:2``. ``Decline()`` keeps it; text ``decline``.

Chance outcomes (recorded in saved games like actions):

- ``Draw(tile)`` the tile drawn; text ``draw:Z17``.
- ``Reveal(kind)`` the kind of a token taken from a tower; text ``reveal:4``.

Integer indices are stable across versions: ``Place`` uses 0..1023 (a 16x16 grid of
spaces times 4 rotations), ``Follower`` 1024..1059, ``Pass`` 1060, ``Order`` 1061..1076,
``UseToken`` 1077..1085, ``Decline`` 1086; up to 1099 is reserved.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from zamek.castle.rules.errors import MalformedActionError
from zamek.castle.rules.geometry import parse_space, space_name


class Piece(IntEnum):
    """Which figure a player puts on a feature."""

    FOLLOWER = 0
    PRINCE = 1
    FALCONER = 2

    @property
    def key(self) -> str:
        return self.name.lower()


GRID: Final = 16
PLACE_BASE: Final = 0
FOLLOWER_BASE: Final = GRID * GRID * 4
PASS_INDEX: Final = FOLLOWER_BASE + 12 * len(Piece)
ORDER_BASE: Final = PASS_INDEX + 1
MAX_ORDER: Final = 16
USE_BASE: Final = ORDER_BASE + MAX_ORDER
DECLINE_INDEX: Final = USE_BASE + 9
ACTION_COUNT: Final = 1100
"""Size of the player action space, including the reserved range."""


@dataclass(frozen=True, slots=True)
class Place:
    """Put the drawn tile on space (x, y), turned ``rotation`` quarter turns clockwise."""

    x: int
    y: int
    rotation: int

    def __str__(self) -> str:
        return f"{space_name(self.x, self.y)}/{90 * self.rotation}"

    @property
    def index(self) -> int:
        return PLACE_BASE + (self.y * GRID + self.x) * 4 + self.rotation


@dataclass(frozen=True, slots=True)
class Follower:
    """Put a follower (or a Sokół figure) on a feature of the tile just placed."""

    feature: int
    piece: Piece = Piece.FOLLOWER

    def __str__(self) -> str:
        return f"{self.piece.key}:{self.feature}"

    @property
    def index(self) -> int:
        return FOLLOWER_BASE + self.feature * len(Piece) + self.piece


@dataclass(frozen=True, slots=True)
class Pass:
    """Place no follower."""

    def __str__(self) -> str:
        return "pass"

    @property
    def index(self) -> int:
        return PASS_INDEX


@dataclass(frozen=True, slots=True)
class Order:
    """Score the ``choice``-th feature waiting to be scored next (Z15)."""

    choice: int

    def __str__(self) -> str:
        return f"order:{self.choice}"

    @property
    def index(self) -> int:
        return ORDER_BASE + self.choice


@dataclass(frozen=True, slots=True)
class UseToken:
    """Use a held special token of ``kind`` (Zamek numbering) now."""

    kind: int

    def __str__(self) -> str:
        return f"use:{self.kind}"

    @property
    def index(self) -> int:
        return USE_BASE + self.kind - 1


@dataclass(frozen=True, slots=True)
class Decline:
    """Do not use the token the game offers now."""

    def __str__(self) -> str:
        return "decline"

    @property
    def index(self) -> int:
        return DECLINE_INDEX


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the tile drawn from the pile."""

    tile: str

    def __str__(self) -> str:
        return f"draw:{self.tile}"


@dataclass(frozen=True, slots=True)
class Reveal:
    """Chance: the kind of a special token taken from a tower."""

    kind: int

    def __str__(self) -> str:
        return f"reveal:{self.kind}"


PlayerAction = Place | Follower | Pass | Order | UseToken | Decline
ChanceOutcome = Draw | Reveal
Action = PlayerAction | ChanceOutcome

_PLACE: Final = re.compile(r"^([a-z][0-9]{1,2})/(0|90|180|270)$")
_FOLLOWER: Final = re.compile(r"^(follower|prince|falconer):([0-9]|1[01])$")
_DRAW: Final = re.compile(r"^draw:([A-Za-z0-9_-]+)$")
_REVEAL: Final = re.compile(r"^reveal:([1-9])$")
_ORDER: Final = re.compile(r"^order:([0-9]|1[0-5])$")
_USE: Final = re.compile(r"^use:([1-9])$")


def parse_action(text: str) -> Action:
    """Parse an action from its text notation; raise MalformedActionError otherwise."""
    if not isinstance(text, str):
        raise MalformedActionError("action-not-text", type=type(text).__name__)
    t = text.strip().lower()
    if t == "pass":
        return Pass()
    if t == "decline":
        return Decline()
    if m := _ORDER.match(t):
        return Order(int(m.group(1)))
    if m := _USE.match(t):
        return UseToken(int(m.group(1)))
    if m := _PLACE.match(t):
        try:
            x, y = parse_space(m.group(1))
        except ValueError:
            raise MalformedActionError("no-such-space", text=text) from None
        if not (0 <= x < GRID and 0 <= y < GRID):
            raise MalformedActionError("no-such-space", text=text)
        return Place(x, y, int(m.group(2)) // 90)
    if m := _FOLLOWER.match(t):
        return Follower(int(m.group(2)), Piece[m.group(1).upper()])
    if m := _DRAW.match(text.strip()):
        return Draw(m.group(1).upper())
    if m := _REVEAL.match(t):
        return Reveal(int(m.group(1)))
    raise MalformedActionError("not-an-action", text=text)


def action_from_index(index: int) -> PlayerAction:
    """Return the player action with a given integer index."""
    if PLACE_BASE <= index < FOLLOWER_BASE:
        cell, rotation = divmod(index - PLACE_BASE, 4)
        y, x = divmod(cell, GRID)
        return Place(x, y, rotation)
    if FOLLOWER_BASE <= index < PASS_INDEX:
        feature, piece = divmod(index - FOLLOWER_BASE, len(Piece))
        return Follower(feature, Piece(piece))
    if index == PASS_INDEX:
        return Pass()
    if ORDER_BASE <= index < USE_BASE:
        return Order(index - ORDER_BASE)
    if USE_BASE <= index < DECLINE_INDEX:
        return UseToken(index - USE_BASE + 1)
    if index == DECLINE_INDEX:
        return Decline()
    raise MalformedActionError("not-an-action-index", index=int(index), last=DECLINE_INDEX)
