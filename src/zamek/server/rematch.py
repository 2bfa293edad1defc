"""Rematches of a finished match with friends: one player offers it (the seats moved round by one: for two players,
swapped), each other player takes their seat in it with their own token.

The new match is stored in the same transaction as the change to the match it follows (its ``rematch``), on the
revision the offer was made from: of two players offering at once, one stores the rematch and the other, told that
the game has changed, takes their seat in it; a refused offer stores nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from zamek.server import players
from zamek.server.db import Added
from zamek.server.errors import ServiceError, restored_on_failure
from zamek.server.live import Created, LiveGame
from zamek.server.seats import Seat, SeatPlayer, digest, new_secret, seats_for
from zamek.server.tables import now

if TYPE_CHECKING:
    from zamek.server.sessions import Sessions


def rematch(sessions: Sessions, game_id: str, token: str | None, kind: str | None = None) -> Created:
    """Offer a rematch of a finished match with friends, or take one's seat in the rematch another player
    offered; return the new match, the seat and its token (a new one each time it is asked)."""
    # A player's seat (its token is the player's) stays the player's in the rematch, with the same token.
    kept = token if token is not None and players.by_token(sessions.repo, token) is not None else None
    for attempt in range(2):
        live = sessions.get(game_id, kind)
        with live.lock:
            seat = sessions.prove(live, token)
            if not live.over:
                raise ServiceError(409, "in-progress", "rematch-after-end")
            if not live.invites_friends:
                raise ServiceError(409, "not-for-this-game", "rematch-friends")
            if live.rematch is None:
                try:
                    return _offer(sessions, live, seat, kept)
                except ServiceError as exc:
                    if exc.error != "stale" or attempt:
                        raise
                    continue  # another player offered it first: take the seat in theirs
            try:
                new = sessions.get(live.rematch)
            except ServiceError as exc:
                if exc.status != 404:
                    raise
                return _offer(sessions, live, seat, kept)  # the offer was deleted while it waited: offer anew
        return _take(sessions, live, new, seat, kept)
    raise ServiceError(409, "stale", "stale-retry")


def _moved(live: LiveGame, seat: int) -> int:
    """A seat's place in the rematch: one round on (of two, the other)."""
    return (seat + 1) % len(live.players)


def _offer(sessions: Sessions, live: LiveGame, seat: int, kept: str | None) -> Created:
    """Make the rematch, stored with this match's change in one transaction; the seats of the other people stay
    open (their invitation code is given to nobody) until each takes theirs with their own token."""
    players = live.kind.rematch_players(live)
    mine = _moved(live, seat)
    seat_players: list[SeatPlayer] = ["computer" if live.is_computer(s) else "open" for s in range(len(players))]
    seat_players = [seat_players[(s - 1) % len(players)] for s in range(len(players))]
    seat_players[mine] = "person"
    names = [live.seats[(s - 1) % len(players)].name for s in range(len(players))]
    seats, tokens, _ = seats_for(seat_players, now(), names, {mine: digest(kept)} if kept is not None else None)
    if kept is not None:
        tokens[mine] = kept
    seats = [replace(s, invite_digest=None) for s in seats]  # kept for known players: no invitation opens them
    settings = live.clock.settings if live.clock is not None else None
    new = sessions.new_match(live.kind, live.mode, players, live.setup, settings, seats, agreed_hints=live.agreed_hints,
                             rated=live.rated, listed=live.listed)
    live.rematch = new.id
    with restored_on_failure(lambda: setattr(live, "rematch", None)):
        sessions.commit(live, live.state, [], [], added=Added(sessions.stored(new), new.seats,
                                                              sessions.extras_of(new), None))
    sessions.keep(new)
    return Created(new, {mine: tokens[mine]})


def _take(sessions: Sessions, old: LiveGame, new: LiveGame, seat: int, kept: str | None) -> Created:
    mine = _moved(old, seat)
    with new.lock:
        token = kept if kept is not None else new_secret()
        current = new.seats[mine]
        taken = current.taken(token, old.seats[seat].name, now()) if current.player == "open" else (
            replace_token(current, token))  # asked again (another device): a new token, the old one stops working
        taken = Seat(taken.index, "person", taken.token_digest, None, taken.name, taken.joined_at)
        before = new.seats
        new.seats = [taken if s.index == mine else s for s in before]
        with restored_on_failure(lambda: setattr(new, "seats", before)):
            sessions.commit(new, new.state, [], [], seats=[(current, taken)])  # the others learn of the arrival
    return Created(new, {mine: token})


def replace_token(seat: Seat, token: str) -> Seat:
    return Seat(seat.index, "person", digest(token), None, seat.name, seat.joined_at or now())
