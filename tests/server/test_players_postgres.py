"""Players on PostgreSQL with two workers (two apps, each with its own memory, on one database): of two asking for
one name at once exactly one gets it, and a rated game's end changes the ratings once whichever worker stores it
(issue 39)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tests.server.test_players import as_player, page
from tests.server.test_server_postgres import client, race
from tests.server.test_web_online import finish_turn
from tests.web_client import FakeTime, Json, WebClient, bearer
from zamek.server.tables import RatedResultRow, RatingHistoryRow

pytestmark = pytest.mark.pg


def test_two_workers_asked_for_one_name_at_once_give_it_once(pg_url: str) -> None:
    with client(pg_url) as first, client(pg_url) as second:
        for attempt in range(5):
            answers = race([(first, "/api/players", {"name": f"Ala{attempt}"}, {}),
                            (second, "/api/players", {"name": f"ALA{attempt}"}, {})])
            assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
            assert next(a for a in answers if a.status_code == 409).json()["code"] == "name-taken"


def rated(web: WebClient, ala: str, olek: str, **options: object) -> Json:
    created = web.post("/api/games", json={"mode": "friend", "seat": "first", "rated": True} | options,
                       headers=as_player(ala)).json()
    joined = web.post(f"/api/games/{created['id']}/join", json={"invite": created["invite"]},
                      headers=as_player(olek))
    assert joined.status_code == 201, joined.text
    view: Json = joined.json()
    return finish_turn(web, finish_turn(web, view))


def counted(web: WebClient, game_id: str) -> tuple[int, int]:
    with Session(web.service.repo.engine) as session:
        results = session.scalar(select(func.count()).select_from(RatedResultRow)
                                 .where(RatedResultRow.game_id == game_id))
        history = session.scalar(select(func.count()).select_from(RatingHistoryRow)
                                 .where(RatingHistoryRow.game_id == game_id))
    return results or 0, history or 0


def test_both_players_resigning_at_once_on_two_workers_count_the_game_once(pg_url: str) -> None:
    with client(pg_url) as first, client(pg_url) as second:
        ala = first.post("/api/players", json={"name": "Ala"}).json()["token"]
        olek = first.post("/api/players", json={"name": "Olek"}).json()["token"]
        for _ in range(3):
            view = rated(first, ala, olek)
            path = f"/api/games/{view['id']}/resign"
            answers = race([(first, path, {}, bearer(ala)), (second, path, {}, bearer(olek))])
            assert sorted(a.status_code for a in answers) == [200, 409], [a.text for a in answers]
            assert counted(first, view["id"]) == (1, 2)
        ratings = page(second, "Ala")["ratings"]
        assert ratings[0]["games"] == 3 and len(ratings[0]["history"]) == 3


def test_two_workers_finding_one_clock_out_at_once_count_the_game_once(pg_url: str) -> None:
    fake = FakeTime()
    with client(pg_url, clock=fake) as first, client(pg_url, clock=fake) as second:
        ala = first.post("/api/players", json={"name": "Ala"}).json()["token"]
        olek = first.post("/api/players", json={"name": "Olek"}).json()["token"]
        view = rated(first, ala, olek, clock={"kind": "live", "minutes": 1, "increment": 0})
        fake.advance(61)
        barrier = threading.Barrier(2)
        found: list[list[str]] = []

        def look(web: WebClient) -> None:
            barrier.wait()
            found.append(web.service.expire_clocks())

        threads = [threading.Thread(target=look, args=(web,)) for web in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(len(ids) for ids in found) == [0, 1]
        assert counted(first, view["id"]) == (1, 2)
        assert page(second, "Olek")["ratings"][0]["games"] == 1


def test_two_games_of_one_player_ending_at_once_on_two_workers_both_count(pg_url: str) -> None:
    """Each end reads the player's rating and writes it back: the second waits for the first's lock, so neither
    change is lost (and two new rating rows made at once make one)."""
    with client(pg_url) as first, client(pg_url) as second:
        ala = first.post("/api/players", json={"name": "Ala"}).json()["token"]
        others = [first.post("/api/players", json={"name": name}).json()["token"] for name in ("Olek", "Ewa")]
        for _ in range(3):
            views = [rated(first, ala, other) for other in others]
            answers = race([(first, f"/api/games/{views[0]['id']}/resign", {}, bearer(others[0])),
                            (second, f"/api/games/{views[1]['id']}/resign", {}, bearer(others[1]))])
            assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
        ratings = page(second, "Ala")["ratings"]
        assert ratings[0]["games"] == 6 and len(ratings[0]["history"]) == 6
        assert [r["games"] for name in ("Olek", "Ewa") for r in page(first, name)["ratings"]] == [3, 3]
