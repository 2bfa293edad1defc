"""Rycerze i zamki in the web app: create, play through the API, hidden information, refusals, storage."""

from __future__ import annotations

import random
import time
from pathlib import Path

from tests.web_client import Json, WebClient, client_for


def create(client: WebClient, seats: list[str], seed: int = 7, seat: int | None = None) -> Json:
    """Start a game; its answer is the public view with the person seats' tokens, or with ``seat`` the view of
    that (person's) seat, asked with its token."""
    r = client.post("/api/games", json={"game": "knights", "seats": seats, "seed": seed})
    assert r.status_code == 201, r.text
    body: Json = r.json()
    assert body["seat"] is None and body["hand"] is None  # the answer of the creation is the public view
    assert [t["seat"] for t in body["tokens"]] == [i for i, k in enumerate(seats) if k == "person"]
    if seat is not None:
        body = seat_view(client, body["id"], seat)
    return body


def seat_view(client: WebClient, game_id: str, seat: int) -> Json:
    """A seat's own view, asked with its token, once the computer seats have chosen (they choose as jobs of the
    server, outside the request)."""
    end = time.monotonic() + 30
    while True:
        r = client.get(f"/api/games/{game_id}?seat={seat}", headers=client.seat(game_id, seat))
        assert r.status_code == 200, r.text
        view: Json = r.json()
        assert view["bot_error"] is None, view["bot_error"]
        if not view["thinking"] or time.monotonic() > end:
            return view
        time.sleep(0.01)


def choose(client: WebClient, game_id: str, seat: int, action: str, revision: int | None = None) -> Json:
    """A seat's choice, with its token."""
    body: Json = {"seat": seat, "action": action} | ({"revision": revision} if revision is not None else {})
    r = client.post(f"/api/games/{game_id}/actions", json=body, headers=client.seat(game_id, seat))
    assert r.status_code == 200, r.text
    view: Json = r.json()
    return seat_view(client, game_id, seat) if view["thinking"] else view


def play_out(client: WebClient, game: Json, seat: int, rng: random.Random) -> Json:
    view = seat_view(client, game["id"], seat)
    while not view["over"]:
        assert view["person_to_act"] == seat and view["legal"]
        view = choose(client, game["id"], seat, rng.choice(view["legal"]), view["revision"])
    return view


def test_a_whole_game_against_three_computers(client: WebClient) -> None:
    game = create(client, ["heuristic", "person", "random", "mc"], seat=1)
    assert game["players"] == 4 and game["phase"] == "choose" and game["person_to_act"] == 1
    assert {c["card"] for c in game["hand"]} >= {"dragon", "shepherd"}
    assert all(c["now"] is not None for c in game["hand"] if c["card"] != "shepherd")
    end = play_out(client, game, 1, random.Random(3))
    assert end["phase"] == "over" and end["round"] == 7
    result = end["result"]
    assert sorted(result["ranking"]) == [0, 1, 2, 3] and sum(result["points"]) == sum(end["points"])
    assert any(e["type"] == "CastleTaken" for e in end["events"]) and end["events"][-1]["type"] == "GameEnded"
    listed = client.lobby()["knights"]
    assert listed[0]["id"] == game["id"] and listed[0]["status"] == "over"
    assert listed[0]["held"] == [1] and not listed[0]["your_move"]
    record = client.get(f"/api/games/{game['id']}/record").json()
    assert record["format"] == "zamek-knights-game" and record["result"]["ranking"] == result["ranking"]


def test_hidden_information_stays_on_the_server(client: WebClient) -> None:
    game = create(client, ["person", "person", "heuristic"], seed=11)
    gid = game["id"]
    rng = random.Random(5)
    while True:
        public = client.get(f"/api/games/{gid}").json()
        assert public["hand"] is None and public["camp"] is None and public["my_choice"] is None
        assert "moves" not in public
        assert all(e.get("card") is None for e in public["events"] if e["type"] == "Recruited")
        if public["over"]:
            break
        seat = public["person_to_act"]
        other = 1 - seat
        choose(client, gid, seat, rng.choice(seat_view(client, gid, seat)["legal"]))
        # A seat's token reads that seat's view only (K8).
        refused = client.get(f"/api/games/{gid}?seat={other}", headers=client.seat(gid, seat))
        assert refused.status_code == 403 and refused.json()["error"] == "not-your-seat" and "hand" not in refused.text
        theirs = seat_view(client, gid, other)
        assert theirs["my_choice"] is None or theirs["seat"] == other
        assert theirs["legal"] == [] or theirs["person_to_act"] == other
        for e in theirs["events"]:
            if e["type"] == "Recruited" and e["player"] != other:
                assert e["card"] is None
        assert client.get(f"/api/games/{gid}/record").status_code in (200, 409)


def test_a_pending_choice_is_in_no_other_view(client: WebClient) -> None:
    game = create(client, ["person", "person"], seed=2)
    gid = game["id"]
    assert choose(client, gid, 0, "play:dragon+shepherd")["my_choice"] == "play:dragon+shepherd"
    other = seat_view(client, gid, 1)
    public = client.get(f"/api/games/{gid}").json()
    assert other["chosen"] == [True, False] and other["my_choice"] is None
    for view in (other, public):
        assert "dragon+shepherd" not in str({k: v for k, v in view.items() if k != "legal"})
    assert client.get(f"/api/games/{gid}/record").status_code == 409


def test_refusals_are_json(client: WebClient) -> None:
    game = create(client, ["person", "random"], seed=4)
    gid = game["id"]
    mine = client.seat(gid, 0)
    cases: list[tuple[str, str, Json | None, dict[str, str], int]] = [
        ("post", "/api/games", {"game": "knights", "seats": ["person"]}, {}, 422),
        ("post", "/api/games", {"game": "knights", "seats": ["person", "robot"]}, {}, 422),
        ("post", "/api/games", {"game": "knights", "seats": ["person"] * 5}, {}, 422),
        ("post", f"/api/games/{gid}/actions", {"seat": 0, "action": "dance"}, mine, 400),
        ("post", f"/api/games/{gid}/actions", {"seat": 0, "action": "draw:drum"}, mine, 400),
        ("post", f"/api/games/{gid}/actions", {"seat": 0, "action": "play:dragon+dragon"}, mine, 400),
        ("post", f"/api/games/{gid}/actions", {"seat": 1, "action": "play:dragon+hog"}, mine, 403),  # a computer's
        ("post", f"/api/games/{gid}/actions", {"seat": 0, "action": "play:dragon+hog"}, {}, 401),
        ("post", f"/api/games/{gid}/actions", {"seat": 0, "action": "recruit:dragon"}, mine, 409),
        ("post", f"/api/games/{gid}/actions", {"seat": 0, "action": "play:dragon+hog", "revision": 99}, mine, 409),
        ("post", f"/api/games/{gid}/actions", {"seat": 0}, mine, 422),
        ("post", "/api/games/nothing/actions", {"seat": 0, "action": "play:dragon+hog"}, mine, 404),
        ("get", f"/api/games/{gid}?seat=5", None, mine, 400),
        ("get", f"/api/games/{gid}?seat=0", None, {}, 401),
        ("get", "/api/games/nothing", None, {}, 404),
    ]
    for method, url, body, headers, status in cases:
        r = client.post(url, json=body, headers=headers) if method == "post" else client.get(url, headers=headers)
        assert r.status_code == status, (url, body, r.text)
        assert set(r.json()) == {"error", "code", "rule", "params", "message"} and r.json()["message"]
    assert seat_view(client, gid, 0)["revision"] == game["revision"]  # nothing refused changed the game


def test_stored_and_replayed_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with client_for(db) as c:
        game = create(c, ["person", "mc", "heuristic"], seed=9, seat=0)
        view = choose(c, game["id"], 0, game["legal"][0])
        assert view["revision"] > game["revision"]
        before = seat_view(c, game["id"], 0)
        castle = c.post("/api/games", json={"mode": "hotseat"}).json()
        tokens = c.tokens
    with client_for(db, tokens=tokens) as c:
        after = seat_view(c, game["id"], 0)
        assert after == before
        assert c.get(f"/api/games/{castle['id']}").status_code == 200
        lobby = c.lobby()
        assert [g["id"] for g in lobby["castle"]] == [castle["id"]]
        assert [g["id"] for g in lobby["knights"]] == [game["id"]]
        assert c.delete(f"/api/games/{game['id']}", headers=c.seat(game["id"], 0)).status_code == 204
        assert c.lobby()["knights"] == []
        assert c.get(f"/api/games/{game['id']}").status_code == 404


def test_k4_k5_a_castle_taken_by_the_dragon_and_a_recruited_dragon_name_the_dragon(client: WebClient) -> None:
    """The dragon is card 0: it must still be named (K4 step 3, K5), not reported as no card."""
    game = create(client, ["person", "person"], seed=6)
    gid = game["id"]
    first_castle = True
    while True:
        public = client.get(f"/api/games/{gid}").json()
        if public["over"]:
            break
        seat = public["person_to_act"]
        if public["phase"] == "choose":
            # Round 1: seat 0 lays the dragon alone, so it takes the castle; later both lay shepherds.
            action = "play:dragon+shepherd" if first_castle and seat == 0 else "play:shepherd+shepherd"
            first_castle = first_castle and seat == 0
        else:
            action = "recruit:dragon"
        choose(client, gid, seat, action)
    owner = seat_view(client, gid, 0)
    other = seat_view(client, gid, 1)
    taken = [e for e in owner["events"] if e["type"] == "CastleTaken"]
    assert taken[0]["player"] == 0 and taken[0]["card"] == "dragon" and taken[0]["strength"] > 0
    assert all(e["card"] is None and e["strength"] == 0 for e in taken[1:])  # shepherds only: the sword takes it
    assert [e["card"] for e in public["events"] if e["type"] == "CastleTaken"] == [e["card"] for e in taken]
    recruited = [e for e in owner["events"] if e["type"] == "Recruited"]
    assert recruited and all(e["player"] == 0 and e["card"] == "dragon" for e in recruited)
    for view in (other, public):  # the camp is face down: the others never learn what came back (K8)
        assert [e["card"] for e in view["events"] if e["type"] == "Recruited"] == [None] * len(recruited)


def test_k8_a_computer_seats_hand_and_choice_are_never_served(client: WebClient) -> None:
    # The computer in seat 0 chooses first, so its face-down choice is pending while the person chooses.
    game = create(client, ["heuristic", "person"], seed=3, seat=1)
    gid = game["id"]
    assert game["chosen"] == [True, False] and game["hand"]
    for headers in ({}, client.seat(gid, 1)):  # with or without the person's token
        refused = client.get(f"/api/games/{gid}?seat=0", headers=headers)
        assert refused.status_code == 403
        assert refused.json()["error"] == "not-a-person"
        assert set(refused.json()) == {"error", "code", "rule", "params", "message"}
        assert "hand" not in refused.text and "play:" not in refused.text
    mine = client.get(f"/api/games/{gid}", headers=client.seat(gid, 1))  # the token's seat, without asking
    assert mine.status_code == 200 and mine.json()["seat"] == 1 and mine.json()["hand"]
    # Creating a game answers with the public view and tokens for the person seats only: no computer's hand,
    # and no token that could ask for one.
    for seats in (["person", "heuristic"], ["person", "random", "mc"]):
        r = client.post("/api/games", json={"game": "knights", "seats": seats, "seed": 1})
        assert r.status_code == 201, r.text
        assert r.json()["hand"] is None and r.json()["my_choice"] is None and r.json()["legal"] == []
        assert [t["seat"] for t in r.json()["tokens"]] == [0]
    # A person in seat 0 against a computer in seat 1: seat 0 is served, seat 1 never, to the end.
    game = create(client, ["person", "heuristic"], seed=8)
    gid = game["id"]
    rng = random.Random(1)
    view = seat_view(client, gid, 0)
    while True:
        r = client.get(f"/api/games/{gid}?seat=1", headers=client.seat(gid, 0))
        assert r.status_code == 403 and r.json()["error"] == "not-a-person" and "hand" not in r.text
        if view["over"]:
            break
        view = choose(client, gid, 0, rng.choice(view["legal"]))
        assert view["seat"] == 0
    # Acting as the computer is refused too, and answers with no view.
    r = client.post(f"/api/games/{gid}/actions", json={"seat": 1, "action": "play:dragon+hog"},
                    headers=client.seat(gid, 0))
    assert r.status_code == 403 and "hand" not in r.text


def test_answers_validate_against_their_models(client: WebClient) -> None:
    """Every answer is its model of the protocol (zamek.server.knights_schemas), with the protocol's version."""
    from zamek.server.knights_schemas import (
        KnightsSavedGame,
        KnightsView,
        LobbyGames,
        SeatedKnightsView,
    )
    from zamek.server.schemas import API_VERSION, ErrorAnswer

    created = client.post("/api/games",
                          json={"game": "knights", "seats": ["person", "heuristic", "random"], "seed": 12})
    assert created.status_code == 201, created.text
    seated = SeatedKnightsView.model_validate_json(created.text)
    assert seated.model_dump(mode="json") == created.json() and seated.hand is None
    gid = seated.id
    r = client.get(f"/api/games/{gid}", headers=client.seat(gid, 0))
    rng = random.Random(12)
    types: set[str] = set()
    while True:
        assert r.status_code == 200, r.text
        assert r.headers["Zamek-Api"] == str(API_VERSION)
        view = KnightsView.model_validate_json(r.text)
        assert view.model_dump(mode="json") == r.json() and view.api == API_VERSION and view.seat == 0
        types |= {e.type for e in view.events}
        public = client.get(f"/api/games/{view.id}")
        assert KnightsView.model_validate_json(public.text).hand is None
        if view.over:
            break
        if view.thinking:  # the computer seat chooses as a job: asked again
            r = client.get(f"/api/games/{gid}", headers=client.seat(gid, 0))
            continue
        r = client.post(f"/api/games/{view.id}/actions", headers=client.seat(gid, 0),
                        json={"seat": 0, "action": rng.choice(view.legal), "revision": view.revision})
    assert {"TileRevealed", "CardsRevealed", "CastleTaken", "GameEnded"} <= types
    lobby = LobbyGames.model_validate_json(client.post("/api/lobby", json={"tokens": client.tokens.all()}).text)
    assert [(g.id, g.status) for g in lobby.knights] == [(gid, "over")]
    record = client.get(f"/api/games/{view.id}/record")
    assert KnightsSavedGame.model_validate_json(record.text).model_dump(mode="json") == record.json()
    refused = client.get(f"/api/games/{view.id}?seat=1")
    assert ErrorAnswer.model_validate_json(refused.text).error == "not-a-person"
