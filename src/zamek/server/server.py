"""Run the web app with uvicorn: ``zamek play`` (one process, opens the browser) and ``zamek serve`` (worker
processes on one shared database)."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import socket
import threading
import time
import webbrowser
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

import uvicorn

from zamek.server.app import create_app
from zamek.server.connections import GuardedH11Protocol
from zamek.server.db import Repository
from zamek.server.expiry import IDLE_DAYS, UNJOINED_HOURS
from zamek.server.fairness import PUBLIC, Fairness
from zamek.server.guard import local_addresses
from zamek.server.metrics import SHARED_FOLDER_VARIABLE, allowed_networks, shared_metrics_folder
from zamek.server.service import WebConfig
from zamek.server.tables import default_db_url

EVERYWHERE = ("0.0.0.0", "::", "")
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def served_hosts(host: str) -> tuple[str, ...]:
    """The names a request may come for (its ``Host``): the local ones, ``host``, and this machine's
    addresses and name when it listens on every interface."""
    names = [*(n for n in WebConfig.allowed_hosts if n != "testserver"), host]
    if host in EVERYWHERE:
        names += [*local_addresses(), socket.gethostname(), socket.getfqdn()]
    return tuple(dict.fromkeys(n for n in names if n and n not in EVERYWHERE))


def exposure_warning(host: str, port: int) -> list[str]:
    """The lines ``zamek play`` prints when the server is reachable from other machines; none when it is not."""
    if host in ("127.0.0.1", "localhost", "::1"):
        return []
    addresses = [host]
    if host in EVERYWHERE:  # 0.0.0.0 is every IPv4 address; :: every address
        addresses = [a for a in local_addresses() if host != "0.0.0.0" or ":" not in a]
    shown = [f"http://[{a}]:{port}/" if ":" in a else f"http://{a}:{port}/" for a in addresses]
    return [
        f"Zamek: WARNING: listening on {host or '*'}: the server is reachable from other machines; anyone who "
        "reaches it can start and import games, and watch any game whose link they have (moves need a seat's "
        "token). Across the internet, put it behind a reverse proxy with TLS.",
        f"Zamek: it listens on {', '.join(shown) or 'every address of this machine'}",
    ]


GRACE_SECONDS = 1
"""How long a stopping server waits for the answers under way (its event streams end at once) before it cuts them."""


def server_config(app: Any, host: str, port: int, **options: Any) -> uvicorn.Config:
    """uvicorn's configuration of a Zamek server: its connections guarded (:mod:`zamek.server.connections`: timeouts,
    a cap, event streams ended when it stops)."""
    return uvicorn.Config(app, host=host, port=port, http=GuardedH11Protocol, timeout_graceful_shutdown=GRACE_SECONDS,
                          **options)


YOUNG_OBJECTS = 10_000
"""The garbage collector's first threshold in a server (Python's default is 700): its passes are fewer, and each
request's objects are mostly gone before one comes, so few are promoted and the full passes that walk every game
in memory come seldom (200 games at a person's pace: 1 full pass instead of 8, each up to 0.15 s; results/server)."""


def settle_collector() -> None:
    """Ready the garbage collector for serving: what is loaded at start-up lives as long as the server, and is kept
    out of its passes (``gc.freeze``); its young generation is larger (:data:`YOUNG_OBJECTS`)."""
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_OBJECTS, middle, old)


def serve(host: str = "127.0.0.1", port: int = 8000, db_url: str | None = None, open_browser: bool = True,
          expire_unjoined_hours: float = 0.0, expire_idle_days: float = 0.0, fairness: Fairness = PUBLIC,
          header_timeout: float = WebConfig.header_timeout, body_timeout: float = WebConfig.body_timeout,
          max_connections: int | None = WebConfig.max_connections) -> None:
    """Serve the app until interrupted; open the page in the browser once the server listens. The games are kept
    unless the limits of expiry are set (:mod:`zamek.server.expiry`; 0: never)."""
    url_db = db_url or default_db_url()
    app = create_app(WebConfig(db_url=url_db, allowed_hosts=served_hosts(host),
                               expire_unjoined_hours=expire_unjoined_hours, expire_idle_days=expire_idle_days,
                               fairness=fairness, header_timeout=header_timeout, body_timeout=body_timeout,
                               max_connections=max_connections))
    # No line for each request: a person playing on their own machine has no use for them, and writing them took a
    # fiftieth of the server's CPU under load (results/server). zamek serve keeps them, for the operator.
    server = uvicorn.Server(server_config(app, host, port, log_level="info", access_log=False))
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    page = f"http://{shown}:{port}/"
    print(f"Zamek: games stored in {url_db}")
    print(f"Zamek: open {page} (Ctrl+C stops the server)")
    for line in exposure_warning(host, port):
        print(line)

    def open_when_ready() -> None:
        for _ in range(200):
            if server.started:
                webbrowser.open(page)
                return
            time.sleep(0.05)

    if open_browser:
        threading.Thread(target=open_when_ready, daemon=True).start()
    settle_collector()
    server.run()


CONFIG_VARIABLE = "ZAMEK_SERVE_CONFIG"
"""How ``zamek serve`` gives its configuration to the worker processes uvicorn starts (they import the app)."""


def serve_workers(db_url: str, workers: int, host: str, port: int, computer_processes: int = 1,
                  allowed_hosts: tuple[str, ...] = (), forwarded_allow_ips: str = "127.0.0.1",
                  computer_delay: float = 0.8, computer_lease: float = 15.0,
                  expire_unjoined_hours: float = UNJOINED_HOURS, expire_idle_days: float = IDLE_DAYS,
                  metrics_allow_ips: Sequence[str] = ("127.0.0.1", "::1"), fairness: Fairness = PUBLIC,
                  header_timeout: float = WebConfig.header_timeout, body_timeout: float = WebConfig.body_timeout,
                  max_connections: int | None = WebConfig.max_connections) -> None:
    """Serve the app from ``workers`` processes sharing the database at ``db_url``, until interrupted; uvicorn
    starts a worker again when one dies. Several workers count their metrics in a folder they share."""
    if db_url.startswith("sqlite") and workers > 1:
        raise ValueError("several workers need a database server (PostgreSQL); SQLite serves one process: zamek play")
    allowed_networks(metrics_allow_ips)  # a mistake is told now, not by every worker
    Repository(db_url).close()  # the schema is upgraded once, before the workers start
    # The loopback names too: a health check or Prometheus on this machine asks for 127.0.0.1 (a page that DNS
    # rebinding points here still names its own site, refused).
    names = [*allowed_hosts, *LOOPBACK_NAMES] if allowed_hosts else served_hosts(host)
    config = {"db_url": db_url, "allowed_hosts": list(dict.fromkeys(names)),
              "bot_workers": computer_processes, "bot_delay": computer_delay, "bot_lease": computer_lease,
              "expire_unjoined_hours": expire_unjoined_hours, "expire_idle_days": expire_idle_days,
              "metrics_allow_ips": list(metrics_allow_ips), "fairness": asdict(fairness),
              "header_timeout": header_timeout, "body_timeout": body_timeout, "max_connections": max_connections}
    os.environ[CONFIG_VARIABLE] = json.dumps(config)
    print(f"Zamek: {workers} workers on {host}:{port}, games stored in {Repository.describe(db_url)}", flush=True)
    # One worker counts in its own memory, unless the operator named a folder (prometheus_client read it already).
    with contextlib.ExitStack() as stack:
        if workers > 1 or SHARED_FOLDER_VARIABLE in os.environ:
            stack.enter_context(shared_metrics_folder())
        uvicorn.run("zamek.server.server:app_from_environment", factory=True, host=host, port=port, workers=workers,
                    proxy_headers=True, forwarded_allow_ips=forwarded_allow_ips, http=GuardedH11Protocol,
                    timeout_graceful_shutdown=GRACE_SECONDS, log_level="info")


def app_from_environment() -> object:
    """The app of one ``zamek serve`` worker (uvicorn imports it in each worker process)."""
    raw = json.loads(os.environ[CONFIG_VARIABLE])
    app = create_app(WebConfig(db_url=raw["db_url"], allowed_hosts=tuple(raw["allowed_hosts"]),
                               bot_workers=int(raw["bot_workers"]), bot_processes=True,
                               bot_delay=float(raw["bot_delay"]), bot_lease=float(raw["bot_lease"]),
                               expire_unjoined_hours=float(raw["expire_unjoined_hours"]),
                               expire_idle_days=float(raw["expire_idle_days"]),
                               metrics_allow_ips=tuple(raw["metrics_allow_ips"]),
                               fairness=Fairness(**raw.get("fairness", {})),
                               header_timeout=float(raw["header_timeout"]), body_timeout=float(raw["body_timeout"]),
                               max_connections=raw["max_connections"]))
    settle_collector()
    return app
