"""The games a process keeps in memory (castle and Rycerze i zamki alike): a bounded cache of the database."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

T = TypeVar("T")


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

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._games.pop(game_id, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)
