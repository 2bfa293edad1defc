"""Rycerze i zamki in the web app: create, play through the API, hidden information, refusals, storage."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.test_web_api import client_for

Json = dict[str, Any]


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with client_for(tmp_path / "games.sqlite3") as c:
        yield c


def create(client: TestClient, seats: list[str], seed: int = 7, seat: int | None = None) -> Json:
    query = f"?seat={seat}" if seat is not None else ""
    r = client.post(f"/api/knights{query}", json={"seats": seats, "seed": seed})
    assert r.status_code == 201, r.text
    body: Json = r.json()
    return body


def play_out(client: TestClient, game: Json, seat: int, rng: random.Random) -> Json:
    view = client.get(f"/api/knights/{game['id']}?seat={seat}").json()
    while not view["over"]:
        assert view["person_to_act"] == seat and view["legal"]
        r = client.post(f"/api/knights/{game['id']}/actions",
                        json={"seat": seat, "action": rng.choice(view["legal"]), "revision": view["revision"]})
        assert r.status_code == 200, r.text
        view = r.json()
    result: Json = view
    return result


def test_a_whole_game_against_three_computers(client: TestClient) -> None:
    game = create(client, ["heuristic", "person", "random", "mc"], seat=1)
    assert game["players"] == 4 and game["phase"] == "choose" and game["person_to_act"] == 1
    assert {c["card"] for c in game["hand"]} >= {"dragon", "shepherd"}
    assert all(c["now"] is not None for c in game["hand"] if c["card"] != "shepherd")
    end = play_out(client, game, 1, random.Random(3))
    assert end["phase"] == "over" and end["round"] == 7
    result = end["result"]
    assert sorted(result["ranking"]) == [0, 1, 2, 3] and sum(result["points"]) == sum(end["points"])
    assert any(e["type"] == "CastleTaken" for e in end["events"]) and end["events"][-1]["type"] == "GameEnded"
    listed = client.get("/api/knights").json()
    assert listed[0]["id"] == game["id"] and listed[0]["status"] == "over"
    record = client.get(f"/api/knights/{game['id']}/record").json()
    assert record["format"] == "zamek-knights-game" and record["result"]["ranking"] == result["ranking"]


def test_hidden_information_stays_on_the_server(client: TestClient) -> None:
    game = create(client, ["person", "person", "heuristic"], seed=11)
    gid = game["id"]
    rng = random.Random(5)
    while True:
        public = client.get(f"/api/knights/{gid}").json()
        assert public["hand"] is None and public["camp"] is None and public["my_choice"] is None
        assert "moves" not in public
        assert all(e.get("card") is None for e in public["events"] if e["type"] == "Recruited")
        if public["over"]:
            break
        seat = public["person_to_act"]
        other = 1 - seat
        r = client.post(f"/api/knights/{gid}/actions", json={"seat": seat, "action": rng.choice(
            client.get(f"/api/knights/{gid}?seat={seat}").json()["legal"])})
        assert r.status_code == 200, r.text
        theirs = client.get(f"/api/knights/{gid}?seat={other}").json()
        assert theirs["my_choice"] is None or theirs["seat"] == other
        assert theirs["legal"] == [] or theirs["person_to_act"] == other
        for e in theirs["events"]:
            if e["type"] == "Recruited" and e["player"] != other:
                assert e["card"] is None
        assert client.get(f"/api/knights/{gid}/record").status_code in (200, 409)


def test_a_pending_choice_is_in_no_other_view(client: TestClient) -> None:
    game = create(client, ["person", "person"], seed=2)
    gid = game["id"]
    r = client.post(f"/api/knights/{gid}/actions", json={"seat": 0, "action": "play:dragon+shepherd"})
    assert r.status_code == 200 and r.json()["my_choice"] == "play:dragon+shepherd"
    other = client.get(f"/api/knights/{gid}?seat=1").json()
    public = client.get(f"/api/knights/{gid}").json()
    assert other["chosen"] == [True, False] and other["my_choice"] is None
    for view in (other, public):
        assert "dragon+shepherd" not in str({k: v for k, v in view.items() if k != "legal"})
    assert client.get(f"/api/knights/{gid}/record").status_code == 409


def test_refusals_are_json(client: TestClient) -> None:
    game = create(client, ["person", "random"], seed=4)
    gid = game["id"]
    cases = [
        ("post", "/api/knights", {"seats": ["person"]}, 422),
        ("post", "/api/knights", {"seats": ["person", "robot"]}, 422),
        ("post", "/api/knights", {"seats": ["person"] * 5}, 422),
        ("post", f"/api/knights/{gid}/actions", {"seat": 0, "action": "dance"}, 400),
        ("post", f"/api/knights/{gid}/actions", {"seat": 0, "action": "draw:drum"}, 400),
        ("post", f"/api/knights/{gid}/actions", {"seat": 0, "action": "play:dragon+dragon"}, 400),
        ("post", f"/api/knights/{gid}/actions", {"seat": 1, "action": "play:dragon+hog"}, 409),
        ("post", f"/api/knights/{gid}/actions", {"seat": 0, "action": "recruit:dragon"}, 409),
        ("post", f"/api/knights/{gid}/actions", {"seat": 0, "action": "play:dragon+hog", "revision": 99}, 409),
        ("post", f"/api/knights/{gid}/actions", {"seat": 0}, 422),
        ("post", "/api/knights/nothing/actions", {"seat": 0, "action": "play:dragon+hog"}, 404),
        ("get", f"/api/knights/{gid}?seat=5", None, 400),
        ("get", "/api/knights/nothing", None, 404),
    ]
    for method, url, body, status in cases:
        r = client.post(url, json=body) if method == "post" else client.get(url)
        assert r.status_code == status, (url, body, r.text)
        assert set(r.json()) == {"error", "message"} and r.json()["message"]


def test_stored_and_replayed_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with client_for(db) as c:
        game = create(c, ["person", "mc", "heuristic"], seed=9)
        view = c.post(f"/api/knights/{game['id']}/actions",
                      json={"seat": 0, "action": game["legal"][0] if game["legal"] else "play:dragon+hog"})
        if game["seat"] is None:
            view = c.get(f"/api/knights/{game['id']}?seat=0")
        before = c.get(f"/api/knights/{game['id']}?seat=0").json()
        castle = c.post("/api/games", json={"mode": "hotseat"}).json()
    with client_for(db) as c:
        after = c.get(f"/api/knights/{game['id']}?seat=0").json()
        assert after == before
        assert c.get(f"/api/games/{castle['id']}").status_code == 200
        assert [g["id"] for g in c.get("/api/games").json()] == [castle["id"]]
        assert c.delete(f"/api/knights/{game['id']}").status_code == 204
        assert c.get("/api/knights").json() == []
    assert view is not None


def test_k4_k5_a_castle_taken_by_the_dragon_and_a_recruited_dragon_name_the_dragon(client: TestClient) -> None:
    """The dragon is card 0: it must still be named (K4 step 3, K5), not reported as no card."""
    game = create(client, ["person", "person"], seed=6)
    gid = game["id"]
    first_castle = True
    while True:
        public = client.get(f"/api/knights/{gid}").json()
        if public["over"]:
            break
        seat = public["person_to_act"]
        if public["phase"] == "choose":
            # Round 1: seat 0 lays the dragon alone, so it takes the castle; later both lay shepherds.
            action = "play:dragon+shepherd" if first_castle and seat == 0 else "play:shepherd+shepherd"
            first_castle = first_castle and seat == 0
        else:
            action = "recruit:dragon"
        r = client.post(f"/api/knights/{gid}/actions", json={"seat": seat, "action": action})
        assert r.status_code == 200, r.text
    owner = client.get(f"/api/knights/{gid}?seat=0").json()
    other = client.get(f"/api/knights/{gid}?seat=1").json()
    taken = [e for e in owner["events"] if e["type"] == "CastleTaken"]
    assert taken[0]["player"] == 0 and taken[0]["card"] == "dragon" and taken[0]["strength"] > 0
    assert all(e["card"] is None and e["strength"] == 0 for e in taken[1:])  # shepherds only: the sword takes it
    assert [e["card"] for e in public["events"] if e["type"] == "CastleTaken"] == [e["card"] for e in taken]
    recruited = [e for e in owner["events"] if e["type"] == "Recruited"]
    assert recruited and all(e["player"] == 0 and e["card"] == "dragon" for e in recruited)
    for view in (other, public):  # the camp is face down: the others never learn what came back (K8)
        assert [e["card"] for e in view["events"] if e["type"] == "Recruited"] == [None] * len(recruited)


def test_k8_a_computer_seats_hand_and_choice_are_never_served(client: TestClient) -> None:
    # The computer in seat 0 chooses first, so its face-down choice is pending while the person chooses.
    game = create(client, ["heuristic", "person"], seed=3, seat=1)
    gid = game["id"]
    assert game["chosen"] == [True, False] and game["hand"]
    refused = client.get(f"/api/knights/{gid}?seat=0")
    assert refused.status_code == 403
    assert refused.json()["error"] == "not-a-person" and set(refused.json()) == {"error", "message"}
    assert "hand" not in refused.text and "play:" not in refused.text
    mine = client.get(f"/api/knights/{gid}?seat=1")
    assert mine.status_code == 200 and mine.json()["seat"] == 1 and mine.json()["hand"]
    # Asking for a computer's view when creating a game is refused before any game is stored.
    before = client.get("/api/knights").json()
    for seats, seat, status in ((["person", "heuristic"], 1, 403), (["person", "mc"], 2, 400)):
        r = client.post(f"/api/knights?seat={seat}", json={"seats": seats, "seed": 1})
        assert r.status_code == status, r.text
        assert "hand" not in r.text
    assert client.get("/api/knights").json() == before
    # A person in seat 0 against a computer in seat 1: seat 0 is served, seat 1 never, to the end.
    game = create(client, ["person", "heuristic"], seed=8)
    gid = game["id"]
    assert client.get(f"/api/knights/{gid}?seat=0").status_code == 200
    rng = random.Random(1)
    view = client.get(f"/api/knights/{gid}?seat=0").json()
    while True:
        r = client.get(f"/api/knights/{gid}?seat=1")
        assert r.status_code == 403 and r.json()["error"] == "not-a-person" and "hand" not in r.text
        if view["over"]:
            break
        r = client.post(f"/api/knights/{gid}/actions", json={"seat": 0, "action": rng.choice(view["legal"])})
        assert r.status_code == 200 and r.json()["seat"] == 0, r.text
        view = r.json()
    # Acting as the computer is refused too, and answers with no view.
    r = client.post(f"/api/knights/{gid}/actions", json={"seat": 1, "action": "play:dragon+hog"})
    assert r.status_code == 409 and "hand" not in r.text


def test_answers_validate_against_their_models(client: TestClient) -> None:
    """Every answer is its model of the protocol (zamek.web.knights_schemas), with the protocol's version."""
    from pydantic import TypeAdapter

    from zamek.web.knights_schemas import KnightsLine, KnightsMeta, KnightsSavedGame, KnightsView
    from zamek.web.schemas import API_VERSION, ErrorAnswer

    meta = client.get("/api/knights/meta")
    assert KnightsMeta.model_validate_json(meta.text).seat_kinds == ["person", "random", "heuristic", "mc"]
    r = client.post("/api/knights?seat=0", json={"seats": ["person", "heuristic", "random"], "seed": 12})
    rng = random.Random(12)
    types: set[str] = set()
    while True:
        assert r.status_code in (200, 201), r.text
        assert r.headers["Zamek-Api"] == str(API_VERSION)
        view = KnightsView.model_validate_json(r.text)
        assert view.model_dump(mode="json") == r.json() and view.api == API_VERSION
        types |= {e.type for e in view.events}
        public = client.get(f"/api/knights/{view.id}")
        assert KnightsView.model_validate_json(public.text).hand is None
        if view.over:
            break
        r = client.post(f"/api/knights/{view.id}/actions",
                        json={"seat": 0, "action": rng.choice(view.legal), "revision": view.revision})
    assert {"TileRevealed", "CardsRevealed", "CastleTaken", "GameEnded"} <= types
    assert TypeAdapter(list[KnightsLine]).validate_json(client.get("/api/knights").text)[0].status == "over"
    record = client.get(f"/api/knights/{view.id}/record")
    assert KnightsSavedGame.model_validate_json(record.text).model_dump(mode="json") == record.json()
    refused = client.get(f"/api/knights/{view.id}?seat=1")
    assert ErrorAnswer.model_validate_json(refused.text).error == "not-a-person"
