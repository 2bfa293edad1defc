"""The server's connections (zamek.server.connections), against real servers on real sockets: a request whose headers
or body do not come in time closes its connection, a cap on connections keeps the server answering when slow clients
hold many, a body sent to a route that never reads it is not read to its end, and a stopping server ends its event
streams with a last ``restart`` event instead of cutting them, with nothing in its log (issue 38, items 2 and 5)."""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tools.loadtest import ServerProcess, free_port, start_server_process

from tests.live_server import Server, start_server
from zamek.server.connections import connection_cap

TIMEOUT = 0.5
"""The tests' header and body timeouts (seconds)."""
SLACK = 10.0
"""How much later than its deadline a connection may close: the whole suite on two busy cores once took over 2 s.
Generous costs nothing: without the timeouts such a connection stays open for ever, and a request that trickles in
slower than the deadline but within the slack would be answered 200, not 408."""
REQUEST = b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


@pytest.fixture
def server_log() -> Iterator[list[logging.LogRecord]]:
    """The warnings and errors the servers of this process log (uvicorn's own logger does not reach the root's)."""
    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    records: list[logging.LogRecord] = []
    handler = Keep(logging.WARNING)
    loggers = [logging.getLogger(name) for name in ("uvicorn", "zamek.server", "asyncio")]
    for logger in loggers:
        logger.addHandler(handler)
    yield records
    for logger in loggers:
        logger.removeHandler(handler)


@pytest.fixture
def server(tmp_path: Path, server_log: list[logging.LogRecord]) -> Iterator[Server]:
    s = start_server(tmp_path / "g.sqlite3", header_timeout=TIMEOUT, body_timeout=TIMEOUT)
    yield s
    s.stop()


def address(server: Server) -> tuple[str, int]:
    return "127.0.0.1", int(server.url.rsplit(":", 1)[1].strip("/"))


def connect(server: Server) -> socket.socket:
    return socket.create_connection(address(server), timeout=10)


def until_closed(sock: socket.socket, seconds: float) -> tuple[bytes, float]:
    """All the server sends until it closes the connection, and how long that took; fails if it is still open after
    ``seconds``."""
    sock.settimeout(seconds)
    start = time.monotonic()
    data = b""
    try:
        while part := sock.recv(65536):
            data += part
    except ConnectionResetError:
        pass
    except TimeoutError:
        pytest.fail(f"the connection is still open after {seconds} s; it sent {data[:200]!r}")
    return data, time.monotonic() - start


def one_answer(sock: socket.socket) -> http.client.HTTPResponse:
    """The next answer on a connection (read to its end)."""
    answer = http.client.HTTPResponse(sock)
    answer.begin()
    answer.read()
    return answer


def errors_in(records: list[logging.LogRecord]) -> list[str]:
    return [r.getMessage() for r in records if r.levelno >= logging.ERROR or r.exc_info]


# ------------------------------------------------------------ timeouts


def test_a_request_whose_headers_never_end_is_408_and_closed(server: Server) -> None:
    with connect(server) as sock:
        sock.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the blank line never comes
        answer, took = until_closed(sock, TIMEOUT + SLACK)
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    assert took < TIMEOUT + SLACK


def test_a_connection_that_sends_nothing_is_closed(server: Server) -> None:
    with connect(server) as sock:
        answer, _took = until_closed(sock, TIMEOUT + SLACK)
    assert answer == b""


def test_headers_that_trickle_in_do_not_put_off_the_deadline(server: Server) -> None:
    start = time.monotonic()
    with connect(server) as sock:
        with contextlib.suppress(OSError):  # the server closes the connection under the sender
            for byte in REQUEST:  # a byte every 0.1 s: the whole request would take 4 s
                sock.send(bytes([byte]))
                time.sleep(0.1)
        answer, _took = until_closed(sock, SLACK)
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    assert time.monotonic() - start < TIMEOUT + SLACK


def test_a_kept_alive_connection_times_its_next_request_too(server: Server) -> None:
    with connect(server) as sock:
        sock.sendall(REQUEST)
        assert one_answer(sock).status == 200
        sock.sendall(b"GET /api/meta HTTP/1.1\r\n")
        answer, _took = until_closed(sock, TIMEOUT + SLACK)
    assert answer.startswith(b"HTTP/1.1 408 "), answer


@pytest.mark.parametrize("path", ["/api/import", "/api/games"])
def test_a_body_that_never_ends_is_408_and_closed_with_nothing_in_the_log(
        server: Server, server_log: list[logging.LogRecord], path: str) -> None:
    with connect(server) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     "Content-Length: 1000\r\n\r\n{\"mode\":".encode())
        answer, _took = until_closed(sock, TIMEOUT + SLACK)
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    time.sleep(0.2)  # the app hears that the client is gone
    assert errors_in(server_log) == []


def test_requests_in_time_are_answered_as_before(server: Server) -> None:
    connection = http.client.HTTPConnection(*address(server), timeout=10)
    connection.request("POST", "/api/games", body=json.dumps({"mode": "hotseat", "seed": 5}),
                       headers={"Content-Type": "application/json"})
    created = connection.getresponse()
    assert created.status == 201
    game = json.loads(created.read())["id"]
    time.sleep(TIMEOUT * 2)  # an idle kept-alive connection within uvicorn's keep-alive time stays
    connection.request("GET", f"/api/games/{game}/status")
    assert connection.getresponse().status == 200
    connection.close()


# ------------------------------------------------------------ bodies nobody reads

LIMIT = 50_000


@pytest.fixture
def limited(tmp_path: Path, server_log: list[logging.LogRecord]) -> Iterator[Server]:
    """A server taking bodies of ``LIMIT`` bytes at most, with all the time in the world for them."""
    s = start_server(tmp_path / "g.sqlite3", max_body_bytes=LIMIT, body_timeout=60)
    yield s
    s.stop()


def chunk(size: int) -> bytes:
    return b"%x\r\n%s\r\n" % (size, b"x" * size)


@pytest.mark.parametrize("path", ["/api/meta", "/nowhere", "/api/games/no-such-game/status"])
def test_a_body_over_the_limit_sent_to_a_route_that_never_reads_it_is_cut(limited: Server, path: str) -> None:
    """Such a body was read to its end, however long (300 MB to ``GET /api/meta``)."""
    with connect(limited) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
                     + chunk(4096))  # the first chunk of an endless body
        assert one_answer(sock).status in (200, 404)
        sent = 0
        with contextlib.suppress(OSError):  # the server closes the connection: it takes no more of the body
            while sent < 100 * LIMIT:
                sock.sendall(chunk(4096))
                sent += 4096
        rest, _took = until_closed(sock, SLACK)
    assert rest == b""
    assert sent < 100 * LIMIT


def test_a_small_body_a_route_never_reads_keeps_the_connection(limited: Server) -> None:
    with connect(limited) as sock:
        sock.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk(100))
        assert one_answer(sock).status == 200
        sock.sendall(chunk(100) + b"0\r\n\r\n" + REQUEST)  # the rest of the body, then the next request
        assert one_answer(sock).status == 200


# ------------------------------------------------------------ the cap on connections


def test_over_the_cap_the_connection_that_waited_longest_is_closed(tmp_path: Path) -> None:
    server = start_server(tmp_path / "g.sqlite3", header_timeout=30, max_connections=4)
    try:
        slow = [connect(server) for _ in range(4)]
        for sock in slow:
            sock.sendall(b"GET /api/meta HTTP/1.1\r\n")  # headers that never end
            time.sleep(0.05)
        with connect(server) as sock:
            sock.sendall(REQUEST)
            assert one_answer(sock).status == 200  # a newcomer is served
        answer, _took = until_closed(slow[0], SLACK)  # the oldest slow one was let go
        assert answer == b""
        for sock in slow[1:]:
            sock.settimeout(0.2)
            with pytest.raises(TimeoutError):
                sock.recv(1)  # the others still wait
            sock.close()
    finally:
        server.stop()


def test_over_the_cap_with_every_connection_busy_a_new_one_is_503(tmp_path: Path) -> None:
    server = start_server(tmp_path / "g.sqlite3", max_connections=3)
    try:
        connection = http.client.HTTPConnection(*address(server), timeout=10)
        connection.request("POST", "/api/games", body=json.dumps({"mode": "hotseat", "seed": 5}),
                           headers={"Content-Type": "application/json"})
        game = json.loads(connection.getresponse().read())["id"]
        connection.close()
        streams = [connect(server) for _ in range(3)]
        for sock in streams:
            sock.sendall(f"GET /api/games/{game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            assert sock.recv(100).startswith(b"HTTP/1.1 200 ")
        with connect(server) as sock:
            sock.sendall(REQUEST)
            answer, _took = until_closed(sock, SLACK)
        assert answer.startswith(b"HTTP/1.1 503 "), answer
        for sock in streams:
            sock.close()
    finally:
        server.stop()


def test_the_cap_comes_from_the_open_file_limit() -> None:
    assert connection_cap(None, 1024) == 924  # systemd's default limit, less the files kept for the rest
    assert connection_cap(300, 1024) == 300
    assert connection_cap(5000, 1024) == 924  # more than the files allow: lowered (with a warning)
    assert connection_cap(None, 50) == 16
    assert connection_cap(None, None) == 1000  # no limit to read (Windows)


def start_limited(db: Path, log: Path, files: int, *options: str) -> ServerProcess:
    """``zamek play`` with an open-file limit of ``files`` (systemd's default is 1,024)."""
    port = free_port()
    command = ["bash", "-c", f'ulimit -Sn {files} && exec "$0" "$@"', sys.executable, "-m", "zamek", "play",
               "--no-browser", "--port", str(port), "--db", f"sqlite:///{db}", *options]
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    server = ServerProcess(f"http://127.0.0.1:{port}", process, log)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        assert process.poll() is None, log.read_text()
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(REQUEST)
            if one_answer(sock).status == 200:
                return server
        time.sleep(0.1)
    server.kill()
    raise AssertionError(f"the server did not start: {log.read_text()}")


def test_slow_connections_cannot_use_up_the_open_files(tmp_path: Path) -> None:
    """1,100 slow connections stopped a server with 1,024 files from answering anyone; here 400 against 256."""
    server = start_limited(tmp_path / "g.sqlite3", tmp_path / "server.log", 256, "--header-timeout", "120")
    port = int(server.url.rsplit(":", 1)[1])
    slow: list[socket.socket] = []
    try:
        for _ in range(400):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(b"GET /api/meta HTTP/1.1\r\n")
            slow.append(sock)
        time.sleep(0.5)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(REQUEST)
            assert one_answer(sock).status == 200
    finally:
        for sock in slow:
            sock.close()
        server.kill()


# ------------------------------------------------------------ stopping


def chunked_body(raw: bytes) -> tuple[bytes, bool]:
    """The body of a chunked answer, and whether it ended properly (its last, empty chunk came)."""
    body = b""
    while raw:
        size_line, _, raw = raw.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            return body, True
        body, raw = body + raw[:size], raw[size + 2:]
    return body, False


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_stopping_the_server_ends_its_event_streams_with_restart_and_logs_no_error(
        tmp_path: Path, stop: signal.Signals) -> None:
    log = tmp_path / "server.log"
    server = start_server_process(tmp_path / "g.sqlite3", log)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", int(server.url.rsplit(":", 1)[1]), timeout=10)
        connection.request("POST", "/api/games", body=json.dumps({"mode": "hotseat", "seed": 5}),
                           headers={"Content-Type": "application/json"})
        game: dict[str, Any] = json.loads(connection.getresponse().read())
        connection.close()
        with socket.create_connection(("127.0.0.1", int(server.url.rsplit(":", 1)[1])), timeout=10) as sock:
            sock.sendall(f"GET /api/games/{game['id']}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            raw = b""
            while b"event: presence" not in raw:
                raw += sock.recv(65536)
            server.process.send_signal(stop)
            rest, took = until_closed(sock, 10)
        server.process.wait(15)  # uvicorn raises the signal again once stopped: Ctrl+C's "Aborted!", SIGTERM's end
    finally:
        server.kill()
    head, _, body = (raw + rest).partition(b"\r\n\r\n")
    assert b"transfer-encoding: chunked" in head.lower()
    text, whole = chunked_body(body)
    assert whole, f"the stream was cut: {body[-200:]!r}"
    last = text.decode().strip().split("\n\n")[-1]
    assert last.startswith("event: restart\n"), text
    assert json.loads(last.split("data: ", 1)[1]) == {"game": game["id"], "retry": 1000}
    assert took < 5
    output = log.read_text()
    assert "Traceback" not in output and "ERROR" not in output, output
