"""deploy/'s reverse proxies, the real ones (Debian's nginx and caddy), in front of a real ``zamek serve`` (two
workers, every setting from the example environment file) on a real PostgreSQL. Each proxy runs its shipped
configuration with only the site's name, its ports, its certificate (self-signed for nginx, Caddy's own ``tls
internal``), its log and the app's port changed. Through each, over TLS: a game is played and its live events arrive
as they happen, the pages answer HEAD, ``/healthz`` answers and ``/metrics`` does not, a body over the limit is
refused before the app sees it, and the app learns the client's own address. nginx's limits of requests and of
streams per address answer 429 (Debian's caddy has none: docs/hosting.md).

The test's client speaks from 127.0.0.2, so that its address differs from the proxy's (127.0.0.1). Skipped when
nginx or caddy is missing, except under CI (the environment variable CI set), where that fails: ``python3 dev.py
test`` installs them."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import httpx2 as httpx
import pytest
from tools.loadtest import ServerProcess, legal_actions

from tests.deploy.test_kit import DEPLOY, environment_file
from tests.live_server import free_port
from tests.postgres import Cluster
from tests.server.test_health_metrics import samples, value
from tests.web_client import Json, bearer

CLIENT_ADDRESS = "127.0.0.2"
EVENT_SECONDS = 5.0
"""The longest a move's live event may take to come through the proxy (it takes milliseconds; the machine is slow)."""


def program(name: str) -> str:
    found = shutil.which(name, path="/usr/sbin:/usr/bin:/usr/local/bin") or shutil.which(name)
    if found is None:
        message = f"this test needs {name} (apt-get install {name})"
        if os.environ.get("CI"):
            pytest.fail(f"{message}; CI is set, so this fails", pytrace=False)
        pytest.skip(message)
    return found


def substituted(text: str, changes: dict[str, str]) -> str:
    """``text`` with each key replaced by its value; each key must be there (a changed file fails here, loudly)."""
    for old, new in changes.items():
        assert old in text, f"deploy/ no longer has {old!r}: update the test's changes"
        text = text.replace(old, new)
    return text


def wait_until(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with contextlib.suppress(OSError, httpx.HTTPError):
            if check():
                return
        time.sleep(0.1)
    raise AssertionError(f"{what} did not come up in {timeout:.0f} s")


# ------------------------------------------------------------------ the app

@pytest.fixture(scope="module")
def zamek(postgres: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """``zamek serve`` as deploy/zamek.service starts it: no option, every setting from the example environment file
    (with this test's database and port, and a short pause of the computer)."""
    port = free_port()
    log = tmp_path_factory.mktemp("zamek") / "serve.log"
    settings = environment_file(DEPLOY / "zamek.env.example") | {
        "ZAMEK_DB": postgres.new_database(), "ZAMEK_PORT": str(port), "ZAMEK_ALLOWED_HOSTS": "localhost",
        "ZAMEK_COMPUTER_DELAY": "0.05"}
    with log.open("ab") as out:
        process = subprocess.Popen([sys.executable, "-m", "zamek", "serve"], env=os.environ | settings,
                                   stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    server = ServerProcess(f"http://127.0.0.1:{port}", process, log)
    try:
        # Its workers start in fresh processes, each loading the app: minutes on a busy machine of two cores.
        wait_until(lambda: httpx.get(f"{server.url}/healthz", timeout=2).status_code == 200, "zamek serve", 180)
        yield server
    finally:
        server.stop()


# ------------------------------------------------------------------ the proxies

@dataclass
class Proxy:
    name: str
    port: int
    authority: Path
    """The certificate that the proxy's is checked against."""
    folder: Path
    process: subprocess.Popen[bytes] = field(repr=False)

    @property
    def url(self) -> str:
        return f"https://localhost:{self.port}"

    def client(self) -> httpx.Client:
        """A client of the proxy from CLIENT_ADDRESS, checking its certificate."""
        context = ssl.create_default_context(cafile=str(self.authority))
        transport = httpx.HTTPTransport(verify=context, local_address=CLIENT_ADDRESS)
        return httpx.Client(base_url=self.url, transport=transport, timeout=20)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def self_signed(folder: Path) -> tuple[Path, Path]:
    certificate, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run([program("openssl"), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                    "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", str(key),
                    "-out", str(certificate)], check=True, capture_output=True)
    return certificate, key


def healthy(proxy: Proxy) -> bool:
    with proxy.client() as web:
        return web.get("/healthz").status_code == 200


@contextlib.contextmanager
def nginx(zamek: ServerProcess, folder: Path) -> Iterator[Proxy]:
    binary = program("nginx")
    certificate, key = self_signed(folder)
    https, http = free_port(), free_port()
    site = substituted((DEPLOY / "nginx" / "zamek.conf").read_text(), {
        "/etc/letsencrypt/live/zamek.example.org/fullchain.pem": str(certificate),
        "/etc/letsencrypt/live/zamek.example.org/privkey.pem": str(key),
        "zamek.example.org": "localhost",
        "listen 80;": f"listen {http};",
        "listen [::]:80;\n": "",
        "listen 443 ssl http2;": f"listen {https} ssl http2;",
        "listen [::]:443 ssl http2;\n": "",
        "server 127.0.0.1:8000;": f"server 127.0.0.1:{zamek.url.rsplit(':', 1)[1]};",
        "root /var/www/html;": f"root {folder};",
    })
    (folder / "zamek.conf").write_text(site)
    temporary = " ".join(f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                           "scgi"))
    (folder / "nginx.conf").write_text(f"""
{'user root;' if os.geteuid() == 0 else ''}
pid {folder / 'nginx.pid'};
error_log {folder / 'error.log'};
events {{ worker_connections 1024; }}
http {{
    access_log {folder / 'access.log'};
    {temporary}
    include {folder / 'zamek.conf'};
}}
""")
    command = [binary, "-p", str(folder), "-c", str(folder / "nginx.conf")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    with (folder / "stderr.log").open("ab") as errors:  # the child keeps its own handle
        process = subprocess.Popen([*command, "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=errors)
    proxy = Proxy("nginx", https, certificate, folder, process)
    try:
        wait_until(lambda: healthy(proxy), "nginx", 60)
        yield proxy
    finally:
        proxy.stop()


@contextlib.contextmanager
def caddy(zamek: ServerProcess, folder: Path) -> Iterator[Proxy]:
    binary = program("caddy")
    https, http = free_port(), free_port()
    site = substituted((DEPLOY / "caddy" / "Caddyfile").read_text(), {
        "{\n\t# email admin@example.org": f"{{\n\tadmin off\n\tskip_install_trust\n\thttp_port {http}\n"
                                          f"\thttps_port {https}\n\t# email admin@example.org",
        "zamek.example.org {": f"localhost:{https} {{\n\ttls internal",
        "reverse_proxy 127.0.0.1:8000": f"reverse_proxy 127.0.0.1:{zamek.url.rsplit(':', 1)[1]}",
        "output file /var/log/caddy/zamek.log": f"output file {folder / 'access.log'}",
    })
    (folder / "Caddyfile").write_text(site)
    home = {"HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"), "XDG_CONFIG_HOME": str(folder / "config")}
    with (folder / "stderr.log").open("ab") as errors:
        process = subprocess.Popen([binary, "run", "--config", str(folder / "Caddyfile"), "--adapter", "caddyfile"],
                                   env=os.environ | home, stdout=subprocess.DEVNULL, stderr=errors)
    authority = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    proxy = Proxy("caddy", https, authority, folder, process)
    try:
        wait_until(lambda: authority.exists() and healthy(proxy), "caddy", 60)  # its authority is made as it starts
        yield proxy
    finally:
        proxy.stop()


@pytest.fixture(params=["nginx", "caddy"])
def proxy(request: pytest.FixtureRequest, zamek: ServerProcess, tmp_path: Path) -> Iterator[Proxy]:
    """A fresh proxy (its limits unspent) in front of the module's ``zamek serve``."""
    with (nginx if request.param == "nginx" else caddy)(zamek, tmp_path) as running:
        yield running


# ------------------------------------------------------------------ a game through the proxy

class Listener:
    """A page's live event stream, read in a thread: each event with the moment it arrived."""

    def __init__(self, web: httpx.Client, path: str, token: str) -> None:
        self.heard: list[tuple[str, Json, float]] = []
        self.status: int | None = None
        self.thread = threading.Thread(target=self._listen, args=(web, path, token), daemon=True)
        self.thread.start()

    def _listen(self, web: httpx.Client, path: str, token: str) -> None:
        with contextlib.suppress(httpx.HTTPError), web.stream("GET", path, headers=bearer(token)) as stream:
            self.status = stream.status_code
            event = ""
            for line in stream.iter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    self.heard.append((event, json.loads(line[6:]), time.monotonic()))

    def opened(self, timeout: float) -> bool:
        """The stream has begun (its first presence event came): a change from now on reaches it."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if any(event == "presence" for event, _data, _moment in list(self.heard)):
                return True
            time.sleep(0.01)
        return False

    def change(self, revision: int, timeout: float) -> float | None:
        """When the change to ``revision`` arrived (waiting for it up to ``timeout``), or None."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for event, data, moment in list(self.heard):
                if event == "change" and data["revision"] == revision:
                    return moment
            time.sleep(0.01)
        return None


def counted(zamek: ServerProcess, route: str, method: str, status: str | None = None) -> float:
    """The requests of a route the app counted (its /metrics, read directly: every worker added up), with ``status``
    or whatever their status."""
    found = samples(httpx.get(f"{zamek.url}/metrics", timeout=10).text)
    if status is not None:
        return value(found, "zamek_http_requests_total", method=method, route=route, status=status)
    return sum(number for (name, labels), number in found.items() if name == "zamek_http_requests_total"
               and ("method", method) in labels and ("route", route) in labels)


def test_a_game_is_played_through_the_proxy_and_its_live_events_arrive(proxy: Proxy, zamek: ServerProcess) -> None:
    moves_before = counted(zamek, "/api/games/{game_id}/actions", "POST", "200")
    with proxy.client() as web, proxy.client() as listening:
        created = web.post("/api/games", json={"mode": "friend", "seat": "first"})
        assert created.status_code == 201, created.text
        game = created.json()["id"]
        joined = web.post(f"/api/games/{game}/join", json={"invite": created.json()["invite"]}).json()
        tokens = {0: created.json()["tokens"][0]["token"], 1: joined["tokens"][0]["token"]}
        listener = Listener(listening, f"/api/games/{game}/events", tokens[1])
        assert listener.opened(EVENT_SECONDS)  # else the first move could come before the stream and never reach it
        delays = []
        for _ in range(8):
            seat = web.get(f"/api/games/{game}").json()["current"]
            view = web.get(f"/api/games/{game}", headers=bearer(tokens[seat])).json()
            sent = time.monotonic()
            moved = web.post(f"/api/games/{game}/actions", headers=bearer(tokens[seat]),
                             json={"action": legal_actions(view)[0], "revision": view["revision"]})
            assert moved.status_code == 200, moved.text
            arrived = listener.change(moved.json()["revision"], EVENT_SECONDS)
            assert arrived is not None, f"the live event of revision {moved.json()['revision']} did not come through"
            delays.append(arrived - sent)
        assert listener.status == 200
        print(f"{proxy.name}: the other seat's live event came {max(delays) * 1000:.0f} ms after a move was sent, "
              "at most")

        page = web.head("/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert web.get("/healthz").json() == {"status": "ok"}
        assert web.get("/metrics").status_code == 404  # kept from the public by the proxy
        listening.close()
    assert counted(zamek, "/api/games/{game_id}/actions", "POST", "200") == moves_before + 8
    # A visitor that a proxy forwards is not the loopback: the app itself refuses it /metrics too.
    forwarded = httpx.get(f"{zamek.url}/metrics", headers={"X-Forwarded-For": "203.0.113.5"}, timeout=10)
    assert forwarded.status_code == 404
    # The app heard of the client's own address, not the proxy's (X-Forwarded-For, believed from the proxy).
    assert f'{CLIENT_ADDRESS}:0 - "POST /api/games/{game}/join HTTP/1.1" 201' in zamek.log.read_text()


def test_a_body_over_the_limit_is_refused_before_the_app_sees_it(proxy: Proxy, zamek: ServerProcess) -> None:
    with proxy.client() as web:
        answer = web.post("/api/import?from=proxy-test", content=b"x" * 3_000_000,
                          headers={"Content-Type": "application/json"})
    assert answer.status_code == 413
    assert "from=proxy-test" not in zamek.log.read_text()


# ------------------------------------------------------------------ nginx's limits

def open_stream(proxy: Proxy, path: str) -> tuple[ssl.SSLSocket, int]:
    """A live event stream opened from CLIENT_ADDRESS and left open; its status."""
    context = ssl.create_default_context(cafile=str(proxy.authority))
    raw = socket.create_connection(("127.0.0.1", proxy.port), timeout=10, source_address=(CLIENT_ADDRESS, 0))
    stream = context.wrap_socket(raw, server_hostname="localhost")
    stream.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost:{proxy.port}\r\nAccept: text/event-stream\r\n\r\n"
                   .encode())
    head = b""
    while b"\r\n" not in head:
        part = stream.recv(256)
        assert part, "the proxy closed the stream"
        head += part
    return stream, int(head.split(b" ", 2)[1])


NGINX_ONLY = pytest.mark.parametrize("proxy", ["nginx"], indirect=True)


def _sent_slowly(proxy: Proxy, start: bytes) -> ssl.SSLSocket:
    """A connection that sends the start of a request and then nothing."""
    context = ssl.create_default_context(cafile=str(proxy.authority))
    raw = socket.create_connection(("127.0.0.1", proxy.port), timeout=30, source_address=(CLIENT_ADDRESS, 0))
    connection = context.wrap_socket(raw, server_hostname="localhost")
    connection.sendall(start)
    return connection


def _closed_after(connection: ssl.SSLSocket, since: float) -> tuple[float, bytes]:
    """How long after ``since`` the proxy ended the connection, and what it sent before (nothing, or a 408)."""
    received = b""
    with contextlib.suppress(ConnectionError, ssl.SSLError):
        while part := connection.recv(4096):
            received += part
    return time.monotonic() - since, received


@NGINX_ONLY
def test_nginx_ends_a_request_whose_headers_or_body_stop_coming_after_its_10_s(proxy: Proxy, zamek: ServerProcess
                                                                              ) -> None:
    """deploy/nginx/zamek.conf's client_header_timeout and client_body_timeout (10 s): a slow client's half request
    is ended by the proxy, and the app never sees it (nginx buffers a body before it passes the request on)."""
    created = counted(zamek, "/api/games", "POST")
    assert created >= 0
    host = f"Host: localhost:{proxy.port}\r\n".encode()
    since = time.monotonic()
    half_head = _sent_slowly(proxy, b"GET /api/meta HTTP/1.1\r\n" + host)
    half_body = _sent_slowly(proxy, b"POST /api/games HTTP/1.1\r\n" + host + b"Content-Type: application/json\r\n"
                             b"Content-Length: 100\r\n\r\n{\"mode\": ")
    try:
        for connection in (half_head, half_body):
            waited, received = _closed_after(connection, since)
            assert 9.0 <= waited <= 20.0, waited
            assert received == b"" or received.startswith(b"HTTP/1.1 408"), received[:100]
    finally:
        half_head.close()
        half_body.close()
    assert counted(zamek, "/api/games", "POST") == created  # whatever it would have answered


@NGINX_ONLY
def test_nginx_answers_429_past_20_live_event_streams_from_one_address(proxy: Proxy) -> None:
    with proxy.client() as web:
        game = web.post("/api/games", json={"mode": "friend", "seat": "first"}).json()["id"]
    streams = [open_stream(proxy, f"/api/games/{game}/events") for _ in range(21)]
    try:
        assert [status for _, status in streams] == [200] * 20 + [429]
    finally:
        for stream, _ in streams:
            stream.close()


@NGINX_ONLY
def test_nginx_answers_429_past_a_burst_of_costly_requests(proxy: Proxy) -> None:
    with proxy.client() as web:
        created = [web.post("/api/games", json={"mode": "friend", "seat": "first"}) for _ in range(15)]
    statuses = [a.status_code for a in created]
    assert statuses[:11] == [201] * 11, statuses  # one, and a burst of 10 more
    assert created[-1].status_code == 429 and created[-1].headers["retry-after"] == "1"


@NGINX_ONLY
def test_nginx_answers_429_past_a_burst_of_requests_and_relents(proxy: Proxy) -> None:
    def ask(clients: int, each: int) -> list[httpx.Response]:
        def asking(_: int) -> list[httpx.Response]:
            with proxy.client() as web:
                return [web.get("/healthz") for _ in range(each)]

        with ThreadPoolExecutor(clients) as pool:
            return [answer for answers in pool.map(asking, range(clients)) for answer in answers]

    started = time.monotonic()
    answers = ask(8, 30)  # 240 requests from one address, as fast as this machine sends them
    seconds = time.monotonic() - started
    passed = sum(1 for a in answers if a.status_code == 200)
    refused = [a for a in answers if a.status_code == 429]
    assert passed + len(refused) == len(answers)
    # The burst of 60 passes at once, then 10 a second: no more.
    assert 61 <= passed <= 61 + 10 * seconds + 2, (passed, seconds)
    assert refused and all(a.headers["retry-after"] == "1" for a in refused)
    time.sleep(1.5)
    assert [a.status_code for a in ask(1, 5)] == [200] * 5  # the limit relents as time passes


def test_a_browser_speaking_http2_creates_a_game_and_gets_its_live_events(proxy: Proxy) -> None:
    # Browsers speak HTTP/2 to the proxy: the Host comes as :authority, and the page's POST carries its Origin.
    curl = [program("curl"), "-sS", "--http2", "--cacert", str(proxy.authority), "--interface", CLIENT_ADDRESS]
    created = subprocess.run([*curl, "-w", "\n%{http_version} %{http_code}", "-H", "Content-Type: application/json",
                              "-H", f"Origin: {proxy.url}", "--data", '{"mode": "friend", "seat": "first"}',
                              f"{proxy.url}/api/games"], capture_output=True, text=True, timeout=30)
    body, status = created.stdout.rsplit("\n", 1)
    assert status == "2 201", created.stdout + created.stderr
    events = subprocess.run([*curl, "-N", "--max-time", "3", f"{proxy.url}/api/games/{json.loads(body)['id']}/events"],
                            capture_output=True, text=True, timeout=30)
    assert "event: presence" in events.stdout, events.stdout + events.stderr  # then cut by --max-time
