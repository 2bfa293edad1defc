"""The abuse benchmark (``python -m tools.abuse``): what one abusive client does to the honest players of a server.

It starts ``zamek play`` on a temporary SQLite file twice. The first time, the honest load alone plays (the load
test, ``tools.loadtest``: games against a friend at a person's pace, and some against the computer). The second
time, one abusive client runs beside the same load and does all of these at once:

* **streams**: opens 10,000 spectator event streams on games it made itself (64 a game, the most a game takes);
* **computer**: keeps 100 games against the *expert* waiting for the computer's reply (it creates games where the
  computer moves first, and more as the computer answers);
* **analysis**: 8 loops that post a finished saved game to ``POST /api/analysis`` again and again;
* **slow**: 1,100 connections that send half a request's headers and then nothing (each one the server closes is
  opened again).

The honest players' p99 move latency, p99 event latency and the computer's p99 reply time are compared: the issue's
goal is that abuse at most doubles each. The abusive client runs in a process of its own (this module's ``attack``
command) so that its work does not slow the load generator's event loop.

Every honest person comes from an address of their own and the abusive client from one: the load test's requests
carry an ``X-Forwarded-For`` (each seat's, from its token) that ``zamek play`` believes from 127.0.0.1, as a server
behind a reverse proxy believes its proxy.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import math
import random
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, Final

import click

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.extra import needs_extra

try:
    import httpx2 as httpx
except ImportError:
    raise needs_extra("httpx2") from None

from tools.loadtest import LoadConfig, LoadReport, LoadRun, start_server_process
from zamek.castle.data import loader
from zamek.castle.record import make_record
from zamek.castle.rules.setup import Setup
from zamek.castle.runner import random_policy, sample_chance
from zamek.kit.files import write_json_replacing

ABUSES: Final = ("streams", "computer", "analysis", "slow")
ABUSER_ADDRESS: Final = "10.66.6.6"
STREAMS_PER_GAME: Final = 64
READY_SECONDS: Final = 180.0
"""How long the abusive client may take to build up its abuse before the honest load starts anyway."""
FACTOR: Final = 2.0
"""The issue's goal: abuse at most doubles the honest players' p99 latencies and the computer's p99 reply."""


def person_address(key: str) -> str:
    """An address of 10.0.0.0/8 for one honest person (a seat's token, or an invitation's path)."""
    digest = hashlib.sha256(key.encode()).digest()
    return f"10.{digest[0] % 64 + 1}.{digest[1]}.{digest[2] % 254 + 1}"


async def as_a_person(request: httpx.Request) -> None:
    """Give an honest request its person's address, as a reverse proxy would."""
    who = request.headers.get("authorization") or f"{request.method} {request.url.path} {random.random()}"
    request.headers["X-Forwarded-For"] = person_address(who)


class HonestLoad(LoadRun):
    """The load test, each person from an address of their own."""

    def __init__(self, config: LoadConfig) -> None:
        super().__init__(config)
        for client in (self.client, self.streams):
            client.event_hooks["request"] = [as_a_person]


async def honest_load(config: LoadConfig) -> LoadReport:
    load = HonestLoad(config)
    try:
        return await load.run()
    finally:
        await load.close()


# ------------------------------------------------------------------- the abusive client


def finished_record(seed: int) -> dict[str, Any]:
    """A whole random game, as a saved-game record (what the analysis loops post)."""
    rng = random.Random(seed)
    setup = Setup()
    state = loader.new_game(setup)
    actions = []
    while not state.is_over():
        action = sample_chance(state, rng) if state.is_chance() else random_policy(state, rng)
        state.apply(action)
        actions.append(action)
    return make_record(setup, seed, actions, state)


class Abuser:
    """One abusive client: every abuse it was given, at once, counting how the server answered."""

    def __init__(self, url: str, abuses: tuple[str, ...], scale: float) -> None:
        self.url = url.rstrip("/")
        self.abuses = abuses
        self.scale = scale
        headers = {"X-Forwarded-For": ABUSER_ADDRESS}
        self.client = httpx.AsyncClient(base_url=self.url, headers=headers, timeout=30.0,
                                        limits=httpx.Limits(max_connections=64, max_keepalive_connections=64))
        self.streams = httpx.AsyncClient(base_url=self.url, headers=headers, timeout=httpx.Timeout(30.0, read=None),
                                         limits=httpx.Limits(max_connections=None, max_keepalive_connections=0))
        self.answers: Counter[str] = Counter()
        self.open_streams = 0
        self.most_streams = 0
        self.slow_open = 0
        self.waiting_computer = 0
        self.ready: dict[str, asyncio.Event] = {name: asyncio.Event() for name in abuses}

    def count(self, kind: str, status: int | str) -> None:
        self.answers[f"{kind}: {status}"] += 1

    async def post(self, kind: str, path: str, body: Any) -> dict[str, Any] | None:
        try:
            response = await self.client.post(path, json=body)
        except httpx.HTTPError as exc:
            self.count(kind, type(exc).__name__)
            await asyncio.sleep(0.2)
            return None
        self.count(kind, response.status_code)
        if response.status_code == 429:  # told to wait: an abuser does not, but it does not spin either
            await asyncio.sleep(0.05)
        answer: dict[str, Any] | None = response.json() if response.is_success else None
        return answer

    async def streams_abuse(self) -> None:
        wanted = int(10_000 * self.scale)
        games: list[str] = []
        while len(games) * STREAMS_PER_GAME < wanted:
            made = await self.post("streams: create", "/api/games", {"mode": "friend", "clock": None})
            if made is not None:
                games.append(str(made["id"]))
            elif self.answers["streams: create: 429"] > 1000:
                break  # the server will not make more games for this client: watch what there is
        # As many streams as wanted, 64 a game while there are games enough; past that (the server made fewer games
        # for this client), the same games again, each extra stream asking again and again.
        targets = [games[(i // STREAMS_PER_GAME) % len(games)] for i in range(wanted)] if games else []

        async def hold(game_id: str) -> None:
            while True:
                try:
                    async with self.streams.stream("GET", f"/api/games/{game_id}/events") as response:
                        self.count("streams: open", response.status_code)
                        if response.status_code != 200:
                            await asyncio.sleep(1.0)
                            continue
                        self.open_streams += 1
                        self.most_streams = max(self.most_streams, self.open_streams)
                        try:
                            async for _ in response.aiter_raw():
                                pass
                        finally:
                            self.open_streams -= 1
                except httpx.HTTPError as exc:
                    self.count("streams: open", type(exc).__name__)
                    await asyncio.sleep(1.0)

        tasks = []
        for i, game_id in enumerate(targets):
            tasks.append(asyncio.create_task(hold(game_id)))
            if i % 200 == 199:
                await asyncio.sleep(0.05)
        await asyncio.sleep(5.0)
        self.ready["streams"].set()
        await asyncio.gather(*tasks)

    async def computer_abuse(self) -> None:
        waiting: set[str] = set()
        wanted = max(1, int(100 * self.scale))
        while True:
            while len(waiting) < wanted:
                made = await self.post("computer: create", "/api/games",
                                       {"mode": "computer", "level": "expert", "seat": "second"})
                if made is None:
                    break
                waiting.add(str(made["id"]))
            if len(waiting) >= wanted or self.answers["computer: create: 429"]:
                self.ready["computer"].set()
            self.waiting_computer = len(waiting)
            await asyncio.sleep(1.0)
            for game_id in list(waiting):
                with contextlib.suppress(httpx.HTTPError):
                    status = await self.client.get(f"/api/games/{game_id}/status")
                    if status.is_success and not status.json()["thinking"]:
                        waiting.discard(game_id)

    async def analysis_abuse(self) -> None:
        record = finished_record(1)

        async def loop() -> None:
            while True:
                await self.post("analysis", "/api/analysis", record)

        self.ready["analysis"].set()
        await asyncio.gather(*(loop() for _ in range(max(1, int(8 * self.scale)))))

    async def slow_abuse(self) -> None:
        host, port = self.url.split("//", 1)[1].split(":")
        half = f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nX-Forwarded-For: {ABUSER_ADDRESS}\r\n".encode()

        async def hold() -> None:
            while True:
                try:
                    reader, writer = await asyncio.open_connection(host, int(port))
                except OSError as exc:
                    self.count("slow: connect", type(exc).__name__)
                    await asyncio.sleep(1.0)
                    continue
                self.slow_open += 1
                try:
                    writer.write(half)
                    await writer.drain()
                    await reader.read()  # until the server closes it
                    self.count("slow: closed by the server", "")
                except OSError:
                    self.count("slow: closed by the server", "")
                finally:
                    self.slow_open -= 1
                    writer.close()
                await asyncio.sleep(0.5)

        tasks = [asyncio.create_task(hold()) for _ in range(int(1100 * self.scale))]
        await asyncio.sleep(2.0)
        self.ready["slow"].set()
        await asyncio.gather(*tasks)

    def figures(self) -> dict[str, Any]:
        return {"answers": dict(sorted(self.answers.items())), "open_streams": self.open_streams,
                "most_streams": self.most_streams, "slow_open": self.slow_open,
                "waiting_computer": self.waiting_computer}

    async def run(self, stop: asyncio.Event) -> dict[str, Any]:
        jobs: dict[str, Callable[[], Coroutine[Any, Any, None]]] = {
            "streams": self.streams_abuse, "computer": self.computer_abuse, "analysis": self.analysis_abuse,
            "slow": self.slow_abuse}
        tasks = [asyncio.create_task(jobs[name]()) for name in self.abuses]
        ready = asyncio.gather(*(event.wait() for event in self.ready.values()))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ready, READY_SECONDS)
        print(json.dumps({"ready": self.figures()}), flush=True)
        await stop.wait()
        figures = self.figures()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.client.aclose()
        await self.streams.aclose()
        return figures


async def attack(url: str, abuses: tuple[str, ...], scale: float) -> dict[str, Any]:
    """Run the abuse until SIGINT or SIGTERM; return what the server answered."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    return await Abuser(url, abuses, scale).run(stop)


# ------------------------------------------------------------------- the benchmark


def phase(config: LoadConfig, abuses: tuple[str, ...], scale: float, folder: Path, name: str
          ) -> tuple[LoadReport, dict[str, Any] | None]:
    """One server, the honest load, and (``abuses``) the abusive client beside it."""
    server = start_server_process(folder / f"{name}.sqlite3", folder / f"{name}.log", limited=True)
    abuser: subprocess.Popen[str] | None = None
    abuse: dict[str, Any] | None = None
    try:
        if abuses:
            abuser = subprocess.Popen(
                [sys.executable, "-m", "tools.abuse", "attack", "--url", server.url, "--abuses", ",".join(abuses),
                 "--scale", str(scale)], stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parent.parent)
            assert abuser.stdout is not None
            line = abuser.stdout.readline()  # the abuse is built up
            abuse = {"at_start": json.loads(line)["ready"]} if line else {"at_start": None}
            print(f"  abuse built up: {json.dumps(abuse['at_start'])}", flush=True)
        run = LoadConfig(server.url, config.games, config.pace, config.moves_per_game, config.seed,
                         config.computer_games, config.level, server.pid, "zamek play (SQLite)")
        report = asyncio.run(honest_load(run))
    finally:
        if abuser is not None:
            abuser.send_signal(signal.SIGTERM)
            try:
                out, _ = abuser.communicate(timeout=120)
            except subprocess.TimeoutExpired:  # thousands of streams to close: its figures are not worth the wait
                abuser.kill()
                out, _ = abuser.communicate()
            lines = [line for line in out.splitlines() if line.startswith("{")]
            if abuse is not None and lines:
                abuse["at_end"] = json.loads(lines[-1])
        server.stop()
    return report, abuse


def compared(quiet: LoadReport, abused: LoadReport) -> dict[str, Any]:
    figures = {"move_p99_ms": (quiet.move_ms["p99"], abused.move_ms["p99"]),
               "event_p99_ms": (quiet.event_ms["p99"], abused.event_ms["p99"])}
    if quiet.computer_games:
        figures["reply_p99_ms"] = (quiet.reply_ms["p99"], abused.reply_ms["p99"])
    rows = {name: {"quiet": a, "abused": b, "ratio": round(b / a, 2) if a else math.inf}
            for name, (a, b) in figures.items()}
    return {"figures": rows, "within": all(r["ratio"] <= FACTOR for r in rows.values()),
            "honest_errors": abused.errors}


@click.group(invoke_without_command=True)
@click.option("--games", type=int, default=200, show_default=True, help="Honest games against a friend.")
@click.option("--computer-games", type=int, default=20, show_default=True,
              help="Honest games against the computer (easy), their replies timed.")
@click.option("--pace", type=float, default=3.0, show_default=True, help="A person's seconds per move.")
@click.option("--moves-per-game", type=int, default=20, show_default=True)
@click.option("--abuses", default=",".join(ABUSES), show_default=True, help="Which abuses, comma-separated.")
@click.option("--scale", type=float, default=1.0, show_default=True,
              help="Scale every abuse (0.1: 1,000 streams, 10 expert games...), for a quick run.")
@click.option("--json", "json_path", type=click.Path(path_type=Path, dir_okay=False), default=None)
@click.pass_context
def main(ctx: click.Context, games: int, computer_games: int, pace: float, moves_per_game: int, abuses: str,
         scale: float, json_path: Path | None) -> None:
    """The honest players' latency on a quiet server and beside one abusive client."""
    if ctx.invoked_subcommand is not None:
        return
    chosen = tuple(a for a in abuses.split(",") if a)
    if unknown := set(chosen) - set(ABUSES):
        raise click.UsageError(f"unknown abuse {sorted(unknown)}; choose among {', '.join(ABUSES)}")
    config = LoadConfig("", games, pace, moves_per_game, 1, computer_games, "easy")
    with tempfile.TemporaryDirectory(prefix="zamek-abuse-") as where:
        folder = Path(where)
        click.echo("quiet: the honest load alone")
        quiet, _ = phase(config, (), scale, folder, "quiet")
        click.echo(quiet.table())
        click.echo(f"abused: the same load beside one client's {', '.join(chosen)}")
        abused, abuse = phase(config, chosen, scale, folder, "abused")
        click.echo(abused.table())
        click.echo(f"the abusive client: {json.dumps(abuse)}")
    result = compared(quiet, abused)
    for name, row in result["figures"].items():
        click.echo(f"{name}: quiet {row['quiet']:.0f}, abused {row['abused']:.0f}, x{row['ratio']}")
    click.echo(f"within x{FACTOR:g} of quiet: {'yes' if result['within'] else 'no'}")
    if json_path is not None:
        write_json_replacing(json_path, {"quiet": quiet.to_json(), "abused": abused.to_json(), "abuse": abuse,
                                         "abuses": list(chosen), "scale": scale, **result})


@main.command(name="attack")
@click.option("--url", required=True)
@click.option("--abuses", default=",".join(ABUSES))
@click.option("--scale", type=float, default=1.0)
def attack_command(url: str, abuses: str, scale: float) -> None:
    """Be the abusive client (the benchmark runs this in a process of its own) until SIGTERM."""
    figures = asyncio.run(attack(url, tuple(a for a in abuses.split(",") if a), scale))
    print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
