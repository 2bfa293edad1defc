"""A word at the table (issue 39 item 6): a seat of a game with friends elsewhere says one of the fixed messages with
its token; every page of the game hears it through the live events (the players' and the spectators'), across the
processes of a server on PostgreSQL; a seat says three at once, then one every three seconds; no other text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest

from tests.live_server import Server, start_server
from tests.server.test_web_online import EventStream, create, created, join, stranger
from tests.web_client import Json, WebClient, bearer
from zamek import i18n
from zamek.server.schema_watch import TABLE_MESSAGES
from zamek.server.talk import TALK_BURST, Buckets


def say(client: WebClient, game_id: str, seat: int, message: str = "hello") -> httpx.Response:
    return client.post(f"/api/games/{game_id}/say", json={"message": message}, headers=client.seat(game_id, seat))


def friends(client: WebClient) -> Json:
    game = create(client, name="Ala")
    join(client, game)
    return game


def test_every_message_has_its_words_in_every_language(client: WebClient) -> None:
    assert client.get("/api/meta").json()["table_messages"] == list(TABLE_MESSAGES)
    for lang in i18n.languages():
        words = i18n.catalogue(lang)
        assert all(words.say(f"page.say.{key}") for key in TABLE_MESSAGES)


def test_a_seat_says_a_fixed_message_with_its_token(client: WebClient) -> None:
    game = friends(client)
    answer = say(client, game["id"], 1, "good-luck")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"game": game["id"], "seat": 1, "message": "good-luck"}


def test_only_a_seats_token_speaks(client: WebClient) -> None:
    game = friends(client)
    url = f"/api/games/{game['id']}/say"
    assert client.post(url, json={"message": "hello"}).status_code == 401
    refused = client.post(url, json={"message": "hello"}, headers=stranger())
    assert refused.status_code == 403 and refused.json()["error"] == "not-your-seat"
    assert client.post("/api/games/nosuchgame0/say", json={"message": "hello"},
                       headers=client.seat(game["id"], 0)).status_code == 404


@pytest.mark.parametrize("body", [{"message": "you are bad"}, {"message": "page.say.hello"}, {"message": ""},
                                  {}, {"message": "hello", "text": "hi"}, {"message": 3}])
def test_no_other_text_is_said(client: WebClient, body: Json) -> None:
    game = friends(client)
    answer = client.post(f"/api/games/{game['id']}/say", json=body, headers=client.seat(game["id"], 0))
    assert answer.status_code == 422, answer.text
    if body.get("message") == "you are bad":
        assert answer.json()["code"] == "unknown-message"


def test_nobody_hears_words_in_a_game_against_the_computer(client: WebClient) -> None:
    game = create(client, mode="computer")
    answer = say(client, game["id"], game["human"])
    assert answer.status_code == 409 and answer.json()["code"] == "no-one-to-hear"


def test_a_seat_says_three_at_once_then_waits(client: WebClient) -> None:
    game = friends(client)
    for _ in range(TALK_BURST):
        assert say(client, game["id"], 0).status_code == 200
    refused = say(client, game["id"], 0)
    assert refused.status_code == 429 and refused.json()["code"] == "too-many-words"
    assert 1 <= int(refused.headers["Retry-After"]) <= 3
    assert say(client, game["id"], 1).status_code == 200  # the other seat has its own count


def test_the_count_grows_back_one_every_three_seconds() -> None:
    now = [0.0]
    buckets = Buckets(every=3.0, burst=3, clock=lambda: now[0])
    assert [buckets.take("a") for _ in range(3)] == [0, 0, 0]
    assert buckets.take("a") == pytest.approx(3.0)
    now[0] = 2.0
    assert buckets.take("a") == pytest.approx(1.0)
    now[0] = 3.0
    assert buckets.take("a") == 0
    assert buckets.take("a") == pytest.approx(3.0)
    now[0] = 100.0
    assert [buckets.take("a") for _ in range(4)][-1] == pytest.approx(3.0)  # never more than the burst saved up


def test_a_card_game_with_a_friend_speaks_too(client: WebClient) -> None:
    made = client.post("/api/games", json={"game": "knights", "seats": ["person", "friend"]})
    assert made.status_code == 201, made.text
    join(client, made.json())
    assert say(client, made.json()["id"], 1, "oops").json()["seat"] == 1


# ------------------------------------------------------------------ heard through the live events


class Table:
    """A game with a friend on real servers, and the pages that follow it: the creator's on the first server, the
    friend's and a spectator's on the last, each past its first presence."""

    def __init__(self, servers: list[Server]) -> None:
        self.servers = servers
        self.http = httpx.Client(base_url=servers[0].url, timeout=10)
        self.streams: list[EventStream] = []
        game, mine = created(self.http, "/api/games", {"mode": "friend"})
        _, theirs = created(self.http, f"/api/games/{game['id']}/join", {"invite": game["invite"]})
        self.id, self.tokens = game["id"], mine | theirs
        for server, token in ((servers[0], mine[0]), (servers[-1], theirs[1]), (servers[-1], None)):
            self.open(server, token)

    def open(self, server: Server, token: str | None) -> EventStream:
        stream = EventStream(server, f"/api/games/{self.id}/events", bearer(token) if token else None)
        self.streams.append(stream)
        stream.next("presence")
        return stream

    def say(self, seat: int, message: str) -> None:
        answer = self.http.post(f"/api/games/{self.id}/say", json={"message": message},
                                headers=bearer(self.tokens[seat]))
        assert answer.status_code == 200, answer.text

    def heard_once(self, seat: int, message: str, timeout: float = 2.0) -> None:
        for stream in self.streams:
            assert stream.next("say", timeout=timeout).data == {"game": self.id, "seat": seat, "message": message}
            stream.quiet("say", 0.3)

    def close(self) -> None:
        for stream in self.streams:
            stream.close()
        self.http.close()
        for server in self.servers:
            server.stop()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    opened = Table([start_server(tmp_path / "games.sqlite3")])
    yield opened
    opened.close()


@pytest.fixture
def two_workers(pg_url: str) -> Iterator[Table]:
    """Two servers on one PostgreSQL database (two workers, each with its memory)."""
    opened = Table([start_server(pg_url), start_server(pg_url)])
    yield opened
    opened.close()


def test_both_players_and_the_spectators_hear_a_word_once(table: Table) -> None:
    table.say(1, "well-played")
    table.heard_once(1, "well-played")
    later = table.open(table.servers[0], None)
    later.quiet("say", 0.3)  # what was said before a page opened is not said again


@pytest.mark.pg
def test_a_word_said_to_one_worker_is_heard_on_the_other(two_workers: Table) -> None:
    two_workers.say(0, "thanks")
    two_workers.heard_once(0, "thanks", timeout=5)
