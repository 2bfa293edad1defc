"""How a castle game ends before its rules end it: a resignation, or the clock of the player to move running out
(found by a request, or by the server's look at every clock)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from zamek.server.errors import ServiceError
from zamek.server.live import LiveGame
from zamek.server.seats import prove_seat

if TYPE_CHECKING:
    from zamek.server.sessions import Sessions


def resign(sessions: Sessions, game_id: str, token: str | None, revision: int | None = None) -> LiveGame:
    """The seat of ``token`` resigns: the other player wins."""
    live = sessions.get(game_id)
    with live.lock:
        seat = prove_seat(live.seats, token)
        sessions.check_revision(live, revision)
        if live.over:
            raise ServiceError(409, "illegal", "the game is over")
        if live.waiting_for_friend:
            raise ServiceError(409, "waiting", "nobody has joined this game yet: delete it instead")
        check_clock(sessions, live)
        end_game(sessions, live, "resign", seat)
    return live


def end_game(sessions: Sessions, live: LiveGame, reason: str, loser: int) -> None:
    """The game ends before its rules end it: ``loser`` resigned or ran out of time."""
    live.ended = {"reason": reason, "loser": loser}
    if live.clock is not None:
        live.clock.stop(sessions.now())
    sessions.commit(live, live.state, [], [])


def expire_clocks(sessions: Sessions) -> list[str]:
    """End every game whose player to move has run out of time (whichever process served it); return their
    ids. Processes that look at once are told apart by the revision: one ends the game."""
    ended = []
    moment = sessions.now()
    for game_id in sessions.repo.out_of_time(round(moment * 1000)):
        try:
            live = sessions.get(game_id)
            with live.lock:
                loser = live.clock.expired(moment) if not live.over and live.clock is not None else None
                if loser is not None:
                    end_game(sessions, live, "timeout", loser)
                    ended.append(live.id)
        except ServiceError:
            pass  # deleted meanwhile, or ended by another process
    return ended


def check_clock(sessions: Sessions, live: LiveGame) -> None:
    """Refuse a move (and end the game) when the player to move has run out of time."""
    if live.clock is None or live.over:
        return
    loser = live.clock.expired(sessions.now())
    if loser is not None:
        end_game(sessions, live, "timeout", loser)
        raise ServiceError(409, "time-out", "the time of the player to move has run out: the game is over")
