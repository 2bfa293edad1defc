"""Expiry (issue 38, item 3): a game for friends none of whom joined is removed a day after it was made, and any
unfinished game left unchanged for a month; a finished game is kept (a record), so is one whose clock runs and one
that moves. The time is the app's clock (``WebConfig.clock``), moved by the tests. A removed game's link answers 404,
in the process that removed it and in another worker that held it in memory; a change stored after a game was
listed keeps it, and on PostgreSQL a game whose row a move holds is left alone, and one worker purges at a time."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import psycopg
import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from tests.server.test_matches import GAMES, decide, first_moves, joined, new_match, public
from tests.server.test_migration_matches import DATA, database_at_0003
from tests.server.test_migration_matches import GAMES as FIXTURE_GAMES
from tests.server.test_server_postgres import client as app_on
from tests.web_client import FakeTime, Json, WebClient, client_for
from zamek.server.db import PURGE_LOCK, Repository
from zamek.server.tables import AnalysisRow, ComputerJobRow, ExpiryLimits, ExtrasRow, SeatRow, driver_url

HOUR = 3600.0
DAY = 24 * HOUR
LIMITS = ExpiryLimits.of(24, 30)


@contextlib.contextmanager
def clocked_app(url: str, fake: FakeTime, **options: Any) -> Iterator[WebClient]:
    """An app on ``url`` reading the time ``fake``; it purges only when the test says (``purge_expired``)."""
    with app_on(url, clock=fake, purge_seconds=0, **options) as web:
        yield web


def finished(web: WebClient, game: str) -> Json:
    """A match with a friend, joined and resigned by the friend: over, a record."""
    match = new_match(web, game)
    joined(web, match)
    resigned = web.post(f"/api/games/{match['id']}/resign", json={}, headers=web.seat(match["id"], 1))
    assert resigned.status_code == 200, resigned.text
    return match


def leftovers(repo: Repository, match_id: str) -> int:
    """The rows a match's removal must take with it: its seats, extras, computer's job, analysis."""
    with Session(repo.engine) as session:
        return sum(session.scalar(sa.select(sa.func.count()).where(column == match_id)) or 0
                   for column in (SeatRow.game_id, ExtrasRow.game_id, ComputerJobRow.game_id, AnalysisRow.game_id))


def status(web: WebClient, match_id: str) -> int:
    return web.get(f"/api/games/{match_id}").status_code


@pytest.mark.parametrize("game", GAMES)
def test_a_game_for_a_friend_nobody_joined_is_removed_after_a_day_and_its_link_answers_404(any_url: str, game: str
                                                                                          ) -> None:
    fake = FakeTime()
    with clocked_app(any_url, fake) as web:
        unjoined = new_match(web, game)
        record = finished(web, game)
        playing = new_match(web, game)
        joined(web, playing)
        fake.advance(23 * HOUR)
        assert web.service.purge_expired() == []
        fake.advance(2 * HOUR)
        assert web.service.purge_expired() == [unjoined["id"]]
        assert web.service.sessions.peek(unjoined["id"]) is None  # the memory of the process forgot it
        assert status(web, unjoined["id"]) == 404
        friend = web.post(f"/api/games/{unjoined['id']}/join", json={"invite": unjoined["invite"], "name": "Olek"})
        assert friend.status_code == 404, friend.text
        assert leftovers(web.service.repo, unjoined["id"]) == 0
        # A finished game of the same age is a record, kept; a game both players have joined is not idle yet.
        assert public(web, record["id"])["over"]
        assert status(web, playing["id"]) == 200
        assert web.service.purge_expired() == []


def test_a_card_game_one_friend_has_joined_is_not_unjoined(tmp_path: Any) -> None:
    """A table for three waits for its second friend: the first came, so the game is kept until it is idle."""
    fake = FakeTime()
    with clocked_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", fake) as web:
        match = new_match(web, "knights", seats=["person", "friend", "friend"])
        joined(web, match)
        fake.advance(25 * HOUR)
        assert web.service.purge_expired() == []
        fake.advance(30 * DAY)
        assert web.service.purge_expired() == [match["id"]]


def test_an_unfinished_game_left_a_month_is_removed_but_a_finished_or_moving_one_is_kept(any_url: str) -> None:
    fake = FakeTime()
    with clocked_app(any_url, fake) as web:
        idle, active, records = {}, {}, {}
        for game in GAMES:
            idle[game], active[game] = (new_match(web, game) for _ in range(2))
            for match in (idle[game], active[game]):
                joined(web, match)
            decide(web, idle[game]["id"])
            records[game] = finished(web, game)
        fake.advance(25 * HOUR)
        for game in GAMES:
            decide(web, active[game]["id"])  # a move a day later: the month counts from it
        fake.advance(29 * DAY)  # 30 days and an hour after the idle games' last move
        assert sorted(web.service.purge_expired()) == sorted(match["id"] for match in idle.values())
        for game in GAMES:
            assert status(web, idle[game]["id"]) == 404
            assert status(web, active[game]["id"]) == 200
            assert public(web, records[game]["id"])["over"]


def test_a_game_whose_clock_runs_is_left_to_its_clock(tmp_path: Any) -> None:
    """An idle limit shorter than a correspondence clock's time for a move: the player still has time, so the game
    stays; once the clock has ended it, it is a record."""
    fake = FakeTime()
    with clocked_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", fake, expire_idle_days=3) as web:
        match = new_match(web, "castle", clock={"kind": "correspondence", "days": 7})
        joined(web, match)
        first_moves(web, match["id"])
        fake.advance(6 * DAY)
        assert web.service.purge_expired() == []
        fake.advance(2 * DAY)
        assert web.service.expire_clocks() == [match["id"]]
        assert web.service.purge_expired() == []
        assert public(web, match["id"])["ended"]["reason"] == "timeout"


def test_a_change_stored_after_the_game_was_listed_keeps_it(any_url: str) -> None:
    """The purge checks every game again as it removes it: a friend who joins between the listing and the purge
    keeps the game (and a move stored after the purge finds the game gone, refused: nothing acknowledged is lost)."""
    fake = FakeTime()
    with clocked_app(any_url, fake) as web:
        match = new_match(web, "castle")
        other = new_match(web, "knights")
        fake.advance(25 * HOUR)
        moment = round(fake() * 1000)
        listed = web.service.repo.expired(moment, LIMITS)
        assert sorted((m.id, m.unjoined) for m in listed) == sorted([(match["id"], True), (other["id"], True)])
        joined(web, match)
        assert web.service.repo.purge_expired(moment, LIMITS) == [other["id"]]
        assert status(web, match["id"]) == 200
        late = web.post(f"/api/games/{other['id']}/join", json={"invite": other["invite"]})
        assert late.status_code == 404, late.text


def test_the_running_server_purges_by_itself(tmp_path: Any) -> None:
    fake = FakeTime()
    with client_for(tmp_path / "games.sqlite3", clock=fake, purge_seconds=0.05) as web:
        match = new_match(web, "castle")
        fake.advance(25 * HOUR)
        deadline = time.monotonic() + 10
        while status(web, match["id"]) != 404:
            assert time.monotonic() < deadline, "the server did not remove the expired game"
            time.sleep(0.05)
        assert web.service.repo.get(match["id"]) is None


def test_no_limit_removes_nothing(tmp_path: Any) -> None:
    fake = FakeTime()
    with clocked_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", fake, expire_unjoined_hours=0,
                     expire_idle_days=0) as web:
        match = new_match(web, "castle")
        fake.advance(365 * DAY)
        assert web.service.purge_expired() == []
        assert status(web, match["id"]) == 200


def test_an_upgrade_counts_every_stored_game_as_active_from_then(any_url: str) -> None:
    """The versions before kept every game: an upgrade removes none at once, whenever the game last changed; the
    limits count from the upgrade."""
    database_at_0003(any_url)
    engine = sa.create_engine(driver_url(any_url))
    with engine.begin() as connection:  # every game last changed years ago
        for table in ("games", "knights_games"):
            connection.execute(sa.text(f"UPDATE {table} SET updated_at = :old"), {"old": "2020-01-01 00:00:00"})
    engine.dispose()
    repo = Repository(any_url)
    moment = round(time.time() * 1000)
    assert repo.expired(moment, LIMITS) == []
    later = {m.id: m.unjoined for m in repo.expired(moment + round(25 * HOUR * 1000), LIMITS)}
    assert later[FIXTURE_GAMES["friend_waiting"]] and later[FIXTURE_GAMES["knights_waiting"]]
    month = {m.id for m in repo.expired(moment + round(31 * DAY * 1000), LIMITS)}
    assert FIXTURE_GAMES["hotseat"] in month and FIXTURE_GAMES["knights_playing"] in month
    assert not {FIXTURE_GAMES["finished"], FIXTURE_GAMES["knights_over"], FIXTURE_GAMES["friend_clock"]} & month
    assert len(DATA["tables"]["games"]) + len(DATA["tables"]["knights_games"]) == len(repo.all())
    repo.close()


# ------------------------------------------------------------------ PostgreSQL: several workers


@pytest.mark.pg
def test_on_postgresql_a_row_a_move_holds_is_skipped_one_worker_purges_and_the_others_answer_404(pg_url: str
                                                                                               ) -> None:
    fake = FakeTime()
    conninfo = pg_url
    with clocked_app(pg_url, fake) as first, clocked_app(pg_url, fake) as second:
        moving, waiting, seen = (new_match(first, "castle") for _ in range(3))
        assert public(second, seen["id"])["id"] == seen["id"]  # the other worker holds it in memory
        fake.advance(25 * HOUR)
        # (The pool is left last: a purge kept waiting by the move fails the test instead of waiting for ever.)
        with ThreadPoolExecutor(1) as pool, psycopg.connect(conninfo) as move:
            # A move in flight: its transaction holds the game's row (and is about to store the move).
            move.execute("SELECT revision FROM matches WHERE id = %s FOR UPDATE", (moving["id"],))
            removed = pool.submit(first.service.purge_expired).result(timeout=20)
            assert sorted(removed) == sorted([waiting["id"], seen["id"]])  # not kept waiting by the move
            move.execute("UPDATE matches SET revision = revision + 1, active_ms = %s WHERE id = %s",
                         (round(fake() * 1000), moving["id"]))
            move.commit()
        assert first.service.purge_expired() == []
        assert status(first, moving["id"]) == 200
        assert status(second, seen["id"]) == 404 and second.service.sessions.peek(seen["id"]) is None

        late = new_match(first, "knights")
        fake.advance(25 * HOUR)
        with psycopg.connect(conninfo) as other_worker:
            other_worker.execute("SELECT pg_advisory_xact_lock(%s)", (PURGE_LOCK,))  # another worker is purging
            assert second.service.purge_expired() == []  # this one does not wait for it, nor purge beside it
        assert second.service.purge_expired() == [late["id"]]
