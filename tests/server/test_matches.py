"""One match service for both games, asked through one protocol: a match with a friend is created, joined,
watched, played, resigned and rematched the same way whichever the game; no game is decided on time before every
person has made a first move (and until then it may be aborted); an invitation whose answer was lost gives the
same seat again; a rematch is stored with the change to the game it follows, or not at all; the card game's
computer seats choose as jobs, outside the request."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from tools.loadtest import legal_actions

from tests.server.test_server_postgres import client as app_on
from tests.server.test_server_postgres import race
from tests.web_client import FakeTime, Json, WebClient, bearer
from zamek.server.games import Thought
from zamek.server.games import knights as knights_kind

GAMES = ["castle", "knights"]


def new_match(web: WebClient, game: str, **options: Any) -> Json:
    """A match of ``game`` between its creator, Ala (seat 0), and a friend (seat 1)."""
    body: Json = {"game": "castle", "mode": "friend", "seat": "first"} if game == "castle" else {
        "game": "knights", "seats": ["person", "friend"]}
    answer = web.post("/api/games", json=body | {"name": "Ala"} | options)
    assert answer.status_code == 201, answer.text
    match: Json = answer.json()
    assert match["kind"] == game and match["invite"] and [t["seat"] for t in match["tokens"]] == [0]
    return match


def joined(web: WebClient, match: Json, name: str = "Olek", key: str | None = None) -> Json:
    body = {"invite": match["invite"], "name": name} | ({"key": key} if key else {})
    answer = web.post(f"/api/games/{match['id']}/join", json=body)
    assert answer.status_code == 201, answer.text
    view: Json = answer.json()
    return view


def public(web: WebClient, match_id: str) -> Json:
    answer = web.get(f"/api/games/{match_id}")
    assert answer.status_code == 200, answer.text
    view: Json = answer.json()
    return view


def seat_to_move(view: Json) -> int | None:
    if view["over"]:
        return None
    seat: int | None = view["current"] if view["kind"] == "castle" else view["person_to_act"]
    return seat


def decide(web: WebClient, match_id: str) -> Json:
    """The seat to move makes a decision (a legal one: the first its view offers)."""
    view = public(web, match_id)
    seat = seat_to_move(view)
    assert seat is not None, view
    if view["kind"] == "knights":
        view = web.get(f"/api/games/{match_id}", headers=web.seat(match_id, seat)).json()
    actions = legal_actions(view) if view["kind"] == "castle" else view["legal"]
    answer = web.post(f"/api/games/{match_id}/actions", headers=web.seat(match_id, seat),
                      json={"action": actions[0], "revision": view["revision"], "seat": seat})
    assert answer.status_code == 200, answer.text
    played: Json = answer.json()
    return played


def first_moves(web: WebClient, match_id: str) -> None:
    """Both players make their first move (their turn ends)."""
    moved: set[int] = set()
    last: int | None = None
    while True:
        seat = seat_to_move(public(web, match_id))
        if last is not None and seat != last:
            moved.add(last)
        if moved == {0, 1}:
            return
        decide(web, match_id)
        last = seat


@pytest.mark.parametrize("game", GAMES)
def test_a_match_with_a_friend_through_one_protocol(client: WebClient, game: str) -> None:
    match = new_match(client, game)
    gid = match["id"]
    waiting = client.post(f"/api/games/{gid}/actions", headers=client.seat(gid, 0), json={"action": "pass"})
    assert waiting.status_code == 409 and waiting.json()["error"] == "waiting"
    friend = joined(client, match)
    assert friend["revision"] > match["revision"]
    assert [(s["player"], s["name"]) for s in public(client, gid)["players_at" if game == "knights" else "seats"]] == [
        ("person", "Ala"), ("person", "Olek")]
    first_moves(client, gid)
    stranger = client.post(f"/api/games/{gid}/resign", json={}, headers=bearer("x" * 32))
    assert stranger.status_code == 403 and stranger.json()["error"] == "not-your-seat"
    resigned = client.post(f"/api/games/{gid}/resign", json={}, headers=client.seat(gid, 1))
    assert resigned.status_code == 200, resigned.text
    over = public(client, gid)
    assert over["over"] and over["ended"] == {"reason": "resign", "loser": 1} and over["seed"] is not None
    assert client.get(f"/api/games/{gid}/record").status_code == 200
    offered = client.post(f"/api/games/{gid}/rematch", headers=client.seat(gid, 0))
    assert offered.status_code == 201, offered.text
    rematch = offered.json()
    assert rematch["id"] != gid and public(client, gid)["rematch"] == rematch["id"]
    assert [t["seat"] for t in rematch["tokens"]] == [1]  # the seats move round: Ala is second now
    taken = client.post(f"/api/games/{gid}/rematch", headers=client.seat(gid, 1))
    assert taken.status_code == 201 and taken.json()["id"] == rematch["id"], taken.text
    assert [t["seat"] for t in taken.json()["tokens"]] == [0]
    seats = public(client, rematch["id"])["players_at" if game == "knights" else "seats"]
    assert [(s["player"], s["name"]) for s in seats] == [("person", "Olek"), ("person", "Ala")]
    lobby = client.lobby()
    listed = {g["id"] for g in lobby["castle"] + lobby["knights"]}
    assert {gid, rematch["id"]} <= listed


@pytest.mark.parametrize("game", GAMES)
def test_no_match_is_decided_on_time_before_every_person_has_moved(clocked: tuple[WebClient, FakeTime],
                                                                   game: str) -> None:
    web, fake = clocked
    match = new_match(web, game, clock={"kind": "live", "minutes": 0.5, "increment": 0})
    fake.advance(3600)  # nobody has joined: nothing runs
    assert web.service.expire_clocks() == []
    joined(web, match)
    fake.advance(45)  # more than a player's whole time, within the time for a first move
    assert web.service.expire_clocks() == [] and not public(web, match["id"])["over"]
    first_moves(web, match["id"])
    view = public(web, match["id"])
    assert view["clock"]["running"] is not None and view["clock"]["left_ms"] == [30_000, 30_000]
    assert not view["can_abort"]
    late = web.post(f"/api/games/{match['id']}/abort", json={}, headers=web.seat(match["id"], 0))
    assert late.status_code == 409 and late.json()["error"] == "started"
    fake.advance(31)
    assert web.service.expire_clocks() == [match["id"]]
    assert public(web, match["id"])["ended"]["reason"] == "timeout"

    other = new_match(web, game, clock={"kind": "correspondence", "days": 1})
    joined(web, other)
    fake.advance(86_400 + 1)  # a day for a first move, by correspondence: the game is aborted, nobody wins
    assert web.service.expire_clocks() == [other["id"]]
    aborted = public(web, other["id"])
    assert aborted["over"] and aborted["ended"] == {"reason": "abort", "loser": None}


@pytest.mark.parametrize("game", GAMES)
def test_either_player_aborts_before_the_first_moves(client: WebClient, game: str) -> None:
    match = new_match(client, game)
    joined(client, match)
    decide(client, match["id"])
    assert public(client, match["id"])["can_abort"]
    aborted = client.post(f"/api/games/{match['id']}/abort", json={}, headers=client.seat(match["id"], 1))
    assert aborted.status_code == 200, aborted.text
    view = public(client, match["id"])
    assert view["over"] and view["ended"] == {"reason": "abort", "loser": None}
    again = client.post(f"/api/games/{match['id']}/actions", headers=client.seat(match["id"], 0),
                        json={"action": "pass"})
    assert again.status_code == 409


@pytest.mark.parametrize("game", GAMES)
def test_a_lost_answer_to_joining_is_asked_again_until_the_token_is_used(client: WebClient, game: str) -> None:
    match = new_match(client, game)
    first = joined(client, match, key="j" * 24)["tokens"][0]["token"]
    second = joined(client, match, "Olek", key="j" * 24)["tokens"][0]["token"]
    assert first != second
    old = client.post(f"/api/games/{match['id']}/resign", json={}, headers=bearer(first))
    assert old.status_code == 403  # the first token stopped working
    assert [s["name"] for s in public(client, match["id"])["players_at" if game == "knights" else "seats"]] == [
        "Ala", "Olek"]  # still one friend, in one seat
    used = client.post(f"/api/games/{match['id']}/invite", headers=bearer(second))  # any request proving the seat
    assert used.status_code == 409 and used.json()["error"] == "no-free-seat", used.text  # the token is used now
    refused = client.post(f"/api/games/{match['id']}/join", json={"invite": match["invite"]})
    assert refused.status_code == 409 and refused.json()["error"] == "no-free-seat"


@pytest.mark.parametrize("game", GAMES)
def test_a_player_issues_a_new_invitation_and_the_old_one_stops_working(client: WebClient, game: str) -> None:
    match = new_match(client, game)
    stranger = client.post(f"/api/games/{match['id']}/invite", headers=bearer("y" * 32))
    assert stranger.status_code == 403
    fresh = client.post(f"/api/games/{match['id']}/invite", headers=client.seat(match["id"], 0))
    assert fresh.status_code == 200, fresh.text
    old = client.post(f"/api/games/{match['id']}/join", json={"invite": match["invite"]})
    assert old.status_code == 403 and old.json()["error"] == "bad-invite"
    assert joined(client, match | {"invite": fresh.json()["invite"]})["tokens"][0]["seat"] == 1


@pytest.mark.parametrize("game", GAMES)
def test_players_offering_a_rematch_at_once_store_one_and_nothing_else(any_url: str, game: str) -> None:
    """Two workers (two apps on one database), both players offering the rematch at the same moment, again and
    again: each time exactly one rematch is stored and both players end up seated in it (the one told that the
    game changed takes their seat in the other's)."""
    with app_on(any_url) as first, app_on(any_url) as second:
        second.tokens = first.tokens
        tries = 8
        for _ in range(tries):
            match = new_match(first, game)
            joined(first, match)
            first.post(f"/api/games/{match['id']}/resign", json={}, headers=first.seat(match["id"], 1))
            answers = race([(web, f"/api/games/{match['id']}/rematch", {}, web.seat(match["id"], seat))
                            for web, seat in ((first, 0), (second, 1))])
            ok = [a.json()["id"] for a in answers if a.status_code == 201]
            assert all(a.status_code in (201, 409) for a in answers), [a.text for a in answers]
            assert len(set(ok)) == 1 and public(first, match["id"])["rematch"] == ok[0]
        stored = first.service.repo.all(game)
        assert len(stored) == 2 * tries  # each game and its one rematch: no orphan


def test_the_card_games_computer_seats_choose_outside_the_request(client: WebClient,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The request of a person's choice answers while the computer seat is still thinking (a job of the server,
    not of the request, and not under the game's lock); its choice follows."""
    release = threading.Event()
    think = knights_kind.think

    def slow(*args: Any) -> Thought:
        release.wait(10)
        return think(*args)

    monkeypatch.setattr(knights_kind, "think", slow)
    match = client.post("/api/games", json={"game": "knights", "seats": ["person", "heuristic"], "seed": 3}).json()
    gid = match["id"]
    view = client.get(f"/api/games/{gid}", headers=client.seat(gid, 0)).json()
    while view["thinking"]:  # the computer may be first: released once, then held again for the next test
        release.set()
        time.sleep(0.05)
        view = client.get(f"/api/games/{gid}", headers=client.seat(gid, 0)).json()
    release.clear()
    started = time.monotonic()
    answer = client.post(f"/api/games/{gid}/actions", headers=client.seat(gid, 0),
                         json={"action": view["legal"][0], "revision": view["revision"]})
    assert answer.status_code == 200 and time.monotonic() - started < 5, answer.text
    assert answer.json()["thinking"]  # answered before the computer has chosen
    assert client.get(f"/api/games/{gid}/status").json()["thinking"]  # the game is not locked meanwhile
    release.set()
    end = time.monotonic() + 10
    while client.get(f"/api/games/{gid}").json()["thinking"]:
        assert time.monotonic() < end, "the computer seat did not choose"
        time.sleep(0.02)


# ------------------------------------------------------------------ found by a review


def test_two_friends_with_one_invitation_each_keep_their_own_seat(client: WebClient) -> None:
    """A card game's one link for two friends: the second friend takes the next seat, and a friend whose answer was
    lost asks again with the key of their joining, getting their own seat back, never the other's."""
    match = client.post("/api/games", json={"game": "knights", "seats": ["person", "friend", "friend"]}).json()
    gid = match["id"]
    x = client.post(f"/api/games/{gid}/join", json={"invite": match["invite"], "key": "k" * 24}).json()
    y = client.post(f"/api/games/{gid}/join", json={"invite": match["invite"], "key": "m" * 24}).json()
    assert [t["seat"] for t in x["tokens"]] == [1] and [t["seat"] for t in y["tokens"]] == [2]
    again = client.post(f"/api/games/{gid}/join", json={"invite": match["invite"], "key": "k" * 24})
    assert again.status_code == 201 and [t["seat"] for t in again.json()["tokens"]] == [1], again.text
    mine = client.get(f"/api/games/{gid}", headers=bearer(y["tokens"][0]["token"]))
    assert mine.status_code == 200 and mine.json()["seat"] == 2  # the other friend's seat is theirs still
    stranger = client.post(f"/api/games/{gid}/join", json={"invite": match["invite"]})
    assert stranger.status_code == 409 and stranger.json()["error"] == "no-free-seat"


@pytest.mark.parametrize("game", GAMES)
def test_another_process_cannot_give_a_seat_its_copy_shows_as_free(tmp_path: Path, game: str) -> None:
    """Two processes on one database: a new invitation made through one, and a token used through it, are what
    the other's joins meet, though its copy in memory is older (the seat is given only if it is still as seen)."""
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    with app_on(url) as first, app_on(url) as second:
        second.tokens = first.tokens
        match = new_match(first, game, **({"seats": ["person", "friend", "friend"]} if game == "knights" else {}))
        public(second, match["id"])  # the second process holds the match in memory
        fresh = first.post(f"/api/games/{match['id']}/invite", headers=first.seat(match["id"], 0)).json()["invite"]
        old = second.post(f"/api/games/{match['id']}/join", json={"invite": match["invite"], "key": "a" * 24})
        assert old.status_code == 403 and old.json()["error"] == "bad-invite", old.text
        taken = first.post(f"/api/games/{match['id']}/join", json={"invite": fresh, "key": "b" * 24})
        assert taken.status_code == 201, taken.text
        token, seat = taken.json()["tokens"][0]["token"], taken.json()["tokens"][0]["seat"]
        public(second, match["id"])  # the second process's copy: the seat taken, its invitation kept
        used = first.post(f"/api/games/{match['id']}/invite", headers=bearer(token))  # the token used, at the first
        assert used.json().get("error") != "not-your-seat", used.text
        again = second.post(f"/api/games/{match['id']}/join", json={"invite": fresh, "key": "b" * 24})
        assert seat not in [t["seat"] for t in again.json().get("tokens") or []], "a used seat was given again"
        still = first.post(f"/api/games/{match['id']}/resign", json={}, headers=bearer(token))
        assert still.json().get("error") != "not-your-seat", still.text


@pytest.mark.parametrize("game", GAMES)
def test_a_rematchs_seats_kept_for_known_players_open_to_no_invitation(client: WebClient, game: str) -> None:
    match = new_match(client, game)
    joined(client, match)
    client.post(f"/api/games/{match['id']}/abort", json={}, headers=client.seat(match["id"], 0))
    offered = client.post(f"/api/games/{match['id']}/rematch", headers=client.seat(match["id"], 0)).json()
    invite = client.post(f"/api/games/{offered['id']}/invite", headers=client.seat(offered["id"], 1))
    assert invite.status_code == 409 and invite.json()["error"] == "no-free-seat"
    taken = client.post(f"/api/games/{match['id']}/rematch", headers=client.seat(match["id"], 1))
    assert taken.status_code == 201 and taken.json()["id"] == offered["id"]


def test_k4_a_card_game_is_not_aborted_once_both_have_chosen_though_a_tile_came_between(client: WebClient) -> None:
    for seed in range(12):  # some seeds turn up a tile after the first choices and give the next move to the second
        match = client.post("/api/games", json={"game": "knights", "seats": ["person", "person"], "seed": seed}).json()
        for _ in range(2):
            decide(client, match["id"])
        view = public(client, match["id"])
        assert not view["can_abort"], seed
        refused = client.post(f"/api/games/{match['id']}/abort", json={}, headers=client.seat(match["id"], 0))
        assert refused.status_code == 409 and refused.json()["error"] == "started", (seed, refused.text)


def test_asking_again_for_ones_rematch_seat_does_not_extend_the_time_for_a_first_move(
        clocked: tuple[WebClient, FakeTime]) -> None:
    web, fake = clocked
    match = new_match(web, "castle", clock={"kind": "live", "minutes": 5, "increment": 0})
    joined(web, match)
    web.post(f"/api/games/{match['id']}/resign", json={}, headers=web.seat(match["id"], 1))
    web.post(f"/api/games/{match['id']}/rematch", headers=web.seat(match["id"], 0))
    web.post(f"/api/games/{match['id']}/rematch", headers=web.seat(match["id"], 1))
    for _ in range(2):
        fake.advance(20)
        assert web.post(f"/api/games/{match['id']}/rematch", headers=web.seat(match["id"], 1)).status_code == 201
    fake.advance(19)
    assert web.service.expire_clocks() == []
    fake.advance(2)
    assert len(web.service.expire_clocks()) == 1  # a minute after the seat to move sat down, not after its last ask


@pytest.mark.parametrize("game", GAMES)
def test_nobody_joins_a_game_that_is_over(client: WebClient, game: str) -> None:
    match = new_match(client, game)
    client.post(f"/api/games/{match['id']}/abort", json={}, headers=client.seat(match["id"], 0))
    late = client.post(f"/api/games/{match['id']}/join", json={"invite": match["invite"]})
    assert late.status_code == 409 and late.json()["error"] == "game-over"
    assert client.delete(f"/api/games/{match['id']}", headers=client.seat(match["id"], 0)).status_code == 204


def test_what_one_game_has_alone_is_refused_for_the_other_and_a_card_game_has_its_creators_seat(
        client: WebClient) -> None:
    match = client.post("/api/games", json={"game": "knights", "seats": ["person", "random"]}).json()
    draw = client.post(f"/api/games/{match['id']}/draw", json={}, headers=client.seat(match["id"], 0))
    assert draw.status_code == 409 and draw.json()["error"] == "not-for-this-game"
    replay = client.get(f"/api/games/{match['id']}/replay")
    assert replay.status_code == 409 and replay.json()["error"] == "not-for-this-game"
    friends_only = client.post("/api/games", json={"game": "knights", "seats": ["friend", "friend"]})
    assert friends_only.status_code == 422
