"""What a host watches (zamek.server.metrics): ``/healthz`` tells whether the database answers, the pages answer
``HEAD``, and ``/metrics`` counts requests by route template (never by raw path), games in progress, the computer's
queue and open event streams, only to the addresses allowed, and adds up the workers of ``zamek serve``."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import psycopg
import pytest
from prometheus_client.parser import text_string_to_metric_families
from tools.loadtest import descendants, start_server_process

from tests.live_server import start_server
from tests.postgres import Cluster
from tests.web_client import FakeTime, WebClient, bearer, wait_for_person, web_config
from zamek.server.app import create_app
from zamek.server.metrics import HEALTH_TIMEOUT_SECONDS, SHARED_FOLDER_VARIABLE, allowed_networks
from zamek.server.service import WebConfig

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def samples(text: str) -> Samples:
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(found: Samples, name: str, **labels: str) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


def scrape(client: WebClient | httpx.Client, base: str = "") -> Samples:
    answer = client.get(f"{base}/metrics")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return samples(answer.text)


@contextlib.contextmanager
def client_at(db: Path, address: str, **options: Any) -> Iterator[WebClient]:
    """A client of a fresh app (its lifespan run) that speaks from ``address``."""
    with WebClient(create_app(web_config(db, **options)), client=(address, 50000)) as client:
        yield client


@pytest.fixture
def local(tmp_path: Path) -> Iterator[WebClient]:
    """A client on this machine's loopback (the address /metrics is served to by default)."""
    with client_at(tmp_path / "games.sqlite3", "127.0.0.1") as client:
        yield client


# ------------------------------------------------------------------ health and HEAD

def test_healthz_answers_200_while_the_database_answers(local: WebClient) -> None:
    answer = local.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok"}  # nothing of any game
    assert answer.headers["cache-control"] == "no-store"
    assert local.head("/healthz").status_code == 200


def test_healthz_answers_503_when_the_database_is_gone(postgres: Cluster, pg_url: str) -> None:
    app = create_app(WebConfig(db_url=pg_url, bot_delay=0.0))
    with WebClient(app) as client:
        assert client.get("/healthz").status_code == 200
        with psycopg.connect(postgres.url("postgres"), autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {pg_url.rsplit('/', 1)[1]} WITH (FORCE)")  # its connections cut too
        started = time.monotonic()
        answer = client.get("/healthz")
        assert answer.status_code == 503
        assert answer.json() == {"status": "unavailable"}
        assert time.monotonic() - started < HEALTH_TIMEOUT_SECONDS + 2


@pytest.mark.parametrize("path", ["/", "/api/docs", "/healthz", "/static/app.js"])
def test_head_on_a_page_answers_as_get_does_without_the_body(local: WebClient, path: str) -> None:
    got, head = local.get(path), local.head(path)
    assert (head.status_code, got.status_code) == (200, 200)  # HEAD / was 405
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]


# ------------------------------------------------------------------ metrics

def test_requests_are_counted_by_route_template_so_no_path_makes_a_new_series(local: WebClient) -> None:
    game = local.post("/api/games", json={"mode": "friend", "seat": "first"}).json()["id"]
    for _ in range(3):
        assert local.get(f"/api/games/{game}").status_code == 200
    assert local.get("/api/games/nosuchgame").status_code == 404
    for n in range(40):
        assert local.get(f"/no/such/page/{n}").status_code == 404
    assert local.request("BREW", "/api/meta").status_code == 405
    text = local.get("/metrics").text
    found = samples(text)
    route = "/api/games/{game_id}"
    assert value(found, "zamek_http_requests_total", method="GET", route=route, status="200") == 3
    assert value(found, "zamek_http_requests_total", method="GET", route=route, status="404") == 1
    assert value(found, "zamek_http_requests_total", method="GET", route="unmatched", status="404") == 40
    assert value(found, "zamek_http_requests_total", method="other", route="/api/meta", status="405") == 1
    assert value(found, "zamek_http_request_duration_seconds_count", method="GET", route=route) == 4
    assert value(found, "zamek_http_requests_total", method="POST", route="/api/games", status="201") == 1
    assert game not in text and "/no/such" not in text and "BREW" not in text


def test_games_in_progress_and_the_computers_queue_are_read_from_the_database(tmp_path: Path) -> None:
    # No lifespan: the computer never starts, so its turn waits; the fake time says for how long.
    fake = FakeTime()
    client = WebClient(create_app(web_config(tmp_path / "games.sqlite3", clock=fake, bot_delay=1.0)),
                       client=("127.0.0.1", 50000))
    try:
        client.post("/api/games", json={"mode": "computer", "level": "beginner", "seat": "second"})
        client.post("/api/games", json={"mode": "friend", "seat": "first"})
        client.post("/api/games", json={"mode": "friend", "seat": "first"})
        found = scrape(client)
        assert value(found, "zamek_games_in_progress", kind="castle", mode="computer") == 1
        assert value(found, "zamek_games_in_progress", kind="castle", mode="friend") == 2
        assert value(found, "zamek_computer_jobs_waiting") == 0  # its pause has not run out
        fake.advance(8)
        found = scrape(client)
        assert value(found, "zamek_computer_jobs_waiting") == 1
        assert value(found, "zamek_computer_oldest_wait_seconds") == pytest.approx(7.0)
        assert value(found, "zamek_computer_jobs_thinking") == 0
        assert value(found, "zamek_database_up") == 1
    finally:
        client.close()
        client.service.close()


def test_the_computers_thinking_is_measured_for_each_reply(tmp_path: Path) -> None:
    with client_at(tmp_path / "games.sqlite3", "127.0.0.1") as client:
        game = client.post("/api/games", json={"mode": "computer", "level": "easy", "seat": "second"}).json()
        wait_for_person(client, game["id"])
        found = scrape(client)
    assert value(found, "zamek_computer_thinking_seconds_count") == 1
    assert value(found, "zamek_computer_longest_turn_seconds") > 0
    assert value(found, "zamek_computer_jobs_waiting") == value(found, "zamek_computer_jobs_thinking") == 0


def test_open_event_streams_are_counted_while_they_are_open(tmp_path: Path) -> None:
    server = start_server(tmp_path / "games.sqlite3")
    base = server.url.rstrip("/")
    try:
        with httpx.Client(timeout=10) as web:
            created = web.post(f"{base}/api/games", json={"mode": "friend", "seat": "first"}).json()
            events = f"{base}/api/games/{created['id']}/events"
            token = bearer(created["tokens"][0]["token"])
            with httpx.stream("GET", events, headers=token, timeout=10) as mine, \
                    httpx.stream("GET", events, timeout=10) as watching:
                assert (mine.status_code, watching.status_code) == (200, 200)
                found = scrape(web, base)
                assert value(found, "zamek_event_streams_open", who="seat") == 1
                assert value(found, "zamek_event_streams_open", who="spectator") == 1
            end = time.monotonic() + 10
            while time.monotonic() < end and any(value(scrape(web, base), "zamek_event_streams_open", who=who)
                                                 for who in ("seat", "spectator")):
                time.sleep(0.05)  # the server hears of the closed connections in its own time
            found = scrape(web, base)
            assert [value(found, "zamek_event_streams_open", who=w) for w in ("seat", "spectator")] == [0, 0]
    finally:
        server.stop()


def test_metrics_are_served_only_to_the_addresses_allowed(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with client_at(db, "203.0.113.7") as stranger:
        refused = stranger.get("/metrics")
        assert refused.status_code == 404
        assert refused.json() == stranger.get("/no-such-page").json()  # nothing tells that it exists
    with client_at(db, "203.0.113.7", metrics_allow_ips=("203.0.113.0/24",)) as listed:
        assert listed.get("/metrics").status_code == 200
    with client_at(db, "127.0.0.1", metrics_allow_ips=()) as nobody:
        assert nobody.get("/metrics").status_code == 404
    with client_at(db, "::ffff:127.0.0.1") as mapped:
        assert mapped.get("/metrics").status_code == 200  # the loopback, written as IPv6
    with pytest.raises(ValueError, match="not an address"):
        allowed_networks(["127.0.0.1", "localhost"])


@contextlib.contextmanager
def fresh_connection() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10, headers={"Connection": "close"}) as web:
        yield web


def counting_workers(supervisor: int) -> set[str]:
    """The processes that wrote counts into the folder the workers of a ``zamek serve`` share."""
    for pid in descendants(supervisor):
        with contextlib.suppress(OSError):
            variables = dict(v.split(b"=", 1) for v in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0") if v)
            if SHARED_FOLDER_VARIABLE.encode() in variables:
                folder = Path(variables[SHARED_FOLDER_VARIABLE.encode()].decode())
                return {p.stem.rsplit("_", 1)[1] for p in folder.glob("counter_*.db")}
    raise AssertionError("no worker has a shared folder")


def test_the_workers_of_zamek_serve_are_added_up(pg_url: str, tmp_path: Path) -> None:
    server = start_server_process(pg_url, tmp_path / "serve.log", workers=2, ready_seconds=180)  # a busy machine
    try:
        with fresh_connection() as web:  # a connection for each request: both workers answer some
            before = value(scrape(web, server.url), "zamek_http_requests_total", method="GET", route="/api/meta",
                           status="200")  # the start-up's checks
            sent = 0
            while sent < 30 or (len(counting_workers(server.pid)) < 2 and sent < 600):
                assert web.get(f"{server.url}/api/meta").status_code == 200  # the kernel picks the worker: ask
                sent += 1  # until both have answered some (uvloop's accept lets one worker win long runs)
            counts = {value(scrape(web, server.url), "zamek_http_requests_total", method="GET", route="/api/meta",
                            status="200") for _ in range(6)}
        assert counts == {before + sent}  # whichever worker answers, it tells every worker's count
        assert len(counting_workers(server.pid)) == 2  # and both workers did count some
    finally:
        server.stop()
