"""Special tokens (Zamek) / wall tiles (The Castle 2003): kinds, numbering per edition, timing.

Kinds are identified in code and records by their Zamek number (Z19). The 2003
edition prints other numbers on the same effects (C4); ``printed_number`` maps them.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from zamek.editions import edition_of


class TokenKind(IntEnum):
    """A token's effect, numbered as in Zamek."""

    EXTRA_TURN = 1
    HOUSE_X2 = 2
    PIGSTY_X2 = 3
    MEADOW_4 = 4
    FAMILY_PLUS_2 = 5
    FIVE_POINTS = 6
    OPEN_HOUSE = 7
    OPEN_PIGSTY = 8
    OPEN_ROAD = 9

    @property
    def key(self) -> str:
        return self.name.lower().replace("_", "-")


END_KINDS: Final = frozenset(TokenKind) - {TokenKind.EXTRA_TURN, TokenKind.HOUSE_X2, TokenKind.PIGSTY_X2}

# C4: the number printed on each 2003 wall tile, by effect.
_CASTLE2003_NUMBERS: Final = {
    TokenKind.EXTRA_TURN: 1,
    TokenKind.PIGSTY_X2: 2,
    TokenKind.HOUSE_X2: 3,
    TokenKind.OPEN_ROAD: 4,
    TokenKind.OPEN_PIGSTY: 5,
    TokenKind.OPEN_HOUSE: 6,
    TokenKind.MEADOW_4: 7,
    TokenKind.FAMILY_PLUS_2: 8,
    TokenKind.FIVE_POINTS: 9,
}

def printed_number(kind: TokenKind, edition: str) -> int:
    """Return the number printed on a token of ``kind`` in ``edition``."""
    return _CASTLE2003_NUMBERS[kind] if edition_of(edition).numbers_tokens_its_own_way else int(kind)


def kind_from_printed(number: int, edition: str) -> TokenKind:
    """Return the kind of the token printed with ``number`` in ``edition``."""
    for kind in TokenKind:
        if printed_number(kind, edition) == number:
            return kind
    raise ValueError(f"no token is numbered {number}")


def usable_same_turn(edition: str) -> bool:
    """Return whether a token may be used in the turn it was taken (C3 yes, Z19 no)."""
    return edition_of(edition).tokens_usable_same_turn
