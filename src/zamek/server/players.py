"""Player identities (issue 39): a name and a secret, without account, password or e-mail.

``POST /api/players {"name"}`` makes a player and gives its secret token once (192 random bits); the server keeps
only the token's SHA-256 digest, as it does for seats (:mod:`zamek.server.seats`). A request acts as a player with
the header ``X-Zamek-Player: <token>``. The page keeps the token in ``localStorage`` and moves it to another device
with a link (``#/me/<token>``), as it moves a seat.

A player's seat holds the player's own token digest as its token's: the player token proves the seat (it is the
seat's token), so every device that holds the player token plays all of the player's games, and the lobby lists
them (``/api/players/me/games``, or ``/api/lobby`` with the player token among the tokens). A seat is bound so when
the request that creates or takes it carries the player's header; a game with friends by link needs none.

A name is 3 to 20 letters (Polish ones too), digits, ``_`` and ``-``, unique on the server whatever its letters'
case, and may be changed (``PATCH /api/players/me``).

The functions another part of the server calls (the lobby's challenges: h7lobby): :func:`authenticate` (the player
a request acts as), :func:`zamek.server.creating.create_rated` (a rated game seating two players) and
:func:`zamek.server.ratings.record_end` (a rated game's result, called by every game's end).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from zamek.server.errors import ServiceError
from zamek.server.seats import digest, new_game_id, new_secret
from zamek.server.tables import PlayerRow, SeatRow, now

if TYPE_CHECKING:
    from zamek.server.db import Repository
    from zamek.server.live import Created

PLAYER_HEADER: Final = "X-Zamek-Player"
NAME_MIN: Final = 3
NAME_MAX: Final = 20
NAME: Final = re.compile(r"[0-9A-Za-z_\-ĄĆĘŁŃÓŚŹŻąćęłńóśźż]+")
"""The characters of a player's name: Latin letters with the Polish ones, digits, ``_`` and ``-`` (no spaces, no
look-alike letters of other scripts: two names that look the same are one)."""


@dataclass(frozen=True)
class Player:
    """A player as the server knows it: its id (never shown), its name and its token's digest."""

    id: str
    name: str
    token_digest: str


def checked_name(name: str) -> str:
    """A name as asked (trimmed), refused (422 ``bad-player-name``) when too short, too long or of other
    characters."""
    name = name.strip()
    if not NAME_MIN <= len(name) <= NAME_MAX or NAME.fullmatch(name) is None:
        raise ServiceError(422, "invalid", "bad-player-name", min=NAME_MIN, max=NAME_MAX)
    return name


def name_key(name: str) -> str:
    return name.lower()


def _player(row: PlayerRow) -> Player:
    return Player(row.id, row.name, row.token_digest)


def create(repo: Repository, name: str) -> tuple[Player, str]:
    """A new player named ``name``, and its token (given once). Two asking for one name at once: one gets it, the
    other 409 ``name-taken`` (the name's key is unique in the database)."""
    name = checked_name(name)
    token = new_secret()
    player = Player(new_game_id(), name, digest(token))
    try:
        with repo.transaction() as session:
            if _named(session, name) is not None:
                raise ServiceError(409, "name-taken", "name-taken", name=name)
            session.add(PlayerRow(id=player.id, name=name, name_key=name_key(name), token_digest=player.token_digest,
                                  created_at=now()))
    except IntegrityError:
        raise ServiceError(409, "name-taken", "name-taken", name=name) from None
    return player, token


def rename(repo: Repository, player: Player, name: str) -> Player:
    """The player under a new name (its own name in other letters' case is allowed)."""
    name = checked_name(name)
    try:
        with repo.transaction() as session:
            other = _named(session, name)
            if other is not None and other.id != player.id:
                raise ServiceError(409, "name-taken", "name-taken", name=name)
            row = session.get(PlayerRow, player.id)
            if row is None:
                raise ServiceError(401, "no-player", "no-player")
            row.name, row.name_key = name, name_key(name)
    except IntegrityError:
        raise ServiceError(409, "name-taken", "name-taken", name=name) from None
    return Player(player.id, name, player.token_digest)


def _named(session: Session, name: str) -> PlayerRow | None:
    return session.scalars(select(PlayerRow).where(PlayerRow.name_key == name_key(name))).first()


def by_token(repo: Repository, token: str) -> Player | None:
    with Session(repo.engine) as session:
        row = session.scalars(select(PlayerRow).where(PlayerRow.token_digest == digest(token))).first()
        return _player(row) if row is not None else None


def by_name(repo: Repository, name: str) -> Player:
    """The player of a name (any letters' case); 404 ``no-player-named``."""
    with Session(repo.engine) as session:
        row = _named(session, name) if len(name) <= NAME_MAX else None
        if row is None:
            raise ServiceError(404, "not-found", "no-player-named", name=name)
        return _player(row)


def by_id(session: Session, player_id: str) -> Player | None:
    row = session.get(PlayerRow, player_id)
    return _player(row) if row is not None else None


def names_of(repo: Repository, ids: set[str]) -> dict[str, str]:
    with Session(repo.engine) as session:
        return dict(session.execute(select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id.in_(sorted(ids)))).all())


def authenticate(repo: Repository, token: str | None, required: bool = True) -> Player | None:
    """The player a request acts as (its ``X-Zamek-Player`` header's token): 401 ``no-player`` without one when
    ``required``, and with a token no player has (whatever ``required``: a page that sends a lost identity is told
    so rather than playing without it)."""
    if not token:
        if required:
            raise ServiceError(401, "no-player", "needs-player")
        return None
    player = by_token(repo, token)
    if player is None:
        raise ServiceError(401, "no-player", "no-player")
    return player


def give_player_seats(created: Created, player: Player | None, token: str | None) -> None:
    """The answer to a new game gives the player's own token for the seats the player holds."""
    if player is None or token is None:
        return
    for seat in created.live.seats:
        if seat.token_digest == player.token_digest:
            created.tokens[seat.index] = token


def seats_of(repo: Repository, player: Player) -> dict[str, list[int]]:
    """The games (by id) the player holds seats of, with those seats."""
    return repo.held([player.token_digest])


def players_seated(session: Session, game_ids: list[str]) -> dict[tuple[str, int], str]:
    """The player of each seat (game id, seat) of these games that a player holds."""
    rows = session.execute(select(SeatRow.game_id, SeatRow.seat, PlayerRow.id)
                           .join(PlayerRow, PlayerRow.token_digest == SeatRow.token_digest)
                           .where(SeatRow.game_id.in_(game_ids)))
    return {(game_id, seat): player_id for game_id, seat, player_id in rows}


def count(repo: Repository) -> int:
    with Session(repo.engine) as session:
        return session.scalar(select(func.count()).select_from(PlayerRow)) or 0
