"""Answers travel compressed to a client that accepts gzip: the page's scripts and styles, the catalogue of
words, the larger views; short answers and the live events (Server-Sent Events, which must reach the page as they
are written) go as they are."""

from __future__ import annotations

import gzip
import http.client
import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.live_server import start_server
from tests.web_client import WebClient, finished_record
from zamek.server.app import COMPRESS_FROM_BYTES

GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}


@pytest.mark.parametrize("url", ["/static/game.js", "/static/styles.css", "/api/words?lang=pl", "/api/meta"])
def test_the_page_and_its_words_travel_gzipped(client: WebClient, url: str) -> None:
    plain = client.get(url, headers=PLAIN)
    packed = client.get(url, headers=GZIP)
    assert plain.status_code == packed.status_code == 200
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["vary"]
    assert int(packed.headers["content-length"]) < len(plain.content) / 2
    assert packed.content == plain.content  # the client unpacks it to the same bytes


def test_a_finished_games_views_travel_gzipped_and_a_short_answer_as_it_is(client: WebClient) -> None:
    game = client.post("/api/import", json=finished_record(3)).json()["id"]
    for url in (f"/api/games/{game}?lang=pl", f"/api/games/{game}/replay?move=40"):
        packed = client.get(url, headers=GZIP)
        assert packed.headers["content-encoding"] == "gzip", url
        assert int(packed.headers["content-length"]) * 5 < len(packed.content), url
    status = client.get(f"/api/games/{game}/status", headers=GZIP)
    assert len(status.content) < COMPRESS_FROM_BYTES and "content-encoding" not in status.headers


def test_the_live_events_are_never_compressed(tmp_path: Path) -> None:
    server = start_server(tmp_path / "games.sqlite3")
    try:
        where = urlsplit(server.url)
        connection = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port, timeout=10)
        connection.request("POST", "/api/games", '{"mode": "hotseat"}', {"Content-Type": "application/json"})
        created = connection.getresponse()
        assert created.status == 201
        game = json.loads(created.read())["id"]
        connection.request("GET", f"/api/games/{game}/events", headers=GZIP)
        events = connection.getresponse()
        assert events.status == 200
        assert events.getheader("Content-Type", "").startswith("text/event-stream")
        assert events.getheader("Content-Encoding") is None
        first = events.fp.readline()
        assert first and not first.startswith(gzip.compress(b"")[:2])  # text as written, not a gzip stream
        connection.close()
    finally:
        server.stop()
