"""Online play through the web API (protocol version 3): seats and their tokens, invitations, the lobby, a game
against a friend played to its end, resignation and rematch, clocks, Rycerze i zamki with friends, adopting the
games stored before seats, and live events (Server-Sent Events, on a real server)."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import queue
import random
import re
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx2 as httpx
import pytest
from sqlalchemy import delete
from sqlalchemy.orm import Session

from tests.live_server import Server, start_server
from tests.web_client import FakeTime, Json, Tokens, WebClient, bearer, client_for, legacy_castle
from zamek import Setup, new_game
from zamek.server import events
from zamek.server.db import Repository
from zamek.server.schemas import API_VERSION
from zamek.server.tables import ExtrasRow, SeatRow

# ------------------------------------------------------------------ helpers


def create(client: WebClient, **options: Any) -> Json:
    body = {"mode": "friend", "seat": "first"} | options
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    game: Json = response.json()
    return game


def join(client: WebClient, game: Json, name: str | None = "Olek", key: str | None = None) -> Json:
    body = {"invite": game["invite"], "name": name} | ({"key": key} if key else {})
    response = client.post(f"/api/games/{game['id']}/join", json=body)
    assert response.status_code == 201, response.text
    joined: Json = response.json()
    return joined


def friend_game(client: WebClient, **options: Any) -> Json:
    """A game against a friend who has joined (the creator first, named Ala): the friend's first view."""
    return join(client, create(client, name="Ala", **options))


def started_game(client: WebClient, **options: Any) -> Json:
    """A game against a friend whose players have both made their first move, so its clock runs (a fair start):
    the creator, Ala, is to move again."""
    return finish_turn(client, finish_turn(client, friend_game(client, **options)))


def seed_of(client: WebClient, game_id: str) -> int:
    """The seed the server chose (a game against a friend has no chosen seed)."""
    return client.service.get(game_id).seed


def view_of(client: WebClient, game_id: str) -> Json:
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    view: Json = response.json()
    return view


def move(client: WebClient, view: Json, action: str, seat: int | None = None, status: int = 200) -> Json:
    """A move by ``seat`` (default: the seat to move), with its token and the view's revision."""
    seat = view["current"] if seat is None else seat
    response = client.post(f"/api/games/{view['id']}/actions", json={"action": action, "revision": view["revision"]},
                           headers=client.seat(view["id"], seat))
    assert response.status_code == status, response.text
    answer: Json = response.json()
    return answer


def random_move(view: Json, rng: random.Random) -> str:
    """A legal move, from the view: a place of the drawn tile, or one of the choices."""
    if view["phase"] == "place":
        return str(rng.choice(view["drawn"]["places"])["action"])
    return str(rng.choice(view["choices"])["action"])


def finish_turn(client: WebClient, view: Json) -> Json:
    """The player to move places the drawn tile and passes (declines, or answers a question with its first option)
    until the other player is to move."""
    player = view["current"]
    view = move(client, view, view["drawn"]["places"][0]["action"])
    while not view["over"] and view["current"] == player:
        choice = next((c for c in view["choices"] if c["type"] in ("pass", "decline")), view["choices"][0])
        view = move(client, view, choice["action"])
    return view


def stranger() -> dict[str, str]:
    """A token that holds no seat of any game."""
    return bearer("not-a-token-of-this-server-0123456789")


def unchanged(client: WebClient, before: Json) -> None:
    """The game is as ``before``: its revision, its moves, its end."""
    after = view_of(client, before["id"])
    assert (after["revision"], after["moves_count"], after["over"]) == (
        before["revision"], before["moves_count"], before["over"])


# --------------------------------------------------- seats and their tokens

CASTLE_ROUTES = [
    ("post", "actions", {"action": "pass"}),
    ("post", "draw", {}),
    ("post", "undo", {}),
    ("post", "resign", {}),
    ("post", "rematch", None),
    ("delete", "", None),
]


@pytest.mark.parametrize(("method", "route", "body"), CASTLE_ROUTES, ids=[r[1] or "delete" for r in CASTLE_ROUTES])
def test_every_change_needs_a_token_of_a_seat(client: WebClient, method: str, route: str, body: Json | None) -> None:
    """401 without a token (or without a Bearer one), 403 with a token of no seat of this game; nothing changes."""
    other = create(client, mode="hotseat")  # its tokens hold seats of another game
    game = create(client, mode="hotseat")
    view = finish_turn(client, game)  # player 1 is to draw; player 0's turn may still be taken back
    assert view["phase"] == "draw" and view["can_undo"]
    url = f"/api/games/{game['id']}" + (f"/{route}" if route else "")
    for headers, status in (({}, 401), ({"Authorization": "Basic dXNlcjpwYXNz"}, 401), (stranger(), 403),
                            (client.seat(other["id"], 0), 403), (client.seat(other["id"], 1), 403)):
        response = client.request(method, url, json=body, headers=headers)
        assert response.status_code == status, (headers, response.text)
        assert response.json()["error"] == "not-your-seat"
        unchanged(client, view)
    # The same request with the seat's token is not refused for its seat.
    right = client.last_mover(view) if route == "undo" else client.mover(view)
    assert client.request(method, url, json=body, headers=right).status_code not in (401, 403)


def test_a_seat_moves_only_in_its_turn(client: WebClient) -> None:
    view = friend_game(client)
    assert view["current"] == 0
    refused = client.post(f"/api/games/{view['id']}/actions", headers=client.seat(view["id"], 1),
                          json={"action": view["drawn"]["places"][0]["action"], "revision": view["revision"]})
    assert refused.status_code == 409 and refused.json()["error"] == "not-your-turn"
    unchanged(client, view)
    # Two people at one screen: each seat's token is its own too.
    hotseat = create(client, mode="hotseat")
    refused = client.post(f"/api/games/{hotseat['id']}/actions", headers=client.seat(hotseat["id"], 1),
                          json={"action": hotseat["drawn"]["places"][0]["action"]})
    assert refused.status_code == 409 and refused.json()["error"] == "not-your-turn"
    # Only the player who made the last move takes it back.
    placed = move(client, view, view["drawn"]["places"][0]["action"])
    assert placed["can_undo"] and placed["recent"][-1]["player"] == 0
    refused = client.post(f"/api/games/{view['id']}/undo", json={"revision": placed["revision"]},
                          headers=client.seat(view["id"], 1))
    assert refused.status_code == 403 and refused.json()["error"] == "not-your-seat"
    unchanged(client, placed)
    back = client.post(f"/api/games/{view['id']}/undo", json={"revision": placed["revision"]},
                       headers=client.seat(view["id"], 0))
    assert back.status_code == 200 and back.json()["phase"] == "place"


def test_a_stale_revision_is_refused(client: WebClient) -> None:
    view = friend_game(client)
    placed = move(client, view, view["drawn"]["places"][0]["action"])
    for route, body in (("actions", {"action": "pass", "revision": view["revision"]}),
                        ("undo", {"revision": view["revision"]}), ("resign", {"revision": view["revision"]})):
        refused = client.post(f"/api/games/{view['id']}/{route}", json=body, headers=client.seat(view["id"], 0))
        assert refused.status_code == 409 and refused.json()["error"] == "stale", route
        unchanged(client, placed)


def test_game_ids_and_tokens_are_long_random_and_unique(client: WebClient, tmp_path: Path) -> None:
    """128 random bits an id (22 URL-safe characters), 192 a token or invitation (32); the server stores only the
    tokens' digests."""
    url_safe = re.compile(r"^[A-Za-z0-9_-]+$")
    answers = [create(client, mode=mode, seed=None) for mode in ("computer", "hotseat", "friend") for _ in range(6)]
    answers += [client.post("/api/games", json={"game": "knights", "seats": seats}).json()
                for seats in (["person", "friend", "mc"], ["person", "person"]) for _ in range(4)]
    ids = [a["id"] for a in answers]
    secrets = [t["token"] for a in answers for t in a["tokens"]] + [a["invite"] for a in answers if a["invite"]]
    assert len(set(ids)) == len(ids) and len(set(secrets)) == len(secrets) and len(secrets) > len(ids)
    assert all(len(i) >= 22 and url_safe.match(i) for i in ids), ids
    assert all(len(s) >= 32 and url_safe.match(s) for s in secrets), secrets
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("games.sqlite3*"))
    assert all(i.encode() in raw for i in ids)  # the database is the one written
    assert not [s for s in secrets if s.encode() in raw], "a token or invitation is stored as it is"


# -------------------------------------------------------------- the lobby


def test_the_lobby_lists_only_the_games_of_the_tokens_given(client: WebClient) -> None:
    mine = Tokens()
    castle = create(client, name="Ala")
    knights = client.post("/api/games", json={"game": "knights", "seats": ["person", "friend"]}).json()
    for answer in (castle, knights):
        mine.keep(answer)
    theirs = create(client, mode="hotseat")
    lobby = client.lobby(mine.all())
    assert [g["id"] for g in lobby["castle"]] == [castle["id"]]
    assert [g["id"] for g in lobby["knights"]] == [knights["id"]]
    line = lobby["castle"][0]
    assert line["seats"] == [0] and line["waiting"] and not line["your_move"]
    assert lobby["knights"][0]["held"] == [0] and lobby["knights"][0]["waiting"]
    # A stranger's lobby: no tokens, a token of no seat, another player's tokens.
    assert client.lobby([]) == {"castle": [], "knights": [], "more": False}
    assert client.lobby(["x" * 32]) == {"castle": [], "knights": [], "more": False}
    assert [g["id"] for g in client.lobby([t["token"] for t in theirs["tokens"]])["castle"]] == [theirs["id"]]
    # The friend who joins has the game in their lobby, with their seat; the seat to move sees "your move".
    friend = join(client, castle)
    friends = client.lobby([t["token"] for t in friend["tokens"]])
    assert [(g["id"], g["seats"], g["your_move"], g["waiting"]) for g in friends["castle"]] == [
        (castle["id"], [1], False, False)]
    assert client.lobby(mine.all())["castle"][0]["your_move"]
    assert friends["castle"][0]["names"] == ["Ala", "Olek"]  # the lobby says whom you play
    assert client.post("/api/lobby", json={"tokens": ["short"]}).status_code == 422


def test_the_lobby_is_paged_the_latest_changed_first(client: WebClient) -> None:
    games = [create(client, mode="hotseat")["id"] for _ in range(4)]
    knights = client.post("/api/games", json={"game": "knights", "seats": ["person", "random"]}).json()["id"]
    newest_first = [knights, *reversed(games)]

    def page(offset: int, limit: int) -> tuple[list[str], bool]:
        answer = client.post("/api/lobby", json={"tokens": client.tokens.all(), "offset": offset, "limit": limit})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        return [g["id"] for g in body["castle"] + body["knights"]], body["more"]

    first, more = page(0, 2)
    assert sorted(first) == sorted(newest_first[:2]) and more  # the two latest changed (each game kind apart)
    seen = []
    offset, more = 0, True
    while more:
        ids, more = page(offset, 2)
        seen += ids
        offset += 2
    assert sorted(seen) == sorted(newest_first) and len(seen) == 5  # every game once, over three pages
    assert page(4, 2) == ([games[0]], False)  # the oldest last
    assert client.post("/api/lobby", json={"tokens": [], "limit": 0}).status_code == 422
    assert client.post("/api/lobby", json={"tokens": [], "limit": 1000}).status_code == 422


# ------------------------------------------------------------- invitation


def test_a_friend_takes_the_open_seat_with_the_invitation(client: WebClient) -> None:
    game = create(client, name="Ala", seat="second")
    assert game["invite"] and [t["seat"] for t in game["tokens"]] == [1]
    assert [(s["player"], s["name"]) for s in game["seats"]] == [("open", None), ("person", "Ala")]
    # Nobody moves before the friend has joined.
    refused = client.post(f"/api/games/{game['id']}/actions", headers=client.seat(game["id"], 1),
                          json={"action": game["drawn"]["places"][0]["action"]})
    assert refused.status_code == 409 and refused.json()["error"] == "waiting"
    wrong = client.post(f"/api/games/{game['id']}/join", json={"invite": "y" * 32})
    assert wrong.status_code == 403 and wrong.json()["error"] == "bad-invite"
    other = create(client)
    wrong = client.post(f"/api/games/{game['id']}/join", json={"invite": other["invite"]})
    assert wrong.status_code == 403 and wrong.json()["error"] == "bad-invite"
    unchanged(client, game)
    joined = join(client, game, "Olek", key="k" * 24)  # the page's key of this joining
    assert [t["seat"] for t in joined["tokens"]] == [0] and joined["invite"] is None
    assert [(s["player"], s["name"]) for s in joined["seats"]] == [("person", "Olek"), ("person", "Ala")]
    assert joined["revision"] > game["revision"]
    # The friend's answer was lost on the way: the same invitation with the same key gives the same seat again,
    # with a new token (the first one no longer works), until that token is first used.
    lost = joined["tokens"][0]["token"]
    again = client.post(f"/api/games/{game['id']}/join", json={"invite": game["invite"], "name": "Olek",
                                                               "key": "k" * 24})
    assert again.status_code == 201 and [t["seat"] for t in again.json()["tokens"]] == [0], again.text
    assert again.json()["tokens"][0]["token"] != lost
    refused = client.post(f"/api/games/{game['id']}/actions", headers=bearer(lost),
                          json={"action": joined["drawn"]["places"][0]["action"]})
    assert refused.status_code == 403 and refused.json()["error"] == "not-your-seat"
    assert [(s["player"], s["name"]) for s in view_of(client, game["id"])["seats"]] == [("person", "Olek"),
                                                                                       ("person", "Ala")]
    # The friend is first here: their token moves; the game is both players' now, so it stays.
    move(client, view_of(client, game["id"]), joined["drawn"]["places"][0]["action"], seat=0)
    taken = client.post(f"/api/games/{game['id']}/join", json={"invite": game["invite"], "name": "Ewa"})
    assert taken.status_code == 409 and taken.json()["error"] == "no-free-seat"
    refused = client.delete(f"/api/games/{game['id']}", headers=client.seat(game["id"], 1))
    assert refused.status_code == 409 and refused.json()["error"] == "shared-game"


def test_the_creator_may_delete_a_game_nobody_joined(client: WebClient) -> None:
    game = create(client)
    assert client.delete(f"/api/games/{game['id']}", headers=client.seat(game["id"], 0)).status_code == 204
    assert client.get(f"/api/games/{game['id']}").status_code == 404
    assert client.post(f"/api/games/{game['id']}/join", json={"invite": game["invite"]}).status_code == 404


# --------------------------------------------------- a friend's game, to its end


def test_z22_a_whole_game_against_a_friend_by_two_tokens(client: WebClient) -> None:
    """Random legal moves from the views, each by the token of the seat to move; spectators never see the seed
    (Z22) until the game is over."""
    view = friend_game(client)
    seed = seed_of(client, view["id"])
    rng = random.Random(17)
    moves = 0
    while not view["over"]:
        assert view["human_to_act"] and not view["thinking"] and view["phase"] not in ("draw", "reveal")
        if moves % 15 == 0:  # now and then: the other seat's token is refused, the spectator sees no seed
            other = client.post(f"/api/games/{view['id']}/actions",
                                json={"action": random_move(view, rng), "revision": view["revision"]},
                                headers=client.seat(view["id"], 1 - view["current"]))
            assert other.status_code == 409 and other.json()["error"] == "not-your-turn"
            watched = view_of(client, view["id"])
            assert watched["seed"] is None and watched["revision"] == view["revision"]
            assert client.get(f"/api/games/{view['id']}/record").json()["seed"] is None
        view = move(client, view, random_move(view, rng))
        moves += 1
    assert moves > 60
    assert view["ended"] is None and view["result"]["scores"] == [p["score"] for p in view["players"]]
    assert view["seed"] == seed and view_of(client, view["id"])["seed"] == seed
    assert client.get(f"/api/games/{view['id']}/record").json()["seed"] == seed
    assert [(g["status"], g["your_move"]) for g in client.lobby()["castle"]] == [("over", False)]
    refused = client.post(f"/api/games/{view['id']}/actions", json={"action": "pass"}, headers=client.mover(view))
    assert refused.status_code == 409


def test_z22_resigning_ends_the_game_the_other_seat_wins(client: WebClient) -> None:
    view = friend_game(client)
    seed = seed_of(client, view["id"])
    view = finish_turn(client, view)
    assert view["current"] == 1 and view["seed"] is None
    resigned = client.post(f"/api/games/{view['id']}/resign", json={"revision": view["revision"]},
                           headers=client.seat(view["id"], 0))  # resigning needs no turn
    assert resigned.status_code == 200, resigned.text
    over = resigned.json()
    assert over["over"] and over["ended"] == {"reason": "resign", "loser": 0}
    assert over["result"]["winners"] == [1]
    assert over["seed"] == seed and view_of(client, view["id"])["seed"] == seed  # Z22: published at the end
    assert over["choices"] == [] or not over["human_to_act"]
    for route, body in (("actions", {"action": random_move(view, random.Random(1))}), ("resign", {})):
        refused = client.post(f"/api/games/{view['id']}/{route}", json=body, headers=client.seat(view["id"], 1))
        assert refused.status_code == 409, route
    unchanged(client, over)


def test_a_rematch_swaps_the_seats_and_each_player_gets_a_working_token(client: WebClient) -> None:
    game = create(client, name="Ala")
    refused = client.post(f"/api/games/{game['id']}/rematch", headers=client.seat(game["id"], 0))
    assert refused.status_code == 409 and refused.json()["error"] == "in-progress"
    join(client, game, "Olek")
    old = {seat: client.tokens.token(game["id"], seat) for seat in (0, 1)}
    client.post(f"/api/games/{game['id']}/resign", headers=bearer(old[1]))
    # Ala (seat 0) offers the rematch: she plays second in it.
    offered = client.post(f"/api/games/{game['id']}/rematch", headers=bearer(old[0]))
    assert offered.status_code == 201, offered.text
    rematch = offered.json()
    assert rematch["id"] != game["id"] and rematch["mode"] == "friend" and rematch["invite"] is None
    assert [t["seat"] for t in rematch["tokens"]] == [1]
    # Olek's seat waits for him (nobody can take it by an invitation): the game does not start without him.
    assert [(s["player"], s["name"]) for s in rematch["seats"]] == [("open", "Olek"), ("person", "Ala")]
    assert view_of(client, game["id"])["rematch"] == rematch["id"]
    # Olek takes his seat (the first) by the same route, with his token of the old game.
    taken = client.post(f"/api/games/{game['id']}/rematch", headers=bearer(old[1]))
    assert taken.status_code == 201 and taken.json()["id"] == rematch["id"]
    assert [t["seat"] for t in taken.json()["tokens"]] == [0]
    new = {0: taken.json()["tokens"][0]["token"], 1: rematch["tokens"][0]["token"]}
    assert not set(new.values()) & set(old.values())
    # The old tokens hold no seat of the new game; the new ones play it, each in its turn.
    view = view_of(client, rematch["id"])
    assert view["current"] == 0 and not view["over"]
    assert [(s["player"], s["name"]) for s in view["seats"]] == [("person", "Olek"), ("person", "Ala")]
    url = f"/api/games/{rematch['id']}/actions"
    place = {"action": view["drawn"]["places"][0]["action"], "revision": view["revision"]}
    for token in old.values():
        assert client.post(url, json=place, headers=bearer(token)).status_code == 403
    assert client.post(url, json=place, headers=bearer(new[1])).json()["error"] == "not-your-turn"
    view = finish_turn(client, view)
    assert view["current"] == 1 and view["moves_count"] > 0
    view = finish_turn(client, view)
    assert view["current"] == 0
    # A rematch is for games against a friend.
    hotseat = create(client, mode="hotseat")
    client.post(f"/api/games/{hotseat['id']}/resign", headers=client.seat(hotseat["id"], 0))
    refused = client.post(f"/api/games/{hotseat['id']}/rematch", headers=client.seat(hotseat["id"], 0))
    assert refused.status_code == 409


# ------------------------------------------------------------------ clocks


def clock_of(client: WebClient, game_id: str) -> Json:
    clock: Json = view_of(client, game_id)["clock"]
    return clock


def test_a_live_clock_runs_for_the_player_to_move_and_adds_the_increment(
    clocked: tuple[WebClient, FakeTime],
) -> None:
    client, fake = clocked
    game = create(client, clock={"kind": "live", "minutes": 1, "increment": 5})
    assert game["clock"]["left_ms"] == [60_000, 60_000] and game["clock"]["running"] is None
    fake.advance(30)  # nobody's time runs before the friend joins
    view = join(client, game)
    fake.advance(20)  # nor before each player has made a first move (a fair start)
    view = finish_turn(client, view)
    fake.advance(20)
    view = finish_turn(client, view)
    assert view["clock"]["left_ms"] == [60_000, 60_000] and view["clock"]["running"] == 0
    fake.advance(10)
    assert clock_of(client, game["id"])["left_ms"] == [50_000, 60_000]
    view = move(client, view, view["drawn"]["places"][0]["action"])
    assert view["clock"]["left_ms"] == [50_000, 60_000] and view["clock"]["running"] == 0  # within a turn
    fake.advance(2)
    while view["current"] == 0:
        choice = next((c for c in view["choices"] if c["type"] in ("pass", "decline")), view["choices"][0])
        view = move(client, view, choice["action"])
    assert view["clock"]["left_ms"] == [60_000 - 12_000 + 5_000, 60_000] and view["clock"]["running"] == 1
    fake.advance(7)
    assert clock_of(client, game["id"])["left_ms"] == [53_000, 53_000]
    assert client.service.expire_clocks() == []
    fake.advance(53)  # player 1's time runs out
    assert client.service.expire_clocks() == [game["id"]]
    over = view_of(client, game["id"])
    assert over["over"] and over["ended"] == {"reason": "timeout", "loser": 1} and over["result"]["winners"] == [0]
    assert over["clock"]["running"] is None and over["clock"]["left_ms"] == [53_000, 0]
    assert over["seed"] == seed_of(client, game["id"])  # Z22: published at the end
    fake.advance(100)
    assert clock_of(client, game["id"])["left_ms"] == [53_000, 0]  # a stopped clock


def test_no_game_is_lost_on_time_before_both_players_have_moved(clocked: tuple[WebClient, FakeTime]) -> None:
    """A fair start: the clocks wait for every first move; a player who never makes theirs lets the game be
    aborted (no winner, no loser), by the server after the time for a first move, or by either player at once."""
    client, fake = clocked
    game = create(client, clock={"kind": "live", "minutes": 0.5, "increment": 0})
    fake.advance(3600)  # nobody has joined: nothing runs out
    assert client.service.expire_clocks() == []
    view = join(client, game)
    fake.advance(45)  # more than the first player's whole time, less than the time for a first move
    assert client.service.expire_clocks() == [] and not view_of(client, game["id"])["over"]
    view = finish_turn(client, view_of(client, game["id"]))
    assert view["clock"]["running"] is None and view["clock"]["left_ms"] == [30_000, 30_000]
    fake.advance(59)
    assert client.service.expire_clocks() == []
    fake.advance(2)  # the second player never made their first move
    assert client.service.expire_clocks() == [game["id"]]
    aborted = view_of(client, game["id"])
    assert aborted["over"] and aborted["ended"] == {"reason": "abort", "loser": None}
    assert aborted["result"]["winners"] == [] and aborted["clock"]["left_ms"] == [30_000, 30_000]
    line = next(g for g in client.lobby()["castle"] if g["id"] == game["id"])
    assert line["ended"] == "abort" and line["winners"] == []


def test_either_player_may_abort_until_both_have_moved(clocked: tuple[WebClient, FakeTime]) -> None:
    client, _ = clocked
    view = friend_game(client, clock={"kind": "live", "minutes": 5, "increment": 0})
    refused = client.post(f"/api/games/{view['id']}/abort", json={})
    assert refused.status_code == 401
    aborted = client.post(f"/api/games/{view['id']}/abort", json={"revision": view["revision"]},
                          headers=client.seat(view["id"], 1))  # the player not to move
    assert aborted.status_code == 200, aborted.text
    assert aborted.json()["ended"] == {"reason": "abort", "loser": None} and aborted.json()["over"]
    started = started_game(client, clock={"kind": "live", "minutes": 5, "increment": 0})
    late = client.post(f"/api/games/{started['id']}/abort", json={}, headers=client.seat(started["id"], 0))
    assert late.status_code == 409 and late.json()["error"] == "started"
    assert not view_of(client, started["id"])["over"]


def test_a_move_after_the_time_ran_out_loses_the_game(clocked: tuple[WebClient, FakeTime]) -> None:
    client, fake = clocked
    view = started_game(client, clock={"kind": "live", "minutes": 1, "increment": 0})
    fake.advance(60.5)
    refused = client.post(f"/api/games/{view['id']}/actions", headers=client.seat(view["id"], 0),
                          json={"action": view["drawn"]["places"][0]["action"], "revision": view["revision"]})
    assert refused.status_code == 409 and refused.json()["error"] == "time-out"
    over = view_of(client, view["id"])
    assert over["over"] and over["ended"] == {"reason": "timeout", "loser": 0} and over["result"]["winners"] == [1]
    assert over["moves_count"] == view["moves_count"]  # the late move was not played
    again = client.post(f"/api/games/{view['id']}/actions", headers=client.seat(view["id"], 0),
                        json={"action": view["drawn"]["places"][0]["action"]})
    assert again.status_code == 409
    assert client.service.expire_clocks() == []


def test_out_of_time_the_opponent_cannot_resign_the_win_away(clocked: tuple[WebClient, FakeTime]) -> None:
    """Between the server's looks at the clocks, a resignation by either player finds the time out first."""
    client, fake = clocked
    view = started_game(client, clock={"kind": "live", "minutes": 1, "increment": 0})
    fake.advance(61)
    refused = client.post(f"/api/games/{view['id']}/resign", json={}, headers=client.seat(view["id"], 1))
    assert refused.status_code == 409 and refused.json()["error"] == "time-out"
    assert view_of(client, view["id"])["ended"] == {"reason": "timeout", "loser": 0}


def test_a_game_nobody_joined_is_deleted_not_resigned(client: WebClient) -> None:
    game = create(client)
    refused = client.post(f"/api/games/{game['id']}/resign", json={}, headers=client.seat(game["id"], 0))
    assert refused.status_code == 409 and refused.json()["error"] == "waiting"
    assert client.delete(f"/api/games/{game['id']}", headers=client.seat(game["id"], 0)).status_code == 204


def test_a_correspondence_clock_gives_each_turn_its_time(clocked: tuple[WebClient, FakeTime]) -> None:
    client, fake = clocked
    day = 86_400_000
    view = started_game(client, clock={"kind": "correspondence", "days": 1})
    fake.advance(20 * 3600)
    view = finish_turn(client, view_of(client, view["id"]))
    assert view["clock"]["left_ms"] == [day, day] and view["clock"]["running"] == 1
    fake.advance(23 * 3600)
    assert clock_of(client, view["id"])["left_ms"] == [day, 3_600_000]
    view = finish_turn(client, view_of(client, view["id"]))
    assert view["clock"]["left_ms"] == [day, day] and view["clock"]["running"] == 0
    fake.advance(day / 1000 - 1)
    assert client.service.expire_clocks() == []
    fake.advance(2)
    assert client.service.expire_clocks() == [view["id"]]
    assert view_of(client, view["id"])["ended"] == {"reason": "timeout", "loser": 0}


def test_a_rematchs_clocks_wait_for_both_players_and_their_first_moves(
    clocked: tuple[WebClient, FakeTime],
) -> None:
    """Ala offers the rematch and plays second: Olek, who starts, loses no time before he has taken his seat."""
    client, fake = clocked
    game = create(client, clock={"kind": "live", "minutes": 1, "increment": 0})
    join(client, game)
    client.post(f"/api/games/{game['id']}/resign", headers=client.seat(game["id"], 1))
    offered = client.post(f"/api/games/{game['id']}/rematch", headers=client.seat(game["id"], 0)).json()
    assert offered["current"] == 0 and offered["clock"]["running"] is None
    fake.advance(120)
    assert client.service.expire_clocks() == []
    assert not view_of(client, offered["id"])["over"]
    taken = client.post(f"/api/games/{game['id']}/rematch", headers=client.seat(game["id"], 1))
    assert taken.status_code == 201, taken.text
    assert taken.json()["clock"]["running"] is None and taken.json()["clock"]["left_ms"] == [60_000, 60_000]
    assert taken.json()["revision"] > offered["revision"]  # Ala's page learns that Olek has arrived
    fake.advance(59)  # the clocks wait for the first moves; Olek has a minute for his
    assert client.service.expire_clocks() == [] and clock_of(client, offered["id"])["left_ms"] == [60_000, 60_000]
    fake.advance(2)
    assert client.service.expire_clocks() == [offered["id"]]
    assert view_of(client, offered["id"])["ended"] == {"reason": "abort", "loser": None}


def test_a_clock_is_friends_only(client: WebClient) -> None:
    for mode in ("computer", "hotseat"):
        refused = client.post("/api/games", json={"mode": mode, "clock": {"kind": "live"}})
        assert refused.status_code == 422 and "friend" in refused.json()["message"]
    refused = client.post("/api/games", json={"mode": "friend", "clock": {"kind": "live", "minutes": 0.1}})
    assert refused.status_code == 422


def wait_for(predicate: Any, timeout: float = 3.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("not in time")


def test_a_clock_survives_a_restart_and_the_servers_watch_ends_the_game(tmp_path: Path) -> None:
    """The clock is stored with the game (the time the server is down counts); the restarted server watches it and
    ends the game when the time runs out (it checks every 0.25 s)."""
    db = tmp_path / "games.sqlite3"
    fake = FakeTime()
    with client_for(db, clock=fake) as client:
        view = started_game(client, clock={"kind": "live", "minutes": 1, "increment": 2})
        fake.advance(10)
        view = finish_turn(client, view_of(client, view["id"]))
        assert view["clock"]["left_ms"] == [52_000, 60_000] and view["clock"]["running"] == 1
        fake.advance(3)
        tokens = client.tokens
    fake.advance(4)  # the server is down
    with client_for(db, clock=fake, tokens=tokens) as client:
        assert clock_of(client, view["id"]) | {"left_ms": None} == view["clock"] | {"left_ms": None}
        assert clock_of(client, view["id"])["left_ms"] == [52_000, 53_000]
        view = finish_turn(client, view_of(client, view["id"]))  # moves go on, charged from the stored clock
        assert view["clock"]["left_ms"] == [52_000, 55_000] and view["clock"]["running"] == 0
        fake.advance(52.5)
        ended = wait_for(lambda: view_of(client, view["id"])["ended"])
        assert ended == {"reason": "timeout", "loser": 0}


# ------------------------------------------------ Rycerze i zamki with friends


def knights_seat(client: WebClient, game_id: str, seat: int, token_seat: int | None = None,
                 status: int = 200) -> Json:
    """``seat``'s view asked with the token of ``token_seat`` (default: its own)."""
    token_seat = seat if token_seat is None else token_seat
    response = client.get(f"/api/games/{game_id}?seat={seat}", headers=client.seat(game_id, token_seat))
    assert response.status_code == status, response.text
    view: Json = response.json()
    return view


def test_k8_rycerze_i_zamki_with_a_friend_and_a_computer(client: WebClient) -> None:
    """A person, a friend who joins, a computer: each seat sees only its own hand (K8); the two people play the game
    to its end, each with their own token."""
    created = client.post("/api/games",
                          json={"game": "knights", "seats": ["person", "friend", "heuristic"], "name": "Ala"})
    assert created.status_code == 201, created.text
    game = created.json()
    gid = game["id"]
    assert game["invite"] and [t["seat"] for t in game["tokens"]] == [0] and game["hand"] is None
    assert [s["player"] for s in game["players_at"]] == ["person", "open", "computer"]
    refused = client.post(f"/api/games/{gid}/actions", json={"action": "play:dragon+hog"},
                          headers=client.seat(gid, 0))
    assert refused.status_code == 409 and refused.json()["error"] == "waiting"
    wrong = client.post(f"/api/games/{gid}/join", json={"invite": "z" * 32})
    assert wrong.status_code == 403 and wrong.json()["error"] == "bad-invite"
    joined = client.post(f"/api/games/{gid}/join", json={"invite": game["invite"], "name": "Olek"})
    assert joined.status_code == 201, joined.text
    friend = joined.json()
    assert friend["seat"] == 1 and friend["hand"] and [t["seat"] for t in friend["tokens"]] == [1]
    assert [(s["player"], s["name"]) for s in friend["players_at"]] == [
        ("person", "Ala"), ("person", "Olek"), ("computer", None)]
    assert friend["revision"] > game["revision"]
    knights_seat(client, gid, 1)  # the friend's token is used: the invitation gives the seat no more
    again = client.post(f"/api/games/{gid}/join", json={"invite": game["invite"]})
    assert again.status_code == 409 and again.json()["error"] == "no-free-seat"
    rng = random.Random(8)
    while True:
        public = client.get(f"/api/games/{gid}").json()
        if public["thinking"]:  # the computer seat chooses as a job of the server
            time.sleep(0.01)
            continue
        assert public["hand"] is None and public["camp"] is None and public["my_choice"] is None
        for seat in (0, 1):  # each token reads its own seat's view, not the other's
            assert knights_seat(client, gid, seat)["seat"] == seat
            other = knights_seat(client, gid, 1 - seat, token_seat=seat, status=403)
            assert other["error"] == "not-your-seat"
        computer = client.get(f"/api/games/{gid}?seat=2", headers=client.seat(gid, 0))
        assert computer.status_code == 403 and computer.json()["error"] == "not-a-person"
        if public["over"]:
            break
        seat = public["person_to_act"]
        assert seat in (0, 1)
        view = knights_seat(client, gid, seat)
        wrong_turn = client.post(f"/api/games/{gid}/actions", headers=client.seat(gid, 1 - seat),
                                 json={"action": view["legal"][0], "revision": view["revision"]})
        assert wrong_turn.status_code == 409 and wrong_turn.json()["error"] == "not-your-turn"
        moved = client.post(f"/api/games/{gid}/actions", headers=client.seat(gid, seat),
                            json={"action": rng.choice(view["legal"]), "revision": view["revision"]})
        assert moved.status_code == 200 and moved.json()["seat"] == seat, moved.text
    assert public["result"] is not None and sorted(public["result"]["ranking"]) == [0, 1, 2]
    assert client.get(f"/api/games/{gid}/record").status_code == 200
    refused = client.delete(f"/api/games/{gid}", headers=client.seat(gid, 0))
    assert refused.status_code == 409 and refused.json()["error"] == "shared-game"
    assert [(g["held"], g["status"], g["waiting"]) for g in client.lobby([client.tokens.token(gid, 1)])["knights"]
            ] == [([1], "over", False)]


def test_rycerze_i_zamki_changes_need_a_seats_token(client: WebClient) -> None:
    game = client.post("/api/games",
                       json={"game": "knights", "seats": ["person", "person", "random"], "seed": 4}).json()
    other = client.post("/api/games", json={"game": "knights", "seats": ["person", "mc"], "seed": 4}).json()
    gid = game["id"]
    view = knights_seat(client, gid, 0)
    for headers, status in (({}, 401), (stranger(), 403), (client.seat(other["id"], 0), 403)):
        for method, url, body in (("post", f"/api/games/{gid}/actions", {"action": view["legal"][0]}),
                                  ("delete", f"/api/games/{gid}", None),
                                  ("get", f"/api/games/{gid}?seat=0", None)):
            response = client.request(method, url, json=body, headers=headers)
            assert response.status_code == status, (method, headers, response.text)
            assert response.json()["error"] == "not-your-seat"
    assert knights_seat(client, gid, 0) == view  # nothing changed
    # A token asking for a seat it does not hold is refused; the seat's own token moves.
    asked = client.post(f"/api/games/{gid}/actions", json={"seat": 1, "action": view["legal"][0]},
                        headers=client.seat(gid, 0))
    assert asked.status_code == 403 and asked.json()["error"] == "not-your-seat"
    stale = client.post(f"/api/games/{gid}/actions", json={"action": view["legal"][0], "revision": 99},
                        headers=client.seat(gid, 0))
    assert stale.status_code == 409 and stale.json()["error"] == "stale"
    assert knights_seat(client, gid, 0) == view
    assert client.delete(f"/api/games/{gid}", headers=client.seat(gid, 1)).status_code == 204


# ------------------------------------------------------------------ adopt


def strip_seats(repo: Repository, game_id: str) -> None:
    """Make a stored game one of before seats: no seat rows, no extras."""
    with Session(repo.engine) as session, session.begin():
        session.execute(delete(SeatRow).where(SeatRow.game_id == game_id))
        session.execute(delete(ExtrasRow).where(ExtrasRow.game_id == game_id))


def test_games_stored_before_seats_are_adopted_once(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    repo = Repository(f"sqlite:///{db}")
    legacy_castle(repo, "oldhotseatgame", "hotseat", None)
    legacy_castle(repo, "oldcomputergame", "computer", 1)
    repo.close()
    with client_for(db, bot_delay=60) as client:
        assert client.post("/api/adopt").json() == []  # from another machine (the test client): nothing
        adopted = client.service.adopt()
        assert sorted((a.kind, a.id, a.seat) for a in adopted) == [
            ("castle", "oldcomputergame", 1), ("castle", "oldhotseatgame", 0), ("castle", "oldhotseatgame", 1)]
        assert client.service.adopt() == []  # once
        for a in adopted:
            client.tokens.seats.setdefault(a.id, {})[a.seat] = a.token
        lobby = client.lobby()
        assert sorted((g["id"], tuple(g["seats"])) for g in lobby["castle"]) == [
            ("oldcomputergame", (1,)), ("oldhotseatgame", (0, 1))]
        # The tokens play: two people at one screen draw and place.
        view = view_of(client, "oldhotseatgame")
        assert view["phase"] == "draw" and [s["player"] for s in view["seats"]] == ["person", "person"]
        drawn = client.post("/api/games/oldhotseatgame/draw", headers=client.mover(view))
        assert drawn.status_code == 200, drawn.text
        placed = move(client, drawn.json(), drawn.json()["drawn"]["places"][0]["action"])
        assert placed["moves_count"] == 2
        computer = view_of(client, "oldcomputergame")
        assert [s["player"] for s in computer["seats"]] == ["computer", "person"]


# ------------------------------------------------------------- live events


@dataclass
class Event:
    event: str
    data: Json
    id: int | None


class EventStream:
    """A game's event stream from a real server, read in a thread: its events arrive in order in ``events``, its
    whole text in ``text``."""

    def __init__(self, server: Server, path: str, headers: dict[str, str] | None = None) -> None:
        url = urlsplit(server.url)
        self.connection = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=30)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream"} | (headers or {}))
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.events: queue.Queue[Event | None] = queue.Queue()
        self.text: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        if self.status == 200:
            self.reader.start()

    def _read(self) -> None:
        kind, event_id = "message", None
        data: list[str] = []
        try:
            while line := self.response.readline():
                text = line.decode().rstrip("\r\n")
                self.text.append(text)
                if not text:
                    if data:
                        self.events.put(Event(kind, json.loads("\n".join(data)), event_id))
                    kind, data, event_id = "message", [], None
                    continue
                field, _, value = text.partition(":")
                value = value.removeprefix(" ")
                if field == "event":
                    kind = value
                elif field == "data":
                    data.append(value)
                elif field == "id":
                    event_id = int(value)
        except (OSError, ValueError, AttributeError):  # closed by ``close`` (http.client may fail either way)
            pass
        finally:
            self.events.put(None)

    def next(self, kind: str, timeout: float = 2.0) -> Event:
        """The next event of ``kind`` (others are skipped)."""
        end = time.monotonic() + timeout
        while True:
            event = self.events.get(timeout=max(0.01, end - time.monotonic()))
            assert event is not None, f"the stream ended before a {kind!r} event"
            if event.event == kind:
                return event

    def change(self, revision: int, timeout: float = 1.0) -> Event:
        """The ``change`` event of ``revision`` (one comes for every revision, in order, up to the latest)."""
        end = time.monotonic() + timeout
        while True:
            event = self.next("change", max(0.01, end - time.monotonic()))
            assert event.id is not None and event.id <= revision, event
            if event.id == revision:
                return event

    def quiet(self, kind: str, seconds: float) -> None:
        """No event of ``kind`` comes for ``seconds``."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                event = self.events.get(timeout=left)
            except queue.Empty:
                return
            assert event is None or event.event != kind, event

    def ended(self, timeout: float = 2.0) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                if self.events.get(timeout=max(0.01, end - time.monotonic())) is None:
                    return True
            except queue.Empty:
                break
        return False

    def close(self) -> None:
        sock = self.connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        if self.reader.is_alive():
            self.reader.join(timeout=5)
        self.connection.close()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = start_server(tmp_path_factory.mktemp("live") / "games.sqlite3")
    yield server
    server.stop()


@pytest.fixture
def http_client(live: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live.url, timeout=10) as c:
        yield c


@pytest.fixture
def streams() -> Iterator[list[EventStream]]:
    """The streams a test opens, closed after it."""
    opened: list[EventStream] = []
    yield opened
    for stream in opened:
        stream.close()


def created(http_client: httpx.Client, url: str, body: Json) -> tuple[Json, dict[int, str]]:
    response = http_client.post(url, json=body)
    assert response.status_code == 201, response.text
    answer: Json = response.json()
    return answer, {t["seat"]: t["token"] for t in answer["tokens"]}


def test_a_move_reaches_the_other_players_stream_within_a_second(
    live: Server, http_client: httpx.Client, streams: list[EventStream],
) -> None:
    game, mine = created(http_client, "/api/games", {"mode": "friend"})
    joined, theirs = created(http_client, f"/api/games/{game['id']}/join", {"invite": game["invite"]})
    streams.append(friend := EventStream(live, f"/api/games/{game['id']}/events", bearer(theirs[1])))
    streams.append(spectator := EventStream(live, f"/api/games/{game['id']}/events"))
    assert friend.status == 200 and spectator.status == 200
    assert friend.response.getheader("Content-Type", "").startswith("text/event-stream")
    presence = friend.next("presence").data  # the spectator's stream may be counted in it or not yet
    assert presence["game"] == game["id"] and presence["connected"] == [1]
    sent = time.monotonic()
    answer = http_client.post(f"/api/games/{game['id']}/actions", headers=bearer(mine[0]),
                              json={"action": joined["drawn"]["places"][0]["action"], "revision": joined["revision"]})
    assert answer.status_code == 200, answer.text
    change = friend.next("change", timeout=1.0)
    assert time.monotonic() - sent < 1.0
    revision = answer.json()["revision"]
    assert change.id == revision and change.data == {"game": game["id"], "revision": revision, "latest": revision}
    assert spectator.next("change", timeout=1.0).id == revision
    # The view the event points to is the one the move made.
    assert http_client.get(f"/api/games/{game['id']}").json()["revision"] == revision


def test_a_stream_asked_for_views_brings_each_change_as_its_page_would_read_it(
    live: Server, http_client: httpx.Client, streams: list[EventStream],
) -> None:
    """``?view=true``: the latest change of a burst carries the view that the stream's token reads, in the stream's
    language, so the page need not read it (issue 38); a stream that did not ask carries none, and the mover's own
    stream none of the change its move made (the move's answer brought that view)."""
    game, mine = created(http_client, "/api/games", {"mode": "friend"})
    joined, theirs = created(http_client, f"/api/games/{game['id']}/join", {"invite": game["invite"]})
    path = f"/api/games/{game['id']}/events"
    streams.append(friend := EventStream(live, f"{path}?view=true&lang=pl", bearer(theirs[1])))
    streams.append(spectator := EventStream(live, f"{path}?view=true"))
    streams.append(plain := EventStream(live, path, bearer(theirs[1])))
    streams.append(own := EventStream(live, f"{path}?view=true", bearer(mine[0])))
    for stream in (friend, spectator, plain, own):
        stream.next("presence")
    answer = http_client.post(f"/api/games/{game['id']}/actions", headers=bearer(mine[0]),
                              json={"action": joined["drawn"]["places"][0]["action"], "revision": joined["revision"]})
    assert answer.status_code == 200, answer.text
    revision = answer.json()["revision"]
    brought = friend.change(revision).data["view"]
    read = http_client.get(f"/api/games/{game['id']}?lang=pl", headers=bearer(theirs[1])).json()
    assert brought == read and brought["lang"] == "pl" and brought["revision"] == revision
    assert spectator.change(revision).data["view"] == http_client.get(f"/api/games/{game['id']}").json()
    assert "view" not in plain.change(revision).data
    assert "view" not in own.change(revision).data
    view = pass_the_rest_of_the_turn(http_client, answer.json(), mine[0])  # then the friend moves: told it whole
    reply = http_client.post(f"/api/games/{game['id']}/actions", headers=bearer(theirs[1]),
                             json={"action": view["drawn"]["places"][0]["action"], "revision": view["revision"]})
    assert reply.status_code == 200, reply.text
    read = http_client.get(f"/api/games/{game['id']}", headers=bearer(mine[0])).json()
    assert own.change(reply.json()["revision"]).data["view"] == read


def pass_the_rest_of_the_turn(http_client: httpx.Client, view: Json, token: str) -> Json:
    """Pass the questions of the turn ``view`` shows (the last choice: no figure), until the other seat is to place."""
    mover = view["current"]
    while view["current"] == mover:
        answer = http_client.post(f"/api/games/{view['id']}/actions", headers=bearer(token),
                                  json={"action": view["choices"][-1]["action"], "revision": view["revision"]})
        assert answer.status_code == 200, answer.text
        view = answer.json()
    return view


def test_last_event_id_resumes_with_every_missed_revision(
    live: Server, http_client: httpx.Client, streams: list[EventStream],
) -> None:
    game, tokens = created(http_client, "/api/games", {"mode": "hotseat", "seed": 4})
    start = game["revision"]
    view = game
    for _ in range(3):  # place, pass, the next player's draw: a revision each
        if view["phase"] == "draw":
            response = http_client.post(f"/api/games/{game['id']}/draw", json={"revision": view["revision"]},
                                        headers=bearer(tokens[view["current"]]))
        else:
            action = view["drawn"]["places"][0]["action"] if view["phase"] == "place" else view["choices"][-1]["action"]
            response = http_client.post(f"/api/games/{game['id']}/actions", headers=bearer(tokens[view["current"]]),
                                        json={"action": action, "revision": view["revision"]})
        assert response.status_code == 200, response.text
        view = response.json()
    latest = view["revision"]
    assert latest == start + 3
    streams.append(resumed := EventStream(live, f"/api/games/{game['id']}/events", {"Last-Event-ID": str(start)}))
    changes = [resumed.next("change") for _ in range(3)]
    assert [(c.id, c.data["revision"], c.data["latest"]) for c in changes] == [
        (n, n, latest) for n in range(start + 1, latest + 1)]
    resumed.quiet("change", 0.3)
    streams.append(current := EventStream(live, f"/api/games/{game['id']}/events", {"Last-Event-ID": str(latest)}))
    current.next("presence")
    current.quiet("change", 0.3)


def test_presence_lists_the_connected_seats(
    live: Server, http_client: httpx.Client, streams: list[EventStream],
) -> None:
    game, mine = created(http_client, "/api/games", {"mode": "friend"})
    created(http_client, f"/api/games/{game['id']}/join", {"invite": game["invite"]})
    streams.append(watcher := EventStream(live, f"/api/games/{game['id']}/events"))
    assert watcher.next("presence").data["connected"] == []
    refused = EventStream(live, f"/api/games/{game['id']}/events", bearer(mine[0] + "x"))
    assert refused.status == 403 and json.loads(refused.response.read())["error"] == "not-your-seat"
    refused.close()
    streams.append(seat0 := EventStream(live, f"/api/games/{game['id']}/events", bearer(mine[0])))
    assert watcher.next("presence").data == {"game": game["id"], "connected": [0], "watching": 1}
    seats = http_client.get(f"/api/games/{game['id']}").json()["seats"]
    assert [s["connected"] for s in seats] == [True, False]
    seat0.close()
    assert watcher.next("presence", timeout=3.0).data["connected"] == []


def test_a_deleted_games_streams_get_gone_and_end(
    live: Server, http_client: httpx.Client, streams: list[EventStream],
) -> None:
    game, tokens = created(http_client, "/api/games", {"mode": "hotseat", "seed": 7})
    streams.append(watcher := EventStream(live, f"/api/games/{game['id']}/events"))
    watcher.next("presence")
    assert http_client.delete(f"/api/games/{game['id']}", headers=bearer(tokens[0])).status_code == 204
    assert watcher.next("gone", timeout=1.0).data == {"game": game["id"]}
    assert watcher.ended()
    assert EventStream(live, f"/api/games/{game['id']}/events").status == 404
    knights, held = created(http_client, "/api/games", {"game": "knights", "seats": ["person", "random"], "seed": 2})
    streams.append(table := EventStream(live, f"/api/games/{knights['id']}/events", bearer(held[0])))
    table.next("presence")
    assert http_client.delete(f"/api/games/{knights['id']}", headers=bearer(held[0])).status_code == 204
    assert table.next("gone", timeout=1.0).data == {"game": knights["id"]}


def test_k8_a_spectators_stream_holds_no_token_and_no_hand(
    live: Server, http_client: httpx.Client, streams: list[EventStream],
) -> None:
    game, tokens = created(http_client, "/api/games", {"game": "knights", "seats": ["person", "friend", "random"]})
    gid = game["id"]
    streams.append(spectator := EventStream(live, f"/api/games/{gid}/events?view=true"))
    spectator.next("presence")
    joined, theirs = created(http_client, f"/api/games/{gid}/join", {"invite": game["invite"]})
    tokens |= theirs
    spectator.change(joined["revision"])
    streams.append(player := EventStream(live, f"/api/games/{gid}/events?view=true", bearer(tokens[1])))
    assert spectator.next("presence").data["connected"] == [1]
    rng = random.Random(5)
    hands: set[str] = set()
    for _ in range(6):
        public = http_client.get(f"/api/games/{gid}").json()
        while public["thinking"]:  # the computer seat chooses as a job of the server
            time.sleep(0.01)
            public = http_client.get(f"/api/games/{gid}").json()
        if public["over"]:
            break
        seat = public["person_to_act"]
        view = http_client.get(f"/api/games/{gid}", headers=bearer(tokens[seat])).json()
        hands |= {json.dumps(view["hand"])}
        moved = http_client.post(f"/api/games/{gid}/actions", headers=bearer(tokens[seat]),
                                 json={"action": rng.choice(view["legal"]), "revision": view["revision"]})
        assert moved.status_code == 200, moved.text
        seen = spectator.change(moved.json()["revision"]).data.get("view")  # a change at least as new as the move's
        if seen is not None:  # the public view: no hand, nothing to play
            assert (seen["hand"], seen["camp"], seen["my_choice"], seen["legal"]) == (None, None, None, [])
        brought = player.change(moved.json()["revision"]).data.get("view")
        if brought is not None:  # the latest change of a burst brings the seat's own view: its hand
            own = http_client.get(f"/api/games/{gid}", headers=bearer(tokens[1])).json()
            assert brought["hand"] == own["hand"] or brought["revision"] != own["revision"]
            hands |= {json.dumps(brought["hand"])}
    text = "\n".join(spectator.text)
    assert "change" in text and "presence" in text and '"view":' in text
    for secret in [*tokens.values(), game["invite"]]:
        assert secret not in text
    assert '"hand":[' not in text and '"legal":["' not in text and "play:" not in text
    assert all(line.startswith(("event:", "id:", "data:", "retry:", ":")) or not line for line in spectator.text)


def test_too_many_pages_on_one_game_are_refused_with_429(
    live: Server, http_client: httpx.Client, streams: list[EventStream], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The refusal is an answer (429 in the error format), not a stream broken after its 200."""
    import zamek.server.events

    monkeypatch.setattr(zamek.server.events, "MAX_WATCHERS_PER_GAME", 2)
    game, tokens = created(http_client, "/api/games", {"mode": "hotseat", "seed": 8})
    path = f"/api/games/{game['id']}/events"
    streams.extend(EventStream(live, path) for _ in range(2))
    for stream in streams:
        assert stream.status == 200
        stream.next("presence")
    refused = EventStream(live, path)
    assert refused.status == 429 and refused.response.getheader("Zamek-Api") == str(API_VERSION)
    assert json.loads(refused.response.read())["error"] == "too-many-watchers"
    refused.close()
    # Spectators never shut a player out: a seat's pages are counted apart.
    player = EventStream(live, path, {"Authorization": f"Bearer {tokens[0]}"})
    assert player.status == 200
    player.close()
    streams.pop().close()  # a page closed: another may watch

    def opened() -> EventStream | None:
        stream = EventStream(live, path)
        if stream.status == 200:
            return stream
        stream.close()
        return None

    streams.append(again := wait_for(opened))
    again.next("presence")


def test_adopt_over_http_is_for_this_machine(tmp_path: Path) -> None:
    """``POST /api/adopt`` from the loopback gives tokens for the games stored before seats (castle and Rycerze i
    zamki), once."""
    db = tmp_path / "games.sqlite3"
    with client_for(db) as client:
        castle = create(client, mode="hotseat")
        knights = client.post("/api/games",
                              json={"game": "knights", "seats": ["person", "heuristic"], "seed": 1}).json()
        for game in (castle, knights):
            strip_seats(client.service.repo, game["id"])
    server = start_server(db)
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http_client:
            # Through a reverse proxy every visitor comes from the loopback: such a request is not from here.
            for proxied in ({"Forwarded": "for=8.8.8.8"}, {"X-Forwarded-For": "8.8.8.8"}, {"X-Real-IP": "8.8.8.8"}):
                assert http_client.post("/api/adopt", headers=proxied).json() == []
            adopted = http_client.post("/api/adopt").json()
            assert sorted((a["kind"], a["id"], a["seat"]) for a in adopted) == sorted(
                [("castle", castle["id"], 0), ("castle", castle["id"], 1), ("knights", knights["id"], 0)])
            assert all(len(a["token"]) >= 32 for a in adopted)
            assert http_client.post("/api/adopt").json() == []
            token = next(a["token"] for a in adopted if a["kind"] == "knights")
            view = http_client.get(f"/api/games/{knights['id']}", headers=bearer(token))
            assert view.status_code == 200 and view.json()["seat"] == 0 and view.json()["hand"]
            lobby = http_client.post("/api/lobby", json={"tokens": [a["token"] for a in adopted]}).json()
            assert [g["id"] for g in lobby["castle"]] == [castle["id"]]
            assert [g["id"] for g in lobby["knights"]] == [knights["id"]]
    finally:
        server.stop()


def test_live_events_forget_old_unwatched_games_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The in-process event hub keeps a bounded memory: the oldest unwatched games go, a watched one stays."""
    monkeypatch.setattr(events, "REMEMBERED_GAMES", 10)
    hub = events.LocalEvents()

    async def run() -> None:
        with hub.subscribe("watched", 0, 5):
            hub.publish("watched", 6)
            for number in range(30):
                hub.publish(f"game-{number}", 1)
            assert hub.latest("watched") == 6 and hub.connected("watched") == [0]
            assert hub.latest("game-0") is None and hub.latest("game-29") == 1
        assert hub.connected("watched") == []

    asyncio.run(run())


def test_a_game_with_friends_has_no_chosen_seed(client: WebClient) -> None:
    """Z22: the creator of a game against friends may not choose its seed (it would tell them every tile); the
    server's seeds have 62 random bits, too many to find from the tiles drawn."""
    refused = client.post("/api/games", json={"mode": "friend", "seed": 5})
    assert refused.status_code == 422 and "seed" in refused.json()["message"]
    refused = client.post("/api/games", json={"game": "knights", "seats": ["person", "friend"], "seed": 5})
    assert refused.status_code == 422 and "seed" in refused.json()["message"]
    seeds = {seed_of(client, create(client)["id"]) for _ in range(8)}
    assert len(seeds) == 8 and max(seeds) >= 2**40


def test_no_undo_once_the_rules_ended_the_game(client: WebClient) -> None:
    """The final scoring is known and the seed published (Z22): the last move stays."""
    from tests.web_client import finished_record

    answer = client.post("/api/import", json=finished_record(4))
    assert answer.status_code == 201, answer.text
    view = answer.json()
    assert view["over"] and not view["can_undo"]
    refused = client.post(f"/api/games/{view['id']}/undo", json={}, headers=client.last_mover(view))
    assert refused.status_code == 409 and refused.json()["error"] == "cannot-undo"


@pytest.mark.parametrize("order", [["Z29", "Z29"], ["Z29", "NOPE"], "twice", "short"])
def test_an_imported_draw_order_names_every_tile_once(client: WebClient, order: Any) -> None:
    """A game that goes on from its fixed draw order could otherwise run out of tiles or draw one not in the
    pile; refused with 400 and nothing stored."""
    from tests.web_client import finished_record

    record = finished_record(4)
    record["result"] = None
    draws = [m.removeprefix("draw:") for m in record["moves"] if m.startswith("draw:")]
    record["moves"] = record["moves"][:6]
    full = sorted(t.id for t in new_game(Setup()).tiles.tiles)
    if order == "twice":
        order = [*draws[:2], *full]
    elif order == "short":
        order = draws[:2]
    record["setup"]["draw_order"] = order
    refused = client.post("/api/import", json=record)
    assert refused.status_code == 400 and refused.json()["error"] == "invalid-record", refused.text
    assert client.service.repo.all() == []


@pytest.mark.parametrize("clock", [{"kind": "correspondence", "days": 1e-9}, {"kind": "live", "minutes": 0.1}])
def test_a_clock_gives_a_sensible_time(client: WebClient, clock: Json) -> None:
    refused = client.post("/api/games", json={"mode": "friend", "clock": clock})
    assert refused.status_code == 422


def test_a_deleted_rematch_offer_is_offered_anew(client: WebClient) -> None:
    game = friend_game(client)
    client.post(f"/api/games/{game['id']}/resign", json={}, headers=client.seat(game["id"], 1))
    offer = client.post(f"/api/games/{game['id']}/rematch", headers=client.seat(game["id"], 0)).json()
    assert client.delete(f"/api/games/{offer['id']}", headers=bearer(offer["tokens"][0]["token"])).status_code == 204
    taken = client.post(f"/api/games/{game['id']}/rematch", headers=client.seat(game["id"], 1))
    assert taken.status_code == 201 and taken.json()["id"] != offer["id"]


def test_rycerze_i_zamki_needs_a_person(client: WebClient) -> None:
    """A game of computers alone would be played inside the request, for anyone who asks."""
    refused = client.post("/api/games", json={"game": "knights", "seats": ["mc", "mc", "mc", "mc"]})
    assert refused.status_code == 422


def test_a_last_event_id_of_other_digits_is_ignored(live: Server, http_client: httpx.Client,
                                                     streams: list[EventStream]) -> None:
    game, _ = created(http_client, "/api/games", {"mode": "hotseat"})
    for value in ("²", "-1", "1e5", "99999999999999"):
        stream = EventStream(live, f"/api/games/{game['id']}/events", {"Last-Event-ID": value})
        streams.append(stream)
        assert stream.status == 200, value
