"""Seats and their secrets: who may move for which player of a game.

Every game has seats, one a player. A person's seat has a secret token (192 random bits), given once
to whoever creates or joins the game, and proven on every request that changes the game
(``Authorization: Bearer <token>``) and on every view of what only that seat may see (a Rycerze i
zamki hand). The server keeps only each token's SHA-256 digest, so a copy of the database lets nobody
play for a seat. A seat waiting for a friend holds instead the digest of the game's invitation code:
whoever brings that code takes the seat and gets its token.

Game ids are as random (128 bits) and never listed to strangers: the lobby lists the games of the tokens
a browser holds; knowing a game's id is being allowed to watch it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Final, Literal

from zamek.server.errors import ServiceError

SeatPlayer = Literal["person", "computer", "open"]
"""A person holding the seat's token, a computer player, or a seat waiting for a friend's invitation."""
TOKEN_BYTES: Final = 24
NAME_LENGTH: Final = 24


def new_secret() -> str:
    """A seat token or an invitation code: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_game_id() -> str:
    """An unguessable game id (128 random bits)."""
    return secrets.token_urlsafe(16)


GAME_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""The form of the game ids the server issues (``new_game_id``'s 22 characters, the 12 hex digits of the games stored
before it), as long as the database's column at most."""


def is_game_id(text: str) -> bool:
    """Whether ``text`` could be a game's id: anything else (a NUL, a character outside ASCII) names no game, and is
    never sent to the database."""
    return GAME_ID.fullmatch(text) is not None


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def clean_name(name: str | None) -> str | None:
    """A player's chosen name: printable, trimmed, at most ``NAME_LENGTH`` characters; None when empty."""
    if name is None:
        return None
    kept = "".join(c for c in name if c.isprintable()).strip()[:NAME_LENGTH]
    return kept or None


@dataclass(frozen=True)
class Seat:
    """A seat of a game."""

    index: int
    player: SeatPlayer
    token_digest: str | None = None
    invite_digest: str | None = None
    name: str | None = None
    joined_at: datetime | None = None

    def holds(self, token: str) -> bool:
        return self.token_digest is not None and hmac.compare_digest(self.token_digest, digest(token))

    def invited(self, code: str) -> bool:
        return (self.player == "open" and self.invite_digest is not None
                and hmac.compare_digest(self.invite_digest, digest(code)))

    def rejoined(self, code: str, key: str | None) -> bool:
        """Whether the invitation ``code`` with the joining's ``key`` gave this seat and its token has not been used
        yet (an answer to joining that was lost: asked again, it gives the seat again, with a new token)."""
        return (key is not None and self.player == "person" and self.invite_digest is not None
                and hmac.compare_digest(self.invite_digest, rejoin_digest(code, key)))

    def taken(self, token: str, name: str | None, when: datetime, code: str | None = None,
              key: str | None = None) -> Seat:
        """This seat once a friend has taken it with ``token``; with a joining's ``key``, the seat keeps the digest of
        the invitation and key until its token is first used."""
        again = rejoin_digest(code, key) if code is not None and key is not None else None
        return replace(self, player="person", token_digest=digest(token), invite_digest=again, name=name,
                       joined_at=when)


def rejoin_digest(code: str, key: str) -> str:
    """What a seat taken with an invitation keeps to be given again to the same joining (its key) alone."""
    return digest(f"{code}:{key}")


def seat_of(seats: Sequence[Seat], token: str | None) -> int | None:
    """The seat ``token`` holds in a game, or None."""
    if token is None:
        return None
    for seat in seats:
        if seat.holds(token):
            return seat.index
    return None


def prove_seat(seats: Sequence[Seat], token: str | None) -> int:
    """The seat ``token`` holds; refuse (401 without a token, 403 with another) with ``not-your-seat``."""
    if token is None:
        raise ServiceError(401, "not-your-seat", "needs-token")
    seat = seat_of(seats, token)
    if seat is None:
        raise ServiceError(403, "not-your-seat", "not-a-seat")
    return seat


def seats_for(players: Sequence[SeatPlayer], when: datetime, names: Sequence[str | None] = (),
              bound: Mapping[int, str] | None = None) -> tuple[list[Seat], dict[int, str], str | None]:
    """New seats: a token for each person's seat, one invitation code for the open ones; a seat of ``bound`` is a
    player's (:mod:`zamek.server.players`), held by the player's token digest: the player's own token proves it.

    Returns the seats, each person seat's token (given once, to the game's creator) and the code.
    """
    bound = bound or {}
    tokens = {i: new_secret() for i, p in enumerate(players) if p == "person" and i not in bound}
    invite = new_secret() if "open" in players else None
    seats = [
        Seat(i, p, digest(tokens[i]) if i in tokens else bound.get(i),
             digest(invite) if p == "open" and invite is not None else None,
             names[i] if i < len(names) else None, when if p == "person" else None)
        for i, p in enumerate(players)
    ]
    return seats, tokens, invite
