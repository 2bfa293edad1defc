"""Live updates across the processes of a server, through PostgreSQL's LISTEN/NOTIFY.

Every stored change sends a notification on the channel ``zamek`` in its own transaction
(:class:`zamek.server.db.Repository`), so that it is heard exactly when it is committed: ``c GAME REVISION``
(changed; ``c GAME REVISION SEAT``: a change a seat made and was answered with its view, :meth:`GameEvents.publish`),
``g GAME`` (deleted). Each process listens on one connection of its own and feeds its streams
through a :class:`~zamek.server.events.LocalEvents`; after a lost connection it reads the revision of every
game it streams again, so that no change is missed.

A change of the lobby's challenges is told to the other processes as ``l PROCESS [PLAYER]`` (the player whose game it
started, if any: :mod:`zamek.server.challenges`);
a word said at a table (:mod:`zamek.server.talk`) is told to the other processes as it is said, ``s PROCESS GAME SEAT
MESSAGE``, and kept nowhere: a process that does not hear it (its connection was lost a moment) does not send it.

Presence (which seats have a page open, how many spectators watch) lives in the processes that hold the streams:
each tells the others ``p PROCESS GAME SEATS WATCHING`` when it changes, and again every few seconds; a process that
stops telling (it died) is forgotten after ``PRESENCE_SECONDS``.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Final

import psycopg
from sqlalchemy.engine import Engine

from zamek.server.events import ALL_PLAYERS, LocalEvents, Subscription
from zamek.server.statements import CHANNEL

log = logging.getLogger("zamek.server")

HEARTBEAT_SECONDS: Final = 5.0
PRESENCE_SECONDS: Final = 15.0
"""A process's presence is forgotten when it has not told it again for this long (it died)."""


def conninfo(engine: Engine) -> str:
    """The connection string psycopg takes, from a SQLAlchemy engine's URL."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


class PgEvents:
    """:class:`~zamek.server.events.GameEvents` across processes (see the module's doc)."""

    def __init__(self, engine: Engine, revision_of: Callable[[str], int | None], local: LocalEvents | None = None
                 ) -> None:
        self.local = local or LocalEvents()
        """This process's streams (and their admission)."""
        self._conninfo = conninfo(engine)
        self._revision_of = revision_of
        self.name = uuid.uuid4().hex[:12]
        self._lock = threading.Lock()
        self._remote: dict[str, dict[str, tuple[list[int], int, float]]] = {}
        """By game, by process: the seats connected there, its spectators, and when it last told them."""
        self._outbox: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        """Games whose presence to tell; an empty text only wakes the teller for ``_notes``."""
        self._notes: queue.SimpleQueue[str] = queue.SimpleQueue()
        """Notifications to send as they are (the words said at tables)."""
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self.listening = threading.Event()
        """Set while the process hears the others' changes."""

    # -------------------------------------------------------- GameEvents

    def publish(self, game_id: str, revision: int, answered: int | None = None) -> None:
        self.local.publish(game_id, revision, answered)  # the other processes hear it from the database

    def answered(self, game_id: str, revision: int) -> int | None:
        return self.local.answered(game_id, revision)

    def gone(self, game_id: str) -> None:
        self.local.gone(game_id)

    def is_gone(self, game_id: str) -> bool:
        return self.local.is_gone(game_id)

    def latest(self, game_id: str) -> int | None:
        return self.local.latest(game_id)

    @contextmanager
    def subscribe(self, game_id: str, seat: int | None, revision: int, client: str | None = None
                  ) -> Iterator[Subscription]:
        with self.local.subscribe(game_id, seat, revision, client) as watcher:
            self._announce(game_id)
            try:
                yield watcher
            finally:
                self._outbox.put(game_id)  # announced after the local count has dropped

    def connected(self, game_id: str) -> list[int]:
        seats = set(self.local.connected(game_id))
        horizon = time.monotonic() - PRESENCE_SECONDS
        with self._lock:
            for others, _watching, seen in self._remote.get(game_id, {}).values():
                if seen >= horizon:
                    seats.update(others)
        return sorted(seats)

    def watching(self, game_id: str) -> int:
        count = self.local.watching(game_id)
        horizon = time.monotonic() - PRESENCE_SECONDS
        with self._lock:
            count += sum(n for _seats, n, seen in self._remote.get(game_id, {}).values() if seen >= horizon)
        return count

    def say(self, game_id: str, seat: int, message: str) -> None:
        self.local.say(game_id, seat, message)
        self._notes.put(f"s {self.name} {game_id} {seat} {message}")
        self._outbox.put("")

    def said(self, game_id: str, after: int) -> list[tuple[int, int, str]]:
        return self.local.said(game_id, after)

    def said_last(self) -> int:
        return self.local.said_last()

    def lobby(self) -> AbstractContextManager[Subscription]:
        return self.local.lobby()

    def ring_lobby(self, started: str | None = None) -> None:
        self.local.ring_lobby(started)
        self._notes.put(f"l {self.name} {started or ''}".rstrip())
        self._outbox.put("")

    def lobby_started(self, after: int) -> tuple[int, set[str]]:
        return self.local.lobby_started(after)

    def start(self) -> None:
        for target, name in ((self._listen, "zamek-listen"), (self._tell, "zamek-presence")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def end_streams(self) -> None:
        self.local.close()  # the threads go on until close(): the streams' last events need nothing from them

    def close(self) -> None:
        self._stopping.set()
        self._outbox.put(None)
        for thread in self._threads:
            thread.join(timeout=3)
        self.local.close()

    # --------------------------------------------------------------- hearing

    def _listen(self) -> None:
        while not self._stopping.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    self._catch_up()
                    while not self._stopping.is_set():
                        for note in connection.notifies(timeout=0.5):
                            self._heard(note.payload)
            except (psycopg.Error, OSError):
                self.listening.clear()
                log.warning("lost the database's notifications; listening again in a second", exc_info=True)
                self._stopping.wait(1.0)

    def _catch_up(self) -> None:
        """After (re)connecting: the games streamed here, and the lobby, may have changed while nobody listened."""
        self.local.ring_lobby(ALL_PLAYERS)
        for game_id in self.local.watched():
            revision = self._revision_of(game_id)
            if revision is None:
                self.local.gone(game_id)
            else:
                self.local.publish(game_id, revision)

    def _heard(self, payload: str) -> None:
        parts = payload.split(" ")
        try:
            if parts[0] == "c" and len(parts) in (3, 4):
                self.local.publish(parts[1], int(parts[2]), int(parts[3]) if len(parts) == 4 else None)
            elif parts[0] == "g" and len(parts) == 2:
                self.local.gone(parts[1])
            elif parts[0] == "l" and len(parts) in (2, 3) and parts[1] != self.name:
                self.local.ring_lobby(parts[2] if len(parts) == 3 else None)
            elif parts[0] == "s" and len(parts) == 5 and parts[1] != self.name:
                self.local.say(parts[2], int(parts[3]), parts[4])
            elif parts[0] == "p" and len(parts) in (4, 5) and parts[1] != self.name:
                seats = [int(s) for s in parts[3].split(",") if s]
                watching = int(parts[4]) if len(parts) == 5 else 0  # a process of a version that did not count them
                with self._lock:
                    others = self._remote.setdefault(parts[2], {})
                    if seats or watching:
                        others[parts[1]] = (seats, watching, time.monotonic())
                    else:
                        others.pop(parts[1], None)
                        if not others:
                            self._remote.pop(parts[2], None)
                self.local.touch(parts[2])
        except ValueError:
            log.warning("an unreadable notification: %r", payload)

    # --------------------------------------------------------------- telling

    def _announce(self, game_id: str) -> None:
        self._outbox.put(game_id)

    def _tell(self) -> None:
        """Send this process's presence: each change, and all of it every few seconds."""
        beat = time.monotonic()
        while not self._stopping.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True) as connection:
                    while not self._stopping.is_set():
                        try:
                            game_id = self._outbox.get(timeout=max(0.0, beat + HEARTBEAT_SECONDS - time.monotonic()))
                        except queue.Empty:
                            game_id = None
                        games = [game_id] if game_id else []
                        while not self._notes.empty():
                            connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, self._notes.get()))
                        if time.monotonic() >= beat + HEARTBEAT_SECONDS:
                            beat = time.monotonic()
                            games = list(self.local.watched())
                        for game in games:
                            seats = ",".join(map(str, self.local.connected(game)))
                            note = f"p {self.name} {game} {seats} {self.local.watching(game)}"
                            connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, note))
            except (psycopg.Error, OSError):
                log.warning("cannot tell the other processes who is connected; trying again", exc_info=True)
                self._stopping.wait(1.0)
