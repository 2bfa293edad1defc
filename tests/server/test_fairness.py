"""Fair shares of a public server (issue 38, item 1): each client's limits answered with 429 and ``Retry-After``
while other clients are served, the computer's time shared between clients, hints and analyses bounded per client,
and seats' live-event streams never shut out by spectators."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

import httpx2 as httpx
import pytest
from click.testing import CliRunner

from tests.live_server import start_server
from tests.web_client import Json, WebClient, finished_record, web_config
from zamek import i18n
from zamek.server import events
from zamek.server.app import create_app
from zamek.server.computer import ComputerPlayer
from zamek.server.db import Repository
from zamek.server.fairness import PUBLIC, Fairness
from zamek.server.tables import Job
from zamek.server.throttle import address_key

A, B = "198.51.100.7", "203.0.113.9"
"""Two clients' addresses (documentation ranges)."""
HOTSEAT: Final[Json] = {"mode": "hotseat", "seed": 3}
COMPUTER_FIRST: Final[Json] = {"mode": "computer", "level": "beginner", "seat": "second"}


@contextmanager
def clients(tmp_path: Path, fairness: Fairness, *addresses: str, **options: Any) -> Iterator[list[WebClient]]:
    """Test clients of one app, each from its own address; the first runs the app's lifespan (the computer)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    app = create_app(web_config(tmp_path / "games.sqlite3", fairness=fairness, **options))
    first, *others = [WebClient(app, client=(address, 40_000)) for address in addresses]
    with first:
        yield [first, *others]
    for other in others:
        other.close()


def refusal(response: Any, code: str) -> Json:
    """A 429 of fairness: the API's error format, and a ``Retry-After`` that its message says too."""
    assert response.status_code == 429, response.text
    body: Json = response.json()
    assert (body["error"], body["code"]) == ("too-many-requests", code), body
    wait = int(response.headers["Retry-After"])
    assert wait >= 1 and body["params"]["seconds"] == wait
    return body


# ------------------------------------------------------------------ rates


def test_a_client_over_its_creation_limit_gets_429_with_retry_after_while_another_is_still_served(
        tmp_path: Path) -> None:
    with clients(tmp_path, Fairness(create="3/minute"), A, B) as (a, b):
        for _ in range(3):
            assert a.post("/api/games", json=HOTSEAT).status_code == 201
        refused = a.post("/api/games?lang=pl", json=HOTSEAT)
        body = refusal(refused, "too-many-games")
        assert int(refused.headers["Retry-After"]) <= 60
        assert "sekund" in body["message"] and refused.headers["Zamek-Api"]
        assert b.post("/api/games", json=HOTSEAT).status_code == 201  # another client is served
        knights = {"game": "knights", "seats": ["person", "person"]}
        refusal(a.post("/api/games", json=knights), "too-many-games")  # a match of either game counts


def hints_of(client: WebClient) -> Any:
    view = client.post("/api/games", json={"mode": "computer", "seed": 5}).json()
    return client.get(f"/api/games/{view['id']}/hints", headers=client.mover(view))


def join_with_a_wrong_code(client: WebClient) -> Any:
    game = client.post("/api/games", json={"mode": "friend"}).json()
    return client.post(f"/api/games/{game['id']}/join", json={"invite": "not-the-code-000", "name": "Ola"})


ASKED: Final[dict[str, tuple[str, Callable[[WebClient], Any]]]] = {
    "join": ("too-many-joins", join_with_a_wrong_code),
    "imports": ("too-many-imports", lambda c: c.post("/api/import", json={})),
    "hints": ("too-many-hints", hints_of),
    "analysis": ("too-many-analyses", lambda c: c.post("/api/analysis", json={})),
    "computer": ("too-many-computer-games", lambda c: c.post("/api/games", json={"mode": "computer", "seed": 1})),
}
"""Each rate, its refusal, and a request it counts (answered or refused for another reason: it counts all the
same)."""


@pytest.mark.parametrize("rate", list(ASKED))
def test_each_rate_refuses_the_client_over_it_and_serves_another(tmp_path: Path, rate: str) -> None:
    code, ask = ASKED[rate]
    limited: dict[str, Any] = {rate: "2/minute"}
    with clients(tmp_path, Fairness(**limited), A, B) as (a, b):
        for _ in range(2):
            assert ask(a).status_code != 429
        refusal(ask(a), code)
        assert ask(b).status_code != 429


def test_a_client_over_its_computer_games_may_still_start_a_game_of_people(tmp_path: Path) -> None:
    with clients(tmp_path, Fairness(computer="1/minute"), A) as (a,):
        assert a.post("/api/games", json={"mode": "computer"}).status_code == 201
        refusal(a.post("/api/games", json={"mode": "computer"}), "too-many-computer-games")
        refusal(a.post("/api/games", json={"game": "knights", "seats": ["person", "mc"]}), "too-many-computer-games")
        assert a.post("/api/games", json=HOTSEAT).status_code == 201


# ------------------------------------------------------- hints and analyses


def test_a_client_has_one_analysis_worked_out_at_once_and_another_client_is_not_kept_waiting(
        tmp_path: Path) -> None:
    with clients(tmp_path, Fairness(advice_at_once=1), A, B) as (a, b):
        service = a.service
        analyse = service.analyse_record
        started, release = threading.Event(), threading.Event()

        def slow(raw: Any, lang: str) -> Any:
            if not started.is_set():  # the first one takes its time
                started.set()
                release.wait(10)
            return analyse(raw, lang)

        service.analyse_record = slow  # type: ignore[method-assign]
        first: list[int] = []
        worker = threading.Thread(target=lambda: first.append(a.post("/api/analysis", json={}).status_code))
        worker.start()
        try:
            assert started.wait(10)
            refusal(a.post("/api/analysis", json={}), "advice-busy")
            view = a.post("/api/games", json={"mode": "computer", "seed": 5}).json()
            refusal(a.get(f"/api/games/{view['id']}/hints", headers=a.mover(view)), "advice-busy")
            assert b.post("/api/analysis", json={}).status_code == 400  # answered: the record is empty
        finally:
            release.set()
            worker.join(10)
        assert first == [400]
        assert a.get(f"/api/games/{view['id']}/hints", headers=a.mover(view)).status_code == 200  # done: again


def test_the_hints_and_analyses_of_all_clients_take_turns_in_the_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """They share the processor with every other request: ``advice_slots`` of them at once, the others wait (and
    are refused when they have waited too long)."""
    import zamek.server.throttle

    with clients(tmp_path, Fairness(advice_slots=1), A, B, "192.0.2.1") as everyone:
        service = everyone[0].service
        analyse = service.analyse_record
        lock = threading.Lock()
        running, most = 0, 0

        def counted(raw: Any, lang: str) -> Any:
            nonlocal running, most
            with lock:
                running += 1
                most = max(most, running)
            time.sleep(0.2)
            with lock:
                running -= 1
            return analyse(raw, lang)

        service.analyse_record = counted  # type: ignore[method-assign]
        statuses: list[int] = []

        def ask(client: WebClient) -> None:
            statuses.append(client.post("/api/analysis", json={}).status_code)

        def all_at_once() -> None:
            threads = [threading.Thread(target=ask, args=(c,)) for c in everyone]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(10)

        all_at_once()
        assert statuses == [400] * 3 and most == 1  # answered one after another
        monkeypatch.setattr(zamek.server.throttle, "ADVICE_WAIT_SECONDS", 0.05)
        statuses.clear()
        all_at_once()
        assert sorted(statuses) == [400, 429, 429]


def test_an_analysis_is_worked_out_in_a_process_of_its_own_and_is_the_same(tmp_path: Path) -> None:
    """With ``advice_slots`` an analysis's seconds of thinking never hold the web process's interpreter lock."""
    record = finished_record(7)
    with clients(tmp_path / "here", Fairness(), A) as (here,):
        expected = here.post("/api/analysis", json=record)
    with clients(tmp_path / "pool", Fairness(advice_slots=1), A) as (pooled,):
        answer = pooled.post("/api/analysis", json=record)
        assert pooled.service.advisor._pool is not None
    assert answer.status_code == expected.status_code == 200 and answer.json() == expected.json()


# ------------------------------------------------------------- the computer


def test_another_clients_computer_game_is_replied_to_before_a_flooding_clients_queue_drains(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's reply never waits behind another client's hundred: with one thinker busy with a client's twelve
    games, the next turn it begins is the other client's."""
    begun: list[str] = []
    turn = ComputerPlayer._turn

    def slow_turn(self: ComputerPlayer, job: Job) -> None:
        begun.append(job.game_id)
        time.sleep(0.15)  # a strong level's thinking
        turn(self, job)

    monkeypatch.setattr(ComputerPlayer, "_turn", slow_turn)
    with clients(tmp_path, Fairness(), A, B, bot_workers=1) as (a, b):
        flood = [a.post("/api/games", json=COMPUTER_FIRST | {"seed": n}).json()["id"] for n in range(12)]
        before = len(begun)
        mine = b.post("/api/games", json=COMPUTER_FIRST | {"seed": 99}).json()["id"]
        end = time.monotonic() + 30
        while mine not in begun and time.monotonic() < end:
            time.sleep(0.01)
        ahead = begun[before:begun.index(mine)]
        assert set(ahead) <= set(flood) and len(ahead) <= 1, (before, ahead)
        assert begun.index(mine) < len(flood)  # the flood had not drained


def test_the_computers_scheduler_sleeps_while_its_thinkers_are_busy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It looked at the jobs again at once while a turn was being thought out (a due turn it had claimed itself
    made it wait 0 s): about 1,200 reads of the database a second, taking the processor from every request."""
    reads = 0
    for name in ("waiting_jobs", "claim_jobs", "next_job_due"):
        read = getattr(Repository, name)

        def counted(self: Repository, *args: Any, _read: Callable[..., Any] = read) -> Any:
            nonlocal reads
            if threading.current_thread().name == "zamek-computer":
                reads += 1
            return _read(self, *args)

        monkeypatch.setattr(Repository, name, counted)
    think = ComputerPlayer._think

    def slow(self: ComputerPlayer, *args: Any) -> Any:
        time.sleep(1.0)
        return think(self, *args)

    monkeypatch.setattr(ComputerPlayer, "_think", slow)
    with clients(tmp_path, Fairness(), A, bot_workers=1) as (a,):
        a.post("/api/games", json=COMPUTER_FIRST | {"seed": 1})
        time.sleep(0.3)
        before = reads
        time.sleep(0.5)
        assert reads - before <= 10  # a look every POLL_SECONDS (0.1 s) at most


def test_a_client_may_have_only_so_many_games_waiting_for_the_computer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    turn = ComputerPlayer._turn

    def held_turn(self: ComputerPlayer, job: Job) -> None:
        release.wait(10)
        turn(self, job)

    monkeypatch.setattr(ComputerPlayer, "_turn", held_turn)
    with clients(tmp_path, Fairness(computer_queue=2), A, B, bot_workers=1) as (a, b):
        try:
            mine = a.post("/api/games", json={"mode": "computer", "seed": 5}).json()  # the person moves first
            for n in range(2):
                assert a.post("/api/games", json=COMPUTER_FIRST | {"seed": n}).status_code == 201
            body = refusal(a.post("/api/games", json=COMPUTER_FIRST), "computer-busy")
            assert body["params"]["limit"] == 2
            move = {"action": mine["drawn"]["places"][0]["action"], "revision": mine["revision"]}
            refusal(a.post(f"/api/games/{mine['id']}/actions", json=move, headers=a.mover(mine)), "computer-busy")
            assert a.post("/api/games", json=HOTSEAT).status_code == 201  # people's games need no computer
            assert b.post("/api/games", json=COMPUTER_FIRST).status_code == 201
        finally:
            release.set()


# ------------------------------------------------------------ live events


def open_stream(url: str, path: str, source: str, token: str | None = None) -> http.client.HTTPResponse:
    """A game's event stream from the address ``source`` (a loopback address of this machine)."""
    where = urlsplit(url)
    connection = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port, timeout=10,
                                            source_address=(source, 0))
    connection.request("GET", path, headers={"Accept": "text/event-stream"} | (
        {"Authorization": f"Bearer {token}"} if token else {}))
    return connection.getresponse()


def test_a_seats_stream_is_accepted_when_spectators_have_filled_their_share(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One client's spectators' streams on a game it made stop at its own limit; spectators together leave seats
    their reserve of the process's streams; a seat's page is served all the same."""
    monkeypatch.setattr(events, "MAX_WATCHERS", 6)
    server = start_server(tmp_path / "games.sqlite3", fairness=Fairness(spectators_per_client=3, seat_stream_reserve=2))
    try:
        with ExitStack() as opened:
            game = httpx.post(f"{server.url}api/games", json=HOTSEAT, timeout=10).json()
            path = f"/api/games/{game['id']}/events"

            def stream(source: str, token: str | None = None) -> http.client.HTTPResponse:
                response = open_stream(server.url, path, source, token)
                if response.status == 200:
                    opened.callback(response.close)
                    assert response.readline().startswith(b"retry:")
                return response

            for _ in range(3):
                assert stream("127.0.0.1").status == 200
            own = stream("127.0.0.1")
            assert own.status == 429 and int(own.getheader("Retry-After") or 0) >= 1
            assert json.loads(own.read())["code"] == "too-many-spectator-pages"
            assert stream("127.0.0.2").status == 200  # another client: the spectators' share is now full (6 - 2)
            full = stream("127.0.0.3")
            assert full.status == 429 and json.loads(full.read())["code"] == "spectators-full"
            for seat in game["tokens"]:  # the seats' pages are served from the reserve
                assert stream("127.0.0.1", seat["token"]).status == 200
    finally:
        server.stop()


def test_one_client_s_seats_streams_stop_at_its_own_limit_and_leave_the_others_theirs(tmp_path: Path) -> None:
    """A client that makes games to hold their seats' streams stops at its own limit of seats' pages (429
    ``too-many-seat-pages``), its spectators' pages counted apart; the same seats' pages from another client, and
    that client's own, are served."""
    server = start_server(tmp_path / "games.sqlite3", fairness=Fairness(seat_pages_per_client=3,
                                                                          spectators_per_client=2))
    try:
        with ExitStack() as opened:
            games = [httpx.post(f"{server.url}api/games", json=HOTSEAT, timeout=10).json() for _ in range(2)]

            def stream(game: dict[str, Any], source: str, token: str | None = None) -> http.client.HTTPResponse:
                response = open_stream(server.url, f"/api/games/{game['id']}/events", source, token)
                if response.status == 200:
                    opened.callback(response.close)
                    assert response.readline().startswith(b"retry:")
                return response

            first, second = games
            first_page = stream(first, "127.0.0.1", first["tokens"][0]["token"])
            assert first_page.status == 200
            assert stream(first, "127.0.0.1", first["tokens"][1]["token"]).status == 200
            assert stream(second, "127.0.0.1", second["tokens"][0]["token"]).status == 200
            over = stream(second, "127.0.0.1", second["tokens"][1]["token"])
            assert over.status == 429 and int(over.getheader("Retry-After") or 0) >= 1
            refusal = json.loads(over.read())
            assert refusal["code"] == "too-many-seat-pages" and "3" in refusal["message"], refusal
            assert stream(second, "127.0.0.1").status == 200  # a spectator's page: counted apart
            assert stream(second, "127.0.0.2", second["tokens"][1]["token"]).status == 200  # another client
            for seat in first["tokens"]:
                assert stream(first, "127.0.0.2", seat["token"]).status == 200
            first_page.close()  # a page closed gives its place back, once the server has seen it go
            deadline = time.monotonic() + 10
            while (again := stream(second, "127.0.0.1", second["tokens"][1]["token"])).status != 200:
                assert time.monotonic() < deadline, "the closed page's place was not given back"
                again.read()
                time.sleep(0.1)
    finally:
        server.stop()


# ---------------------------------------------------------- what it rests on


def test_a_client_is_its_address_and_an_ipv6_client_its_64_network() -> None:
    assert address_key(("203.0.113.9", 5000)) == "203.0.113.9"
    assert address_key(("2001:db8:1:2:aaaa::1", 5000)) == address_key(("2001:db8:1:2:bbbb::2", 1))
    assert address_key(("2001:db8:1:2::1", 5000)) == "2001:db8:1:2::/64"
    assert address_key(("2001:db8:1:3::1", 5000)) != address_key(("2001:db8:1:2::1", 5000))
    assert address_key(("::ffff:203.0.113.9", 1)) == "203.0.113.9"
    assert address_key(("testclient", 50000)) == "testclient" and address_key(None) == "unknown"


THROTTLED_CODES: Final = ("too-many-games", "too-many-computer-games", "too-many-joins", "too-many-imports",
                          "too-many-hints", "too-many-analyses", "computer-busy", "advice-busy", "advice-queue",
                          "spectators-full", "too-many-spectator-pages", "too-many-seat-pages", "too-many-watchers")


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_every_refusal_of_fairness_is_said_in_every_language(lang: str) -> None:
    for code in THROTTLED_CODES:
        for seconds in (1, 3, 25):
            text = i18n.say(f"server.{code}", lang, None, seconds=seconds, limit=seconds)
            assert text and "{" not in text, (code, text)


def test_zamek_play_and_serve_take_the_limits_from_options_and_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import zamek.server.server
    from zamek.cli import main

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(zamek.server.server, "serve", lambda *args, **kw: calls.append(kw))
    monkeypatch.setattr(zamek.server.server, "serve_workers", lambda **settings: calls.append(settings))
    runner = CliRunner()
    assert runner.invoke(main, ["play", "--no-browser"]).exit_code == 0
    assert calls.pop()["fairness"] == PUBLIC
    result = runner.invoke(main, ["play", "--no-browser", "--limit-hints", "off", "--computer-queue", "3"],
                           env={"ZAMEK_LIMIT_CREATE": "5/minute;50/hour"})
    assert result.exit_code == 0, result.output
    chosen = calls.pop()["fairness"]
    assert (chosen.create, chosen.hints, chosen.computer_queue, chosen.join) == (
        "5/minute;50/hour", None, 3, PUBLIC.join)
    result = runner.invoke(main, ["serve", "--db", "postgresql://x@h/db"], env={"ZAMEK_NO_LIMITS": "1"})
    assert result.exit_code == 0, result.output
    assert calls.pop()["fairness"] == Fairness()
    wrong = runner.invoke(main, ["play", "--limit-join", "often"])
    assert wrong.exit_code == 2 and "often" in wrong.output
    shown = runner.invoke(main, ["serve", "--help"]).output
    assert "ZAMEK_SPECTATORS_PER_CLIENT" in shown and "ZAMEK_SEAT_PAGES_PER_CLIENT" in shown
