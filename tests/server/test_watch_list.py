"""The watch list (``GET /api/live``, issue 39 item 5): only the games their creators listed, once every seat is
taken and while they are played, the latest active first; each line holds what a spectator sees, never a secret."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.server.test_players import make_player, page, rated_game, resign
from tests.server.test_web_online import create, finish_turn, join, view_of
from tests.web_client import Json, WebClient, client_for


def listed(client: WebClient) -> list[Json]:
    answer = client.get("/api/live")
    assert answer.status_code == 200, answer.text
    games: list[Json] = answer.json()["games"]
    return games


def ids(client: WebClient) -> list[str]:
    return [g["id"] for g in listed(client)]


def test_a_game_with_a_friend_by_link_is_never_listed(client: WebClient) -> None:
    game = create(client, name="Ala")
    join(client, game)
    finish_turn(client, view_of(client, game["id"]))
    assert ids(client) == []


def test_a_listed_game_is_shown_once_every_seat_is_taken_and_until_it_ends(client: WebClient) -> None:
    game = create(client, name="Ala", listed=True, clock={"kind": "live", "minutes": 10, "increment": 5})
    assert ids(client) == []  # its friend has not come: its seat is still open
    join(client, game, name="Olek")
    [line] = listed(client)
    assert line | {"updated_at": None} == {
        "id": game["id"], "game": "castle", "rules": "zamek", "names": ["Ala", "Olek"], "computer": [False, False],
        "scores": [0, 0], "turn": 1, "clock": "live", "watching": 0, "rating": None, "updated_at": None}
    resigned = client.post(f"/api/games/{game['id']}/resign", json={}, headers=client.seat(game["id"], 1))
    assert resigned.status_code == 200, resigned.text
    assert ids(client) == []


def test_the_list_holds_no_token_nor_invitation(client: WebClient) -> None:
    game = create(client, name="Ala", listed=True)
    friend = join(client, game)
    text = client.get("/api/live").text
    assert game["id"] in text
    secrets = [t["token"] for t in game["tokens"] + friend["tokens"]] + [game["invite"]]
    assert all(secret not in text for secret in secrets)


def test_the_latest_active_game_comes_first(tmp_path: Path) -> None:
    with client_for(tmp_path / "games.sqlite3") as client:
        first = create(client, listed=True)
        join(client, first)
        second = create(client, listed=True)
        join(client, second)
        client.service.repo.clock = lambda: 4_000_000_000.0  # later than the games were made
        assert ids(client)[:2] in ([first["id"], second["id"]], [second["id"], first["id"]])
        finish_turn(client, view_of(client, first["id"]))
        assert ids(client) == [first["id"], second["id"]]
        finish_turn(client, view_of(client, second["id"]))
        client.service.repo.clock = lambda: 4_000_000_001.0
        finish_turn(client, view_of(client, second["id"]))
        assert ids(client) == [second["id"], first["id"]]
        assert [g["id"] for g in client.get("/api/live?limit=1").json()["games"]] == [second["id"]]


@pytest.mark.parametrize("body", [
    {"mode": "computer", "listed": True},
    {"mode": "hotseat", "listed": True},
    {"game": "knights", "seats": ["person", "heuristic"], "listed": True},
], ids=["computer", "hotseat", "knights-without-friends"])
def test_only_a_game_with_friends_elsewhere_can_be_listed(client: WebClient, body: dict[str, Any]) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "listed-friends"


def test_a_listed_card_game_shows_its_computer_seats(client: WebClient) -> None:
    created = client.post("/api/games", json={"game": "knights", "seats": ["person", "friend", "heuristic"],
                                              "name": "Ala", "listed": True})
    assert created.status_code == 201, created.text
    game = created.json()
    assert ids(client) == []
    join(client, game, name="Olek")
    [line] = listed(client)
    assert (line["game"], line["rules"], line["names"], line["computer"]) == (
        "knights", None, ["Ala", "Olek", None], [False, False, True])


def test_a_rematch_of_a_listed_game_is_listed_once_both_have_taken_their_seats(client: WebClient) -> None:
    game = create(client, listed=True)
    join(client, game)
    gid = game["id"]
    assert client.post(f"/api/games/{gid}/resign", json={}, headers=client.seat(gid, 0)).status_code == 200
    offered = client.post(f"/api/games/{gid}/rematch", headers=client.seat(gid, 0))
    assert offered.status_code == 201, offered.text
    assert ids(client) == []  # the other player has not taken their seat of the rematch
    taken = client.post(f"/api/games/{gid}/rematch", headers=client.seat(gid, 1))
    assert taken.status_code == 201, taken.text
    assert ids(client) == [offered.json()["id"]]


def test_the_list_on_either_database(any_url: str) -> None:
    from tests.web_client import WebClient as Client
    from zamek.server.app import create_app
    from zamek.server.service import WebConfig

    with Client(create_app(WebConfig(db_url=any_url, bot_delay=0))) as client:
        hidden = create(client)
        join(client, hidden)
        shown = create(client, listed=True)
        join(client, shown)
        assert ids(client) == [shown["id"]]
    client.service.close()


def test_a_limit_out_of_range_is_refused(client: WebClient) -> None:
    for limit in (0, 101, "x"):
        assert client.get(f"/api/live?limit={limit}").status_code == 422


def test_the_game_of_the_most_highly_rated_player_comes_first(client: WebClient) -> None:
    """Ordered by the higher of the seated players' ratings, before the latest active; unrated players' games after."""
    ala, ola, ewa, jan = (make_player(client, name) for name in ("Ala", "Ola", "Ewa", "Jan"))
    first = rated_game(client, ala, ola)
    resign(client, first["id"], ola)  # Ala wins: both have a rating now, Ala's the higher
    rating = max(line["rating"] for line in page(client, "Ala")["ratings"])
    rated = rated_game(client, ala, ola, listed=True)
    unrated = rated_game(client, ewa, jan, listed=True)  # the latest active
    lines = listed(client)
    assert [g["id"] for g in lines] == [rated["id"], unrated["id"]]
    assert lines[0]["rating"] == pytest.approx(rating, abs=0.05) and lines[1]["rating"] is None
