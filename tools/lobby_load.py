"""The load test's lobby mode (``python -m tools.loadtest --start --lobby N``): N players
meeting through open challenges (issue 39 item 2).

Each player is made (``POST /api/players``) and opens the lobby's event stream with its token, as a page does. Then,
for each round, half the players post a challenge, and the other half read the list and accept one of the open
challenges at random, all at once, so that several race for the same one; one that loses (409) reads the list again
and tries another, until every challenge is taken. The roles swap each round.

It measures (one asyncio process): the latency of posting, of reading the list, of accepting (a won 201 and a lost
409 apart), and of the **start**: from an accept's request to the moment the poster's lobby stream tells it of its
game (``started``); and it checks that each challenge was taken exactly once: one 201 for each, one game made for
each, and every poster told of the game it was seated in.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import httpx2 as httpx

from tools.loadtest import percentiles, server_cpu_seconds, start_server_process

PLAYER: Final = "X-Zamek-Player"
CHALLENGE: Final = {"game": "castle", "rules": "zamek", "clock": {"kind": "live", "minutes": 10, "increment": 5}}
STARTED_WAIT_SECONDS: Final = 10.0
"""How long a round waits, after the last accept, for the posters' streams to tell of their games."""


@dataclass
class Player:
    name: str
    token: str
    started: dict[str, float] = field(default_factory=dict)
    """The challenges whose game this player's stream told of, and when."""


@dataclass
class LobbyReport:
    players: int
    rounds: int
    latencies: dict[str, list[float]]
    accepted: int
    lost_races: int
    challenges: int
    games_told: int
    errors: Counter[str]
    doubly_taken: int
    seconds: float
    server_cpu: float | None

    @property
    def ok(self) -> bool:
        return not self.errors and not self.doubly_taken and self.accepted == self.challenges == self.games_told

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "rounds": self.rounds, "challenges": self.challenges,
                "accepted": self.accepted, "lost_races": self.lost_races, "games_told": self.games_told,
                "doubly_taken": self.doubly_taken, "errors": dict(self.errors), "seconds": round(self.seconds, 2),
                "server_cpu_seconds": self.server_cpu,
                "latency_ms": {kind: percentiles(values) for kind, values in self.latencies.items()}, "ok": self.ok}

    def table(self) -> str:
        lines = [f"lobby: {self.players} players, {self.rounds} rounds, {self.challenges} challenges in "
                 f"{self.seconds:.1f} s (server CPU {self.server_cpu if self.server_cpu is not None else '?'} s)",
                 f"accepted {self.accepted}, lost races {self.lost_races} (409), games told to their posters "
                 f"{self.games_told}, taken twice {self.doubly_taken}, errors {dict(self.errors) or 0}"]
        for kind, values in self.latencies.items():
            p = percentiles(values)
            lines.append(f"  {kind:<14} n={len(values):<5} p50 {p['p50']:>8.1f} ms  p90 {p['p90']:>8.1f} ms  "
                         f"p99 {p['p99']:>8.1f} ms  max {p['max']:>8.1f} ms")
        return "\n".join(lines)


class LobbyRun:
    def __init__(self, url: str, players: int, rounds: int, seed: int) -> None:
        limits = httpx.Limits(max_connections=max(64, players), max_keepalive_connections=max(64, players))
        self.client = httpx.AsyncClient(base_url=url.rstrip("/"), timeout=30.0, limits=limits)
        self.streams = httpx.AsyncClient(base_url=url.rstrip("/"), timeout=httpx.Timeout(30.0, read=60.0),
                                         limits=httpx.Limits(max_connections=players + 8))
        self.count, self.rounds, self.rng = players, rounds, random.Random(seed)
        self.players: list[Player] = []
        self.latencies: dict[str, list[float]] = {k: [] for k in ("post", "list", "accept (won)", "accept (lost)",
                                                                  "started")}
        self.errors: Counter[str] = Counter()
        self.accept_sent: dict[str, float] = {}
        self.taken: Counter[str] = Counter()
        self.challenges = 0
        self.lost = 0

    async def call(self, method: str, path: str, kind: str, player: Player, body: Any = None,
                   expect: tuple[int, ...] = (200, 201)) -> tuple[int, Any]:
        sent = time.perf_counter()
        try:
            answer = await self.client.request(method, path, json=body, headers={PLAYER: player.token})
        except httpx.HTTPError as exc:
            self.errors[f"{kind}: {type(exc).__name__}"] += 1
            return 0, None
        took = time.perf_counter() - sent
        if answer.status_code not in expect:
            self.errors[f"{kind}: {answer.status_code}"] += 1
            return answer.status_code, None
        self.latencies[kind if kind != "accept" else "accept (won)" if answer.status_code == 201
                       else "accept (lost)"].append(took)
        return answer.status_code, answer.json() if answer.content else None

    async def follow(self, player: Player, ready: asyncio.Event) -> None:
        """The player's lobby stream: note each ``started`` (its challenge's game), as the page does."""
        with contextlib.suppress(httpx.HTTPError, asyncio.CancelledError):
            async with self.streams.stream("GET", "/api/lobby/events", headers={PLAYER: player.token}) as stream:
                ready.set()
                kind = ""
                async for line in stream.aiter_lines():
                    if line.startswith("event:"):
                        kind = line[6:].strip()
                    elif line.startswith("data:") and kind == "started":
                        started = json.loads(line[5:])
                        player.started[started["challenge"]] = time.perf_counter()
                        sent = self.accept_sent.get(started["challenge"])
                        if sent is not None:
                            self.latencies["started"].append(time.perf_counter() - sent)
        ready.set()

    async def accept_one(self, player: Player) -> None:
        """Read the list and accept an open challenge (another, after a lost race) until one is won or none is left."""
        while True:
            _, listed = await self.call("GET", "/api/challenges", "list", player)
            open_ones = [c for c in (listed or {}).get("challenges", []) if not c["mine"]]
            if not open_ones:
                return
            chosen = self.rng.choice(open_ones)["id"]
            self.accept_sent.setdefault(chosen, time.perf_counter())
            status, _ = await self.call("POST", f"/api/challenges/{chosen}/accept", "accept", player,
                                        expect=(201, 409))
            if status == 201:
                self.taken[chosen] += 1
                return
            if status != 409:
                return
            self.lost += 1

    async def run(self) -> float:
        for i in range(self.count):
            answer = await self.client.post("/api/players", json={"name": f"Lobby{i:05d}"})
            answer.raise_for_status()
            self.players.append(Player(answer.json()["name"], answer.json()["token"]))
        readies = [asyncio.Event() for _ in self.players]
        followers = [asyncio.create_task(self.follow(p, r)) for p, r in zip(self.players, readies, strict=True)]
        await asyncio.gather(*(r.wait() for r in readies))
        start = time.perf_counter()
        half = self.count // 2
        for round_ in range(self.rounds):
            posters = self.players[:half] if round_ % 2 == 0 else self.players[half:2 * half]
            takers = self.players[half:2 * half] if round_ % 2 == 0 else self.players[:half]
            posted = await asyncio.gather(*(self.call("POST", "/api/challenges", "post", p, CHALLENGE)
                                            for p in posters))
            self.challenges += sum(1 for status, _ in posted if status == 201)
            await asyncio.gather(*(self.accept_one(p) for p in takers))
        end = time.monotonic() + STARTED_WAIT_SECONDS
        while time.monotonic() < end and sum(len(p.started) for p in self.players) < len(self.taken):
            await asyncio.sleep(0.05)
        elapsed = time.perf_counter() - start
        for task in followers:
            task.cancel()
        await asyncio.gather(*followers, return_exceptions=True)
        await self.client.aclose()
        await self.streams.aclose()
        return elapsed


async def run_lobby(url: str, players: int, rounds: int, seed: int, server_pid: int | None = None) -> LobbyReport:
    run = LobbyRun(url, players, rounds, seed)
    cpu_before = server_cpu_seconds(server_pid) if server_pid else None
    seconds = await run.run()
    cpu_after = server_cpu_seconds(server_pid) if server_pid else None
    cpu = round(cpu_after - cpu_before, 2) if cpu_before is not None and cpu_after is not None else None
    told = sum(len(p.started) for p in run.players)
    return LobbyReport(players, rounds, run.latencies, sum(run.taken.values()), run.lost, run.challenges, told,
                       run.errors, sum(1 for n in run.taken.values() if n > 1), seconds, cpu)


def lobby_test(url: str | None, players: int, rounds: int, seed: int, db: str | None = None,
               workers: int | None = None) -> LobbyReport:
    """Against ``url``, or a server of its own (``zamek play`` on a temporary SQLite file; with ``workers``,
    ``zamek serve`` on the database ``db``)."""
    if url is not None:
        return asyncio.run(run_lobby(url, players, rounds, seed))
    with tempfile.TemporaryDirectory(prefix="zamek-lobbyload-") as folder:
        server = start_server_process(db or Path(folder) / "games.sqlite3", Path(folder) / "server.log",
                                      workers=workers)
        try:
            return asyncio.run(run_lobby(server.url, players, rounds, seed, server.pid))
        finally:
            server.stop()
