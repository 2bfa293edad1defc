"""One arena for both games: which seed and seat rotation each game of a match gets, and playing the
games in order or on several processes, reporting each as it finishes.

Game ``i`` of a match between ``n`` players is played on seed ``S + i // n`` at rotation ``i % n``: the
listed players move one seat on at each rotation, so over ``n`` games on one seed each sits in every
seat, and (the seed fixing the chance, ``zamek.castle.seeding``) all of them see the same tiles. The castle
game's arena (2 players: the seat order alternates) and the card game's (2-4 players) both schedule
and run their games here; each keeps its own report.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import as_completed
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from zamek.kit.pools import process_pool

J = TypeVar("J")
R = TypeVar("R")

GameCounter = Callable[[int], Callable[[], None]]
"""Told how many games a ``play_all`` will play; returns what to call as each one finishes."""
_game_counter: ContextVar[GameCounter | None] = ContextVar("game_counter", default=None)


@contextmanager
def counting_games(counter: GameCounter) -> Iterator[None]:
    """Have every ``play_all`` inside tell ``counter`` of its games (a command's progress bar), however deep in a
    training or a ladder it is called: no signature on the way needs to carry it."""
    token = _game_counter.set(counter)
    try:
        yield
    finally:
        _game_counter.reset(token)


def seating(players: int, rotation: int) -> tuple[int, ...]:
    """Return, per seat, the index of the listed player who sits there at a rotation."""
    return tuple((seat + rotation) % players for seat in range(players))


def schedule(players: int, games: int, seed: int) -> list[tuple[int, int]]:
    """Return (seed, rotation) of each game of a match: seed ``S + i // n``, rotation ``i % n``."""
    return [(seed + i // players, i % players) for i in range(games)]


def play_all(play: Callable[[J], R], jobs: Sequence[J], workers: int = 1,
             on_result: Callable[[int, R], None] | None = None) -> list[R]:
    """Play every job (``play`` must be a module-level function when ``workers`` > 1), in job order.

    ``on_result(index, result)`` hears of each game as it finishes: with several workers games finish
    out of order, but the list returned is in job order.
    """
    results: list[R | None] = [None] * len(jobs)
    counter = _game_counter.get()
    counted = counter(len(jobs)) if counter is not None else None

    def done(index: int, result: R) -> None:
        results[index] = result
        if counted is not None:
            counted()
        if on_result is not None:
            on_result(index, result)

    if workers > 1:
        with process_pool(workers) as pool:
            futures = {pool.submit(play, job): index for index, job in enumerate(jobs)}
            for future in as_completed(futures):
                done(futures[future], future.result())
    else:
        for index, job in enumerate(jobs):
            done(index, play(job))
    return [r for r in results if r is not None]
