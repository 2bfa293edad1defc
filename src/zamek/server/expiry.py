"""Expiry: the unfinished matches nobody will finish are removed, so that what a server stores stays bounded.

Two limits (:class:`~zamek.server.tables.ExpiryLimits`, set by ``zamek serve``; ``zamek play`` keeps every game unless
told otherwise):

- a match made for friends none of whom has come (a seat still waits for its invitation and nothing has changed
  since the match was made) is removed :data:`UNJOINED_HOURS` after it was made: a link not opened in a day is
  rarely opened later, and making the game again takes one click;
- any unfinished match left unchanged for :data:`IDLE_DAYS` is removed: twice the longest time a correspondence clock
  gives a move (14 days), so no game whose player still has time is near it.

A finished match is kept (it is a record: its replay, its analysis); so is one whose clock runs (its clock ends it,
and then it is a record). When a match was last active is ``matches.active_ms``, by the server's clock
(``WebConfig.clock``, as the game clocks).

Every process of a server purges every :data:`PURGE_SECONDS`, in batches of :data:`BATCH` matches, each batch one
transaction that checks every match again as it deletes it (:meth:`Repository.purge_expired`): a move stored
meanwhile keeps its match, and a move not yet stored finds the match gone and is refused, so nothing acknowledged is
lost. On PostgreSQL one process purges at a time. The purging process forgets the matches it removed and ends their
live events; the other processes are told as of a deleted match, and a copy one still holds answers 404 when asked
(its revision is read first).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # the command line reads the defaults without loading the server
    from zamek.server.events import GameEvents
    from zamek.server.sessions import Sessions
    from zamek.server.tables import ExpiryLimits

UNJOINED_HOURS: Final = 24.0
IDLE_DAYS: Final = 30.0
PURGE_SECONDS: Final = 60.0
BATCH: Final = 500
BATCHES: Final = 20
"""The most batches one round removes: a backlog is worked off over several rounds, a short transaction at a time."""

log = logging.getLogger("zamek.server")


def purge(sessions: Sessions, events: GameEvents, limits: ExpiryLimits, batches: int = BATCHES) -> list[str]:
    """Remove the matches past ``limits`` now (up to ``batches`` batches); their ids."""
    moment = round(sessions.now() * 1000)
    removed: list[str] = []
    for _ in range(batches):
        ids = sessions.repo.purge_expired(moment, limits, BATCH)
        for game_id in ids:
            live = sessions.peek(game_id)
            if live is not None:
                with live.lock:  # after a change in flight here: it has found the match gone
                    sessions._forget(live)
            events.gone(game_id)
        removed += ids
        if len(ids) < BATCH:
            break
    if removed:
        log.info("removed %d expired games", len(removed))
    return removed


async def keep_purging(purge_now: Callable[[], object], every: float) -> None:
    """Purge every ``every`` seconds until cancelled (the app's lifespan); a failure waits for the next round. Never
    when ``every`` is not above 0."""
    while every > 0:
        await asyncio.sleep(every)
        try:
            await asyncio.to_thread(purge_now)
        except Exception:  # the database away for a moment: the next round tries again
            log.exception("removing the expired games failed")
