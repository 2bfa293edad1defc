"""Rematches of a finished game against a friend: one player offers it (seats swapped), the other takes their seat
in it with their own token."""

from __future__ import annotations

from typing import TYPE_CHECKING

from zamek.server.errors import ServiceError
from zamek.server.live import FRIEND, Created
from zamek.server.seats import Seat, digest, new_secret, prove_seat
from zamek.server.tables import now

if TYPE_CHECKING:
    from zamek.server.sessions import Sessions


def rematch(sessions: Sessions, game_id: str, token: str | None) -> Created:
    """Offer a rematch of a finished game against a friend (seats swapped), or take one's seat in the rematch
    the other player offered; return the new game, the seat and its token (a new one each time it is asked)."""
    live = sessions.get(game_id)
    with live.lock:
        seat = prove_seat(live.seats, token)
        if not live.over:
            raise ServiceError(409, "in-progress", "a rematch is offered once the game is over")
        if live.mode != FRIEND:
            raise ServiceError(409, "illegal", "a rematch is for games against a friend; start a new game")
        if live.rematch is None:
            settings = live.clock.settings if live.clock is not None else None
            created = sessions.create(FRIEND, None, "second" if seat == 0 else "first", live.setup, None, settings,
                                      live.seats[seat].name, live.seats[1 - seat].name, live.agreed_hints)
            # The other seat stays open (its invitation code is given to nobody) until this game's other
            # player takes it with their own token: the game waits for them, clock included.
            live.rematch = created.live.id
            sessions.commit(live, live.state, [], [])
            return Created(created.live, {1 - seat: created.tokens[1 - seat]})
        try:
            new = sessions.get(live.rematch)
        except ServiceError as exc:
            if exc.status != 404:
                raise
            live.rematch = None  # the offer was deleted while it waited: offer anew
            sessions.commit(live, live.state, [], [])
            return rematch(sessions, game_id, token)
    mine = 1 - seat
    with new.lock:
        token = new_secret()
        current = new.seats[mine]
        if current.player == "open":
            taken = current.taken(token, live.seats[seat].name, now())
            if not sessions.repo.take_seat(new.id, taken):
                raise ServiceError(409, "no-free-seat", "this seat has just been taken")
        else:  # asked again (another device): a new token, the old one stops working
            taken = replace_token(current, token)
            sessions.repo.set_token(new.id, mine, taken.token_digest or "")
        new.seats = [taken if s.index == mine else s for s in new.seats]
        if new.clock is not None and new.clock.running is None and new.everyone_seated and not new.over:
            new.clock.run_for(new.seat_to_act(), sessions.now())
        sessions.commit(new, new.state, [], [])  # stores the clock; the other player's page learns of the arrival
    return Created(new, {mine: token})


def replace_token(seat: Seat, token: str) -> Seat:
    return Seat(seat.index, "person", digest(token), None, seat.name, seat.joined_at or now())
