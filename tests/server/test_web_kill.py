"""``kill -9`` in the middle of a game against a friend: every acknowledged move survives.

The server (``zamek play``) runs as a real subprocess on a SQLite file. Both seats play some moves, the server
is killed with SIGKILL (the last time while a move's request is in flight), and a new server on the same file
must hold every move that got a 2xx answer, take both seats' tokens, resume the event stream after
``Last-Event-ID``, and play the game on to its end.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from tools.loadtest import ServerProcess, free_port, legal_actions, start_server_process

from zamek.castle import record as records

Json = dict[str, Any]
KILL_DELAY = 0.002
"""Seconds between sending the last move and the kill: about the time the server takes to store a move."""


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@contextlib.contextmanager
def serving(db: Path, port: int) -> Iterator[ServerProcess]:
    server = start_server_process(db, db.with_suffix(".log"), port)
    try:
        yield server
    finally:
        if server.process.poll() is None:
            server.stop()


class Players:
    """Both seats of one game, moving through the API; every acknowledged move is kept to check it later."""

    def __init__(self, client: httpx.Client, game: str, tokens: dict[int, str], seed: int) -> None:
        self.client = client
        self.game = game
        self.tokens = tokens
        self.rng = random.Random(seed)
        self.acked: list[tuple[int, str]] = []
        """(moves before the move, the move) of each 2xx answer."""

    def view(self) -> Json:
        response = self.client.get(f"/api/games/{self.game}")
        assert response.status_code == 200, response.text
        answer: Json = response.json()
        return answer

    def next_move(self, view: Json) -> tuple[Json, str]:
        """A random legal move of the view (the request's body) and the token of the seat to make it."""
        body = {"action": self.rng.choice(legal_actions(view)), "revision": view["revision"]}
        return body, self.tokens[view["current"]]

    def move(self) -> Json:
        view = self.view()
        body, token = self.next_move(view)
        response = self.client.post(f"/api/games/{self.game}/actions", json=body,
                                    headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 200, response.text
        self.acked.append((view["moves_count"], body["action"]))
        answer: Json = response.json()
        return answer

    def record(self) -> Json:
        response = self.client.get(f"/api/games/{self.game}/record")
        assert response.status_code == 200, response.text
        answer: Json = response.json()
        return answer

    def check_every_acknowledged_move_is_stored(self) -> None:
        moves = self.record()["moves"]
        for before, action in self.acked:
            assert moves[before] == action


def change_events(lines: Iterator[str], count: int) -> list[int]:
    """The revisions of the next ``count`` change events of a stream (other events skipped)."""
    revisions: list[int] = []
    event = ""
    for line in lines:
        if line.startswith("event:"):
            event = line.partition(":")[2].strip()
        elif line.startswith("data:") and event == "change":
            revisions.append(int(json.loads(line.partition(":")[2])["revision"]))
            if len(revisions) == count:
                return revisions
        elif not line:
            event = ""
    raise AssertionError(f"the stream ended after {revisions}")


def test_kill_9_loses_no_acknowledged_move(db: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with serving(db, port) as first, httpx.Client(base_url=url, timeout=10) as client:
        created = client.post("/api/games", json={"mode": "friend", "clock": None})
        assert created.status_code == 201, created.text
        game = created.json()["id"]
        joined = client.post(f"/api/games/{game}/join", json={"invite": created.json()["invite"]})
        assert joined.status_code == 201, joined.text
        tokens = {t["seat"]: t["token"] for t in [*created.json()["tokens"], *joined.json()["tokens"]]}
        players = Players(client, game, tokens, seed=5)
        with client.stream("GET", f"/api/games/{game}/events",
                           headers={"Authorization": f"Bearer {tokens[0]}"}) as stream:
            lines = stream.iter_lines()
            answer = players.move()
            seen = change_events(lines, 1)[0]
            assert seen == answer["revision"]
        for _ in range(7):
            answer = players.move()
        acknowledged = answer["revision"]

        # The last move's request is sent, and the server killed before (or while, or just after) it answers.
        view = players.view()
        body, token = players.next_move(view)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("POST", f"/api/games/{game}/actions", json.dumps(body),
                           {"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        time.sleep(KILL_DELAY)
        os.kill(first.pid, signal.SIGKILL)
        first.process.wait()
        try:
            status = connection.getresponse().status
        except (OSError, http.client.HTTPException):
            status = None  # no answer: the move may or may not be stored
        connection.close()
        if status is not None and 200 <= status < 300:
            players.acked.append((view["moves_count"], body["action"]))
            acknowledged += 1

    with serving(db, port), httpx.Client(base_url=url, timeout=10) as client:
        players.client = client
        after = players.view()
        # Every acknowledged move is there; the one in flight may be stored too (its answer was lost).
        assert after["revision"] in (acknowledged, acknowledged + 1)
        players.check_every_acknowledged_move_is_stored()
        if after["revision"] == acknowledged + 1:
            assert players.record()["moves"][view["moves_count"]] == body["action"]
        refused = client.post(f"/api/games/{game}/actions", json={"action": "pass", "revision": after["revision"]},
                              headers={"Authorization": "Bearer not-a-token-of-this-game"})
        assert refused.status_code in (401, 403)

        # The stream resumes after the last event it saw: every revision since, in order, then the next move's.
        with client.stream("GET", f"/api/games/{game}/events",
                           headers={"Authorization": f"Bearer {tokens[1]}", "Last-Event-ID": str(seen)}) as stream:
            lines = stream.iter_lines()
            assert change_events(lines, after["revision"] - seen) == list(range(seen + 1, after["revision"] + 1))
            answer = players.move()
            assert change_events(lines, 1) == [answer["revision"]]

        # Both tokens go on playing, to the end of the game.
        movers = set()
        while not answer["over"]:
            movers.add(answer["current"])
            answer = players.move()
        assert movers == {0, 1}
        players.check_every_acknowledged_move_is_stored()
        saved = players.record()
        assert isinstance(saved["seed"], int)  # given once the game is over
        assert records.replay(saved).is_over()
