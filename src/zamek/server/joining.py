"""Joining a game against a friend: the invitation code of the link takes the free seat and gets its token."""

from __future__ import annotations

from typing import TYPE_CHECKING

from zamek.server.errors import ServiceError
from zamek.server.live import Created
from zamek.server.seats import clean_name, new_secret
from zamek.server.tables import now

if TYPE_CHECKING:
    from zamek.server.sessions import Sessions


def join(sessions: Sessions, game_id: str, invite: str, name: str | None) -> Created:
    """Take the free seat of a friend's game with its invitation code; return the game, the seat, its token."""
    live = sessions.get(game_id)
    with live.lock:
        free = [s for s in live.seats if s.player == "open"]
        if not free:
            raise ServiceError(409, "no-free-seat", "both seats of this game are taken")
        if not free[0].invited(invite):
            raise ServiceError(403, "bad-invite", "this invitation is not this game's")
        token = new_secret()
        seat = free[0].taken(token, clean_name(name), now())
        if not sessions.repo.take_seat(live.id, seat):
            raise ServiceError(409, "no-free-seat", "someone else has just taken this seat")
        live.seats = [seat if s.index == seat.index else s for s in live.seats]
        if live.clock is not None:
            live.clock.run_for(live.seat_to_act(), sessions.now())
        sessions.commit(live, live.state, [], [])
    return Created(live, {seat.index: token})
