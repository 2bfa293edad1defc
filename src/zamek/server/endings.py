"""How a match ends before its rules end it: a resignation, the clock of the player to move running out (found by a
request, or by the server's look at every clock), or an abort before every person has made a first move (asked by
a player, or by the server when a player of a game with a clock has not made theirs in time): no result."""

from __future__ import annotations

from typing import TYPE_CHECKING

from zamek.server.errors import ServiceError, restored_on_failure
from zamek.server.live import LiveGame

if TYPE_CHECKING:
    from zamek.server.sessions import Sessions


def resign(sessions: Sessions, game_id: str, token: str | None, revision: int | None = None,
           kind: str | None = None) -> LiveGame:
    """The seat of ``token`` resigns: the other players win."""
    live = sessions.get(game_id, kind)
    with live.lock:
        seat = sessions.prove(live, token)
        sessions.check_revision(live, revision)
        if live.over:
            raise ServiceError(409, "game-over", "game-over")
        if live.waiting_for_friend:
            raise ServiceError(409, "waiting", "nobody-joined")
        check_clock(sessions, live)
        end_game(sessions, live, {"reason": "resign", "loser": seat})
    return live


def abort(sessions: Sessions, game_id: str, token: str | None, revision: int | None = None,
          kind: str | None = None) -> LiveGame:
    """The seat of ``token`` aborts the game before every person has made a first move: it ends with no result."""
    live = sessions.get(game_id, kind)
    with live.lock:
        sessions.prove(live, token)
        sessions.check_revision(live, revision)
        if live.over:
            raise ServiceError(409, "game-over", "game-over")
        if live.started(live.infos):
            raise ServiceError(409, "started", "started")
        end_game(sessions, live, {"reason": "abort"})
    return live


def end_game(sessions: Sessions, live: LiveGame, ended: dict[str, object]) -> None:
    """The game ends before its rules end it (its clock stops, charging the seat that was thinking)."""
    before = live.ended
    live.ended = dict(ended)
    with restored_on_failure(lambda: setattr(live, "ended", before)):
        sessions.commit(live, live.state, [], [])


def expire_clocks(sessions: Sessions) -> list[str]:
    """End every game whose player to move has run out of time (whichever process served it), and abort every game
    whose player to move has not made a first move in time; return their ids. Processes that look at once are told
    apart by the revision: one ends the game."""
    ended = []
    moment = sessions.now()
    for game_id in sessions.repo.out_of_time(round(moment * 1000)):
        try:
            live = sessions.get(game_id)
            with live.lock:
                if live.over or live.clock is None:
                    continue
                if not live.started(live.infos):
                    if live.deadline_ms is not None and live.deadline_ms <= round(moment * 1000):
                        end_game(sessions, live, {"reason": "abort"})
                        ended.append(live.id)
                    continue
                loser = live.clock.expired(moment)
                if loser is not None:
                    end_game(sessions, live, {"reason": "timeout", "loser": loser})
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
        end_game(sessions, live, {"reason": "timeout", "loser": loser})
        raise ServiceError(409, "time-out", "time-out")
