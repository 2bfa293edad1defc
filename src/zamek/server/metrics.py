"""What a host watches: ``GET /healthz`` (is the database reachable) and ``GET /metrics`` (Prometheus).

``/healthz`` answers 200 ``{"status": "ok"}`` when a ``SELECT 1`` on the database succeeds within
``HEALTH_TIMEOUT_SECONDS``, else 503 ``{"status": "unavailable"}``; it reads no game, and checks that run at once
share one query. Anyone may ask (a load balancer, systemd, a monitor).

``/metrics`` is the Prometheus text format (prometheus_client):

* ``zamek_http_requests_total{method, route, status}`` and ``zamek_http_request_duration_seconds{method, route}``
  (a histogram of the time until the answer starts: a live event stream counts until its first byte, not for the
  hours it stays open). ``route`` is the route's template (``/api/games/{game_id}``), ``unmatched`` for a path no
  route serves and ``other`` for an unusual method, so that no request can make a new series.
* ``zamek_event_streams_open{who}``: live event streams open now, ``seat`` (with a seat's token) or ``spectator``.
* ``zamek_games_in_progress{kind, mode}``, ``zamek_computer_jobs_waiting`` (the computer's turns that are due and
  that no worker thinks about yet), ``zamek_computer_jobs_thinking``, ``zamek_computer_oldest_wait_seconds`` (how
  long the oldest waiting turn has waited since it was due) and ``zamek_database_up``: read from the database
  when ``/metrics`` is asked for, so every worker tells the same.
* ``zamek_computer_thinking_seconds`` (a histogram of each reply's thinking) and
  ``zamek_computer_longest_turn_seconds`` (the longest turn since the start), told by the computer player.

Who may read it: the addresses of ``WebConfig.metrics_allow_ips`` (``--metrics-allow-ips``, ``ZAMEK_METRICS_ALLOW_IPS``:
the loopback by default; ``*`` anyone; empty nobody). Behind a reverse proxy the address is the client's as the
proxy tells it (``--forwarded-allow-ips``), so a visitor through the proxy is not the loopback. Any other address
gets the same 404 as an unknown path.

Several workers (``zamek serve --workers N``): each worker counts in files of its own in a shared folder
(prometheus_client's multiprocess mode, ``PROMETHEUS_MULTIPROC_DIR``, which ``zamek serve`` makes and empties when
it starts), and whichever worker answers ``/metrics`` adds them all up: counters and histograms of every worker
that ever ran (a restarted worker's counts stay), the streams of the workers alive now.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Final

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client import multiprocess as shared
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import func, or_, select, text
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException

from zamek.server.guard import ASGIApp, Message, Receive, Scope, Send, header
from zamek.server.tables import ComputerJobRow, MatchRow

if TYPE_CHECKING:
    from zamek.kit.play import Thinking
    from zamek.server.service import GameService

__all__ = ["Metrics", "RequestMetrics", "add_health_and_metrics", "shared_metrics_folder"]

log = logging.getLogger("zamek.server")

SHARED_FOLDER_VARIABLE: Final = "PROMETHEUS_MULTIPROC_DIR"
"""prometheus_client's multiprocess mode: where each process writes its counts (read when the library loads)."""
HEALTH_TIMEOUT_SECONDS: Final = 3.0
METHODS: Final = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED: Final = "unmatched"
THINKING_BUCKETS: Final = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def allowed_networks(addresses: Iterable[str]) -> tuple[Network, ...]:
    """The networks of a list of addresses and networks (``10.0.0.0/8``); ``*`` is every address. Raises
    ValueError for one that is not an address."""
    networks: list[Network] = []
    for address in (a.strip() for a in addresses):
        if address == "*":
            networks += [ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0")]
        elif address:
            try:
                networks.append(ipaddress.ip_network(address, strict=False))
            except ValueError:
                raise ValueError(f"not an address or network: {address!r}") from None
    return tuple(networks)


def address_in(host: str | None, networks: tuple[Network, ...]) -> bool:
    try:
        address = ipaddress.ip_address(host or "")
    except ValueError:
        return False  # a test client's name, a Unix socket: not an address anybody listed
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in networks)


class DatabaseState(Collector):
    """The metrics read from the database at each scrape: the games in progress and the computer's queue."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily("zamek_database_up", "1 when the database answered this scrape's queries, else 0.")
        now_ms = round(self.service.config.clock() * 1000)
        try:
            with self.service.repo.engine.connect() as connection:
                games = connection.execute(
                    select(MatchRow.kind, MatchRow.mode, func.count()).where(MatchRow.status == "playing")
                    .group_by(MatchRow.kind, MatchRow.mode)).all()
                due = ComputerJobRow.due_ms <= now_ms
                free = or_(ComputerJobRow.claimed_until_ms.is_(None), ComputerJobRow.claimed_until_ms < now_ms)
                waiting, oldest = connection.execute(
                    select(func.count(), func.min(ComputerJobRow.due_ms)).where(due, free)).one()
                thinking = connection.execute(select(func.count()).where(due, ~free)).scalar_one()
        except SQLAlchemyError:
            log.warning("the metrics cannot read the database", exc_info=True)
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        in_progress = GaugeMetricFamily("zamek_games_in_progress", "Games not over, of each kind and mode.",
                                        labels=["kind", "mode"])
        for kind, mode, count in games:
            in_progress.add_metric([str(kind), str(mode)], int(count))
        yield in_progress
        yield GaugeMetricFamily("zamek_computer_jobs_waiting",
                                "The computer's turns that are due and that no worker thinks about yet.",
                                value=int(waiting))
        yield GaugeMetricFamily("zamek_computer_jobs_thinking", "The computer's turns a worker thinks about now.",
                                value=int(thinking))
        yield GaugeMetricFamily("zamek_computer_oldest_wait_seconds",
                                "How long the oldest waiting turn of the computer has waited since it was due.",
                                value=max(0.0, (now_ms - int(oldest)) / 1000) if oldest is not None else 0.0)


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def forget_dead_workers(folder: str) -> None:
    """Drop the streams counted by workers that died (killed: they could not say so); uvicorn starts others."""
    for path in Path(folder).glob("gauge_live*_*.db"):
        pid = path.stem.rsplit("_", 1)[-1]
        if pid.isdigit() and not process_alive(int(pid)):
            shared.mark_process_dead(int(pid), folder)  # type: ignore[no-untyped-call]  # the library leaves it untyped


class Metrics:
    """The app's metrics (see the module's doc): of this process, or of every worker in the shared folder."""

    def __init__(self, service: GameService, allow_ips: Iterable[str]) -> None:
        self.allowed = allowed_networks(allow_ips)
        self.folder = os.environ.get(SHARED_FOLDER_VARIABLE) or None
        # One registry per app in one process (the tests make many apps); none with a shared folder, where each
        # scrape reads the workers' files.
        self.registry = None if self.folder else CollectorRegistry()
        self.database = DatabaseState(service)
        self._lock = threading.Lock()
        self._longest = 0.0
        self.requests = Counter("zamek_http_requests", "HTTP requests answered, by route template and status.",
                                ["method", "route", "status"], registry=self.registry)
        self.latency = Histogram("zamek_http_request_duration_seconds",
                                 "Seconds until the answer started, by route template.", ["method", "route"],
                                 registry=self.registry)
        self.streams = Gauge("zamek_event_streams_open", "Live event streams open now (seat or spectator).",
                             ["who"], multiprocess_mode="livesum", registry=self.registry)
        self.thinking = Histogram("zamek_computer_thinking_seconds", "Seconds the computer thought for one reply.",
                                  buckets=THINKING_BUCKETS, registry=self.registry)
        self.longest = Gauge("zamek_computer_longest_turn_seconds",
                             "The computer's longest turn since the server started (all its decisions in the turn).",
                             multiprocess_mode="max", registry=self.registry)
        service.computer.replied = self._replied
        if self.registry is not None:
            self.registry.register(self.database)
            ProcessCollector(registry=self.registry)  # the process's CPU, memory and files; one process only
            GCCollector(registry=self.registry)

    def _replied(self, thinking: Thinking) -> None:
        """A reply of the computer (from its threads)."""
        self.thinking.observe(thinking.seconds)
        with self._lock:
            self._longest = max(self._longest, thinking.longest_turn)
            self.longest.set(self._longest)

    def allows(self, host: str | None) -> bool:
        return address_in(host, self.allowed)

    def exposition(self) -> bytes:
        """The metrics in Prometheus's text format (reads the database: run it in a thread)."""
        if self.registry is not None:
            return generate_latest(self.registry)
        assert self.folder is not None
        forget_dead_workers(self.folder)
        registry = CollectorRegistry()
        shared.MultiProcessCollector(registry, self.folder)  # type: ignore[no-untyped-call]
        registry.register(self.database)
        return generate_latest(registry)


class RequestMetrics:
    """Count every request by its route's template, time it to the answer's start, and count open event streams
    (pure ASGI middleware: it never buffers a stream)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    def _answered(self, scope: Scope, status: int, started: float) -> None:
        method = str(scope.get("method", "")).upper()
        method = method if method in METHODS else "other"
        route = getattr(scope.get("route"), "path", None) or UNMATCHED
        self.metrics.requests.labels(method, route, str(status)).inc()
        self.metrics.latency.labels(method, route).observe(time.perf_counter() - started)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        answered = False
        stream: str | None = None

        async def observed(message: Message) -> None:
            nonlocal answered, stream
            if message["type"] == "http.response.start" and not answered:
                answered = True
                self._answered(scope, int(message["status"]), started)
                kind = dict(message.get("headers", ())).get(b"content-type", b"")
                if bytes(kind).startswith(b"text/event-stream"):
                    stream = "seat" if header(scope, b"authorization") else "spectator"
                    self.metrics.streams.labels(stream).inc()
            await send(message)

        try:
            await self.app(scope, receive, observed)
        except BaseException:
            if not answered:
                self._answered(scope, 500, started)
            raise
        finally:
            if stream is not None:
                self.metrics.streams.labels(stream).dec()


class Health:
    """Whether the database answers; the checks asked for while one runs wait for that one."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._running: asyncio.Future[bool] | None = None

    def _ping(self) -> bool:
        try:
            with self.service.repo.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
            return True
        except Exception:  # whatever the failure, the database is not usable: the answer is 503
            log.warning("the health check cannot reach the database", exc_info=True)
            return False

    async def reachable(self) -> bool:
        if self._running is None or self._running.done():
            self._running = asyncio.ensure_future(run_in_threadpool(self._ping))
        try:
            return await asyncio.wait_for(asyncio.shield(self._running), HEALTH_TIMEOUT_SECONDS)
        except TimeoutError:
            return False


def add_health_and_metrics(app: FastAPI, service: GameService, allow_ips: Iterable[str]) -> Metrics:
    """Add ``/healthz``, ``/metrics`` and the middleware that counts requests (as the outermost middleware so far:
    what is added after it is not counted)."""
    metrics = Metrics(service, allow_ips)
    health = Health(service)
    app.add_middleware(RequestMetrics, metrics=metrics)

    @app.api_route("/healthz", methods=["GET", "HEAD"], include_in_schema=False)
    async def healthz() -> JSONResponse:
        up = await health.reachable()
        return JSONResponse({"status": "ok" if up else "unavailable"}, status_code=200 if up else 503,
                            headers={"Cache-Control": "no-store"})

    @app.get("/metrics", include_in_schema=False)
    async def prometheus(request: Request) -> Response:
        if not metrics.allows(request.client.host if request.client else None):
            raise HTTPException(404)  # as for a path that does not exist: nothing to learn here
        body = await run_in_threadpool(metrics.exposition)
        return Response(body, media_type=CONTENT_TYPE_LATEST, headers={"Cache-Control": "no-store"})

    return metrics


@contextlib.contextmanager
def shared_metrics_folder() -> Iterator[Path]:
    """The folder where the workers of ``zamek serve`` count (set in ``PROMETHEUS_MULTIPROC_DIR`` for the workers
    it starts): the operator's, emptied, or a new one removed at the end."""
    given = os.environ.get(SHARED_FOLDER_VARIABLE)
    folder = Path(given) if given else Path(tempfile.mkdtemp(prefix="zamek-metrics-"))
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.db"):  # counts of a previous run would be added to this one's
        old.unlink()
    os.environ[SHARED_FOLDER_VARIABLE] = str(folder)
    try:
        yield folder
    finally:
        if not given:
            os.environ.pop(SHARED_FOLDER_VARIABLE, None)
            shutil.rmtree(folder, ignore_errors=True)
