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
from zamek.server.games.castle import CASTLE, COMPUTER, FRIEND, HOTSEAT, players_for
from zamek.server.games.knights import KNIGHTS
from zamek.server.live import Created, LiveGame
from zamek.server.players import Player
from zamek.server.seats import SeatPlayer, clean_name, seats_for
from zamek.server.tables import now

if TYPE_CHECKING:
    from zamek.server.sessions import Sessions


def create(sessions: Sessions, mode: str, level: str | None, seat: str, setup: Setup, seed: int | None = None,
           clock: ClockSettings | None = None, name: str | None = None, friend: str | None = None,
           hints: bool = False, player: Player | None = None, rated: bool = False,
           listed: bool = False) -> Created:
    """Start a castle game: against the computer (``level``, the person's ``seat``), for two people at one
    screen, or against a friend who opens the invitation (``seat`` is the creator's; ``hints``: both may ask
    for hints). A ``player`` creating a game against the computer or a friend holds their seat as that player
    (their name is the seat's); ``rated``: a game against a friend who must join as a player too; ``listed``: among
    the live games anyone may watch."""
    check_rated(rated, player, mode == FRIEND, hints)
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
    names[mine] = player.name if player is not None and mode != HOTSEAT else clean_name(name)
    if mode == FRIEND:
        names[1 - mine] = clean_name(friend)  # a rematch's seat waits for a known player
    bound = {mine: player.token_digest} if player is not None and mode != HOTSEAT else None
    return sessions.start(CASTLE, mode, players_for(mode, level, human), players, setup, seed, clock, names,
                          level=level, human=human, hints=hints and mode == FRIEND, bound=bound, rated=rated,
                          listed=listed)


def check_rated(rated: bool, player: Player | None, with_friend: bool, hints: bool) -> None:
    """A rated game is asked by a player, against one friend, without hints (422 otherwise)."""
    if not rated:
        return
    if player is None:
        raise ServiceError(401, "no-player", "rated-needs-player")
    if not with_friend:
        raise ServiceError(422, "invalid", "rated-friend-only")
    if hints:
        raise ServiceError(422, "invalid", "rated-no-hints")


def create_knights(sessions: Sessions, kinds: list[str], seed: int | None = None, clock: ClockSettings | None = None,
                   name: str | None = None, names: list[str | None] | None = None, player: Player | None = None,
                   rated: bool = False, listed: bool = False) -> Created:
    """Start a game of Rycerze i zamki: each seat's player is 'person' (at the creator's screen), 'friend' (who
    opens the invitation) or a computer player. A ``player`` with one seat at this screen holds it as that player;
    ``rated``: a player against one friend; ``listed``: among the live games anyone may watch."""
    check_rated(rated, player, sorted(kinds) == ["friend", "person"], False)
    if clock is not None and "friend" not in kinds:
        raise ServiceError(422, "invalid", "clocks-friends")
    if listed and "friend" not in kinds:
        raise ServiceError(422, "invalid", "listed-friends")
    seats: list[SeatPlayer] = ["person" if k == "person" else "open" if k == "friend" else "computer"
                               for k in kinds]
    first = kinds.index("person") if "person" in kinds else -1
    mine = first if player is not None and kinds.count("person") == 1 else None
    if names is None:
        names = [(player.name if mine is not None and player is not None else clean_name(name)) if i == first
                 else None for i in range(len(kinds))]
    bound = {mine: player.token_digest} if mine is not None and player is not None else None
    return sessions.start(KNIGHTS, "table", list(kinds), seats, KnightsSetup(players=len(kinds)), seed, clock, names,
                          bound=bound, rated=rated, listed=listed)


def create_rated(sessions: Sessions, game: str, first: Player, second: Player, clock: ClockSettings | None = None,
                 rules: str | None = None, seed: int | None = None) -> Created:
    """A rated game of ``game`` ('castle' or 'knights') seating two players, ``first`` in seat 0 (the lobby's
    challenges): each plays with their own player token (the answer gives no seat token)."""
    if first.id == second.id:
        raise ServiceError(409, "same-player", "same-player")
    bound = {0: first.token_digest, 1: second.token_digest}
    names: list[str | None] = [first.name, second.name]
    if game == KNIGHTS.name:
        return sessions.start(KNIGHTS, "table", ["person", "friend"], ["person", "person"], KnightsSetup(players=2),
                              seed, clock, names, bound=bound, rated=True)
    setup = Setup.parse(rules) if rules is not None else Setup()
    return sessions.start(CASTLE, FRIEND, players_for(FRIEND, None, None), ["person", "person"], setup, seed, clock,
                          names, bound=bound, rated=True)


def players_match(sessions: Sessions, game: str, first: Player, second: Player, clock: ClockSettings | None,
                  rules: str | None, rated: bool) -> LiveGame:
    """A match of ``game`` seating two players, ``first`` in seat 0, built and not stored yet (the lobby stores it in
    the transaction that takes the challenge): both seats held by the players' own tokens, listed among the live
    games."""
    if first.id == second.id:
        raise ServiceError(409, "same-player", "same-player")
    seats, _, _ = seats_for(["person", "person"], now(), [first.name, second.name],
                            {0: first.token_digest, 1: second.token_digest})
    if game == KNIGHTS.name:
        return sessions.new_match(KNIGHTS, "table", ["person", "friend"], KnightsSetup(players=2), clock, seats,
                                  rated=rated, listed=True)
    setup = Setup.parse(rules) if rules is not None else Setup()
    return sessions.new_match(CASTLE, FRIEND, players_for(FRIEND, None, None), setup, clock, seats, rated=rated,
                              listed=True)
