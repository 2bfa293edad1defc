"""The editions of the game, as a typed value: what differs between Zamek (2020) and The Castle (2003).

Everything that depends on the edition asks an ``Edition`` here, instead of comparing names.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from zamek.kit.errors import SetupError


class Edition(StrEnum):
    """An edition of the base game (RULES.md sections Z and C). Its value is the name used in records."""

    ZAMEK = "zamek"
    CASTLE_2003 = "castle2003"

    @property
    def tokens_usable_same_turn(self) -> bool:
        """C3: a 2003 wall tile may be used in the turn it was taken; a Zamek token from the next turn (Z19)."""
        return self is Edition.CASTLE_2003

    @property
    def open_road_token_counts_stocks(self) -> bool:
        """C4: the 2003 unfinished-path wall tile counts 2 a tile beside a fountain; Zamek's token 9 does not."""
        return self is Edition.CASTLE_2003

    @property
    def numbers_tokens_its_own_way(self) -> bool:
        """C4: the 2003 wall tiles are numbered otherwise than Zamek's tokens."""
        return self is Edition.CASTLE_2003


EDITIONS: Final = tuple(e.value for e in Edition)
"""The editions' names, in a fixed order (the default first)."""


def edition_of(name: str | Edition) -> Edition:
    """Return the edition named ``name``; raise SetupError (a ValueError) naming the known ones."""
    try:
        return Edition(name)
    except ValueError:
        raise SetupError("unknown-edition", name=str(name), known=list(EDITIONS)) from None
