"""A test's browser of the web API: a test client that keeps the seat tokens the answers give (as the page keeps
them) and names the one a request needs (``Authorization: Bearer <token>``); and what the web tests share: a new
game against the computer, waiting for its reply, a finished game's record."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx2 as httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient

from zamek.castle.data import loader as datafiles
from zamek.castle.record import make_record
from zamek.castle.rules.actions import Action
from zamek.castle.rules.setup import Setup
from zamek.castle.runner import random_policy, sample_chance
from zamek.server.app import create_app
from zamek.server.db import Repository
from zamek.server.service import GameService, WebConfig
from zamek.server.tables import StoredMatch

Json = dict[str, Any]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Tokens:
    """The seat tokens a browser holds: game id -> seat -> token."""

    def __init__(self) -> None:
        self.seats: dict[str, dict[int, str]] = {}

    def keep(self, answer: Json) -> None:
        for held in answer.get("tokens") or ():
            self.seats.setdefault(answer["id"], {})[held["seat"]] = held["token"]

    def token(self, game_id: str, seat: int) -> str:
        return self.seats[game_id][seat]

    def held(self, game_id: str) -> dict[int, str]:
        return dict(self.seats.get(game_id, {}))

    def all(self) -> list[str]:
        return [t for seats in self.seats.values() for t in seats.values()]


class WebClient(TestClient):
    """A test client that keeps every token an answer gives (``tokens``)."""

    def __init__(self, app: FastAPI, tokens: Tokens | None = None, **options: Any) -> None:
        super().__init__(app, **options)
        self.fastapi = app
        self.tokens = tokens if tokens is not None else Tokens()
        self.event_hooks = {"request": [], "response": [self._keep]}

    def _keep(self, response: httpx.Response) -> None:
        json = response.headers.get("content-type", "").startswith("application/json")
        if response.status_code in (200, 201) and json and response.request.method != "HEAD":  # HEAD: no body
            response.read()
            body = response.json()
            if isinstance(body, dict) and "tokens" in body:
                self.tokens.keep(body)

    @property
    def service(self) -> GameService:
        service: GameService = self.fastapi.state.service
        return service

    def seat(self, game_id: str, seat: int) -> dict[str, str]:
        """The header that proves ``seat`` of a game."""
        return bearer(self.tokens.token(game_id, seat))

    def mover(self, view: Json) -> dict[str, str]:
        """The header of the castle game's seat to move (against the computer: the person's seat)."""
        return self.seat(view["id"], view["human"] if view["mode"] == "computer" else view["current"])

    def last_mover(self, view: Json) -> dict[str, str]:
        """The header of the seat that made the castle game's last move (the one that may take it back)."""
        if view["mode"] == "computer":
            return self.seat(view["id"], view["human"])
        player = view["recent"][-1]["player"] if view["recent"] else None
        return self.seat(view["id"], view["current"] if player is None else player)

    def lobby(self, tokens: list[str] | None = None) -> Json:
        """The lobby of ``tokens`` (default: every token this client holds)."""
        response = self.post("/api/lobby", json={"tokens": self.tokens.all() if tokens is None else tokens})
        assert response.status_code == 200, response.text
        body: Json = response.json()
        return body


START = 1_700_000_000.0
"""The fake time a clocked test starts at (seconds since the epoch)."""


class FakeTime:
    """The time the game clocks read (``WebConfig(clock=...)``): it moves only when a test says."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def web_config(db: Path, **options: Any) -> WebConfig:
    return WebConfig(db_url=f"sqlite:///{db}", **({"bot_delay": 0.0} | options))


@contextmanager
def client_for(db: Path, bot_delay: float = 0.0, tokens: Tokens | None = None, **options: Any) -> Iterator[WebClient]:
    """A client of a fresh app on the SQLite file ``db`` (the lifespan runs: resume and shutdown); ``tokens``
    carries the tokens of an earlier client (a browser's, across a restart of the server)."""
    app = create_app(web_config(db, bot_delay=bot_delay, **options))
    with WebClient(app, tokens) as client:
        yield client


# ------------------------------------------------------------------ what the web tests share


def new_game(client: WebClient, **options: Any) -> Json:
    body = {"mode": "computer", "level": "beginner", "seat": "first", "seed": 5} | options
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    view: Json = response.json()
    return view


def wait_for_person(client: WebClient, game_id: str, timeout: float = 30.0) -> Json:
    """Poll like the page does until the computer has replied."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        view: Json = client.get(f"/api/games/{game_id}").json()
        assert view["bot_error"] is None, view["bot_error"]
        if not view["thinking"]:
            return view
        time.sleep(0.01)
    raise AssertionError("the computer did not reply in time")


def finished_record(seed: int) -> Json:
    """A whole random game of seed ``seed`` (Zamek), as a saved-game record."""
    rng = random.Random(seed)
    setup = Setup()
    state = datafiles.new_game(setup)
    actions: list[Action] = []
    while not state.is_over():
        action: Action = sample_chance(state, rng) if state.is_chance() else random_policy(state, rng)
        state.apply(action)
        actions.append(action)
    return make_record(setup, seed, actions, state)


def legacy_castle(repo: Repository, game_id: str, mode: str, human: int | None) -> None:
    """Store a castle game of no moves as the versions before seats stored it (a row of ``matches`` alone)."""
    stamp = datetime.now(UTC)
    setup = {"edition": "zamek", "expansions": [], "variants": [], "first_player": 0, "draw_order": None, "board": 2}
    level = "beginner" if mode == "computer" else None
    repo.add(StoredMatch(id=game_id, kind="castle", created_at=stamp, updated_at=stamp, mode=mode, level=level,
                         human=human, seed=77, setup=setup, moves=[], status="playing", scores=[0, 0], turn=1,
                         revision=0))
