"""Live updates: which game changed, to every page that watches it, as Server-Sent Events.

:class:`GameEvents` is the one small interface the app uses: ``publish`` a game's new revision (from any
thread), ``subscribe`` to a game (a page's stream, with the seat it holds, for presence), ``connected``
seats and how many spectators are ``watching``. :class:`LocalEvents` implements it inside one process; a server
of several processes replaces it with one that carries the same calls between processes (e.g. PostgreSQL's
LISTEN/NOTIFY).

Admission: a process holds at most ``MAX_WATCHERS`` streams. Spectators' streams (no seat's token) together leave
``seat_reserve`` of them to seats' pages, and each client (its address) has at most ``spectators_per_client`` of
them: a client that opens thousands of spectators' streams on games it made itself never shuts a player out of
their own game's events. Each client also has at most ``seat_pages_per_client`` seats' streams, so that one making
games to hold their seats' streams never fills the process either. Each seat of a game has ``MAX_PAGES_PER_SEAT``
pages, its spectators ``MAX_WATCHERS_PER_GAME``.

An event carries no secret of its own: a game's id and revision (and which seats have a page open, how many
spectators watch, and the fixed words a seat says at the table: :mod:`zamek.server.talk`). A page that sees a
revision newer than its own asks for its view again, with its seat's token, so each seat still sees only what it
may. A page may instead ask its stream to bring that view (``view``): each ``change`` then carries the view its
stream's token would read (made as that read would make it, the token proved again: a seat's hand only to that
seat), and the page reads nothing; that saves a request for every move, which is most of a move's cost to the
server. The change a seat's own move made comes to that seat's streams without it: the move's answer brought it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections import Counter, deque
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Final, Protocol

from zamek.server.fairness import SEAT_STREAM_RESERVE
from zamek.server.throttle import Throttled

KEEP_ALIVE_SECONDS: Final = 15.0
REMEMBERED_GAMES: Final = 50_000
"""The games whose latest revision is kept while nobody watches them (then the oldest are forgotten: a new
stream learns a game's revision from the game itself)."""
MAX_WATCHERS_PER_GAME: Final = 64
"""Spectators' pages of one game."""
MAX_PAGES_PER_SEAT: Final = 8
MAX_WATCHERS: Final = 10_000
"""Streams of one process (seats' and spectators')."""
REFUSED_RETRY_SECONDS: Final = 15
"""What a page refused a stream is told to wait before asking again (``Retry-After``)."""
RESTART_RETRY_MS: Final = 1000
"""How long a page waits before it opens its stream again after the server said it is stopping (a restart)."""
LOBBY_STARTED_KEPT: Final = 1024
"""The latest players whose lobby game started, kept for the lobby's streams to look for their own."""
ALL_PLAYERS: Final = "*"
"""In ``lobby_started``: some were forgotten, any player's game may have started."""
SAID_KEPT: Final = 16
"""The latest words said at a watched table kept for its streams to send (a word is said at most every few seconds
by a seat: a stream sends each long before it is dropped)."""


class Subscription(Protocol):
    async def wait(self, timeout: float) -> bool:
        """Wait until the game changes, a seat connects or leaves, or the server stops; False on timeout."""
        ...

    @property
    def closed(self) -> bool: ...


class GameEvents(Protocol):
    """What the app needs of live updates (see the module's doc)."""

    def publish(self, game_id: str, revision: int, answered: int | None = None) -> None:
        """The game reached ``revision``; ``answered``: the seat whose request made the change and was answered with
        the game's view (its own stream need not bring that view again)."""
        ...

    def answered(self, game_id: str, revision: int) -> int | None:
        """The seat a change to ``revision`` was answered to with its view (see ``publish``), if it is known."""
        ...

    def gone(self, game_id: str) -> None:
        """The game was deleted: its streams end."""
        ...

    def is_gone(self, game_id: str) -> bool: ...

    def latest(self, game_id: str) -> int | None: ...

    def subscribe(self, game_id: str, seat: int | None, revision: int, client: str | None = None
                  ) -> AbstractContextManager[Subscription]:
        """Watch a game as ``seat`` (None: a spectator) from ``client`` (its address, for its limits of spectators'
        and seats' streams); refused with 429 ``too-many-watchers`` (see the module's doc on admission)."""
        ...

    def connected(self, game_id: str) -> list[int]: ...

    def watching(self, game_id: str) -> int:
        """The spectators' pages of a game (its streams without a seat's token)."""
        ...

    def say(self, game_id: str, seat: int, message: str) -> None:
        """A seat says one of the table's fixed messages: every stream of the game (seats' and spectators') sends it
        once, as it comes; nothing keeps it after (a page opened later never hears it)."""
        ...

    def said(self, game_id: str, after: int) -> list[tuple[int, int, str]]:
        """The words said at a game after the number ``after`` (``said_last()`` when a stream began): (number, seat,
        message), in order."""
        ...

    def said_last(self) -> int:
        """The number of the latest word said in this process (a stream hears only those said after it began)."""
        ...

    def lobby(self) -> AbstractContextManager[Subscription]:
        """Follow the lobby (its challenges): woken by every ``ring_lobby``, of this process or another, and when the
        server stops (then ``closed``)."""
        ...

    def ring_lobby(self, started: str | None = None) -> None:
        """The lobby's challenges changed: wake every page that follows it; ``started``: the player (their id) whose
        challenge or pairing has just become a game."""
        ...

    def lobby_started(self, after: int) -> tuple[int, set[str]]:
        """The players whose game started since the number ``after`` (0: since the process began), and the latest
        number (a page asks the database for its game only when its player is among them)."""
        ...

    def start(self) -> None:
        """The server starts: begin hearing of other processes' changes (if there are any)."""
        ...

    def end_streams(self) -> None:
        """The server is stopping: every stream says so (``restart``) and ends; called from the event loop, at once."""
        ...

    def close(self) -> None: ...


class _Watcher:
    def __init__(self, loop: asyncio.AbstractEventLoop, seat: int | None) -> None:
        self.loop = loop
        self.seat = seat
        self.wake = asyncio.Event()
        self.closed = False

    def poke(self) -> None:
        self.loop.call_soon_threadsafe(self.wake.set)

    async def wait(self, timeout: float) -> bool:
        try:
            await asyncio.wait_for(self.wake.wait(), timeout)
        except TimeoutError:
            return False
        self.wake.clear()
        return True


class LocalEvents:
    """Live updates within one process (threads and the event loop share it)."""

    def __init__(self, spectators_per_client: int = 0, seat_reserve: int = SEAT_STREAM_RESERVE,
                 seat_pages_per_client: int = 0) -> None:
        self._lock = threading.Lock()
        self._latest: dict[str, int] = {}
        self._answered: dict[str, tuple[int, int]] = {}
        """By game: the latest revision published with the seat answered (see ``GameEvents.publish``), and that seat."""
        self._watchers: dict[str, list[_Watcher]] = {}
        self._seats: dict[str, dict[int, int]] = {}
        self._gone: set[str] = set()
        self._count = 0
        self._closed = False
        self.spectators_per_client = spectators_per_client
        """Spectators' streams of one client (0: any number)."""
        self.seat_reserve = seat_reserve
        """Streams that spectators together leave to seats."""
        self.seat_pages_per_client = seat_pages_per_client
        """Seats' streams of one client (0: any number)."""
        self._spectators = 0
        self._by_client: Counter[tuple[bool, str]] = Counter()
        """Streams open by client: (whether they are a seat's, the client)."""
        self._said: dict[str, deque[tuple[int, int, str]]] = {}
        self._said_last = 0
        self._lobby: list[_Watcher] = []
        self._lobby_started: deque[tuple[int, str]] = deque(maxlen=LOBBY_STARTED_KEPT)
        self._lobby_serial = 0

    def start(self) -> None:
        pass  # one process: every change is published here

    def publish(self, game_id: str, revision: int, answered: int | None = None) -> None:
        with self._lock:
            self._latest[game_id] = max(revision, self._latest.pop(game_id, revision))  # re-inserted: newest last
            if answered is not None:
                self._answered[game_id] = (revision, answered)
            if len(self._latest) > REMEMBERED_GAMES:
                self._forget()
            watchers = list(self._watchers.get(game_id, ()))
        for watcher in watchers:
            watcher.poke()

    def _forget(self) -> None:
        """Forget the oldest half of the unwatched games (the caller holds the lock)."""
        unwatched = [g for g in self._latest if g not in self._watchers]
        for game_id in unwatched[: len(unwatched) // 2 + 1]:
            del self._latest[game_id]
            self._answered.pop(game_id, None)
        if len(self._gone) > REMEMBERED_GAMES:
            self._gone.clear()

    def gone(self, game_id: str) -> None:
        with self._lock:
            self._gone.add(game_id)
            watchers = list(self._watchers.get(game_id, ()))
        for watcher in watchers:
            watcher.closed = True
            watcher.poke()

    def latest(self, game_id: str) -> int | None:
        with self._lock:
            return self._latest.get(game_id)

    def answered(self, game_id: str, revision: int) -> int | None:
        with self._lock:
            known = self._answered.get(game_id)
        return known[1] if known is not None and known[0] == revision else None

    def is_gone(self, game_id: str) -> bool:
        with self._lock:
            return game_id in self._gone

    def _admit(self, games: list[_Watcher], seat: int | None, client: str | None) -> None:
        """Refuse a stream over a limit (see the module's doc; the caller holds the lock)."""
        # Spectators and each seat have pages of their own to count: spectators never shut a player out.
        alike = sum(1 for w in games if w.seat == seat)
        if alike >= (MAX_WATCHERS_PER_GAME if seat is None else MAX_PAGES_PER_SEAT) or self._count >= MAX_WATCHERS:
            raise Throttled(REFUSED_RETRY_SECONDS, "too-many-watchers", error="too-many-watchers")
        if seat is None and self._spectators >= MAX_WATCHERS - min(self.seat_reserve, MAX_WATCHERS):
            raise Throttled(REFUSED_RETRY_SECONDS, "spectators-full", error="too-many-watchers")
        limit, refusal = ((self.spectators_per_client, "too-many-spectator-pages") if seat is None
                          else (self.seat_pages_per_client, "too-many-seat-pages"))
        if client is not None and 0 < limit <= self._by_client[seat is not None, client]:
            raise Throttled(REFUSED_RETRY_SECONDS, refusal, error="too-many-watchers", limit=limit)

    @contextmanager
    def subscribe(self, game_id: str, seat: int | None, revision: int, client: str | None = None
                  ) -> Iterator[_Watcher]:
        """Watch a game from a running event loop; ``revision`` is the game's revision as the caller read it."""
        watcher = _Watcher(asyncio.get_running_loop(), seat)
        with self._lock:
            if self._closed:
                watcher.closed = True
            games = self._watchers.get(game_id, [])
            self._admit(games, seat, client)
            self._watchers[game_id] = games
            games.append(watcher)
            self._count += 1
            if seat is None:
                self._spectators += 1
            if client is not None:
                self._by_client[seat is not None, client] += 1
            self._latest[game_id] = max(revision, self._latest.get(game_id, revision))
            others = list(games)
            if seat is not None:
                seats = self._seats.setdefault(game_id, {})
                seats[seat] = seats.get(seat, 0) + 1
        try:
            for other in others:  # within the try: the counts just taken are given back whatever happens
                other.poke()
            yield watcher
        finally:
            with self._lock:
                games = self._watchers.get(game_id, [])
                if watcher in games:
                    games.remove(watcher)
                    self._count -= 1
                    if seat is None:
                        self._spectators -= 1
                    if client is not None:
                        key = (seat is not None, client)
                        self._by_client[key] -= 1
                        if self._by_client[key] <= 0:
                            del self._by_client[key]
                if not games:
                    self._watchers.pop(game_id, None)
                    self._said.pop(game_id, None)
                others = list(games)
                if seat is not None:
                    seats = self._seats.get(game_id, {})
                    seats[seat] = seats.get(seat, 1) - 1
                    if seats.get(seat) == 0:
                        del seats[seat]
                    if not seats:
                        self._seats.pop(game_id, None)
            for other in others:
                other.poke()

    def connected(self, game_id: str) -> list[int]:
        with self._lock:
            return sorted(self._seats.get(game_id, {}))

    def watching(self, game_id: str) -> int:
        with self._lock:
            return sum(1 for w in self._watchers.get(game_id, ()) if w.seat is None)

    def say(self, game_id: str, seat: int, message: str) -> None:
        with self._lock:
            watchers = list(self._watchers.get(game_id, ()))
            if not watchers:
                return  # nobody here hears it
            self._said_last += 1
            self._said.setdefault(game_id, deque(maxlen=SAID_KEPT)).append((self._said_last, seat, message))
        for watcher in watchers:
            watcher.poke()

    def said(self, game_id: str, after: int) -> list[tuple[int, int, str]]:
        with self._lock:
            return [word for word in self._said.get(game_id, ()) if word[0] > after]

    def said_last(self) -> int:
        with self._lock:
            return self._said_last

    @contextmanager
    def lobby(self) -> Iterator[_Watcher]:
        watcher = _Watcher(asyncio.get_running_loop(), None)
        with self._lock:
            if self._count >= MAX_WATCHERS:
                raise Throttled(REFUSED_RETRY_SECONDS, "too-many-watchers", error="too-many-watchers")
            watcher.closed = self._closed
            self._lobby.append(watcher)
            self._count += 1
        try:
            yield watcher
        finally:
            with self._lock:
                self._lobby.remove(watcher)
                self._count -= 1

    def ring_lobby(self, started: str | None = None) -> None:
        with self._lock:
            if started is not None:
                self._lobby_serial += 1
                self._lobby_started.append((self._lobby_serial, started))
            watchers = list(self._lobby)
        for watcher in watchers:
            watcher.poke()

    def lobby_started(self, after: int) -> tuple[int, set[str]]:
        with self._lock:
            if self._lobby_started and self._lobby_started[0][0] > after + 1:
                return self._lobby_serial, {ALL_PLAYERS}  # some were forgotten: every page looks
            return self._lobby_serial, {player for number, player in self._lobby_started if number > after}

    def watched(self) -> dict[str, list[int]]:
        """The games that pages watch here, with the seats whose pages they are."""
        with self._lock:
            return {g: sorted(self._seats.get(g, {})) for g in self._watchers}

    def touch(self, game_id: str) -> None:
        """Wake the streams of a game (its presence changed elsewhere)."""
        with self._lock:
            watchers = list(self._watchers.get(game_id, ()))
        for watcher in watchers:
            watcher.poke()

    def end_streams(self) -> None:
        self.close()

    def close(self) -> None:
        """The server stops: every stream ends (again: nothing more)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            watchers = [w for ws in self._watchers.values() for w in ws] + self._lobby
        for watcher in watchers:
            watcher.closed = True
            with contextlib.suppress(RuntimeError):  # its loop has already stopped
                watcher.poke()


def sse(event: str, data: dict[str, object], event_id: int | None = None, view: bytes | None = None) -> str:
    """An event's text; ``view``: a JSON object already written (one line), carried as the data's ``view``."""
    lines = [f"event: {event}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    written = json.dumps(data, separators=(',', ':'))
    if view is not None:
        written = f'{written[:-1]},"view":{view.decode()}}}'
    lines.append(f"data: {written}")
    return "\n".join(lines) + "\n\n"


ViewOf = Callable[[int], Awaitable[bytes | None]]
"""The view a stream's ``change`` events carry: that of the game at (at least) the given revision, as the stream's
page would read it (its JSON), or None where there is none to give (the page reads it itself)."""


async def stream(events: GameEvents, game_id: str, seat: int | None, revision: int, last_seen: int | None,
                 connected: Callable[[], list[int]] | None = None, client: str | None = None,
                 view: ViewOf | None = None) -> AsyncGenerator[str, None]:
    """The text of a game's event stream: a ``change`` event for each revision after ``last_seen`` (its id the
    revision), ``presence`` when a seat's page connects or leaves or a spectator's comes or goes (the seats connected
    and the number of spectators watching), ``say`` when a seat says one of the table's fixed messages (said after the
    stream began), ``gone`` when the game is deleted, ``restart`` when the server stops (the page comes back after
    ``retry`` ms), and a comment now and then so that proxies keep the connection open. ``client``: who opens it (for
    its limits of streams); ``view``: the view the latest ``change`` of a burst carries (see the module's doc)."""
    who = connected or (lambda: events.connected(game_id))
    sent = revision if last_seen is None else min(last_seen, revision)
    heard = events.said_last()
    with events.subscribe(game_id, seat, revision, client) as watcher:
        yield "retry: 1000\n\n"
        presence: tuple[list[int], int] | None = None
        while True:
            if events.is_gone(game_id):
                yield sse("gone", {"game": game_id})
                return
            latest = events.latest(game_id) or revision
            if latest > sent:
                # The seat whose move made the latest change has its view in the move's answer: not sent twice.
                mine = seat is not None and events.answered(game_id, latest) == seat
                shown = await view(latest) if view is not None and not mine else None
                for number in range(sent + 1, latest + 1):
                    yield sse("change", {"game": game_id, "revision": number, "latest": latest}, number,
                              shown if number == latest else None)
            sent = max(sent, latest)
            for number, speaker, message in events.said(game_id, heard):
                heard = number
                yield sse("say", {"game": game_id, "seat": speaker, "message": message})
            now = (who(), events.watching(game_id))
            if now != presence:
                presence = now
                yield sse("presence", {"game": game_id, "connected": now[0], "watching": now[1]})
            if watcher.closed:  # not gone: the server is stopping; the stream ends whole, not cut
                yield sse("restart", {"game": game_id, "retry": RESTART_RETRY_MS})
                return
            if not await watcher.wait(KEEP_ALIVE_SECONDS):
                yield ": keep-alive\n\n"
