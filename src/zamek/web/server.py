"""Run the web app with uvicorn (``zamek play``) and open it in the browser."""

from __future__ import annotations

import threading
import time
import webbrowser

import uvicorn

from zamek.web.app import create_app
from zamek.web.db import default_db_url
from zamek.web.service import WebConfig


def serve(host: str = "127.0.0.1", port: int = 8000, db_url: str | None = None, open_browser: bool = True) -> None:
    """Serve the app until interrupted; open the page in the browser once the server listens."""
    url_db = db_url or default_db_url()
    app = create_app(WebConfig(db_url=url_db))
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="info"))
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    page = f"http://{shown}:{port}/"
    print(f"Zamek: games stored in {url_db}")
    print(f"Zamek: open {page} (Ctrl+C stops the server)")

    def open_when_ready() -> None:
        for _ in range(200):
            if server.started:
                webbrowser.open(page)
                return
            time.sleep(0.05)

    if open_browser:
        threading.Thread(target=open_when_ready, daemon=True).start()
    server.run()
