"""A real server for the tests that need one (browsers, event streams, load): uvicorn in a thread, on a free port."""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn

from zamek.server.app import create_app
from zamek.server.server import server_config
from zamek.server.service import WebConfig


@dataclass
class Server:
    url: str
    server: uvicorn.Server
    thread: threading.Thread

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(db: Path | str, bot_delay: float = 0.05, port: int | None = None, **config: Any) -> Server:
    """Serve a fresh app on the SQLite file ``db`` or the database URL ``db`` (on ``port``, default a free one: a
    restarted server keeps its port, so that the page's origin and the seat tokens it holds stay); its connections
    as ``zamek play``'s (open event streams end at ``stop``)."""
    url = db if isinstance(db, str) else f"sqlite:///{db}"
    app = create_app(WebConfig(db_url=url, bot_delay=bot_delay, **config))
    port = port or free_port()
    server = uvicorn.Server(server_config(app, "127.0.0.1", port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > end or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    return Server(f"http://127.0.0.1:{port}/", server, thread)
