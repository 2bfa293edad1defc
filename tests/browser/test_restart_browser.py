"""A server restart with a game's page open: the stream's last event (``restart``) sends the page back to the server
by itself, and it shows a move made on the new server without being reloaded (issue 38, item 5)."""

from __future__ import annotations

from pathlib import Path

import httpx2 as httpx
from playwright.sync_api import Page
from tools.loadtest import legal_actions

from tests.browser.pages import revision
from tests.live_server import start_server


def test_a_watching_page_comes_back_by_itself_after_a_restart(page: Page, tmp_path: Path) -> None:
    db = tmp_path / "restart.sqlite3"
    first = start_server(db)
    port = int(first.url.rsplit(":", 1)[1].strip("/"))
    try:
        created = httpx.post(f"{first.url}api/games", json={"mode": "hotseat", "seed": 5}, timeout=10).json()
        streams: list[str] = []
        page.on("request", lambda request: streams.append(request.url)
                if request.url.split("?")[0].endswith("/events") else None)
        page.goto(f"{first.url}#/watch/{created['id']}")
        page.wait_for_selector("#board")
        page.wait_for_function("document.body.dataset.revision")
        before = revision(page)
    finally:
        first.stop()  # its stream ends with "restart"
    second = start_server(db, port=port)
    try:
        game = f"{second.url}api/games/{created['id']}"
        view = httpx.get(game, timeout=10).json()
        token = next(t["token"] for t in created["tokens"] if t["seat"] == view["current"])
        if view["phase"] == "draw":  # two people at one screen draw their tiles themselves
            url, body = f"{game}/draw", {"revision": view["revision"]}
        else:
            url, body = f"{game}/actions", {"action": legal_actions(view)[0], "revision": view["revision"]}
        moved = httpx.post(url, json=body, headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert moved.status_code == 200, moved.text
        page.wait_for_function(f"document.body.dataset.revision !== '{before}'", timeout=15_000)
        assert len(streams) >= 2  # the page opened its stream again
    finally:
        second.stop()
