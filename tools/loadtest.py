"""A load test of the web app (``python -m tools.loadtest``): many games against a friend, played over HTTP at a
person's pace.

For each game the load test does what two people's pages do: one creates the game, the other joins it with the
invitation; each seat opens the game's event stream with its token (two streams a game), reads its view, and
when the view says it is to move, waits a person's moment (``pace`` seconds on average, uniform between half and
one and a half times that) and plays a random legal action of the view. A seat learns of the other's move only
from its stream, which brings the new view with the ``change`` event (``?view=true``, as the page asks); a seat
whose event came without one reads the view again, as the page does.

It measures, in one asyncio process (``httpx2``):

* **move latency**: from the moment a move's request is sent to its ``200`` answer (read in full);
* **event latency**: from the moment a move's request is sent to the moment the *other* seat's stream receives
  the ``change`` event of the revision the answer acknowledged. It is measured from the request, not from the
  answer, because the server publishes the event before it builds the answer's view: the event often arrives
  first (``event_after_answer_ms`` in the JSON, often negative, shows it);
* **events missed**: acknowledged revisions that a seat's stream (either seat's) never delivered;
* **errors**: every non-2xx answer or exception, by kind;
* **lost moves**: at the end every game's record is read again: each acknowledged move must be in it, at the
  place the answer said (``moves_count``), and the game's revision must be the last one acknowledged.

The load generator's own health is measured too: its event loop's lag (a sleeper that should wake every
50 ms) and its CPU time, so that a slow client is not taken for a slow server. With ``--start`` it runs the
server (``zamek play``) as a subprocess on a fresh SQLite file and reports that process's CPU time as well.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import math
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import click

from tools.extra import needs_extra

try:
    import httpx2 as httpx
except ImportError:
    raise needs_extra("httpx2") from None

from tools.cpu_profile import read_stacks, start_profiler, summary
from tools.processes import interrupt
from zamek.castle.bots.levels import OFFERED_LEVELS
from zamek.kit.files import write_json_replacing

REQUEST_TIMEOUT: Final = 30.0
KEEPALIVE_SECONDS: Final = 3.0
"""An idle connection is dropped after this, before uvicorn's own 5 s: a request on a connection the server is just
closing fails (a browser retries it; this client would count an error that is the client's)."""
STREAM_READ_TIMEOUT: Final = 60.0
"""A stream silent this long is dead (the server sends a keep-alive comment every 15 s)."""
SETUP_CONCURRENCY: Final = 16
"""Games created and joined at once before the play starts (their latency is reported apart from the moves')."""
CONNECT_SECONDS: Final = 60.0
STALL_SECONDS: Final = 20.0
"""A seat that hears nothing this long (beyond its own pace) reads its view itself; it counts as an error."""
DRAIN_SECONDS: Final = 5.0
"""How long the streams get, after the last move, to deliver the last events."""
LAG_INTERVAL: Final = 0.05
MAX_FAILURES_PER_GAME: Final = 3
OWN_ANSWER_GRACE_SECONDS: Final = 1.0
"""How long a page whose own move is on its way waits for that move's answer before it reads the view that a
change event told of (``OWN_ANSWER_GRACE_MS`` of the page's game.js)."""
TARGET: Final = {"move_p99_ms": 100.0, "event_p99_ms": 250.0}
"""The issue's target for 200 games on the 2-core machine, one server process (and no error, no lost move)."""


@dataclass
class LoadConfig:
    """What to run: how many games, how fast people play, how long each game goes on."""

    url: str
    games: int = 200
    pace: float = 3.0
    """Seconds a person takes for a move, on average (each wait is uniform in 0.5-1.5 times this)."""
    moves_per_game: int = 20
    """People's moves per game (both seats together); a game that ends sooner stops there."""
    seed: int = 1
    """Seeds the people's choices and pauses (the server draws each game's tiles from a seed of its own)."""
    computer_games: int = 0
    """Games against the computer played at the same time (a person's seat each, at the same pace)."""
    level: str = "easy"
    """The computer's level in those games."""
    server_pid: int | None = None
    """The server's process, to report its CPU time (``--start``); None: not measured."""
    server: str = "zamek play"
    """What serves (for the report)."""
    profile: Path | None = None
    """Record a sampling profile of the server process (``server_pid``) while the games play, into this file."""


@dataclass
class Ack:
    """A move the server acknowledged (200): what it was and where the answer put it."""

    seat: int
    action: str
    count_before: int
    count_after: int
    revision: int
    sent: float
    answered: float


@dataclass
class Seat:
    """One person's page: its token, the view it holds and what its event stream delivered."""

    index: int
    token: str
    view: dict[str, Any]
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    received: dict[int, float] = field(default_factory=dict)
    """When each revision's ``change`` event arrived (the first time)."""
    refreshing: bool = False
    moving: bool = False
    """A move of this seat is on its way: its answer brings the view (the page reads none meanwhile)."""

    @property
    def revision(self) -> int:
        return int(self.view["revision"])


@dataclass
class Game:
    id: str
    seats: list[Seat]
    rng: random.Random
    revision: int
    """The newest revision an answer acknowledged."""
    acks: list[Ack] = field(default_factory=list)
    begun: int = 0
    """Moves sent or about to be: the other seat may learn of a move (its event) before its answer arrives."""
    failures: int = 0
    finished: bool = False
    computer: bool = False
    """Against the computer: one person's seat; the computer's replies are timed."""
    waiting_since: float | None = None
    """When the person's last move was answered, while the computer's reply is awaited."""


@dataclass
class LoadReport:
    """The figures of a run (times in milliseconds)."""

    games: int
    moves: int
    seconds: float
    move_ms: dict[str, float]
    event_ms: dict[str, float]
    event_after_answer_ms: dict[str, float]
    setup_ms: dict[str, float]
    events_missed: int
    errors: dict[str, int]
    lost: int
    unconfirmed: int
    """Games whose stored revision is newer than the last acknowledged one (a move stored, its answer lost)."""
    streams: int
    client_cpu_percent: float
    loop_lag_ms: dict[str, float]
    server_cpu_percent: float | None = None
    server_cpu_ms_per_move: float | None = None
    """The server process's CPU time (its workers' and the computer's included) while the games played, divided by
    the people's moves: what a move costs with all it brings about (its answer, the events, each page's view read
    again, the computer's reply). Unlike the latencies it hardly moves when other programs share the machine."""
    requests: dict[str, int] = field(default_factory=dict)
    """The requests sent while the games played, by kind (a move, a view read again...)."""
    computer_games: int = 0
    reply_ms: dict[str, float] = field(default_factory=dict)
    """From the answer to a person's move to the view that gives them the turn again (the computer's pause
    included)."""
    machine_cpu_percent: float | None = None
    """Every process of the machine (100% = one core; the machine has ``cores`` of them)."""
    cores: int = field(default_factory=lambda: os.cpu_count() or 1)
    config: dict[str, Any] = field(default_factory=dict)

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    @property
    def ok(self) -> bool:
        """Nothing went wrong (the timings aside)."""
        return self.error_count == 0 and self.lost == 0 and self.events_missed == 0 and self.unconfirmed == 0

    def target_met(self) -> bool:
        return (self.ok and self.move_ms["p99"] < TARGET["move_p99_ms"]
                and self.event_ms["p99"] < TARGET["event_p99_ms"])

    def to_json(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["error_count"] = self.error_count
        data["target"] = dict(TARGET)
        data["target_met"] = self.target_met()
        return data

    def table(self) -> str:
        """The figures as a small text table, then the client's and the server's own load."""
        heads = ["games", "moves", "move p50", "p90", "p99", "max", "event p50", "p99", "max", "missed",
                 "errors", "lost"]
        cells = [str(self.games), str(self.moves), *(f"{self.move_ms[k]:.1f}" for k in ("p50", "p90", "p99", "max")),
                 *(f"{self.event_ms[k]:.1f}" for k in ("p50", "p99", "max")), str(self.events_missed),
                 str(self.error_count), str(self.lost)]
        widths = [max(len(h), len(c)) for h, c in zip(heads, cells, strict=True)]
        lines = ["  ".join(h.rjust(w) for h, w in zip(heads, widths, strict=True)),
                 "  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True)),
                 "(latencies in ms; event latency: from the move's request to the other seat's stream)"]
        if self.computer_games:
            lines.append(f"{self.computer_games} games against the computer: reply p50 {self.reply_ms['p50']:.0f} ms, "
                         f"p99 {self.reply_ms['p99']:.0f} ms, max {self.reply_ms['max']:.0f} ms (its pause included)")
        for kind, count in sorted(self.errors.items()):
            lines.append(f"error: {kind}: {count}")
        if self.unconfirmed:
            lines.append(f"games with a stored but unacknowledged move: {self.unconfirmed}")
        server = f", server process {self.server_cpu_percent:.0f}%" if self.server_cpu_percent is not None else ""
        if self.machine_cpu_percent is not None:
            server += f", the whole machine {self.machine_cpu_percent:.0f}% of {100 * self.cores}%"
        lines.append(
            f"{self.streams} event streams, {self.seconds:.1f} s of play, {self.moves / max(self.seconds, 1e-9):.1f} "
            f"moves/s; setup (create or join) p50 {self.setup_ms['p50']:.1f} ms, p99 {self.setup_ms['p99']:.1f} ms")
        if self.server_cpu_ms_per_move is not None:
            sent = ", ".join(f"{n / max(self.moves, 1):.2f} {kind}" for kind, n in sorted(self.requests.items()))
            lines.append(f"server CPU per move: {self.server_cpu_ms_per_move:.2f} ms (requests per move: {sent})")
        lines.append(f"CPU (100% = one core): load generator {self.client_cpu_percent:.0f}%{server}; "
                     f"load generator's loop lag p99 {self.loop_lag_ms['p99']:.1f} ms, "
                     f"max {self.loop_lag_ms['max']:.1f} ms")
        verdict = "met" if self.target_met() else "missed"
        lines.append(f"target (p99 move < {TARGET['move_p99_ms']:.0f} ms, p99 event < {TARGET['event_p99_ms']:.0f} ms, "
                     f"no error, no lost move): {verdict}")
        return "\n".join(lines)


def percentiles(values: list[float], keys: tuple[str, ...] = ("p50", "p90", "p99", "max")) -> dict[str, float]:
    """Nearest-rank percentiles of seconds, in milliseconds (0 for no values)."""
    ordered = sorted(values)
    out: dict[str, float] = {}
    for key in keys:
        if not ordered:
            out[key] = 0.0
            continue
        q = 1.0 if key == "max" else float(key[1:]) / 100
        out[key] = round(ordered[max(0, math.ceil(q * len(ordered)) - 1)] * 1000, 2)
    return out


def legal_actions(view: dict[str, Any]) -> list[str]:
    """The actions a view offers the player to move: the drawn tile's places, else the choices."""
    if view.get("phase") == "place" and view.get("drawn"):
        return [str(p["action"]) for p in view["drawn"]["places"]]
    return [str(c["action"]) for c in view.get("choices", [])]


def process_cpu_seconds(pid: int) -> float | None:
    """A process's user and system CPU seconds so far (Linux ``/proc``), or None where it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # After the command's name: state is field 3, utime and stime are fields 14 and 15.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_cpu_seconds(pid: int) -> float | None:
    """The CPU seconds of a server process and of its workers (``zamek serve``: uvicorn's worker processes and
    the computer's pools), or None where they cannot be read."""
    own = process_cpu_seconds(pid)
    if own is None:
        return None
    return own + sum(process_cpu_seconds(child) or 0.0 for child in descendants(pid))


def machine_busy_seconds() -> float | None:
    """CPU seconds every core of the machine has spent busy so far (Linux ``/proc/stat``), or None: with the
    load generator's and the server's own, it tells how much else was running (another test, a browser)."""
    try:
        ticks = [int(n) for n in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, IndexError, ValueError):
        return None
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle and iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")  # guest time is already in user time


class LoadRun:
    """One run: the games, the two HTTP clients (requests; event streams) and what was measured."""

    def __init__(self, config: LoadConfig) -> None:
        self.config = config
        base = config.url.rstrip("/")
        # Separate pools: the streams (2 a game against a friend, 1 against the computer) stay open all along and
        # must not starve the moves of connections.
        games = config.games + config.computer_games
        streams = 2 * config.games + config.computer_games + 8
        self.client = httpx.AsyncClient(
            base_url=base, timeout=REQUEST_TIMEOUT,
            limits=httpx.Limits(max_connections=max(64, games), max_keepalive_connections=max(64, games),
                                keepalive_expiry=KEEPALIVE_SECONDS))
        self.streams = httpx.AsyncClient(
            base_url=base, timeout=httpx.Timeout(REQUEST_TIMEOUT, read=STREAM_READ_TIMEOUT),
            limits=httpx.Limits(max_connections=streams, max_keepalive_connections=streams))
        self.games: list[Game] = []
        self.errors: Counter[str] = Counter()
        self.move_latencies: list[float] = []
        self.setup_latencies: list[float] = []
        self.reply_latencies: list[float] = []
        self.lags: list[float] = []
        self.sent: Counter[str] = Counter()
        self.stopping = False
        self._background: set[asyncio.Task[None]] = set()

    async def close(self) -> None:
        await self.client.aclose()
        await self.streams.aclose()

    # ------------------------------------------------------------- requests

    async def request(self, method: str, path: str, kind: str, token: str | None = None,
                      body: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """Send a request; return its JSON answer, or None after counting the error under ``kind``."""
        answer, _ = await self.timed_request(method, path, kind, token, body)
        return answer

    async def timed_request(self, method: str, path: str, kind: str, token: str | None = None,
                            body: dict[str, Any] | None = None) -> tuple[dict[str, Any] | None, float]:
        """:meth:`request`, and the moment its answer had arrived in full (before it is parsed)."""
        headers = {"Authorization": f"Bearer {token}"} if token else None
        self.sent[kind] += 1
        try:
            response = await self.client.request(method, path, headers=headers, json=body)
            arrived = time.perf_counter()
            if not response.is_success:
                try:
                    code = response.json().get("error", "")
                except ValueError:
                    code = ""
                self.errors[f"{kind}: {response.status_code} {code}".rstrip()] += 1
                return None, arrived
            answer: dict[str, Any] = response.json()
            return answer, arrived
        except (httpx.HTTPError, ValueError) as exc:
            self.errors[f"{kind}: {type(exc).__name__}"] += 1
            return None, time.perf_counter()

    async def setup_computer_game(self, number: int) -> Game | None:
        """Create a game against the computer, as one person would."""
        started = time.perf_counter()
        created = await self.request("POST", "/api/games", "create",
                                     body={"mode": "computer", "level": self.config.level, "seat": "random"})
        self.setup_latencies.append(time.perf_counter() - started)
        if created is None:
            return None
        token = created["tokens"][0]
        seat = Seat(int(token["seat"]), token["token"], created)
        return Game(created["id"], [seat], random.Random(self.config.seed * 1_000_003 + number),
                    int(created["revision"]), computer=True)

    async def setup_game(self, number: int) -> Game | None:
        """Create a game against a friend and join it, as two people would."""
        if number >= self.config.games:
            return await self.setup_computer_game(number)
        started = time.perf_counter()
        # No seed: a game against a friend never has a chosen one (it would tell its creator every tile).
        created = await self.request("POST", "/api/games", "create", body={"mode": "friend", "clock": None})
        self.setup_latencies.append(time.perf_counter() - started)
        if created is None:
            return None
        started = time.perf_counter()
        joined = await self.request("POST", f"/api/games/{created['id']}/join", "join",
                                    body={"invite": created["invite"]})
        self.setup_latencies.append(time.perf_counter() - started)
        if joined is None:
            return None
        tokens = {t["seat"]: t["token"] for t in [*created["tokens"], *joined["tokens"]]}
        if sorted(tokens) != [0, 1]:
            self.errors["join: seats not 0 and 1"] += 1
            return None
        views = {t["seat"]: created for t in created["tokens"]} | {t["seat"]: joined for t in joined["tokens"]}
        seats = [Seat(i, tokens[i], views[i]) for i in (0, 1)]
        return Game(created["id"], seats, random.Random(self.config.seed * 1_000_003 + number), int(joined["revision"]))

    # --------------------------------------------------------------- streams

    async def watch(self, game: Game, seat: Seat) -> None:
        """Seat's event stream, for the whole run; it resumes after its last event if the server cuts it."""
        last: int | None = None
        while not self.stopping:
            headers = {"Authorization": f"Bearer {seat.token}", "Accept": "text/event-stream"}
            if last is not None:
                headers["Last-Event-ID"] = str(last)
            try:
                async with self.streams.stream("GET", f"/api/games/{game.id}/events?view=true",
                                               headers=headers) as response:
                    if response.status_code != 200:
                        self.errors[f"stream: {response.status_code}"] += 1
                        await asyncio.sleep(1.0)
                        continue
                    async for event in httpx.EventSource(response):
                        seat.connected.set()
                        if event.event != "change":
                            continue
                        arrived = time.perf_counter()
                        data = json.loads(event.data)
                        revision = int(data["revision"])
                        seat.received.setdefault(revision, arrived)
                        last = max(last or 0, revision)
                        if data.get("view") is not None:  # an older answer, if it comes after it, is dropped
                            self.shown(game, seat, data["view"])
                        if revision > seat.revision and not seat.refreshing:
                            # Read the view in a task of its own: the stream's next events keep their own times.
                            self.spawn(self.refresh(game, seat, after_own_answer=seat.moving))
            except httpx.HTTPError as exc:
                if not self.stopping:
                    self.errors[f"stream: {type(exc).__name__}"] += 1
                    await asyncio.sleep(0.5)
                continue
            if not self.stopping:
                self.errors["stream: ended by the server"] += 1

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task: asyncio.Task[None] = asyncio.create_task(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def refresh(self, game: Game, seat: Seat, after_own_answer: bool = False) -> None:
        """Read the view again, as the page does when its stream tells of a newer revision; ``after_own_answer``: the
        seat's own move is on its way, and the page first waits a moment for its answer, which brings the view."""
        seat.refreshing = True
        try:
            if after_own_answer:
                until = time.perf_counter() + OWN_ANSWER_GRACE_SECONDS
                while seat.moving and time.perf_counter() < until:
                    await asyncio.sleep(0.025)
                if seat.revision >= max(seat.received, default=0):
                    return
            for _ in range(5):  # each pass reads the newest revision; more than one only when events keep coming
                view = await self.request("GET", f"/api/games/{game.id}", "view")
                if view is None:
                    return
                self.shown(game, seat, view)
                if seat.revision >= max(seat.received, default=0):
                    return
        finally:
            seat.refreshing = False

    def shown(self, game: Game, seat: Seat, view: dict[str, Any]) -> None:
        """A view read or brought by an event: kept, and the computer's reply timed when it is the one waited for."""
        self.update(seat, view)
        if game.computer and game.waiting_since is not None and view["human_to_act"]:
            self.reply_latencies.append(time.perf_counter() - game.waiting_since)
            game.waiting_since = None

    @staticmethod
    def update(seat: Seat, view: dict[str, Any]) -> None:
        """Keep the newest view (an answer overtaken by a newer one is dropped, as on the page)."""
        if int(view["revision"]) > seat.revision:
            seat.view = view
            seat.changed.set()

    # ------------------------------------------------------------------ play

    async def play(self, game: Game, seat: Seat) -> None:
        """A person at the seat: move when the view says so, after a person's pause, until the game is done."""
        config = self.config
        await asyncio.sleep(game.rng.uniform(0, config.pace))  # the games do not all start in step
        while True:
            seat.changed.clear()
            view = seat.view
            if game.finished:
                return
            if view["over"] or game.begun >= config.moves_per_game or game.failures >= MAX_FAILURES_PER_GAME:
                game.finished = True
                for other in game.seats:
                    other.changed.set()
                return
            mine = view["human_to_act"] if game.computer else view["current"] == seat.index
            if mine and seat.revision >= game.revision:
                await self.move(game, seat, view)
                continue
            try:
                await asyncio.wait_for(seat.changed.wait(), STALL_SECONDS + 2 * config.pace)
            except TimeoutError:
                self.errors["stall: no event for the other seat's move"] += 1
                await self.refresh(game, seat)

    async def move(self, game: Game, seat: Seat, view: dict[str, Any]) -> None:
        game.begun += 1
        await asyncio.sleep(game.rng.uniform(0.5, 1.5) * self.config.pace)
        actions = legal_actions(view)
        if not actions:
            self.errors[f"move: no legal action in phase {view.get('phase')}"] += 1
            game.failures = MAX_FAILURES_PER_GAME
            return
        action = game.rng.choice(actions)
        sent = time.perf_counter()
        seat.moving = True
        try:
            answer, answered = await self.timed_request("POST", f"/api/games/{game.id}/actions", "move", seat.token,
                                                        {"action": action, "revision": view["revision"]})
        finally:
            seat.moving = False
        if answer is None:
            game.begun -= 1
            game.failures += 1
            await self.refresh(game, seat)
            return
        self.move_latencies.append(answered - sent)
        game.acks.append(Ack(seat.index, action, int(view["moves_count"]), int(answer["moves_count"]),
                             int(answer["revision"]), sent, answered))
        game.revision = max(game.revision, int(answer["revision"]))
        if game.computer and not answer["human_to_act"] and not answer["over"]:
            game.waiting_since = answered
        self.update(seat, answer)
        if max(seat.received, default=0) > seat.revision and not seat.refreshing:
            self.spawn(self.refresh(game, seat))  # a change came after the move's own (the computer's reply)

    async def watch_loop_lag(self) -> None:
        """How late this process's event loop wakes a sleeper: a busy load generator would distort the figures."""
        while True:
            start = time.perf_counter()
            await asyncio.sleep(LAG_INTERVAL)
            self.lags.append(time.perf_counter() - start - LAG_INTERVAL)

    # ------------------------------------------------------------ the checks

    def expected_events(self) -> Iterator[tuple[Seat, Ack]]:
        for game in self.games:
            for ack in game.acks:
                for seat in game.seats:
                    yield seat, ack

    async def drain(self) -> None:
        """Give the streams a moment to deliver the last moves' events."""
        end = time.perf_counter() + DRAIN_SECONDS
        while time.perf_counter() < end:
            if all(ack.revision in seat.received for seat, ack in self.expected_events()):
                return
            await asyncio.sleep(0.05)

    async def verify(self, game: Game) -> tuple[int, bool]:
        """Read the game back: return its lost moves and whether its revision is newer than the last acknowledged."""
        view = await self.request("GET", f"/api/games/{game.id}", "final view")
        record = await self.request("GET", f"/api/games/{game.id}/record", "final record")
        if view is None or record is None:
            return len(game.acks), False
        moves = [str(m) for m in record["moves"]]
        lost = sum(1 for ack in game.acks
                   if len(moves) < ack.count_after or ack.count_before >= len(moves)
                   or moves[ack.count_before] != ack.action)
        last = game.acks[-1] if game.acks else None
        if last is not None and (int(view["revision"]) < last.revision or int(view["moves_count"]) < last.count_after):
            lost = max(lost, 1)  # the game went back behind an acknowledged answer
        # Against the computer the revision goes on without the person: its replies are not theirs to acknowledge.
        return lost, not game.computer and int(view["revision"]) > game.revision

    # ------------------------------------------------------------------- run

    async def run(self) -> LoadReport:
        config = self.config
        lag = asyncio.create_task(self.watch_loop_lag())
        limit = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def bounded_setup(number: int) -> Game | None:
            async with limit:
                return await self.setup_game(number)

        made = await asyncio.gather(*(bounded_setup(n) for n in range(config.games + config.computer_games)))
        self.games = [g for g in made if g is not None]
        if not self.games:
            raise RuntimeError(f"no game could be created: {dict(self.errors)}")
        watchers = [asyncio.create_task(self.watch(g, s)) for g in self.games for s in g.seats]
        try:
            await asyncio.wait_for(asyncio.gather(*(s.connected.wait() for g in self.games for s in g.seats)),
                                   CONNECT_SECONDS)
        except TimeoutError:
            self.errors["stream: not connected in time"] += 1
        # The page reads its view once its stream is open (the creator's is older than the join).
        await asyncio.gather(*(self.refresh(g, s) for g in self.games for s in g.seats))
        self.lags.clear()  # the setup's burst is not the play's
        self.sent.clear()
        # No collector pauses in this process while the games play: 1,000 pages' views are millions of objects, and a
        # full collection walking them (0.1-0.5 s at 500 games) would count as the server's latency. The views are
        # acyclic and freed as they are replaced; the collector is as it was once the games end.
        collecting = gc.isenabled()
        gc.collect()
        profiler = start_profiler(config.server_pid, config.profile) if config.profile and config.server_pid else None
        client_cpu = sum(os.times()[:2])
        server_cpu = server_cpu_seconds(config.server_pid) if config.server_pid else None
        machine = machine_busy_seconds()
        started = time.perf_counter()
        gc.freeze()
        gc.disable()
        try:
            await asyncio.gather(*(self.play(g, s) for g in self.games for s in g.seats))
        finally:
            gc.unfreeze()
            if collecting:
                gc.enable()
            if profiler is not None:
                profiler.stop()
        seconds = time.perf_counter() - started
        client_cpu = sum(os.times()[:2]) - client_cpu
        server_after = server_cpu_seconds(config.server_pid) if config.server_pid else None
        sent = dict(self.sent)
        machine_after = machine_busy_seconds()
        machine_percent = None
        if machine is not None and machine_after is not None:
            machine_percent = round(100 * (machine_after - machine) / max(seconds, 1e-9), 1)
        await self.drain()
        self.stopping = True
        lag.cancel()
        for task in [*watchers, *self._background]:
            task.cancel()
        await asyncio.gather(lag, *watchers, *self._background, return_exceptions=True)
        checks = await asyncio.gather(*(self.verify(g) for g in self.games))
        report = self.report(seconds, client_cpu, server_cpu, server_after, checks)
        report.machine_cpu_percent = machine_percent
        report.requests = sent
        return report

    def report(self, seconds: float, client_cpu: float, server_cpu: float | None, server_after: float | None,
               checks: list[tuple[int, bool]]) -> LoadReport:
        event_latencies, after_answer = [], []
        missed = 0
        for seat, ack in self.expected_events():
            arrived = seat.received.get(ack.revision)
            if arrived is None:
                missed += 1
            elif seat.index != ack.seat:
                event_latencies.append(arrived - ack.sent)
                after_answer.append(arrived - ack.answered)
        server_percent = per_move = None
        if server_cpu is not None and server_after is not None:
            server_percent = round(100 * (server_after - server_cpu) / max(seconds, 1e-9), 1)
            per_move = round(1000 * (server_after - server_cpu) / max(len(self.move_latencies), 1), 3)
        return LoadReport(
            games=sum(1 for g in self.games if not g.computer), moves=len(self.move_latencies),
            seconds=round(seconds, 2),
            move_ms=percentiles(self.move_latencies), event_ms=percentiles(event_latencies),
            event_after_answer_ms=percentiles(after_answer, ("p50", "p99", "max")),
            setup_ms=percentiles(self.setup_latencies), events_missed=missed, errors=dict(self.errors),
            lost=sum(lost for lost, _ in checks), unconfirmed=sum(1 for _, newer in checks if newer),
            computer_games=sum(1 for g in self.games if g.computer), reply_ms=percentiles(self.reply_latencies),
            streams=sum(len(g.seats) for g in self.games),
            client_cpu_percent=round(100 * client_cpu / max(seconds, 1e-9), 1),
            loop_lag_ms=percentiles(self.lags, ("p50", "p99", "max")), server_cpu_percent=server_percent,
            server_cpu_ms_per_move=per_move,
            config={k: str(v) if isinstance(v, Path) else v for k, v in self.config.__dict__.items()
                    if k != "server_pid"},
        )


async def run_load(config: LoadConfig) -> LoadReport:
    """Run the load test against the server at ``config.url``."""
    if config.games + config.computer_games < 1 or config.games < 0 or config.computer_games < 0 \
            or config.moves_per_game < 1 or config.pace < 0:
        raise ValueError("games and moves per game must be at least 1, the pace at least 0")
    load = LoadRun(config)
    try:
        return await load.run()
    finally:
        await load.close()


# --------------------------------------------------------- a server process


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def descendants(pid: int) -> list[int]:
    """A process's children, their children and so on (Linux ``/proc``; none where it cannot be read)."""
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                found += [int(child), *descendants(int(child))]
    except OSError:
        pass
    return found


@dataclass
class ServerProcess:
    """``zamek play`` or ``zamek serve`` running in a subprocess (its output in ``log``)."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        """Stop it as Ctrl+C does (killed if it has not stopped in 15 s)."""
        interrupt(self.process, 15)

    def kill(self) -> None:
        """Kill it at once (SIGKILL): nothing of it runs after this returns."""
        self.process.kill()
        self.process.wait()


def start_server_process(db: Path | str, log: Path, port: int | None = None, ready_seconds: float = 30.0,
                         workers: int | None = None, options: tuple[str, ...] = (), limited: bool = False
                         ) -> ServerProcess:
    """Start ``zamek play --no-browser`` on the SQLite file ``db``, or (``workers``) ``zamek serve`` on the
    database URL ``db``, and return once it answers. ``limited``: with the server's limits per client (each
    simulated person must then come from an address of their own: ``tools.abuse``)."""
    port = port or free_port()
    url = db if isinstance(db, str) else f"sqlite:///{db}"
    # Every simulated player comes from this machine's one address: no limit per client (zamek.server.fairness).
    unlimited = [] if limited else ["--no-limits"]
    if workers is None:
        command = [sys.executable, "-m", "zamek", "play", "--no-browser", *unlimited, "--port", str(port),
                   "--db", url]
    else:
        command = [sys.executable, "-m", "zamek", "serve", "--workers", str(workers), "--port", str(port),
                   "--db", url, *unlimited, *options]
    with log.open("ab") as out:  # the child keeps its own handle
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    server = ServerProcess(f"http://127.0.0.1:{port}", process, log)
    end = time.monotonic() + ready_seconds
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped at once (exit {process.returncode}); see {log}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{server.url}/api/meta", timeout=1.0).status_code == 200:
                return server
        time.sleep(0.1)
    server.kill()
    raise RuntimeError(f"the server did not answer in {ready_seconds:.0f} s; see {log}")


def load_test(url: str | None, start: bool, games: int, pace: float, moves_per_game: int, seed: int,
              computer_games: int = 0, level: str = "easy", db: str | None = None,
              workers: int | None = None, profile: Path | None = None) -> LoadReport:
    """What ``python -m tools.loadtest`` runs: against ``url``, or (``start``) a server of its own: ``zamek play`` on a
    temporary SQLite file, or (``workers``) ``zamek serve`` with that many workers on the (empty) database ``db``;
    ``profile``: a file for the profile of that server while the games play."""
    if start:
        with tempfile.TemporaryDirectory(prefix="zamek-loadtest-") as folder:
            where = db or Path(folder) / "games.sqlite3"
            server = start_server_process(where, Path(folder) / "server.log", workers=workers)
            what = "zamek play (SQLite)" if workers is None else f"zamek serve --workers {workers}"
            try:
                return asyncio.run(run_load(LoadConfig(server.url, games, pace, moves_per_game, seed, computer_games,
                                                       level, server.pid, what, profile)))
            finally:
                server.stop()
    if url is None:
        raise ValueError("give the server's URL, or let the load test start one")
    return asyncio.run(run_load(LoadConfig(url, games, pace, moves_per_game, seed, computer_games, level,
                                           server=url)))


@click.command()
@click.option("--url", default=None, help="The server to load, e.g. http://127.0.0.1:8000 (or --start).")
@click.option("--start", is_flag=True, help="Start a server of its own (zamek play) on a temporary database.")
@click.option("--games", type=int, default=200, show_default=True, help="Games against a friend played at once.")
@click.option("--pace", type=float, default=3.0, show_default=True, help="A person's seconds per move, on average.")
@click.option("--moves-per-game", type=int, default=20, show_default=True, help="People's moves in each game.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the players' choices and pauses.")
@click.option("--computer-games", type=click.IntRange(0), default=0, show_default=True,
              help="Games against the computer played at the same time (their replies are timed).")
@click.option("--level", type=click.Choice(list(OFFERED_LEVELS)), default="easy", show_default=True,
              help="The computer's level in those games.")
@click.option("--workers", type=click.IntRange(1, 64), default=None,
              help="With --start: run zamek serve with this many workers on --db instead of zamek play.")
@click.option("--db", "db_url", default=None, help="With --start --workers: the (empty) database of zamek serve.")
@click.option("--json", "json_path", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Also write the figures to this JSON file.")
@click.option("--profile", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="With --start: record where the server spends its CPU while the games play (py-spy's raw stacks, "
                   "in this file) and print the functions that take the most.")
@click.option("--lobby", "lobby_players", type=click.IntRange(2), default=None,
              help="The lobby mode instead (tools.lobby_load): this many players posting and accepting challenges.")
@click.option("--rounds", type=click.IntRange(1), default=4, show_default=True,
              help="With --lobby: rounds of challenges (half the players post, the other half accept).")
def main(url: str | None, start: bool, games: int, pace: float, moves_per_game: int, seed: int,
         computer_games: int, level: str, workers: int | None, db_url: str | None, json_path: Path | None,
         profile: Path | None, lobby_players: int | None, rounds: int) -> None:
    """Play many games over HTTP at a person's pace (against a friend, and against the computer) and report
    latencies, the computer's reply time, errors and lost moves; or (``--lobby``) load the lobby's challenges."""
    if start == (url is not None):
        raise click.UsageError("give either --url or --start")
    if lobby_players is not None:
        from tools.lobby_load import lobby_test

        lobby = lobby_test(url, lobby_players, rounds, seed, db_url, workers)
        click.echo(lobby.table())
        if json_path is not None:
            write_json_replacing(json_path, lobby.to_json())
        sys.exit(0 if lobby.ok else 1)
    if (workers is not None or db_url is not None) and not start:
        raise click.UsageError("--workers and --db go with --start")
    if workers is not None and db_url is None:
        raise click.UsageError("--workers needs --db (zamek serve runs on a database server)")
    if profile is not None and not start:
        raise click.UsageError("--profile goes with --start")
    try:
        report = load_test(url, start, games, pace, moves_per_game, seed, computer_games, level, db_url, workers,
                           profile)
    except (ValueError, RuntimeError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(report.table())
    if profile is not None and profile.exists():
        click.echo(f"\nwhere the server's CPU went ({profile}):\n{summary(read_stacks(profile))}")
    if json_path is not None:
        write_json_replacing(json_path, report.to_json())
    if not report.ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
