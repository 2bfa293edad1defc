"""The games the match service plays, by the name a match stores."""

from __future__ import annotations

from typing import Final

from zamek.server.games import GameKind
from zamek.server.games.castle import CASTLE
from zamek.server.games.knights import KNIGHTS

KINDS: Final[dict[str, GameKind]] = {kind.name: kind for kind in (CASTLE, KNIGHTS)}


def kind_of(name: str) -> GameKind:
    """The adapter of a game by its kind's name (KeyError: a game this program does not know)."""
    return KINDS[name]
