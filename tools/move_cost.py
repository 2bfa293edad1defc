"""What a move costs the server's own code, in process (``python -m tools.move_cost``): games against a friend on a
fresh SQLite file, each move followed by what the load test's pages ask (the mover's answer, then each seat's page
reading the new position), each step timed in this thread's CPU time.

Unlike the load test's server CPU per move it leaves out HTTP, the thread pool and the event streams, and it does
not move when other programs share the machine: a change to the service, the views or the database shows here
first, within a few percent. It runs against whichever ``zamek`` is imported (a checkout of an older commit on
``PYTHONPATH`` measures that commit the same way).
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from zamek import Setup
from zamek.server.service import GameService, WebConfig

STEPS = ("move", "answer", "first read", "second read")
"""A move's steps: the move stored, the mover's answer (its view), the two pages reading the new position."""


def body_of(service: GameService) -> Callable[..., bytes]:
    """How this version makes a view's answer body (older ones: the view, then its JSON)."""
    made = getattr(service, "view_body", None)
    if made is not None:
        return lambda *args, **kw: bytes(made(*args, **kw).json)
    return lambda *args, **kw: service.view(*args, **kw).model_dump_json().encode()


def legal(view: Any) -> list[str]:
    if view.phase == "place" and view.drawn:
        return [str(p.action) for p in view.drawn.places]
    return [str(c.action) for c in view.choices]


def one_move(service: GameService, body: Callable[..., bytes], game_id: str, token: str, action: str,
             revision: int, spent: dict[str, float]) -> None:
    """One move and what it brings about, as the server does them (the answer is made of the match the move
    changed, not read again), each step's CPU time added to ``spent``."""
    started = time.process_time()
    live = service.act(game_id, action, revision, token)
    answered = time.process_time()
    body(game_id, "en", live, token=token)
    read = time.process_time()
    body(game_id, "en")
    again = time.process_time()
    body(game_id, "en")
    done = time.process_time()
    for step, seconds in zip(STEPS, (answered - started, read - answered, again - read, done - again), strict=True):
        spent[step] += seconds


def measure(games: int, moves: int, seed: int, folder: Path) -> tuple[int, dict[str, float]]:
    """Play ``moves`` moves in each of ``games`` games; return the moves played and each step's CPU seconds."""
    service = GameService(WebConfig(db_url=f"sqlite:///{folder / 'games.sqlite3'}", bot_delay=0.0))
    body = body_of(service)
    rng = random.Random(seed)
    spent = dict.fromkeys(STEPS, 0.0)
    played = 0
    try:
        held = []
        for _ in range(games):
            created = service.create("friend", None, "first", Setup(), None, None, "Ala")
            assert created.invite is not None
            joined = service.join(created.live.id, created.invite, "Olek")
            held.append((created.live.id, created.tokens | joined.tokens))
        for _ in range(moves):
            for game_id, tokens in held:
                view = service.view(game_id, "en")
                if view.over:
                    continue
                one_move(service, body, game_id, tokens[view.current], rng.choice(legal(view)), view.revision, spent)
                played += 1
    finally:
        service.close()
    return played, spent


@click.command()
@click.option("--games", type=int, default=10, show_default=True, help="Games against a friend.")
@click.option("--moves", type=int, default=40, show_default=True, help="Moves played in each game.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the players' choices.")
def main(games: int, moves: int, seed: int) -> None:
    """Print the CPU time of each step of a move, in milliseconds a move."""
    with tempfile.TemporaryDirectory(prefix="zamek-move-cost-") as folder:
        played, spent = measure(games, moves, seed, Path(folder))
    each = ", ".join(f"{step} {1000 * seconds / max(played, 1):.2f}" for step, seconds in spent.items())
    click.echo(f"{played} moves; CPU ms a move: {each}; all {1000 * sum(spent.values()) / max(played, 1):.2f}")


if __name__ == "__main__":
    main()
