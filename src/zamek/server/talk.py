"""A word at the table, without moderation because there is no free text: a seat says one of the fixed messages
(:data:`~zamek.server.schema_watch.TABLE_MESSAGES`, the page's words ``page.say.<key>`` in every language), and the
game's live events carry it to every page of the game, the players' and the spectators' (event ``say``).

Only a player of a game with friends elsewhere speaks (proven by their seat's token), at any time of it, its end
included ("good game"); each seat may say ``TALK_BURST`` words at once, then one every ``TALK_EVERY_SECONDS`` (429
with ``Retry-After``). The counts are kept in this process's memory, as :mod:`zamek.server.throttle`'s: a server of
several worker processes gives each seat that budget in each worker. Nothing is stored: a page opened later never
hears what was said before it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Final

from fastapi import FastAPI
from fastapi.concurrency import run_in_threadpool

from zamek.server.errors import ServiceError
from zamek.server.routing import Token
from zamek.server.schema_watch import Said, Say
from zamek.server.schemas import errors
from zamek.server.service import GameService
from zamek.server.throttle import Throttled

TALK_EVERY_SECONDS: Final = 3.0
TALK_BURST: Final = 3
KEPT_SEATS: Final = 10_000
"""Seats whose count is kept; beyond, those whose count is full again are forgotten (they have nothing to wait)."""


class Buckets:
    """Token buckets by key: ``burst`` at once, one more every ``every`` seconds."""

    def __init__(self, every: float = TALK_EVERY_SECONDS, burst: int = TALK_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.burst = burst
        self.clock = clock
        self._lock = threading.Lock()
        self._left: dict[str, tuple[float, float]] = {}
        """By key: the words left (a fraction grows back) and when that was counted."""

    def take(self, key: str) -> float:
        """Take one for ``key``: 0 when it was there, else the seconds until one is (nothing taken)."""
        moment = self.clock()
        with self._lock:
            left, since = self._left.get(key, (float(self.burst), moment))
            left = min(float(self.burst), left + (moment - since) / self.every)
            if left < 1:
                self._left[key] = (left, moment)
                return (1 - left) * self.every
            self._left[key] = (left - 1, moment)
            if len(self._left) > KEPT_SEATS:
                self._forget_full(moment)
            return 0.0

    def _forget_full(self, moment: float) -> None:
        """Forget the keys whose bucket has filled up again (the caller holds the lock)."""
        full = [k for k, (left, since) in self._left.items() if left + (moment - since) / self.every >= self.burst]
        for key in full:
            del self._left[key]


def say(service: GameService, buckets: Buckets, game_id: str, token: str | None, message: str) -> Said:
    """The token's seat says ``message`` at its game's table (see the module's doc)."""
    live = service.get(game_id)
    with live.lock:
        seat = service.sessions.prove(live, token)
        if not live.invites_friends:
            raise ServiceError(409, "no-one-to-hear", "no-one-to-hear")
    wait = buckets.take(f"{game_id}:{seat}")
    if wait > 0:
        raise Throttled(wait, "too-many-words")
    service.events.say(game_id, seat, message)
    return Said(game=game_id, seat=seat, message=message)


def add_talk_routes(app: FastAPI, service: GameService, buckets: Buckets | None = None) -> None:
    """Add ``POST /api/games/{game_id}/say`` (``buckets``: each seat's count; a new one without it)."""
    counts = buckets or Buckets()

    @app.post("/api/games/{game_id}/say", responses=errors(401, 403, 404, 409, 422, 429))
    async def say_at_table(game_id: str, body: Say, token: Token) -> Said:
        """Say one of the table's fixed messages (``/api/meta``'s ``table_messages``) as the token's seat, in a game
        with friends elsewhere: every page of the game hears it (event ``say``: players and spectators). A seat says
        three at once, then one every three seconds (429 with ``Retry-After``)."""
        return await run_in_threadpool(say, service, counts, game_id, token, body.message)


