"""Players (issue 39): identities, seats bound to players, rated games and their ratings (Glicko-2), abandons, the
player page and the leaderboard, through the web API on SQLite (test_players_postgres: the races on PostgreSQL with
two workers)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from tests.server.test_web_online import finish_turn, view_of
from tests.web_client import FakeTime, Json, WebClient, bearer, client_for
from zamek.server import creating, players, ratings
from zamek.server.fairness import Fairness
from zamek.server.tables import PlayerRatingRow, PlayerRow

PLAYER = "X-Zamek-Player"


def make_player(client: WebClient, name: str, status: int = 201) -> str:
    response = client.post("/api/players", json={"name": name})
    assert response.status_code == status, response.text
    token: str = response.json()["token"] if status == 201 else ""
    return token


def as_player(token: str) -> dict[str, str]:
    return {PLAYER: token}


def rated_game(client: WebClient, first: str, second: str, **options: Any) -> Json:
    """A rated castle game of two players (``first`` creates it in seat 0, ``second`` joins): the joiner's view."""
    created = client.post("/api/games", json={"mode": "friend", "seat": "first", "rated": True} | options,
                          headers=as_player(first))
    assert created.status_code == 201, created.text
    joined = client.post(f"/api/games/{created.json()['id']}/join", json={"invite": created.json()["invite"]},
                         headers=as_player(second))
    assert joined.status_code == 201, joined.text
    view: Json = joined.json()
    return view


def resign(client: WebClient, game_id: str, token: str) -> Json:
    response = client.post(f"/api/games/{game_id}/resign", json={}, headers=bearer(token))
    assert response.status_code == 200, response.text
    view: Json = response.json()
    return view


def page(client: WebClient, name: str) -> Json:
    response = client.get(f"/api/players/{name}")
    assert response.status_code == 200, response.text
    body: Json = response.json()
    return body


# ------------------------------------------------------------- identities


def test_a_player_is_a_name_and_a_secret_whose_digest_alone_is_kept(client: WebClient) -> None:
    created = client.post("/api/players", json={"name": "Zosia_77"})
    assert created.status_code == 201, created.text
    token = created.json()["token"]
    assert created.json()["name"] == "Zosia_77" and len(token) >= 32
    with Session(client.service.repo.engine) as session:
        row = session.scalars(select(PlayerRow)).one()
    assert row.token_digest == hashlib.sha256(token.encode()).hexdigest()
    assert token not in (row.id, row.name, row.name_key)
    me = client.get("/api/players/me", headers=as_player(token))
    assert me.status_code == 200 and me.json() == {"name": "Zosia_77", "abandons": False}
    assert client.get("/api/players/me").status_code == 401
    refused = client.get("/api/players/me", headers=as_player("not-a-token-of-this-server-0123456789"))
    assert refused.status_code == 401 and refused.json()["code"] == "no-player"


@pytest.mark.parametrize("name", ["ab", "a" * 21, "Ala ma kota", "zły!", "naïve", "tab\tname", ""])
def test_a_name_is_3_to_20_letters_digits_underscores_or_hyphens(client: WebClient, name: str) -> None:
    refused = client.post("/api/players", json={"name": name})
    assert refused.status_code == 422 and refused.json()["code"] == "bad-player-name", refused.text


def test_polish_letters_are_letters_and_a_name_is_unique_whatever_its_case(client: WebClient) -> None:
    token = make_player(client, "Żółć-gęś_1")
    assert client.get("/api/players/me", headers=as_player(token)).json()["name"] == "Żółć-gęś_1"
    taken = client.post("/api/players", json={"name": "ŻÓŁĆ-GĘŚ_1"})
    assert taken.status_code == 409 and taken.json()["code"] == "name-taken"
    assert "ŻÓŁĆ-GĘŚ_1" in taken.json()["message"]
    assert page(client, "żółć-gęś_1")["name"] == "Żółć-gęś_1"  # found by any case


def test_a_player_changes_their_name_but_not_to_anothers(client: WebClient) -> None:
    ala = make_player(client, "Ala")
    make_player(client, "Olek")
    assert client.patch("/api/players/me", json={"name": "OLEK"}, headers=as_player(ala)).status_code == 409
    assert client.patch("/api/players/me", json={"name": "x"}, headers=as_player(ala)).status_code == 422
    assert client.patch("/api/players/me", json={"name": "Ala"}).status_code == 401
    renamed = client.patch("/api/players/me", json={"name": "ALA"}, headers=as_player(ala))  # its own, in capitals
    assert renamed.status_code == 200 and renamed.json()["name"] == "ALA"
    renamed = client.patch("/api/players/me", json={"name": "Alicja"}, headers=as_player(ala))
    assert renamed.status_code == 200 and renamed.json()["name"] == "Alicja"
    assert client.get("/api/players/Ala").status_code == 404
    make_player(client, "Ala")  # the old name is free again


def test_new_identities_are_limited_per_address(tmp_path: Path) -> None:
    with client_for(tmp_path / "games.sqlite3", fairness=Fairness(players="2/hour")) as client:
        make_player(client, "Ala")
        make_player(client, "Olek")
        refused = client.post("/api/players", json={"name": "Ewa"})
        assert refused.status_code == 429 and refused.json()["code"] == "too-many-players"
        assert int(refused.headers["Retry-After"]) > 0
        assert client.get("/api/players/Ewa").status_code == 404


# ---------------------------------------------------- seats bound to players


def test_a_players_seat_is_held_by_the_player_token_on_every_device(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with client_for(db) as phone:
        ala, olek = make_player(phone, "Ala"), make_player(phone, "Olek")
        created = phone.post("/api/games", json={"mode": "friend", "seat": "first"}, headers=as_player(ala)).json()
        assert created["tokens"] == [{"seat": 0, "token": ala}] and created["seats"][0]["name"] == "Ala"
        phone.post(f"/api/games/{created['id']}/join", json={"invite": created["invite"]}, headers=as_player(olek))
        computer_game = phone.post("/api/games", json={"mode": "computer"}, headers=as_player(ala)).json()
    with client_for(db) as laptop:  # another device: only the player's token moved to it
        listed = laptop.get("/api/players/me/games", headers=as_player(ala))
        assert listed.status_code == 200, listed.text
        games = {g["id"]: g for g in listed.json()["games"]}
        assert set(games) == {created["id"], computer_game["id"]}
        assert games[created["id"]]["seat"] == 0 and games[created["id"]]["token"] == ala
        assert not games[created["id"]]["rated"]
        view = view_of(laptop, created["id"])
        laptop.tokens.seats[created["id"]] = {0: ala, 1: olek}
        finish_turn(laptop, view)  # the player token plays the seat
        lobby = laptop.lobby([ala])
        assert {g["id"] for g in lobby["castle"]} == {created["id"], computer_game["id"]}
        assert laptop.get("/api/players/me/games").status_code == 401


def test_games_without_an_identity_still_get_seat_tokens_of_their_own(client: WebClient) -> None:
    created = client.post("/api/games", json={"mode": "friend", "seat": "first"}).json()
    joined = client.post(f"/api/games/{created['id']}/join", json={"invite": created["invite"]}).json()
    tokens = [created["tokens"][0]["token"], joined["tokens"][0]["token"]]
    assert tokens[0] != tokens[1] and players.count(client.service.repo) == 0
    assert not joined["rated"]


def test_a_player_cannot_take_both_seats_of_a_game(client: WebClient) -> None:
    ala = make_player(client, "Ala")
    created = client.post("/api/games", json={"mode": "friend"}, headers=as_player(ala)).json()
    refused = client.post(f"/api/games/{created['id']}/join", json={"invite": created["invite"]},
                          headers=as_player(ala))
    assert refused.status_code == 409 and refused.json()["code"] == "same-player"


def test_a_hotseat_game_binds_no_seat_to_its_player(client: WebClient) -> None:
    ala = make_player(client, "Ala")
    created = client.post("/api/games", json={"mode": "hotseat"}, headers=as_player(ala)).json()
    assert ala not in [t["token"] for t in created["tokens"]] and len(created["tokens"]) == 2
    assert client.get("/api/players/me/games", headers=as_player(ala)).json()["games"] == []


# ------------------------------------------------------------ rated games


def test_a_rated_game_is_asked_by_a_player_against_a_friend_without_hints(client: WebClient) -> None:
    ala = make_player(client, "Ala")
    cases = [({"mode": "friend", "rated": True}, {}, 401, "rated-needs-player"),
             ({"mode": "hotseat", "rated": True}, as_player(ala), 422, "rated-friend-only"),
             ({"mode": "computer", "rated": True}, as_player(ala), 422, "rated-friend-only"),
             ({"mode": "friend", "rated": True, "hints": True}, as_player(ala), 422, "rated-no-hints"),
             ({"game": "knights", "seats": ["person", "random"], "rated": True}, as_player(ala), 422,
              "rated-friend-only")]
    for body, headers, status, code in cases:
        refused = client.post("/api/games", json=body, headers=headers)
        assert (refused.status_code, refused.json()["code"]) == (status, code), (body, refused.text)


def test_a_rated_game_takes_only_a_player_and_offers_no_hints_and_no_takeback(client: WebClient) -> None:
    ala, olek = make_player(client, "Ala"), make_player(client, "Olek")
    created = client.post("/api/games", json={"mode": "friend", "seat": "first", "rated": True},
                          headers=as_player(ala)).json()
    assert created["rated"] and not created["hints"]
    anonymous = client.post(f"/api/games/{created['id']}/join", json={"invite": created["invite"]})
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "rated-needs-player"
    view = client.post(f"/api/games/{created['id']}/join", json={"invite": created["invite"]},
                       headers=as_player(olek)).json()
    view = finish_turn(client, finish_turn(client, view))
    assert view["takeback"] is None and not view["hints"]  # the page offers neither
    hints = client.get(f"/api/games/{view['id']}/hints", headers=bearer(ala))
    assert hints.status_code == 403 and hints.json()["code"] == "rated-no-hints"
    takeback = client.post(f"/api/games/{view['id']}/takeback", json={}, headers=bearer(olek))
    assert takeback.status_code == 409 and takeback.json()["code"] == "rated-no-takeback"


def test_a_rated_game_changes_both_ratings_once_when_it_ends(client: WebClient) -> None:
    ala, olek = make_player(client, "Ala"), make_player(client, "Olek")
    view = rated_game(client, ala, olek)
    view = finish_turn(client, finish_turn(client, view))
    over = resign(client, view["id"], olek)
    assert over["ended"] == {"reason": "resign", "loser": 1}
    winner, loser = page(client, "Ala")["ratings"], page(client, "Olek")["ratings"]
    assert [(r["game"], r["clock"], r["games"]) for r in winner] == [("castle", "correspondence", 1)]
    assert winner[0]["rating"] > 1500 > loser[0]["rating"]
    assert winner[0]["rating"] - 1500 == pytest.approx(1500 - loser[0]["rating"], abs=0.2)
    assert winner[0]["provisional"] and len(winner[0]["history"]) == 1
    assert winner[0]["history"][0]["game_id"] == view["id"]
    # The finished game is stored again (a rematch offered): it counts no second time.
    assert client.post(f"/api/games/{view['id']}/rematch", headers=bearer(ala)).status_code == 201
    again = page(client, "Ala")["ratings"]
    assert again == winner
    repo = client.service.repo
    live = client.service.get(view["id"])
    with repo.transaction() as session:  # the end recorded once more, as a second ending would: nothing changes
        ratings.record_end(ratings.ending_of(live, live.state, 0), repo.postgres)(session)
    assert page(client, "Ala")["ratings"] == winner


def test_an_aborted_rated_game_changes_no_rating(client: WebClient) -> None:
    ala, olek = make_player(client, "Ala"), make_player(client, "Olek")
    view = rated_game(client, ala, olek)
    aborted = client.post(f"/api/games/{view['id']}/abort", json={}, headers=bearer(ala))
    assert aborted.status_code == 200 and aborted.json()["ended"]["reason"] == "abort"
    assert page(client, "Ala")["ratings"] == [] and page(client, "Olek")["ratings"] == []
    assert page(client, "Ala")["games"][0]["score"] is None
    assert not page(client, "Ala")["abandons"]  # aborted by a player, in time: nobody abandoned it


def test_the_clock_kind_decides_the_rating_and_a_timeout_counts(clocked: tuple[WebClient, FakeTime]) -> None:
    client, fake = clocked
    ala, olek = make_player(client, "Ala"), make_player(client, "Olek")
    view = rated_game(client, ala, olek, clock={"kind": "live", "minutes": 1, "increment": 0})
    finish_turn(client, finish_turn(client, view))
    fake.advance(61)
    assert client.service.expire_clocks() == [view["id"]]
    assert [(r["clock"], r["rating"] > 1500) for r in page(client, "Olek")["ratings"]] == [("live", True)]
    assert [r["clock"] for r in page(client, "Ala")["ratings"]] == ["live"]


def test_a_player_who_lets_the_time_run_out_twice_in_ten_games_is_shown_so(
    clocked: tuple[WebClient, FakeTime],
) -> None:
    client, fake = clocked
    ala, olek = make_player(client, "Ala"), make_player(client, "Olek")
    for _ in range(2):  # Ala never makes her first move: the server aborts the game
        rated_game(client, ala, olek, clock={"kind": "live", "minutes": 5, "increment": 0})
        assert not page(client, "Ala")["abandons"]
        fake.advance(61)
        assert len(client.service.expire_clocks()) == 1
    assert page(client, "Ala")["abandons"] and not page(client, "Olek")["abandons"]
    assert client.get("/api/players/me", headers=as_player(ala)).json()["abandons"]
    assert page(client, "Ala")["ratings"] == []  # aborted games: no rating changed


def test_a_rated_game_of_rycerze_i_zamki_has_its_own_rating(client: WebClient) -> None:
    ala, olek = make_player(client, "Ala"), make_player(client, "Olek")
    created = client.post("/api/games", json={"game": "knights", "seats": ["person", "friend"], "rated": True},
                          headers=as_player(ala)).json()
    assert created["tokens"] == [{"seat": 0, "token": ala}] and created["rated"]
    joined = client.post(f"/api/games/{created['id']}/join", json={"invite": created["invite"]},
                         headers=as_player(olek))
    assert joined.status_code == 201, joined.text
    resign(client, created["id"], ala)
    assert [(r["game"], r["rating"] < 1500) for r in page(client, "Ala")["ratings"]] == [("knights", True)]


def test_the_lobby_seats_two_players_in_a_rated_game_each_with_their_own_token(client: WebClient) -> None:
    ala, olek = make_player(client, "Ala"), make_player(client, "Olek")
    repo = client.service.repo
    first, second = players.by_name(repo, "Ala"), players.by_name(repo, "Olek")
    created = creating.create_rated(client.service.sessions, "castle", first, second)
    assert created.tokens == {} and created.live.rated
    view = view_of(client, created.live.id)
    assert [s["name"] for s in view["seats"]] == ["Ala", "Olek"] and view["rated"]
    client.tokens.seats[view["id"]] = {0: ala, 1: olek}
    view = finish_turn(client, finish_turn(client, view))
    resign(client, view["id"], ala)
    assert page(client, "Olek")["ratings"][0]["rating"] > 1500


# ----------------------------------------------------- pages and the board


def test_a_player_page_lists_ratings_rated_games_and_results_against_each_opponent(client: WebClient) -> None:
    ala, olek, ewa = make_player(client, "Ala"), make_player(client, "Olek"), make_player(client, "Ewa")
    played = []
    for loser, opponent in ((olek, olek), (ala, ewa), (ewa, ewa)):
        view = rated_game(client, ala, opponent)
        view = finish_turn(client, finish_turn(client, view))
        resign(client, view["id"], loser)
        played.append(view["id"])
    on = rated_game(client, ala, olek)
    casual = client.post("/api/games", json={"mode": "friend"}, headers=as_player(ala)).json()
    shown = page(client, "Ala")
    assert {g["id"] for g in shown["games"]} == {*played, on["id"]}  # casual games stay private
    assert casual["id"] not in {g["id"] for g in shown["games"]}
    by_id = {g["id"]: g for g in shown["games"]}
    assert by_id[on["id"]]["status"] == "playing" and by_id[on["id"]]["opponent"] == "Olek"
    assert [by_id[g]["score"] for g in played] == [1, 0, 1]
    assert shown["opponents"] == [{"name": "Ewa", "wins": 1, "draws": 0, "losses": 1},
                                  {"name": "Olek", "wins": 1, "draws": 0, "losses": 0}]
    assert len(shown["ratings"][0]["history"]) == 3 and shown["ratings"][0]["games"] == 3
    assert client.get("/api/players/Nobody").status_code == 404


def test_the_leaderboard_lists_established_ratings_first_and_the_computer_levels(client: WebClient) -> None:
    names = ["Ala", "Olek", "Ewa", "Jan"]
    tokens = {name: make_player(client, name) for name in names}
    for winner, loser in (("Ala", "Olek"), ("Ala", "Olek"), ("Ewa", "Jan")):
        view = rated_game(client, tokens[winner], tokens[loser])
        view = finish_turn(client, finish_turn(client, view))
        resign(client, view["id"], tokens[loser])
    repo = client.service.repo
    jan = players.by_name(repo, "Jan")
    with repo.transaction() as session:  # Jan's rating is established (many games played elsewhere)
        session.execute(update(PlayerRatingRow).where(PlayerRatingRow.player_id == jan.id).values(rd=60.0))
    board = client.get("/api/leaderboard", params={"game": "castle", "clock": "correspondence"}).json()
    assert [line["name"] for line in board["players"]] == ["Jan", "Ala", "Ewa", "Olek"]
    assert [line["provisional"] for line in board["players"]] == [False, True, True, True]
    assert [line["level"] for line in board["computer"]] == ["expert", "hard", "medium", "easy", "beginner"]
    assert next(line["rating"] for line in board["computer"] if line["level"] == "medium") == 1500
    assert client.get("/api/leaderboard", params={"game": "castle", "clock": "live"}).json()["players"] == []
    assert client.get("/api/leaderboard", params={"game": "knights"}).json()["computer"] == []
    for params in ({"game": "chess"}, {"clock": "blitz"}):
        assert client.get("/api/leaderboard", params=params).status_code == 422


def test_a_rematch_of_a_rated_game_is_rated_and_each_seat_stays_its_players(client: WebClient) -> None:
    ala, olek = make_player(client, "Ala"), make_player(client, "Olek")
    view = finish_turn(client, finish_turn(client, rated_game(client, ala, olek)))
    resign(client, view["id"], olek)
    offered = client.post(f"/api/games/{view['id']}/rematch", headers=bearer(ala))
    assert offered.status_code == 201, offered.text
    rematch = offered.json()
    assert rematch["rated"] and rematch["tokens"] == [{"seat": 1, "token": ala}]  # the seats swapped
    taken = client.post(f"/api/games/{view['id']}/rematch", headers=bearer(olek)).json()
    assert taken["id"] == rematch["id"] and taken["tokens"] == [{"seat": 0, "token": olek}]
    mine = client.get("/api/players/me/games", headers=as_player(olek)).json()["games"]
    assert {(g["id"], g["seat"]) for g in mine} == {(view["id"], 1), (rematch["id"], 0)}
    resign(client, rematch["id"], olek)
    assert page(client, "Ala")["ratings"][0]["games"] == 2
