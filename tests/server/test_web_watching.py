"""What a castle game against a friend shows those who do not hold its seat: the opponent and the spectators see the
tile being placed (it is public, as it is at a real table) but neither the seed nor the draw order; the view and the
live events count the spectators watching."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx2 as httpx
import pytest

from tests.live_server import Server, start_server
from tests.server.test_web_online import Event, EventStream, create, join
from tests.web_client import WebClient, bearer, finished_record


def test_z22_the_opponent_and_spectators_see_the_drawn_tile_but_not_the_seed_nor_the_draw_order(
        client: WebClient) -> None:
    game = create(client, name="Ala")
    join(client, game)
    gid = game["id"]
    mover = client.get(f"/api/games/{gid}", headers=client.seat(gid, 0)).json()
    assert mover["current"] == 0 and mover["phase"] == "place"
    seed = client.service.get(gid).seed
    for headers in ({}, client.seat(gid, 1)):  # a spectator (no token), the opponent (the other seat's token)
        answer = client.get(f"/api/games/{gid}", headers=headers)
        view = answer.json()
        assert view["drawn"]["id"] == mover["drawn"]["id"]
        assert view["drawn"]["places"] == mover["drawn"]["places"] and view["drawn"]["places"]
        assert view["prompt_words"]["tile"] == mover["drawn"]["id"]
        assert view["seed"] is None and view["setup"]["draw_order"] is None
        assert str(seed) not in answer.text
        assert view["remaining"] == sorted(view["remaining"])  # the tiles to come, never in the order they come


def test_z22_an_imported_draw_order_stays_hidden_from_spectators_while_the_game_goes_on(client: WebClient) -> None:
    record = finished_record(4)
    record["result"] = None
    draws = [m.removeprefix("draw:") for m in record["moves"] if m.startswith("draw:")]
    record["moves"] = record["moves"][:7]  # the third tile drawn, to be placed
    record["setup"]["draw_order"] = draws
    answer = client.post("/api/import", json=record)
    assert answer.status_code == 201, answer.text
    gid = answer.json()["id"]
    spectator = client.get(f"/api/games/{gid}")
    view = spectator.json()
    assert not view["over"] and view["drawn"]["id"] == draws[2]
    assert view["seed"] is None and view["setup"]["draw_order"] is None
    assert view["remaining"] == sorted(view["remaining"])
    assert ",".join(json.dumps(d) for d in draws[3:8]) not in spectator.text


# ------------------------------------------------------------------ spectators counted


@pytest.fixture
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = start_server(tmp_path_factory.mktemp("watching") / "games.sqlite3")
    yield server
    server.stop()


@pytest.fixture
def streams() -> Iterator[list[EventStream]]:
    opened: list[EventStream] = []
    yield opened
    for stream in opened:
        stream.close()


def presence_watching(stream: EventStream, count: int, timeout: float = 3.0) -> Event:
    """The stream's next ``presence`` event that counts ``count`` spectators."""
    while True:
        event = stream.next("presence", timeout)
        if event.data["watching"] == count:
            return event


def test_opening_a_spectators_stream_raises_the_count_of_those_watching(
        live: Server, streams: list[EventStream]) -> None:
    with httpx.Client(base_url=live.url, timeout=10) as http:
        game = http.post("/api/games", json={"mode": "friend", "seat": "first"}).json()
        gid = game["id"]
        token = game["tokens"][0]["token"]
        assert http.post(f"/api/games/{gid}/join", json={"invite": game["invite"]}).status_code == 201
        path = f"/api/games/{gid}/events"

        def watching() -> int:
            count: int = http.get(f"/api/games/{gid}").json()["watching"]
            return count

        assert watching() == 0
        streams.append(player := EventStream(live, path, bearer(token)))
        assert player.next("presence").data == {"game": gid, "connected": [0], "watching": 0}
        assert watching() == 0  # a seat's page is not a spectator's
        streams.append(spectator := EventStream(live, path))
        assert spectator.next("presence").data == {"game": gid, "connected": [0], "watching": 1}
        presence_watching(player, 1)  # the players hear of it
        assert watching() == 1
        streams.append(another := EventStream(live, path))
        presence_watching(player, 2)
        assert watching() == 2
        another.close()
        presence_watching(player, 1)
        assert watching() == 1
