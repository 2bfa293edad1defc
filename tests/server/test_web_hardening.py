"""The web app's guards: body limits, robust import, 500s in the error format, security headers, Host and
Origin checks, and the warning of ``zamek play --host 0.0.0.0``."""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import event

from tests.web_client import WebClient, finished_record, new_game
from zamek.server.app import create_app
from zamek.server.db import Repository
from zamek.server.service import GameService, WebConfig
from zamek.server.sessions import Sessions

LIMIT = 50_000


@pytest.fixture
def client(tmp_path: Path) -> Iterator[WebClient]:
    app = create_app(WebConfig(db_url=f"sqlite:///{tmp_path / 'g.sqlite3'}", bot_delay=0, max_body_bytes=LIMIT))
    with WebClient(app, raise_server_exceptions=False) as c:
        yield c


def stored(client: WebClient) -> list[str]:
    """The ids of every game stored (castle and Rycerze i zamki), read from the database."""
    return [g.id for g in client.service.repo.all()]


def padded_record(size: int) -> bytes:
    """A valid saved game padded with spaces to ``size`` bytes."""
    text = json.dumps(finished_record(4)).encode()
    return text + b" " * (size - len(text))


# ------------------------------------------------------------ 1. body limit


def test_a_body_under_the_limit_is_taken(client: WebClient) -> None:
    response = client.post("/api/import", content=padded_record(LIMIT - 10),
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 201, response.text
    assert stored(client) == [response.json()["id"]]


def test_a_declared_body_over_the_limit_is_413_and_stores_nothing(client: WebClient) -> None:
    response = client.post("/api/import", content=padded_record(LIMIT + 10),
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.json()["error"] == "too-large" and "kB" in response.json()["message"]
    assert stored(client) == []


def test_a_chunked_body_over_the_limit_is_413_and_stores_nothing(client: WebClient) -> None:
    data = padded_record(LIMIT * 3)
    sent: list[int] = []

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(data), 8192):
            sent.append(start)
            yield data[start:start + 8192]

    response = client.post("/api/import", content=chunks(), headers={"Content-Type": "application/json"})
    assert "content-length" not in {k.lower() for k in response.request.headers}
    assert response.status_code == 413
    assert response.json()["error"] == "too-large"
    assert stored(client) == []


def test_the_limit_guards_every_route(client: WebClient) -> None:
    response = client.post("/api/games", content=b"{" + b" " * LIMIT + b"}",
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 413 and response.json()["error"] == "too-large"
    assert stored(client) == []


def test_a_chunked_upload_over_the_limit_to_a_real_server_is_413(tmp_path: Path) -> None:
    app = create_app(WebConfig(db_url=f"sqlite:///{tmp_path / 'g.sqlite3'}", bot_delay=0, max_body_bytes=LIMIT))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        end = time.monotonic() + 15
        while not server.started:
            assert time.monotonic() < end and thread.is_alive(), "the server did not start"
            time.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        data = padded_record(LIMIT * 4)
        chunks = b"".join(b"%x\r\n%s\r\n" % (len(data[i:i + 4096]), data[i:i + 4096])
                          for i in range(0, len(data), 4096))
        request = (b"POST /api/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                   b"Transfer-Encoding: chunked\r\n\r\n" + chunks + b"0\r\n\r\n")
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            with contextlib.suppress(OSError):  # the server may answer and close before it has everything
                sock.sendall(request)
            answer = b""
            with contextlib.suppress(OSError):
                while part := sock.recv(65536):
                    answer += part
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 413"), answer[:200]
        assert json.loads(body)["error"] == "too-large"
        meta = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        meta.request("GET", "/api/meta")
        assert meta.getresponse().status == 200  # the server goes on
        meta.close()
        repo = Repository(f"sqlite:///{tmp_path / 'g.sqlite3'}")
        assert repo.all() == []
        repo.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)


# ------------------------------------------------------------ 2. import


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b"[" * 10_000 + b"]" * 10_000, id="deep-lists"),
        pytest.param(b'{"a": ' * 5_000 + b"1" + b"}" * 5_000, id="deep-objects"),
        pytest.param(b'{"format": "zamek-game", "version": 3, "seed": ' + b"9" * 5_000 + b", \"moves\": []}",
                     id="huge-integer"),
        pytest.param(b"1" * 5_000, id="huge-integer-alone"),
        pytest.param(b'{"format": "zamek-game", "version": 3, "moves": [' + b"[" * 5_000 + b"]" * 5_000 + b"]}",
                     id="deep-moves"),
    ],
)
def test_import_of_hostile_json_is_400(client: WebClient, content: bytes) -> None:
    response = client.post("/api/import", content=content, headers={"Content-Type": "application/json"})
    assert response.status_code == 400, response.text
    assert response.json()["error"] == "invalid-record"
    assert stored(client) == []


WRONG_VALUES: list[Any] = [None, True, 1.5, -1, 10**30, "x", [], {}, [1], [[]], [{}], {"a": 1}]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if path:
        yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:4]):
            yield from _paths(item, (*path, index))


def test_import_with_a_wrong_type_anywhere_is_a_4xx(client: WebClient) -> None:
    record = finished_record(4)
    for path in _paths(record):
        for wrong in WRONG_VALUES:
            copy = json.loads(json.dumps(record))
            target = copy
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = wrong
            response = client.post("/api/import", json=copy)
            assert response.status_code in (201, 400), (path, wrong, response.text)
            if response.status_code == 201:  # still a valid game (e.g. another seed): take it out again
                game_id = response.json()["id"]
                assert client.delete(f"/api/games/{game_id}", headers=client.seat(game_id, 0)).status_code == 204
    assert stored(client) == []


def test_import_with_a_too_short_draw_order_is_400(client: WebClient) -> None:
    record = finished_record(4)
    drawn = [m.removeprefix("draw:") for m in record["moves"] if m.startswith("draw:")]
    for order in ([], drawn[:3], drawn[:-1]):
        record["setup"]["draw_order"] = order
        response = client.post("/api/import", json=record)
        assert response.status_code == 400, response.text
        assert "draw_order" in response.json()["message"]
    assert stored(client) == []
    record["setup"]["draw_order"] = drawn
    assert client.post("/api/import", json=record).status_code == 201


def test_an_engine_failure_in_import_is_400(client: WebClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import zamek.server.sessions

    def broken(*_args: Any) -> None:
        raise IndexError("tuple index out of range")

    monkeypatch.setattr(zamek.server.sessions, "replay_moves", broken)
    response = client.post("/api/import", json=finished_record(4))
    assert response.status_code == 400 and response.json()["error"] == "invalid-record"
    assert stored(client) == []


# ------------------------------------------------------------ 3. 500s


def test_an_unexpected_error_is_a_500_in_the_error_format(
    client: WebClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(*_args: Any) -> None:
        raise RuntimeError("secret detail of the failure")

    monkeypatch.setattr(GameService, "lobby", broken)
    with caplog.at_level(logging.ERROR, logger="zamek.server"):
        response = client.post("/api/lobby", json={"tokens": []})
    assert response.status_code == 500
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error", "code", "rule", "params", "message"} and body["error"] == "internal"
    assert "Traceback" not in response.text and "secret detail" not in response.text
    assert "RuntimeError" not in response.text
    assert "secret detail" in caplog.text  # the traceback goes to the log
    assert response.headers["x-content-type-options"] == "nosniff"


def test_an_unexpected_error_in_a_post_is_a_500_in_the_error_format(
    client: WebClient, monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*_args: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(Sessions, "create", broken)
    response = client.post("/api/games", json={"mode": "hotseat"})
    assert response.status_code == 500
    assert response.json()["error"] == "internal" and "boom" not in response.text


# ------------------------------------------------------------ 3b. no 500 from what a request says


BAD_IDS = ["a%00b", "%EF%BC%90", "%ff", "x" * 33, "a%20b", "%C3%A9", "a.b", "a%0D%0ASet-Cookie:%20x=1"]
"""Game ids the server never issues: a NUL, a full-width digit, a byte that is not UTF-8, too long, a space, a
letter outside ASCII, a dot, a line break with a header after it."""


def id_routes(client: WebClient) -> list[tuple[str, str]]:
    """Every route of a game (under ``/api/games/{game_id}``): its method and path."""
    return [(method, route.path) for route in client.fastapi.routes
            if isinstance(route, APIRoute) and "{game_id}" in route.path for method in sorted(route.methods or ())]


def valid_body(path: str) -> dict[str, Any] | None:
    """A body the route's model takes, so that the route itself runs."""
    if path.endswith("/actions"):
        return {"action": "pass", "revision": 0}
    if path.endswith("/join"):
        return {"invite": "x" * 22}
    if path.endswith("/say"):
        return {"message": "hello"}
    return None


@contextlib.contextmanager
def text_parameters(client: WebClient) -> Iterator[list[str]]:
    """The text values of the SQL statements run meanwhile (a game id would be one), but for the computer's name, which
    its scheduler sends now and then to claim its turns."""
    seen: list[str] = []
    computer = client.service.computer.name

    def keep(_conn: object, _cursor: object, _statement: str, parameters: Any, *_rest: object) -> None:
        rows = parameters if isinstance(parameters, list) else [parameters]
        for row in rows:
            values = row.values() if isinstance(row, dict) else row or ()
            seen.extend(v for v in values if isinstance(v, str) and v != computer)

    engine = client.service.repo.engine
    event.listen(engine, "before_cursor_execute", keep)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", keep)


def every_bad_id_is_404(client: WebClient) -> None:
    with text_parameters(client) as queried:
        for method, path in id_routes(client):
            for bad in BAD_IDS:
                response = client.request(method, path.replace("{game_id}", bad), json=valid_body(path))
                assert response.status_code == 404, (method, path, bad, response.text)
                assert response.json()["error"] == "not-found"
    assert queried == []


def test_ids_not_of_the_servers_form_are_404_on_every_id_route_before_any_query(client: WebClient) -> None:
    every_bad_id_is_404(client)


def test_a_nul_in_a_game_id_on_postgresql_is_404_with_nothing_in_the_log(
        pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """PostgreSQL refuses a NUL in a text: the query failed, a 500 with two tracebacks on every id route."""
    with caplog.at_level(logging.WARNING), WebClient(create_app(WebConfig(db_url=pg_url, bot_delay=0))) as pg:
        every_bad_id_is_404(pg)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_the_record_of_an_id_that_names_no_game_is_404(client: WebClient) -> None:
    """Its download header was made of the raw id before the game was looked for: a 500 for ``０``."""
    response = client.get("/api/games/%EF%BC%90/record")
    assert response.status_code == 404 and "content-disposition" not in response.headers
    game = new_game(client, mode="hotseat")["id"]
    response = client.get(f"/api/games/{game}/record")
    assert response.status_code == 200
    assert response.headers["content-disposition"] == f'attachment; filename="zamek-{game}.json"'


# ------------------------------------------------------------ 4. headers


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/api/meta", "/api/games/nope", "/api/openapi.json"])
def test_every_answer_has_the_security_headers(client: WebClient, path: str) -> None:
    response = client.get(path)
    csp = response.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"


def test_refusals_of_the_guards_have_the_security_headers(client: WebClient) -> None:
    response = client.get("/api/meta", headers={"Host": "evil.example"})
    assert response.status_code == 400 and "frame-ancestors" in response.headers["content-security-policy"]


def test_the_page_has_no_inline_script(client: WebClient) -> None:
    page = client.get("/").text
    for start in range(len(page)):
        if page.startswith("<script", start):
            assert "src=" in page[start:page.index(">", start)]
    assert " on" + "click=" not in page


def test_the_api_docs_load_nothing_from_another_site(client: WebClient) -> None:
    docs = client.get("/api/docs")
    assert docs.status_code == 200 and docs.headers["content-type"].startswith("text/html")
    assert "/api/import" in docs.text and "/api/openapi.json" in docs.text
    assert "<script" not in docs.text and "cdn" not in docs.text and "https://" not in docs.text
    assert "http://" not in docs.text
    assert client.get("/api/openapi.json").status_code == 200


# ------------------------------------------------------------ 5. Host and Origin


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.2", "localhost.evil.example"])
def test_a_foreign_host_is_refused(client: WebClient, host: str) -> None:
    response = client.post("/api/lobby", json={"tokens": client.tokens.all()}, headers={"Host": host})
    assert response.status_code == 400
    assert response.json()["error"] == "bad-host"
    assert client.post("/api/games", json={"mode": "hotseat"}, headers={"Host": host}).status_code == 400
    assert stored(client) == []


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "LOCALHOST", "[::1]:8000", "testserver"])
def test_the_served_hosts_are_taken(client: WebClient, host: str) -> None:
    assert client.get("/api/meta", headers={"Host": host}).status_code == 200


def test_the_allowed_hosts_are_a_setting(tmp_path: Path) -> None:
    app = create_app(WebConfig(db_url=f"sqlite:///{tmp_path / 'g.sqlite3'}", allowed_hosts=("zamek.lan",)))
    with TestClient(app, base_url="http://zamek.lan") as c:
        assert c.get("/api/meta").status_code == 200
        assert c.get("/api/meta", headers={"Host": "localhost"}).status_code == 400


@pytest.mark.parametrize("origin", ["http://evil.example", "http://localhost:9999", "null", "https://testserver.evil"])
def test_a_state_change_from_another_origin_is_refused(client: WebClient, origin: str) -> None:
    response = client.post("/api/games", json={"mode": "hotseat"}, headers={"Origin": origin})
    assert response.status_code == 403
    assert response.json()["error"] == "bad-origin"
    assert stored(client) == []
    game = new_game(client, mode="hotseat")
    # Refused for where it comes from, even with the seat's token.
    refused = client.delete(f"/api/games/{game['id']}", headers={"Origin": origin} | client.seat(game["id"], 0))
    assert refused.status_code == 403 and refused.json()["error"] == "bad-origin"
    refused = client.post(f"/api/games/{game['id']}/actions", json={"action": game["drawn"]["places"][0]["action"]},
                          headers={"Origin": origin} | client.mover(game))
    assert refused.status_code == 403 and refused.json()["error"] == "bad-origin"
    refused = client.post("/api/import", json=finished_record(4), headers={"Origin": origin})
    assert refused.status_code == 403
    assert stored(client) == [game["id"]]
    assert client.get(f"/api/games/{game['id']}").json()["revision"] == game["revision"]


def test_the_same_origin_and_reads_from_anywhere_are_taken(client: WebClient) -> None:
    assert client.post("/api/games", json={"mode": "hotseat"}, headers={"Origin": "http://testserver"}
                       ).status_code == 201
    game = client.post("/api/games", json={"mode": "hotseat"})  # no Origin: not a browser's
    assert game.status_code == 201
    assert client.get(f"/api/games/{game.json()['id']}", headers={"Origin": "http://evil.example"}).status_code == 200


# ------------------------------------------------------------ 6. zamek play --host


def test_zamek_play_on_every_interface_warns_and_names_the_addresses(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    import zamek.server.server as server

    configs: list[uvicorn.Config] = []
    monkeypatch.setattr(server, "local_addresses", lambda: ["127.0.0.1", "192.168.7.9", "fd00::5"])
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: configs.append(self.config))
    server.serve("0.0.0.0", 8123, "sqlite://", open_browser=False)
    out = capsys.readouterr().out
    assert "WARNING" in out and "reachable from other machines" in out
    assert "http://192.168.7.9:8123/" in out and "fd00::5" not in out  # 0.0.0.0 is IPv4 only
    app: Any = configs[0].app
    with TestClient(app, base_url="http://192.168.7.9:8123") as c:
        assert c.get("/api/meta").status_code == 200


def test_zamek_play_on_localhost_does_not_warn(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    import zamek.server.server as server

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    server.serve("127.0.0.1", 8123, "sqlite://", open_browser=False)
    assert "WARNING" not in capsys.readouterr().out
    server.serve("::", 8123, "sqlite://", open_browser=False)
    assert "WARNING" in capsys.readouterr().out
