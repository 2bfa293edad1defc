"""The server's side of each connection: uvicorn's HTTP/1.1 protocol (h11) with the guards it lacks.

uvicorn times out only an idle kept-alive connection. :class:`GuardedH11Protocol` also

* closes a connection whose request's headers have not all come ``header_timeout`` seconds after it opened (or after
  the request's first byte, on a kept-alive connection), and one whose body has not all come ``body_timeout``
  seconds after its headers (408 when part of the request came: a slow client, or one that never finishes);
* holds at most ``max_connections`` connections: a new one over the cap closes the one that has waited longest for a
  request (slow or idle), or is answered 503 when every other is busy, so that slow connections never use up the
  process's open files (uvicorn stops accepting anyone when they are gone);
* reads and throws away at most ``body_bytes`` of a body the app answered without reading (a route that takes none),
  then closes the connection (uvicorn reads such a body to its end, however long; within the limit the connection
  stays open for the client's next request);
* tells the app, when the server stops, to end its event streams (:data:`STOPPING`) before uvicorn waits for them.

The app gives its limits and its stopping hook through the lifespan's state (:func:`lifespan_state`), which uvicorn
hands to every connection, so one setting (``WebConfig``) serves ``zamek play``, ``zamek serve``'s workers and the
tests' servers alike.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

log = logging.getLogger("zamek.server")

LIMITS: Final = "zamek.connection_limits"
"""The lifespan state's key of the :class:`ConnectionLimits`."""
STOPPING: Final = "zamek.stopping"
"""The lifespan state's key of the function that ends the event streams when the server stops."""
FILE_RESERVE: Final = 100
"""Open files kept for the rest of the process (the database's connections, the computer's processes, the files
served) when the cap on connections comes from the open-file limit."""
MIN_CONNECTIONS: Final = 16

BUSY: Final = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nretry-after: 1\r\nconnection: close\r\n"
               b"\r\n")
TOO_SLOW: Final = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"

Awaited = Literal["headers", "body"] | None
"""What a connection's deadline waits for: a request's headers, its body, or nothing (none is set)."""


@dataclass(frozen=True)
class ConnectionLimits:
    header_timeout: float = 10.0
    body_timeout: float = 60.0
    max_connections: int = 1000
    body_bytes: int = 2_000_000


def open_file_limit() -> int | None:
    """The process's open-file limit (the soft one), or None where there is none or it cannot be read."""
    try:
        import resource  # not on Windows
    except ImportError:
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def connection_cap(asked: int | None, files: int | None) -> int:
    """The most connections a process holds: ``asked`` (None: as many as the open-file limit ``files`` leaves),
    never more than ``files`` less :data:`FILE_RESERVE`."""
    room = None if files is None else max(MIN_CONNECTIONS, files - FILE_RESERVE)
    if asked is None:
        return room if room is not None else ConnectionLimits.max_connections
    if room is not None and asked > room:
        log.warning("at most %d connections: the open-file limit is %d (raise it, e.g. LimitNOFILE=, for more)",
                    room, files)
        return room
    return asked


def lifespan_state(header_timeout: float, body_timeout: float, max_connections: int | None, body_bytes: int,
                   end_streams: Callable[[], None]) -> dict[str, Any]:
    """What the app's lifespan hands to its server's connections (see the module's doc)."""
    limits = ConnectionLimits(header_timeout, body_timeout, connection_cap(max_connections, open_file_limit()),
                              body_bytes)
    return {LIMITS: limits, STOPPING: end_streams}


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with timeouts for a request's headers and body, a cap on connections, no draining of
    unread bodies, and event streams ended when the server stops (see the module's doc)."""

    def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.limits: ConnectionLimits = app_state.get(LIMITS) or ConnectionLimits()
        self.deadline: asyncio.TimerHandle | None = None
        self.awaited: Awaited = None
        self.waiting_since = 0.0
        """When the connection began to wait for a request (the longest waiting one goes first when over the cap): the
        process's clock, not the loop's, which uvloop reads once an iteration (connections accepted together would
        seem to have come at once)."""
        self.discarded = 0
        """The bytes of the body of a request answered without reading it, thrown away so far."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.waiting_since = time.monotonic()
        if len(self.connections) > self.limits.max_connections and not self._make_room():
            log.warning("%d connections, the most allowed: a new one is refused (503)", len(self.connections) - 1)
            transport.write(BUSY)
            transport.close()
            return
        self._expect("headers")

    def data_received(self, data: bytes) -> None:
        if self.conn.our_state is h11.DONE and self.conn.their_state is h11.SEND_BODY:  # a body answered unread
            self.discarded += len(data)
            if self.discarded > self.limits.body_bytes:
                self.transport.close()
                return
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        self.discarded = 0
        super().on_response_complete()
        if not self.transport.is_closing():
            self.waiting_since = time.monotonic()
            self._watch()  # idle, or the rest of an unread body (its deadline goes on)

    def connection_lost(self, exc: Exception | None) -> None:
        self._expect(None)
        super().connection_lost(exc)

    def shutdown(self) -> None:
        stopping = self.app_state.get(STOPPING)
        if stopping is not None:
            stopping()  # the streams end with their last event, so that uvicorn need not wait for them, then cut them
        super().shutdown()

    # ------------------------------------------------------------ deadlines

    def _watch(self) -> None:
        """Set the deadline for what the connection waits for now: a body, the headers of a request begun, or
        nothing (the request is all here: its answer takes the time it takes, an event stream's included; or the
        connection is idle, under uvicorn's keep-alive timeout). Bytes trickling in never put a deadline off."""
        state = self.conn.their_state
        if state is h11.SEND_BODY:
            awaited: Awaited = "body"
        elif state is h11.IDLE and self.conn.trailing_data[0]:
            awaited = "headers"
        else:
            awaited = None
        if awaited != self.awaited:
            self._expect(awaited)

    def _expect(self, awaited: Awaited) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        self.awaited = awaited
        if awaited is not None:
            seconds = self.limits.header_timeout if awaited == "headers" else self.limits.body_timeout
            self.deadline = self.loop.call_later(seconds, self._too_slow)

    def _too_slow(self) -> None:
        self.deadline = None
        if self.transport.is_closing():
            return
        if self.awaited == "body":  # answered 408 unless the app answered (before it read the body)
            begun = self.cycle is None or not self.cycle.response_started
        else:
            begun = bool(self.conn.trailing_data[0])  # a request begun, not a connection left idle
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True  # the app hears that the client is gone, and writes nothing more
        if begun:
            self.transport.write(TOO_SLOW)
        self.transport.close()

    # ------------------------------------------------------------ the cap

    def idle(self) -> bool:
        """Waiting for a request (none under way, none being answered)."""
        return (self.conn.their_state is h11.IDLE and (self.cycle is None or self.cycle.response_complete)
                and not self.transport.is_closing())

    def _make_room(self) -> bool:
        """Close the connection that has waited longest for a request; False when every other one is busy."""
        waiting = [c for c in self.connections if c is not self and isinstance(c, GuardedH11Protocol) and c.idle()]
        if not waiting:
            return False
        oldest = min(waiting, key=lambda c: c.waiting_since)
        oldest.transport.close()
        return True
