"""Creating matches: a castle game (against the computer, at one screen, against a friend) and a game of Rycerze i
zamki (people at one screen, friends, computer players)."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from zamek import Setup
from zamek.castle.bots.levels import OFFERED_LEVELS
from zamek.knights.rules.engine import KnightsSetup
from zamek.server.clock import ClockSettings
from zamek.server.errors import ServiceError
from zamek.server.games.castle import CASTLE, COMPUTER, FRIEND, players_for
from zamek.server.games.knights import KNIGHTS
from zamek.server.live import Created
from zamek.server.seats import SeatPlayer, clean_name

if TYPE_CHECKING:
    from zamek.server.sessions import Sessions


def create(sessions: Sessions, mode: str, level: str | None, seat: str, setup: Setup, seed: int | None = None,
           clock: ClockSettings | None = None, name: str | None = None, friend: str | None = None,
           hints: bool = False, listed: bool = False) -> Created:
    """Start a castle game: against the computer (``level``, the person's ``seat``), for two people at one
    screen, or against a friend who opens the invitation (``seat`` is the creator's; ``hints``: both may ask
    for hints; ``listed``: among the live games anyone may watch)."""
    human: int | None = None
    mine = {"first": 0, "second": 1}.get(seat, secrets.randbelow(2))
    players: list[SeatPlayer] = ["person", "person"]
    if mode == COMPUTER:
        if level not in OFFERED_LEVELS:
            raise ServiceError(422, "invalid", "unknown-level", level=str(level), levels=list(OFFERED_LEVELS))
        human = mine
        players[1 - mine] = "computer"
    else:
        level = None
    if mode == FRIEND:
        players[1 - mine] = "open"
    elif clock is not None:
        raise ServiceError(422, "invalid", "clocks-friend")
    elif listed:
        raise ServiceError(422, "invalid", "listed-friends")
    names: list[str | None] = [None, None]
    names[mine] = clean_name(name)
    if mode == FRIEND:
        names[1 - mine] = clean_name(friend)  # a rematch's seat waits for a known player
    return sessions.start(CASTLE, mode, players_for(mode, level, human), players, setup, seed, clock, names,
                          level=level, human=human, hints=hints and mode == FRIEND, listed=listed)


def create_knights(sessions: Sessions, kinds: list[str], seed: int | None = None, clock: ClockSettings | None = None,
                   name: str | None = None, names: list[str | None] | None = None, listed: bool = False
                   ) -> Created:
    """Start a game of Rycerze i zamki: each seat's player is 'person' (at the creator's screen), 'friend' (who
    opens the invitation) or a computer player; ``listed``: among the live games anyone may watch."""
    if clock is not None and "friend" not in kinds:
        raise ServiceError(422, "invalid", "clocks-friends")
    if listed and "friend" not in kinds:
        raise ServiceError(422, "invalid", "listed-friends")
    seats: list[SeatPlayer] = ["person" if k == "person" else "open" if k == "friend" else "computer"
                               for k in kinds]
    if names is None:
        first = kinds.index("person") if "person" in kinds else -1
        names = [clean_name(name) if i == first else None for i in range(len(kinds))]
    return sessions.start(KNIGHTS, "table", list(kinds), seats, KnightsSetup(players=len(kinds)), seed, clock, names,
                          listed=listed)

