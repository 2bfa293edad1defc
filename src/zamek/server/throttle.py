"""The fairness settings enforced (:mod:`zamek.server.fairness`): each client's rates and its hints and analyses
at once, refused with 429 ``too-many-requests`` in the API's error format and a ``Retry-After`` header.

The counts are kept in this process's memory (the ``limits`` library's moving windows): a server of several
worker processes gives each client that budget in each worker.
"""

from __future__ import annotations

import asyncio
import ipaddress
import math
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Final, TypeVar

from fastapi import Request
from fastapi.concurrency import run_in_threadpool
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from zamek.server.errors import ServiceError
from zamek.server.fairness import RATES, Fairness

__all__ = ["Referee", "Throttled", "address_key", "client_key", "player_key"]

Answer = TypeVar("Answer")

RATE_CODES: Final = {
    "create": "too-many-games",
    "join": "too-many-joins",
    "imports": "too-many-imports",
    "hints": "too-many-hints",
    "analysis": "too-many-analyses",
    "computer": "too-many-computer-games",
    "players": "too-many-players",
    "challenges": "too-many-challenges",
}
"""The catalogue's message (``server.<code>``) of each rate's refusal."""
ADVICE_RETRY_SECONDS: Final = 2
"""What a client whose hint or analysis is still being worked out is told to wait."""
ADVICE_WAIT_SECONDS: Final = 10.0
"""How long a hint or an analysis waits for one of the process's ``advice_slots`` before it is refused."""
SLOT_POLL_SECONDS: Final = 0.02


class Throttled(ServiceError):
    """A refusal of fairness: 429 (``error`` ``too-many-requests`` unless said), with the seconds to wait before
    asking again (``retry_after``: the ``Retry-After`` header, and the message's ``seconds``)."""

    def __init__(self, retry_after: float, code: str, /, error: str = "too-many-requests", **params: object) -> None:
        seconds = max(1, math.ceil(retry_after))
        super().__init__(429, error, code, seconds=seconds, **params)
        self.retry_after = seconds


def client_key(scope: Mapping[str, Any]) -> str:
    """Who a request is, for its limits (its ASGI scope, ``request.scope``): its address (:func:`address_key`).

    A request's ``X-Zamek-Player`` header is not read here: unchecked, any made-up header would give a client
    fresh limits. The routes that prove a player count it by :func:`player_key` as well."""
    return address_key(scope.get("client"))


def player_key(player_id: str) -> str:
    """Who a request is, for its limits, once it has proven its player (:func:`zamek.server.players.authenticate`):
    the player, whichever address it comes from. :func:`client_key` stays the address's: a player header the server
    has not checked must not take a request out of its address's limits."""
    return f"player:{player_id}"


def address_key(client: Sequence[Any] | None) -> str:
    """A client's address (an ASGI scope's ``client``, where uvicorn puts the address a trusted proxy forwarded);
    an IPv6 address by its /64 network (one subscriber's, who has all of it)."""
    host = client[0] if client else None
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(str(host).split("%", 1)[0])
    except ValueError:
        return str(host)  # the test client's "testclient", a Unix socket's path
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class Referee:
    """Each client's requests counted against the fairness settings (see the module's doc)."""

    def __init__(self, fairness: Fairness) -> None:
        self.fairness = fairness
        self._window = MovingWindowRateLimiter(MemoryStorage())
        self._rates: dict[str, list[RateLimitItem]] = {
            name: parse_many(spec) for name in RATES if (spec := getattr(fairness, name))}
        self._lock = threading.Lock()
        self._advising: Counter[str] = Counter()
        self._slots = threading.BoundedSemaphore(fairness.advice_slots) if fairness.advice_slots else None

    def hit(self, action: str, client: str) -> None:
        """Count a request of ``action`` (one of ``fairness.RATES``) from ``client``; raise :class:`Throttled`
        when one of its rates is spent (the refused request is not counted)."""
        items = self._rates.get(action)
        if not items:
            return
        with self._lock:  # tested and counted as one: two requests at once never both take the last one
            spent = [item for item in items if not self._window.test(item, action, client)]
            if not spent:
                for item in items:
                    self._window.hit(item, action, client)
                return
            reset = max(self._window.get_window_stats(item, action, client).reset_time for item in spent)
        raise Throttled(reset - time.time(), RATE_CODES[action])

    def limit(self, action: str) -> Callable[[Request], Awaitable[None]]:
        """A route's dependency counting its requests as ``action`` (``async``: no trip through the thread
        pool)."""

        async def counted(request: Request) -> None:
            self.hit(action, client_key(request.scope))

        return counted

    async def advised(self, client: str, work: Callable[..., Answer], *args: Any) -> Answer:
        """``work(*args)``, a hint or an analysis of ``client``, in the thread pool: refused (429 ``advice-busy``)
        while the client has ``advice_at_once`` of them already; else, once one of the process's ``advice_slots``
        is free (429 ``advice-queue`` when none was for ``ADVICE_WAIT_SECONDS``)."""
        cap = self.fairness.advice_at_once
        with self._lock:
            if cap and self._advising[client] >= cap:
                raise Throttled(ADVICE_RETRY_SECONDS, "advice-busy")
            self._advising[client] += 1
        try:
            await self._take_slot()
            try:
                return await run_in_threadpool(work, *args)
            finally:
                if self._slots is not None:
                    self._slots.release()
        finally:
            with self._lock:
                self._advising[client] -= 1
                if self._advising[client] <= 0:
                    del self._advising[client]

    async def _take_slot(self) -> None:
        """Wait for a free slot without holding a thread (a thread held for each one waiting would starve the
        thread pool every request needs); the semaphore is a thread's, usable from any event loop."""
        if self._slots is None:
            return
        end = time.monotonic() + ADVICE_WAIT_SECONDS
        while not self._slots.acquire(blocking=False):
            if time.monotonic() >= end:
                raise Throttled(ADVICE_RETRY_SECONDS, "advice-queue")
            await asyncio.sleep(SLOT_POLL_SECONDS)
