"""What a process keeps in memory: the games (castle and Rycerze i zamki alike), a bounded cache of the database;
and the parts of their views that a position decides."""

from __future__ import annotations

import gzip
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Generic, TypeVar

from pydantic_core import to_json

T = TypeVar("T")

COMPRESS_FROM_BYTES: Final = 1024
"""Answers this long or longer are gzipped for a client that accepts it; shorter ones would gain nothing."""
GZIP_LEVEL: Final = 6
"""zlib's default: a view packs to nearly what level 9 gives, in a fraction of its time."""


class RecentGames(Generic[T]):
    """At most ``limit`` games, the latest used; the oldest is forgotten (it is read again from the database when
    asked for). Safe to use from the server's threads."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._games: OrderedDict[str, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> T | None:
        """The game if it is held (it becomes the latest used)."""
        with self._lock:
            game = self._games.get(game_id)
            if game is not None:
                self._games.move_to_end(game_id)
            return game

    def peek(self, game_id: str) -> T | None:
        """The game if it is held (its place is left as it is)."""
        with self._lock:
            return self._games.get(game_id)

    def keep(self, game_id: str, game: T) -> T:
        """Hold a game; another thread's copy, if it was quicker, wins and is returned."""
        with self._lock:
            game = self._games.setdefault(game_id, game)
            self._games.move_to_end(game_id)
            while len(self._games) > self.limit:
                self._games.popitem(last=False)
            return game

    def put(self, game_id: str, game: T) -> None:
        """Hold ``game`` in place of what was held for that id (it becomes the latest used)."""
        with self._lock:
            self._games[game_id] = game
            self._games.move_to_end(game_id)
            while len(self._games) > self.limit:
                self._games.popitem(last=False)

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._games.pop(game_id, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)


KEPT_POSITIONS: Final = 256
"""The games whose latest position's parts are kept (the latest used). A position late in a game keeps about
300 KiB (its models and two bodies): 256 is some 80 MB at most, and far more than the games whose pages read
them within the same moment (500 games at a person's pace move about 170 times a second)."""
BODIES_PER_POSITION: Final = 8
"""The answers' bodies kept for one position (a clock that runs makes each view of a position new)."""


@dataclass
class Body:
    """A view as its answer sends it: its JSON, and that JSON gzipped (made once, the first time it is asked for:
    a kept body goes to every page that reads it packed only once)."""

    json: bytes
    _gzipped: bytes | None = None

    def packed(self, accepted: str) -> tuple[bytes, dict[str, str]]:
        """The body and its headers for a client whose ``Accept-Encoding`` is ``accepted``: gzipped where it takes
        gzip and the body is long enough to gain (as the app's middleware would, which lets an answer already
        packed pass)."""
        if "gzip" not in accepted or len(self.json) < COMPRESS_FROM_BYTES:
            return self.json, {}
        if self._gzipped is None:
            self._gzipped = gzip.compress(self.json, GZIP_LEVEL, mtime=0)
        return self._gzipped, {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}


def json_members(fields: dict[str, Any]) -> bytes:
    """The members of a JSON object of ``fields``, without its braces (their models written as the models write
    themselves): parts that an answer's body joins into one object."""
    return to_json(fields)[1:-1]


@dataclass(frozen=True)
class Part:
    """Some of a view's fields, written: the members of their JSON object (without its braces) and their names."""

    json: bytes
    names: frozenset[str]


@dataclass
class Position:
    """The parts of the views of one position (``state``, reached by the moves ``infos``), each written once: by
    language (a catalogue) the fields that the position alone decides; by language and reader (the seats that
    read as "you") the lines in words; and whole answers' bodies, by everything they are made of. Only their JSON
    is kept, not their models: a game's models are thousands of objects that the garbage collector would walk
    in every full collection."""

    state: Any
    infos: list[Any]
    parts: dict[Any, Part] = field(default_factory=dict)
    bodies: dict[Any, Body] = field(default_factory=dict)

    def part(self, key: Any, fields: Callable[[], dict[str, Any]]) -> Part:
        """The part kept under ``key``, else ``fields()`` written and kept."""
        kept = self.parts.get(key)
        if kept is None:
            made = fields()
            kept = self.parts[key] = Part(json_members(made), frozenset(made))
        return kept

    def keep(self, key: Any, body: Body) -> None:
        """Keep an answer's body (the oldest goes beyond :data:`BODIES_PER_POSITION`)."""
        self.bodies[key] = body
        while len(self.bodies) > BODIES_PER_POSITION:
            self.bodies.pop(next(iter(self.bodies)), None)


class ViewCache:
    """The parts of each game's views that its latest position decides (:class:`Position`). A move, an undo, a
    takeback or a reload gives a game a new state object, and with it new parts; the seats, the clock, the end and
    whatever else changes without a move are made anew for every view.

    A castle game's position hides nothing from anyone (its seed is not part of it), so the parts of one language
    and reader are the same for every page that reads them."""

    def __init__(self, limit: int) -> None:
        self._games: RecentGames[Position] = RecentGames(limit)

    def position(self, game_id: str, state: Any, infos: list[Any]) -> Position:
        """The parts of the position ``state`` reached by ``infos``: those made before if they were made for these
        very objects (a part holds them, so their ids are never reused), else none yet."""
        held = self._games.get(game_id)
        if held is None or held.state is not state or held.infos is not infos:
            held = Position(state, infos)
            self._games.put(game_id, held)
        return held

    def forget(self, game_id: str) -> None:
        self._games.forget(game_id)

    def __len__(self) -> int:
        return len(self._games)
