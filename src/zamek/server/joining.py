"""Joining a match with friends: the invitation code of the link takes a free seat and gets its token; the same
code with the same joining key gives the same seat again (a new token) until its token is first used, for a
friend whose answer was lost on the way; a player may issue a new invitation (the old code no longer opens the
seats; a rematch's seats, kept for known players, open to no invitation)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from zamek.server.errors import ServiceError, reloaded
from zamek.server.games import MoveInfo
from zamek.server.live import Created
from zamek.server.players import Player
from zamek.server.seats import clean_name, digest, new_secret
from zamek.server.tables import now

if TYPE_CHECKING:
    from zamek.server.sessions import Sessions


def join(sessions: Sessions, game_id: str, invite: str, name: str | None, kind: str | None = None,
         key: str | None = None, player: Player | None = None, player_token: str | None = None) -> Created:
    """Take a free seat of a match with its invitation code; return the match, the seat, its token. The seat and
    the match's change are stored in one transaction, only if the seat is still as this process saw it (two
    friends at once: one gets the seat). The same code with the same joining ``key`` gives the same seat again
    (a new token) until its token is first used. A ``player`` (its ``player_token``) holds the seat as that player:
    the seat's token is the player's; a rated game takes only a player, and not the one already seated."""
    for attempt in range(2):
        live = sessions.get(game_id, kind)
        with live.lock:
            if live.over:
                raise ServiceError(409, "game-over", "game-over")
            if player is not None and any(s.token_digest == player.token_digest for s in live.seats
                                          if not s.rejoined(invite, key)):
                raise ServiceError(409, "same-player", "same-player")
            if live.rated and player is None:
                raise ServiceError(401, "no-player", "rated-needs-player")
            again = [s for s in live.seats if s.rejoined(invite, key)]
            token = player_token if player is not None and player_token is not None else new_secret()
            name = player.name if player is not None else name
            if again:
                was = again[0]
                seat = replace(was, token_digest=digest(token), name=clean_name(name) or was.name)
            else:
                free = [s for s in live.seats if s.player == "open"]
                if not free:
                    raise ServiceError(409, "no-free-seat", "seats-taken")
                was = free[0]
                if not was.invited(invite):
                    raise ServiceError(403, "bad-invite", "bad-invite")
                seat = was.taken(token, clean_name(name), now(), invite, key)
            before = live.seats
            live.seats = [seat if s.index == seat.index else s for s in before]
            try:
                state, actions, infos = live.state, list[Any](), list[MoveInfo]()
                if not live.waiting_for_friend:  # the last friend sits down: the first chance of the game
                    state, actions, infos = sessions.advance_chance(live, live.state.copy(), len(live.actions))
                sessions.commit(live, state, actions, infos, seats=[(was, seat)])
            except Exception as exc:
                if not reloaded(exc):
                    live.seats = before
                if not isinstance(exc, ServiceError) or exc.error != "stale" or attempt:
                    raise
                continue  # another change came first (a friend, a move), and the match is up to date: look again
        return Created(live, {seat.index: token})
    raise AssertionError("unreachable")


def new_invitation(sessions: Sessions, game_id: str, token: str | None, kind: str | None = None) -> str:
    """A new invitation code for a match's open seats, asked by one of its players; the old code stops working."""
    live = sessions.get(game_id, kind)
    with live.lock:
        sessions.prove(live, token)
        if live.over:
            raise ServiceError(409, "game-over", "game-over")
        if not any(s.player == "open" and s.invite_digest is not None for s in live.seats):
            raise ServiceError(409, "no-free-seat", "no-invitation-seat")
        code = new_secret()
        opened = sessions.repo.set_invite(live.id, digest(code))
        live.seats = [replace(s, invite_digest=digest(code)) if s.index in opened else s for s in live.seats]
    return code
