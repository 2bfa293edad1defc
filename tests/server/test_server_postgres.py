"""Many processes, one truth: the app on a real PostgreSQL (and the migrations on SQLite too).

* the migrations make, from an empty database, exactly the tables the program uses; a database of the versions
  before migrations is upgraded and its games go on (the computer replies, clocks run, Rycerze i zamki moves);
* two workers (two apps, each with its own memory) racing on every move of a whole game: exactly one wins
  each race, the other answers 409 ``stale``, and the stored game holds exactly the winning moves;
* live events cross processes through LISTEN/NOTIFY: a move made through one worker reaches a page streaming
  from another, and so does who is connected;
* ``zamek serve`` with two workers: ``kill -9`` of workers in mid-game loses no acknowledged move, and a game
  against the computer finishes while its workers and their computer pools are killed again and again.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import OperationalError
from tools.loadtest import ServerProcess, descendants, legal_actions, start_server_process

from tests.helpers import FIXTURES
from tests.live_server import Server, start_server
from tests.postgres import Cluster
from tests.web_client import Json, WebClient, bearer, legacy_castle, wait_for_person
from zamek.castle import record as records
from zamek.server import tables
from zamek.server.app import create_app
from zamek.server.db import Repository
from zamek.server.migrate import config, current, head
from zamek.server.service import WebConfig
from zamek.server.statements import Prepared
from zamek.server.tables import Base, Extras, driver_url


@contextlib.contextmanager
def client(url: str, **options: Any) -> Iterator[WebClient]:
    app = create_app(WebConfig(db_url=url, **({"bot_delay": 0.0} | options)))
    with WebClient(app) as web:
        yield web


# ------------------------------------------------------------------ migrations

def test_the_migrations_make_from_an_empty_database_the_tables_the_program_uses(any_url: str) -> None:
    engine = create_engine(driver_url(any_url))
    with engine.begin() as connection:
        command.upgrade(config(connection), "head")  # the migrations themselves, not the shortcut for new databases
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []
    assert current(engine) == head()
    engine.dispose()


def previous_schema(url: str) -> None:
    """Make the tables as the versions before migrations made them (no Alembic version table)."""
    dialect = "postgresql" if url.startswith("postgresql") else "sqlite"
    ddl = (FIXTURES / f"schema-before-migrations.{dialect}.sql").read_text()
    engine = create_engine(driver_url(url))
    with engine.begin() as connection:
        for statement in ddl.split(";"):
            lines = [line for line in statement.splitlines() if not line.startswith("--")]
            if "".join(lines).strip():
                connection.execute(text("\n".join(lines)))
    engine.dispose()


OLD_COLUMNS = {
    "games": "id, created_at, updated_at, mode, level, human, seed, setup, moves, status, scores, turn, revision",
    "knights_games": "id, created_at, updated_at, seats, seed, setup, moves, status, points, round",
    "seats": "game_id, seat, player, token_digest, invite_digest, name, joined_at",
    "game_extras": "game_id, clock, ended, rematch, to_move",
}
NOW_READ = {
    "games": f"SELECT {OLD_COLUMNS['games']} FROM matches WHERE kind = 'castle'",
    "knights_games": "SELECT id, created_at, updated_at, players, seed, setup, moves, status, scores, turn "
                     "FROM matches WHERE kind = 'knights'",
}
"""Where the program of today keeps what the previous schema's tables held (one table of matches)."""


def copy_old_columns(source: str, target: str) -> None:
    """Copy the rows of the tables of the previous schema (their columns only) from a database of today's schema
    to one of the previous schema."""
    read, write = create_engine(driver_url(source)), create_engine(driver_url(target))
    with read.connect() as old, write.begin() as new:
        for table, columns in OLD_COLUMNS.items():
            names = [c.strip() for c in columns.split(",")]
            query = NOW_READ.get(table, f"SELECT {columns} FROM {table}")
            rows = [dict(zip(names, row, strict=True)) for row in old.execute(text(query))]
            for row in rows:
                for key in ("setup", "moves", "scores", "seats", "points", "clock", "ended"):
                    if key in row and not isinstance(row[key], str | type(None)):
                        row[key] = json.dumps(row[key])
            if rows:
                marks = ", ".join(f":{n}" for n in names)
                new.execute(text(f"INSERT INTO {table} ({columns}) VALUES ({marks})"), rows)
    read.dispose()
    write.dispose()


def test_a_database_of_the_previous_schema_is_upgraded_and_its_games_go_on(any_url: str, tmp_path: Path) -> None:
    # Games as the previous version left them: the computer to move, a clock running, a card game under way.
    made = f"sqlite:///{tmp_path / 'made.sqlite3'}"
    with client(made, bot_delay=3600) as web:
        view = web.post("/api/games", json={"mode": "computer", "level": "beginner", "seat": "first"}).json()
        view = web.post(f"/api/games/{view['id']}/actions", headers=web.mover(view),
                        json={"action": legal_actions(view)[0], "revision": view["revision"]}).json()
        while view["human_to_act"]:  # a question after the placement
            view = web.post(f"/api/games/{view['id']}/actions", headers=web.mover(view),
                            json={"action": legal_actions(view)[0], "revision": view["revision"]}).json()
        computer_game = view["id"]
        assert view["thinking"]
        friend = web.post("/api/games", json={"mode": "friend", "seat": "first",
                                              "clock": {"kind": "live", "minutes": 5, "increment": 3}}).json()
        view = web.post(f"/api/games/{friend['id']}/join", json={"invite": friend["invite"]}).json()
        for _ in range(2):  # a fair start: the clocks wait for both players' first moves
            assert view["clock"]["running"] is None
            player = view["current"]
            while view["current"] == player:
                view = web.post(f"/api/games/{friend['id']}/actions", headers=web.seat(friend["id"], player),
                                json={"action": legal_actions(view)[0], "revision": view["revision"]}).json()
        assert view["clock"]["running"] == 0
        knights = web.post("/api/games", json={"game": "knights", "seats": ["person", "friend"]}).json()
        web.post(f"/api/games/{knights['id']}/join", json={"invite": knights["invite"]}).raise_for_status()
        tokens = web.tokens
    previous_schema(any_url)
    copy_old_columns(made, any_url)

    with client(any_url) as web:
        web.tokens = tokens
        assert current(web.service.repo.engine) == head()
        view = wait_for_person(web, computer_game)  # its turn became a job: the computer replies
        assert view["human_to_act"] and view["moves_count"] > 2
        snapshot = web.service.repo.snapshot(friend["id"])
        assert snapshot is not None
        _stored, extras, _seats = snapshot
        assert extras.deadline_ms is not None and extras.deadline_ms > time.time() * 1000
        stored = web.service.repo.get(knights["id"])
        assert stored is not None and stored.revision == len(stored.moves) + 1  # its moves and the friend who joined
        knights_view = web.get(f"/api/games/{knights['id']}", headers=web.seat(knights["id"], 0)).json()
        assert knights_view["revision"] == stored.revision
        lobby = web.lobby()
        assert {g["id"] for g in lobby["castle"]} >= {computer_game, friend["id"]}
        assert web.get(f"/api/games/{friend['id']}").json()["hints"] is False  # nobody agreed to hints then


def test_the_agreement_to_hints_and_a_stored_analysis_round_trip(any_url: str, monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    from tests.web_client import finished_record
    from zamek.castle import analysis as judging

    with client(any_url) as web:
        friend = web.post("/api/games", json={"mode": "friend", "seat": "first", "hints": True}).json()
        web.post(f"/api/games/{friend['id']}/join", json={"invite": friend["invite"]}).raise_for_status()
        record = finished_record(4)
        game = web.post("/api/import", json=record).json()
        first = web.get(f"/api/games/{game['id']}/analysis")
        assert first.status_code == 200, first.text
        tokens = web.tokens
    monkeypatch.setattr(judging, "analyse", lambda *_args, **_kwargs: pytest.fail("analysed again"))
    with client(any_url) as web:  # another app: everything read back from the database
        web.tokens = tokens
        assert web.get(f"/api/games/{friend['id']}").json()["hints"] is True
        assert web.get(f"/api/games/{friend['id']}/hints", headers=web.seat(friend["id"], 0)).status_code == 200
        stored = web.service.repo.analyses.get(game["id"])
        assert stored is not None and stored.moves == len(record["moves"])
        # As stored, but for the words and a best move that is the move played with a symmetric tile turned
        # another way (the answer shows the move played as the best).
        shown = first.json()["decisions"]
        assert [{k: v for k, v in d.items() if k != "best"} for d in stored.analysis["decisions"]] == [
            {k: v for k, v in d.items() if not k.endswith(("_words", "_messages")) and k != "best"} for d in shown]
        assert all(d["best"] in (s["best"], s["played"]) for s, d in zip(stored.analysis["decisions"], shown,
                                                                          strict=True))
        again = web.get(f"/api/games/{game['id']}/analysis")
        assert again.status_code == 200 and again.json() == first.json()


# -------------------------------------------------------------- two workers

def race(posts: list[tuple[WebClient, str, dict[str, Any], dict[str, str]]]) -> list[httpx.Response]:
    """Send the requests at the same moment, each from its own thread."""
    barrier = threading.Barrier(len(posts))
    answers: list[httpx.Response | None] = [None] * len(posts)

    def send(i: int) -> None:
        web, path, body, headers = posts[i]
        barrier.wait()
        answers[i] = web.post(path, json=body, headers=headers)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(posts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [a for a in answers if a is not None]


@contextlib.contextmanager
def statements_run(engine: Engine) -> Iterator[list[str]]:
    """The statements the database is sent meanwhile, each on one line: on PostgreSQL as SQLAlchemy sends them; on
    SQLite as SQLite itself runs them (its trace, set on each connection lent: the server also runs statements on
    the driver's own cursor, and SQLite's transactions show)."""
    statements: list[str] = []

    def keep(statement: str) -> None:
        statements.append(" ".join(statement.split()))

    def sent(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        keep(statement)

    def lent(dbapi_connection: Any, *_rest: object) -> None:
        dbapi_connection.set_trace_callback(keep)

    def returned(dbapi_connection: Any, *_rest: object) -> None:
        dbapi_connection.set_trace_callback(None)

    listeners = ([(engine, "before_cursor_execute", sent)] if engine.dialect.name == "postgresql"
                 else [(engine.pool, "checkout", lent), (engine.pool, "checkin", returned)])
    for target, name, listener in listeners:
        event.listen(target, name, listener)
    try:
        yield statements
    finally:
        for target, name, listener in listeners:
            event.remove(target, name, listener)


def test_a_move_from_a_page_at_the_revision_in_memory_asks_the_database_only_to_store_it(any_url: str) -> None:
    """No round trip to ask for the match's revision when the page's is the one in memory (the compare-and-set
    guards the move: test_two_workers_racing...); on PostgreSQL the move is stored in one statement with its extras,
    its job and its notification; on SQLite in one transaction of three statements."""
    with client(any_url) as web:
        view = web.post("/api/games", json={"mode": "hotseat", "seed": 77}).json()
        game, engine = view["id"], web.service.repo.engine
        statements: list[str] = []
        moves = 0
        while moves < 12:
            if view["phase"] == "draw":
                view = web.post(f"/api/games/{game}/draw", json={"revision": view["revision"]},
                                headers=web.mover(view)).json()
                continue
            with statements_run(engine) as run:
                answer = web.post(f"/api/games/{game}/actions", headers=web.mover(view),
                                  json={"action": legal_actions(view)[0], "revision": view["revision"]})
            statements += run
            assert answer.status_code == 200, answer.text
            view = answer.json()
            moves += 1
        writes = [q for q in statements if not q.startswith("SELECT")]  # the server's watches read meanwhile
        assert not [q for q in statements if "FROM matches" in q and "revision" in q.split("FROM")[0]], statements
        if any_url.startswith("postgresql"):
            assert len(writes) == moves and all(q.startswith("WITH moved AS") for q in writes), writes
        else:
            one = ["BEGIN", "UPDATE matches", "INSERT INTO game_extras", "DELETE FROM computer_jobs", "COMMIT"]
            assert [" ".join(q.split(" ")[:2]) if q != "BEGIN" else q for q in writes] == [
                " ".join(w.split(" ")[:2]) for w in one] * moves, writes
        stored = web.service.repo.get(game)
        assert stored is not None and stored.revision == view["revision"]
        records.replay(web.get(f"/api/games/{game}/record").json())  # the stored moves replay


def test_a_move_stored_from_a_revision_not_the_match_s_is_refused_and_changes_nothing(any_url: str) -> None:
    """The plain move's own way of storing (one statement on PostgreSQL, the driver's cursor on SQLite) keeps the
    compare-and-set: a change from an older revision is "stale", one to a deleted match "gone", and neither writes."""
    repo = Repository(any_url)
    try:
        legacy_castle(repo, "g1", "friend", None)
        assert repo.save("g1", 0, ["draw:Z19"], "playing", [0, 0], 1, extras=Extras(to_move=1)) == "stored"
        assert repo.save("g1", 0, ["draw:Z19", "x"], "over", [5, 5], 2, extras=Extras(to_move=0)) == "stale"
        stored, extras, _seats = repo.snapshot("g1") or pytest.fail("the match is gone")
        assert (stored.revision, stored.moves, stored.status, stored.scores, extras.to_move) == (
            1, ["draw:Z19"], "playing", [0, 0], 1)
        assert repo.save("g1", 1, ["draw:Z19", "d3/0"], "playing", [0, 2], 2, extras=Extras(to_move=0)) == "stored"
        assert repo.delete("g1")
        assert repo.save("g1", 2, ["draw:Z19", "d3/0", "x"], "playing", [0, 2], 3, extras=Extras()) == "gone"
        assert repo.get("g1") is None and repo.snapshot("g1") is None
    finally:
        repo.close()


def test_a_move_that_fails_half_way_on_sqlite_stores_none_of_it_and_fails_as_sqlalchemy_does(tmp_path: Path) -> None:
    """The move on SQLite's own cursor is one transaction: its extras failing undoes its compare-and-set, and the
    error is SQLAlchemy's (the computer's player tries a turn again on those, and takes others for a bug)."""
    path = tmp_path / "games.sqlite3"
    repo = Repository(f"sqlite:///{path}")
    try:
        legacy_castle(repo, "g1", "friend", None)
        with contextlib.closing(sqlite3.connect(path)) as other:
            other.execute("ALTER TABLE game_extras RENAME TO game_extras_away")
        with pytest.raises(OperationalError, match="game_extras"):
            repo.save("g1", 0, ["draw:Z19"], "playing", [0, 0], 1, extras=Extras(to_move=1))
        stored = repo.get("g1")
        assert stored is not None and (stored.revision, stored.moves) == (0, [])
    finally:
        repo.close()


def test_a_move_on_an_in_memory_database_is_stored_whole_while_another_thread_reads(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``sqlite://`` is one connection shared by the threads, and a connection lent back is rolled back: a read that
    ended between a move's statements would undo the first while the rest committed. Reads wait for the move."""
    repo = Repository("sqlite://")
    try:
        legacy_castle(repo, "g1", "friend", None)
        parameters = Prepared.parameters
        reads: list[threading.Thread] = []

        def read_meanwhile(statement: Prepared, values: Any) -> tuple[Any, ...]:
            if "INSERT INTO game_extras" in statement.sql:  # the row's compare-and-set has run
                reads.append(threading.Thread(target=repo.get, args=("g1",)))
                reads[-1].start()
                reads[-1].join(0.5)  # a read that does not wait for the move ends here
            return parameters(statement, values)

        monkeypatch.setattr(Prepared, "parameters", read_meanwhile)
        assert repo.save("g1", 0, ["draw:Z19"], "playing", [0, 0], 1, extras=Extras(to_move=1)) == "stored"
        monkeypatch.undo()
        assert reads
        reads[0].join(10)
        stored, extras, _seats = repo.snapshot("g1") or pytest.fail("the match is gone")
        assert (stored.revision, stored.moves, extras.to_move) == (1, ["draw:Z19"], 1)
    finally:
        repo.close()


@pytest.mark.long(50)
def test_two_workers_racing_on_every_move_of_a_whole_game_store_exactly_the_winners(pg_url: str) -> None:
    rng = random.Random(5)
    with client(pg_url) as first, client(pg_url) as second:
        view = first.post("/api/games", json={"mode": "hotseat", "seed": 77}).json()
        game = view["id"]
        second.tokens = first.tokens
        won: list[str] = []
        races = 0
        while not view["over"]:
            if view["phase"] == "draw":
                path, body = f"/api/games/{game}/draw", {"revision": view["revision"]}
            else:
                path, body = f"/api/games/{game}/actions", {"action": rng.choice(legal_actions(view)),
                                                            "revision": view["revision"]}
            headers = first.mover(view)
            answers = race([(first, path, body, headers), (second, path, body, headers)])
            codes = sorted(a.status_code for a in answers)
            assert codes == [200, 409], [a.text for a in answers]
            assert next(a for a in answers if a.status_code == 409).json()["error"] == "stale"
            view = next(a for a in answers if a.status_code == 200).json()
            won.append(body.get("action", "draw"))
            races += 1
            # Each worker shows the game as stored, whichever won.
            assert second.get(f"/api/games/{game}").json()["revision"] == view["revision"]
            assert first.get(f"/api/games/{game}").json()["revision"] == view["revision"]
        stored = first.service.repo.get(game)
        assert stored is not None and stored.revision == races
        placed = [m for m in stored.moves if not m.startswith(("draw", "reveal"))]
        assert placed == [m for m in won if m != "draw"]
        records.replay(first.get(f"/api/games/{game}/record").json())  # the stored game replays to its end


def test_two_workers_racing_on_the_choices_of_rycerze_i_zamki_store_one(pg_url: str) -> None:
    with client(pg_url) as first, client(pg_url) as second:
        created = first.post("/api/games", json={"game": "knights", "seats": ["person", "friend"]}).json()
        game = created["id"]
        first.post(f"/api/games/{game}/join", json={"invite": created["invite"]}).raise_for_status()
        second.tokens = first.tokens
        races = 0
        for _ in range(6):
            view = first.get(f"/api/games/{game}", headers=first.seat(game, 0)).json()
            if view["phase"] == "over":
                break
            seat = view["current"]
            mine = first.get(f"/api/games/{game}", headers=first.seat(game, seat)).json()
            body = {"action": mine["legal"][0], "revision": mine["revision"]}
            answers = race([(web, f"/api/games/{game}/actions", body, web.seat(game, seat))
                            for web in (first, second)])
            assert sorted(a.status_code for a in answers) == [200, 409], [a.text for a in answers]
            assert next(a for a in answers if a.status_code == 409).json()["error"] == "stale"
            races += 1
        stored = first.service.repo.get(game)
        assert stored is not None and races == 6
        assert sum(1 for m in stored.moves if m.startswith(("play:", "recruit:"))) == races  # one choice a race
        for web in (first, second):
            assert web.get(f"/api/games/{game}", headers=web.seat(game, 0)).json()["revision"] == stored.revision


def test_a_move_through_one_worker_reaches_a_page_streaming_from_another(pg_url: str) -> None:
    """The pages ask for views in their events: the other seat's brings it, the mover's own does not (the move's
    answer did), though the move was made through the other worker (the notification names the seat)."""
    one, other = start_server(pg_url), start_server(pg_url)
    try:
        created = httpx.post(f"{one.url}api/games", json={"mode": "friend", "seat": "first"}).json()
        game, mine = created["id"], created["tokens"][0]["token"]
        joined = httpx.post(f"{other.url}api/games/{game}/join", json={"invite": created["invite"]}).json()
        theirs = joined["tokens"][0]["token"]
        heard: list[tuple[str, Json, str]] = []

        def listen(server: Server, token: str) -> None:
            with contextlib.suppress(httpx.HTTPError), httpx.stream(
                    "GET", f"{server.url}api/games/{game}/events?view=true", headers=bearer(token), timeout=20
            ) as stream:
                event = ""
                for line in stream.iter_lines():
                    if line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("data: "):
                        heard.append((event, json.loads(line[6:]), token))

        for server, token in ((one, mine), (other, theirs)):
            threading.Thread(target=listen, args=(server, token), daemon=True).start()
        view = httpx.get(f"{one.url}api/games/{game}").json()
        end = time.monotonic() + 20
        while time.monotonic() < end and not all(s["connected"] for s in view["seats"]):
            time.sleep(0.05)  # seat 2's page streams from the other worker: this one hears of it
            view = httpx.get(f"{one.url}api/games/{game}").json()
        assert [s["connected"] for s in view["seats"]] == [True, True]
        mover = mine if view["current"] == 0 else theirs
        assert mover == mine  # the creator's seat moves first: its page streams from the worker not moved through
        moved = httpx.post(f"{other.url}api/games/{game}/actions", headers=bearer(mover),
                           json={"action": legal_actions(view)[0], "revision": view["revision"]})
        assert moved.status_code == 200, moved.text
        revision = moved.json()["revision"]
        end = time.monotonic() + 10
        while time.monotonic() < end and [d["revision"] for e, d, _ in heard if e == "change"].count(revision) < 2:
            time.sleep(0.02)  # both pages' streams: each arrives in its own time
        changes = {token: d for e, d, token in heard if e == "change" and d["revision"] == revision}
        assert changes.keys() == {mine, theirs}  # both pages, the one streaming from the other worker included
        assert "view" not in changes[mine]
        assert changes[theirs]["view"] == httpx.get(f"{other.url}api/games/{game}", headers=bearer(theirs)).json()
    finally:
        one.stop()
        other.stop()


# ------------------------------------------------------- the database restarted

def test_a_running_app_s_pooled_connections_are_replaced_after_the_database_server_restarts(
        postgres: Cluster, monkeypatch: pytest.MonkeyPatch) -> None:
    """A connection that sat idle in the pool past PING_AFTER_IDLE_SECONDS is asked whether it is alive before it is
    lent; one used a moment before the restart fails its statement once, and then every pooled one is replaced."""
    own = Cluster(postgres.bindir)  # restarting the shared cluster would cut the other tests' connections
    try:
        repo = Repository(own.new_database())
        game = "restart1"
        legacy_castle(repo, game, "hotseat", None)
        assert repo.revision(game) == 0  # its connection now waits in the pool
        own.restart()
        monkeypatch.setattr(tables, "PING_AFTER_IDLE_SECONDS", 0.0)  # idle long enough: asked, replaced, read
        assert repo.revision(game) == 0
        assert repo.revision(game) == 0
        monkeypatch.setattr(tables, "PING_AFTER_IDLE_SECONDS", 3600.0)  # used a moment ago: lent without asking
        own.restart()
        with pytest.raises(OperationalError):
            repo.revision(game)
        assert repo.revision(game) == 0
        repo.close()
    finally:
        own.stop()


# ---------------------------------------------------------------- zamek serve

@contextlib.contextmanager
def serving(url: str, log: Path, *options: str) -> Iterator[ServerProcess]:
    server = start_server_process(url, log, workers=2, options=options, ready_seconds=180)  # beside the long tests
    try:
        yield server
    finally:
        server.stop()


def workers_of(server: ServerProcess) -> list[int]:
    """The uvicorn worker processes (the supervisor's children, but for multiprocessing's resource tracker)."""
    children = [int(p) for p in Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()]
    return [pid for pid in children if b"resource_tracker" not in cmdline(pid)]


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def wait_for_workers(server: ServerProcess, count: int, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with contextlib.suppress(httpx.HTTPError):
            if len(workers_of(server)) == count and httpx.get(f"{server.url}/api/meta", timeout=2).status_code == 200:
                return
        time.sleep(0.1)
    raise AssertionError(f"the server has not {count} workers again")


class Person:
    """A seat that plays random legal moves through a server whose workers die, retrying what a dying worker did
    not answer, and keeping every acknowledged move."""

    def __init__(self, url: str, game: str, tokens: dict[int, str], seed: int) -> None:
        self.url, self.game, self.tokens = url, game, tokens
        self.rng = random.Random(seed)
        self.acked: list[tuple[int, str]] = []

    def view(self) -> Json:
        for _ in range(100):
            with contextlib.suppress(httpx.HTTPError):
                answer = httpx.get(f"{self.url}/api/games/{self.game}", timeout=10)
                if answer.status_code == 200:
                    view: Json = answer.json()
                    return view
            time.sleep(0.1)
        raise AssertionError("the server does not answer")

    def move(self, view: Json) -> None:
        seat = view["human"] if view["mode"] == "computer" else view["current"]
        action = self.rng.choice(legal_actions(view))
        try:
            answer = httpx.post(f"{self.url}/api/games/{self.game}/actions", timeout=10,
                                json={"action": action, "revision": view["revision"]},
                                headers=bearer(self.tokens[seat]))
        except httpx.HTTPError:
            return  # the worker died with the request: stored or not, the next view tells
        if answer.status_code == 200:
            self.acked.append((view["moves_count"], action))
        else:
            assert answer.status_code == 409, answer.text  # stale: the move was made on a view that is old

    def check_every_acknowledged_move_is_stored(self) -> Json:
        record: Json = httpx.get(f"{self.url}/api/games/{self.game}/record", timeout=10).json()
        for before, action in self.acked:
            assert record["moves"][before] == action
        return record


def kill_one(server: ServerProcess, rng: random.Random, pools_too: bool = False) -> None:
    victims = [p for p in descendants(server.pid) if b"resource_tracker" not in cmdline(p)] if pools_too \
        else workers_of(server)
    if victims:
        with contextlib.suppress(ProcessLookupError):
            os.kill(rng.choice(victims), signal.SIGKILL)


@pytest.mark.long(120)
def test_kill_9_of_workers_in_mid_game_loses_no_acknowledged_move(pg_url: str, tmp_path: Path) -> None:
    rng = random.Random(3)
    with serving(pg_url, tmp_path / "serve.log") as server:
        wait_for_workers(server, 2)
        created = httpx.post(f"{server.url}/api/games", json={"mode": "friend", "seat": "first"}).json()
        joined = httpx.post(f"{server.url}/api/games/{created['id']}/join", json={"invite": created["invite"]}).json()
        tokens = {0: created["tokens"][0]["token"], 1: joined["tokens"][0]["token"]}
        person = Person(server.url, created["id"], tokens, 11)
        kills = 0
        for step in range(60):
            view = person.view()
            if view["over"]:
                break
            if step % 6 == 5:  # a worker dies while a move is on its way
                threading.Timer(0.002, kill_one, (server, rng)).start()
                kills += 1
            person.move(view)
        assert kills >= 5 and len(person.acked) >= 40
        wait_for_workers(server, 2)  # uvicorn started the dead ones again
        person.check_every_acknowledged_move_is_stored()


class CardPlayer(Person):
    """The people's seats of a game of Rycerze i zamki, choosing through a server whose workers die."""

    def seat_view(self, seat: int) -> Json | None:
        with contextlib.suppress(httpx.HTTPError):
            answer = httpx.get(f"{self.url}/api/games/{self.game}", headers=bearer(self.tokens[seat]), timeout=10)
            if answer.status_code == 200:
                view: Json = answer.json()
                return view
        return None

    def move(self, view: Json) -> None:
        seat = view["person_to_act"]
        mine = self.seat_view(seat)
        if mine is None or mine["revision"] != view["revision"]:
            return
        action = self.rng.choice(mine["legal"])
        try:
            answer = httpx.post(f"{self.url}/api/games/{self.game}/actions", timeout=10,
                                json={"action": action, "revision": mine["revision"], "seat": seat},
                                headers=bearer(self.tokens[seat]))
        except httpx.HTTPError:
            return
        if answer.status_code == 200:
            self.acked.append((mine["moves_count"], action))
        else:
            assert answer.status_code == 409, answer.text


@pytest.mark.long(75)
def test_a_card_game_with_a_computer_seat_finishes_while_workers_are_killed(pg_url: str, tmp_path: Path) -> None:
    """Rycerze i zamki on two workers: its computer seat chooses as a job with a lease; workers (and their computer
    pools) die again and again; no acknowledged choice is lost and the game finishes."""
    rng = random.Random(6)
    with serving(pg_url, tmp_path / "serve.log", "--computer-lease", "2") as server:
        wait_for_workers(server, 2)
        created = httpx.post(f"{server.url}/api/games",
                             json={"game": "knights", "seats": ["person", "friend", "heuristic"]}).json()
        joined = httpx.post(f"{server.url}/api/games/{created['id']}/join", json={"invite": created["invite"]}).json()
        player = CardPlayer(server.url, created["id"], {0: created["tokens"][0]["token"],
                                                        1: joined["tokens"][0]["token"]}, 13)
        kills = 0
        end = time.monotonic() + 300
        view = player.view()
        step = 0
        while not view["over"] and time.monotonic() < end:
            if view["person_to_act"] is None:
                time.sleep(0.05)
            else:
                if step % 2 == 1:  # a worker (or a computer pool's process) dies while a choice is on its way
                    threading.Timer(0.002, kill_one, (server, rng, True)).start()
                    kills += 1
                step += 1
                player.move(view)
            view = player.view()
        assert view["over"], "the card game did not finish"
        assert kills >= 5 and len(player.acked) >= 10
        wait_for_workers(server, 2)
        player.check_every_acknowledged_move_is_stored()


@pytest.mark.long(110)
def test_a_game_against_the_computer_finishes_while_workers_are_killed_and_restarted(
        pg_url: str, tmp_path: Path) -> None:
    rng = random.Random(4)
    # A pause before each reply: the compiled computer plays so fast that the game would end before a dozen deaths.
    with serving(pg_url, tmp_path / "serve.log", "--computer-delay", "0.4", "--computer-lease", "2") as server:
        wait_for_workers(server, 2)
        created = httpx.post(f"{server.url}/api/games",
                             json={"mode": "computer", "level": "easy", "seat": "first"}).json()
        person = Person(server.url, created["id"], {created["human"]: created["tokens"][0]["token"]}, 12)
        killing = threading.Event()
        kills: list[float] = []

        def killer() -> None:
            # A dozen deaths in the first part of the game, each once the server has had a moment to come back.
            while len(kills) < 12 and not killing.wait(rng.uniform(1.0, 3.0)):
                kill_one(server, rng, pools_too=True)  # a web worker, or a process of a computer pool
                kills.append(time.monotonic())

        threading.Thread(target=killer, daemon=True).start()
        end = time.monotonic() + 300
        try:
            view = person.view()
            while not view["over"] and time.monotonic() < end:
                if view["human_to_act"]:
                    person.move(view)
                else:
                    time.sleep(0.05)
                view = person.view()
        finally:
            killing.set()
        assert view["over"], "the game against the computer did not finish"
        assert len(kills) >= 6, "the game ended before the workers were killed often"
        wait_for_workers(server, 2)
        record = person.check_every_acknowledged_move_is_stored()
        assert records.replay(record).is_over()
