"""Open challenges and quick pairing (issue 39 item 2): a player posts a challenge, anyone else accepts it and both
are seated at once (exactly one of several accepting wins, on SQLite and on PostgreSQL with two workers); withdrawn by
its poster, gone a minute after its poster's page; quick pairing pairs two waiting players, the closest ratings first,
exactly once when they ask at once; rate limits per address and per player; the lobby's live events."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tests.live_server import Server, start_server
from tests.server.test_players import as_player, make_player
from tests.server.test_server_postgres import client as pg_client
from tests.server.test_server_postgres import race
from tests.server.test_web_online import EventStream
from tests.web_client import FakeTime, Json, WebClient, bearer, client_for
from zamek.server.challenges import EXPIRES_MS
from zamek.server.fairness import Fairness
from zamek.server.tables import MatchRow, PlayerRatingRow, PlayerRow, RatedResultRow, now

CASUAL: Json = {"game": "castle", "rules": "zamek", "clock": {"kind": "live", "minutes": 10, "increment": 5}}


def post(client: WebClient, token: str, status: int = 201, **body: Any) -> Json:
    answer = client.post("/api/challenges", json=CASUAL | body, headers=as_player(token))
    assert answer.status_code == status, answer.text
    posted: Json = answer.json()
    return posted


def accept(client: WebClient, token: str, challenge: str, status: int = 201) -> Json:
    answer = client.post(f"/api/challenges/{challenge}/accept", headers=as_player(token))
    assert answer.status_code == status, answer.text
    body: Json = answer.json()
    return body


def open_ids(client: WebClient, token: str | None = None) -> list[str]:
    answer = client.get("/api/challenges", headers=as_player(token) if token else {})
    assert answer.status_code == 200, answer.text
    return [c["id"] for c in answer.json()["challenges"]]


def play_now(client: WebClient, token: str, status: int, **body: Any) -> Json:
    answer = client.post("/api/pairing", json=CASUAL | body, headers=as_player(token))
    assert answer.status_code == status, answer.text
    pairing: Json = answer.json()
    return pairing


def rate(client: WebClient, token: str, rating: float, game: str = "castle", clock: str = "live") -> None:
    """Give the player of ``token`` an established rating (as if they had played rated games)."""
    name = client.get("/api/players/me", headers=as_player(token)).json()["name"]
    with client.service.repo.transaction() as session:
        player_id = session.scalars(select(PlayerRow.id).where(PlayerRow.name == name)).one()
        session.merge(PlayerRatingRow(player_id=player_id, game=game, clock=clock, rating=rating, rd=60.0,
                                      volatility=0.06, games=20, updated_at=now()))


def player_id(client: WebClient, name: str) -> str:
    with Session(client.service.repo.engine) as session:
        return session.scalars(select(PlayerRow.id).where(PlayerRow.name == name)).one()


# ------------------------------------------------------------------ challenges


def test_a_player_posts_a_challenge_that_everyone_sees_without_secrets(client: WebClient) -> None:
    ala = make_player(client, "Ala")
    assert client.post("/api/challenges", json=CASUAL).status_code == 401  # a player's challenge only
    posted = post(client, ala, rated=True)
    assert posted | {"id": None, "created_at": None} == {
        "id": None, "poster": "Ala", "rating": None, "abandons": False, "game": "castle", "rules": "zamek",
        "clock": {"kind": "live", "minutes": 10.0, "increment": 5, "days": 1.0}, "rated": True, "min_rating": None,
        "max_rating": None, "mine": True, "created_at": None}
    listed = client.get("/api/challenges")
    assert [c["id"] for c in listed.json()["challenges"]] == [posted["id"]]
    assert listed.json()["challenges"][0]["mine"] is False and ala not in listed.text


def test_accepting_seats_both_players_at_once_in_a_listed_game(client: WebClient) -> None:
    ala, ola = make_player(client, "Ala"), make_player(client, "Ola")
    challenge = post(client, ala, rated=True)
    started = accept(client, ola, challenge["id"])
    game = started["game_id"]
    assert started["game"] == "castle" and started["challenge"] == challenge["id"]
    view = client.get(f"/api/games/{game}", headers=bearer(ola)).json()
    assert sorted(s["name"] for s in view["seats"]) == ["Ala", "Ola"] and view["clock"] is not None
    assert all(s["player"] == "person" for s in view["seats"])
    mine = client.get("/api/challenges", headers=as_player(ala)).json()
    assert mine["challenges"] == [] and [(s["game_id"], s["seat"]) for s in mine["started"]] == [
        (game, 1 - started["seat"])]
    stored = client.service.repo.get(game)
    assert stored is not None and stored.rated and stored.listed
    assert [g["id"] for g in client.get("/api/live").json()["games"]] == [game]
    # Each plays with their own player token as the seat's token.
    mover = view["current"]
    token = ola if mover == started["seat"] else ala
    move = client.post(f"/api/games/{game}/actions", json={"action": view["drawn"]["places"][0]["action"],
                                                           "revision": view["revision"]}, headers=bearer(token))
    assert move.status_code == 200, move.text


def test_a_challenge_of_rycerze_i_zamki(client: WebClient) -> None:
    ala, ola = make_player(client, "Ala"), make_player(client, "Ola")
    challenge = post(client, ala, game="knights", rules=None, clock=None)
    started = accept(client, ola, challenge["id"])
    view = client.get(f"/api/games/{started['game_id']}?seat={started['seat']}", headers=bearer(ola)).json()
    assert view["seat"] == started["seat"] and view["hand"]


def test_a_poster_who_lets_games_run_out_is_shown_so(client: WebClient) -> None:
    """Issue 39 item 7: the lobby shows a player whose time ran out in 2 of their last 10 rated games."""
    ala, ola = make_player(client, "Ala"), make_player(client, "Ola")
    with client.service.repo.transaction() as session:
        for n in range(2):
            session.add(RatedResultRow(game_id=f"old{n}", game="castle", clock="live", player0=player_id(client, "Ala"),
                                       player1=player_id(client, "Ola"), score0=0.0,
                                       abandoned_by=player_id(client, "Ala"), ended_at=now()))
    post(client, ala)
    post(client, ola)
    shown = {c["poster"]: c["abandons"] for c in client.get("/api/challenges").json()["challenges"]}
    assert shown == {"Ala": True, "Ola": False}


def test_nobody_accepts_their_own_a_withdrawn_or_an_unknown_challenge(client: WebClient) -> None:
    ala, ola = make_player(client, "Ala"), make_player(client, "Ola")
    challenge = post(client, ala)["id"]
    assert accept(client, ala, challenge, 409)["code"] == "own-challenge"
    assert client.delete(f"/api/challenges/{challenge}", headers=as_player(ola)).status_code == 404  # not hers
    assert client.delete(f"/api/challenges/{challenge}", headers=as_player(ala)).status_code == 204
    assert open_ids(client) == []
    assert accept(client, ola, challenge, 409)["code"] == "challenge-gone"
    assert accept(client, ola, "nosuchchallenge", 409)["code"] == "challenge-gone"
    assert client.post(f"/api/challenges/{challenge}/accept").status_code == 401


def test_a_rating_range_keeps_out_players_outside_it(client: WebClient) -> None:
    ala, ola, ewa = make_player(client, "Ala"), make_player(client, "Ola"), make_player(client, "Ewa")
    rate(client, ola, 1900)
    challenge = post(client, ala, min_rating=1400, max_rating=1700)["id"]
    refused = accept(client, ola, challenge, 403)
    assert refused["code"] == "out-of-range" and refused["params"] == {"rating": 1900, "low": 1400, "high": 1700}
    accept(client, ewa, challenge)  # a newcomer counts as 1500
    assert post(client, ala, 422, min_rating=1800, max_rating=1700)["code"] == "rating-range"


@pytest.mark.parametrize("body", [{"game": "chess"}, {"rules": "zamek+nothing"}, {"game": "knights", "rules": "zamek"},
                                  {"clock": {"kind": "live", "minutes": 0}}, {"rated": "maybe"}, {"extra": 1}])
def test_a_bad_challenge_is_refused_with_422(client: WebClient, body: Json) -> None:
    post(client, make_player(client, "Ala"), 422, **body)


def test_a_player_has_three_open_challenges_at_most(client: WebClient) -> None:
    ala = make_player(client, "Ala")
    for _ in range(3):
        post(client, ala)
    assert post(client, ala, 409)["code"] == "too-many-open"


def test_a_challenge_lives_while_its_posters_page_is_there(tmp_path: Path) -> None:
    fake = FakeTime()
    with client_for(tmp_path / "games.sqlite3", clock=fake) as client:
        ala, ola = make_player(client, "Ala"), make_player(client, "Ola")
        kept, left = post(client, ala)["id"], post(client, ola)["id"]
        fake.advance(EXPIRES_MS / 1000 - 10)
        assert sorted(open_ids(client, ala)) == sorted([kept, left])  # Ala's page is there (she asks)
        fake.advance(15)  # Ola's page said nothing for over a minute: hers is gone
        assert open_ids(client) == [kept]
        assert accept(client, ala, left, 409)["code"] == "challenge-gone"
        accept(client, ola, kept)


def test_challenges_are_limited_per_address_and_per_player(tmp_path: Path) -> None:
    limits = Fairness(challenges="2/minute")
    with client_for(tmp_path / "games.sqlite3", fairness=limits) as here:
        ala, ola = make_player(here, "Ala"), make_player(here, "Ola")
        post(here, ala)
        post(here, ola)
        refused = here.post("/api/challenges", json=CASUAL, headers=as_player(ala))
        assert refused.status_code == 429 and refused.json()["code"] == "too-many-challenges"
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        with WebClient(here.fastapi, client=("192.0.2.7", 5000)) as elsewhere:  # another address, the same player
            post(elsewhere, ola)
            assert elsewhere.post("/api/challenges", json=CASUAL, headers=as_player(ola)).status_code == 429
            assert play_now(elsewhere, ola, 429)["code"] == "too-many-challenges"


# ------------------------------------------------------------------ races


def stored_games(client: WebClient) -> int:
    with Session(client.service.repo.engine) as session:
        return session.scalar(select(func.count()).select_from(MatchRow)) or 0


def test_of_two_players_accepting_at_once_exactly_one_wins_on_sqlite(client: WebClient) -> None:
    tokens = [make_player(client, name) for name in ("Ala", "Ola", "Ewa")]
    for _ in range(5):
        challenge = post(client, tokens[0])["id"]
        path = f"/api/challenges/{challenge}/accept"
        answers = race([(client, path, {}, as_player(tokens[1])), (client, path, {}, as_player(tokens[2]))])
        assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
    assert stored_games(client) == 5


@pytest.mark.pg
def test_of_two_players_accepting_at_once_on_two_workers_exactly_one_wins(pg_url: str) -> None:
    with pg_client(pg_url) as first, pg_client(pg_url) as second:
        tokens = [make_player(first, name) for name in ("Ala", "Ola", "Ewa")]
        for _ in range(8):
            challenge = post(first, tokens[0])["id"]
            path = f"/api/challenges/{challenge}/accept"
            answers = race([(first, path, {}, as_player(tokens[1])), (second, path, {}, as_player(tokens[2]))])
            assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
            loser = next(a for a in answers if a.status_code == 409)
            assert loser.json()["code"] == "challenge-gone"
        assert stored_games(first) == 8


# ------------------------------------------------------------------ quick pairing


def test_play_now_waits_then_pairs_with_the_next_player_asking_the_same(client: WebClient) -> None:
    ala, ola, ewa = make_player(client, "Ala"), make_player(client, "Ola"), make_player(client, "Ewa")
    waiting = play_now(client, ala, 202)
    assert waiting["waiting"] and waiting["started"] is None
    assert play_now(client, ala, 202)["id"] == waiting["id"]  # asking again waits in the same place
    assert play_now(client, ewa, 202, rated=True)["waiting"]  # rated is another pairing
    paired = play_now(client, ola, 201)
    assert not paired["waiting"] and paired["id"] == waiting["id"]
    game = paired["started"]["game_id"]
    started = client.get("/api/challenges", headers=as_player(ala)).json()["started"]
    assert [(s["game_id"], s["seat"]) for s in started] == [(game, 1 - paired["started"]["seat"])]
    assert open_ids(client) == []  # pairings are not challenges


def test_play_now_pairs_the_closest_rating_among_those_waiting(client: WebClient) -> None:
    players = {name: make_player(client, name) for name in ("High", "Low", "Mid")}
    rate(client, players["High"], 1800)
    rate(client, players["Low"], 1200)
    rate(client, players["Mid"], 1700)
    play_now(client, players["Low"], 202)  # waiting the longest
    play_now(client, players["High"], 202)
    paired = play_now(client, players["Mid"], 201)
    view = client.get(f"/api/games/{paired['started']['game_id']}").json()
    assert sorted(s["name"] for s in view["seats"]) == ["High", "Mid"]


def test_a_waiting_pairing_is_withdrawn_by_its_player(client: WebClient) -> None:
    ala, ola = make_player(client, "Ala"), make_player(client, "Ola")
    waiting = play_now(client, ala, 202)
    assert client.delete(f"/api/challenges/{waiting['id']}", headers=as_player(ala)).status_code == 204
    assert play_now(client, ola, 202)["waiting"]


def pairing_race(first: WebClient, second: WebClient, rounds: int) -> None:
    """Four players ask to play at once, ``rounds`` times: each time exactly two games are made, each player in one."""
    tokens = [make_player(first, f"Gracz{i}") for i in range(4)]
    for _ in range(rounds):
        before = stored_games(first)
        answers = race([(first if i % 2 else second, "/api/pairing", CASUAL, as_player(t))
                        for i, t in enumerate(tokens)])
        assert sorted(a.status_code for a in answers) == [201, 201, 202, 202], [a.text for a in answers]
        assert stored_games(first) == before + 2
        seated: list[str] = []
        for game in {a.json()["started"]["game_id"] for a in answers if a.status_code == 201}:
            seated += [s["name"] for s in first.get(f"/api/games/{game}").json()["seats"]]
        assert sorted(seated) == [f"Gracz{i}" for i in range(4)]


def test_players_asking_to_play_at_once_are_paired_exactly_once_on_sqlite(client: WebClient) -> None:
    pairing_race(client, client, 4)


@pytest.mark.pg
def test_players_asking_to_play_at_once_on_two_workers_are_paired_exactly_once(pg_url: str) -> None:
    with pg_client(pg_url) as first, pg_client(pg_url) as second:
        pairing_race(first, second, 6)


# ------------------------------------------------------------------ the lobby's live events


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Server]:
    server = start_server(tmp_path / "games.sqlite3")
    yield server
    server.stop()


def test_the_lobby_stream_tells_of_new_challenges_and_the_poster_of_their_game(live: Server) -> None:
    with httpx.Client(base_url=live.url, timeout=10) as http:
        ala, ola = (http.post("/api/players", json={"name": n}).json()["token"] for n in ("Ala", "Ola"))
        anyone = EventStream(live, "/api/lobby/events")
        poster = EventStream(live, "/api/lobby/events", as_player(ala))
        try:
            challenge = http.post("/api/challenges", json=CASUAL, headers=as_player(ala)).json()
            anyone.next("lobby")
            started = http.post(f"/api/challenges/{challenge['id']}/accept", headers=as_player(ola)).json()
            told = poster.next("started", timeout=3).data
            assert told["game_id"] == started["game_id"] and told["seat"] == 1 - started["seat"]
            anyone.quiet("started", 0.3)  # only the poster's stream tells of the poster's game
        finally:
            anyone.close()
            poster.close()


@pytest.mark.pg
def test_a_poster_on_one_worker_is_told_of_the_game_accepted_on_the_other(pg_url: str) -> None:
    servers = [start_server(pg_url), start_server(pg_url)]
    try:
        with httpx.Client(base_url=servers[0].url, timeout=10) as http:
            ala, ola = (http.post("/api/players", json={"name": n}).json()["token"] for n in ("Ala", "Ola"))
            poster = EventStream(servers[1], "/api/lobby/events", as_player(ala))
            try:
                challenge = http.post("/api/challenges", json=CASUAL, headers=as_player(ala)).json()
                poster.next("lobby", timeout=5)  # posted on the first worker, heard on the second
                started = http.post(f"/api/challenges/{challenge['id']}/accept", headers=as_player(ola)).json()
                assert poster.next("started", timeout=5).data["game_id"] == started["game_id"]
            finally:
                poster.close()
    finally:
        for server in servers:
            server.stop()
