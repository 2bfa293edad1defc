"""A game's views are made once a position and kept (:class:`zamek.server.cache.ViewCache`): the pages of both seats
and the spectators' read the same position again after every move. A kept view must never be stale nor another
reader's: after each kind of change the view every reader gets is the one a server that never saw the game makes
from the database (another app on the same file), and what one seat reads as its own ("You" in the lines in words,
a card game's hand) never reaches a spectator or the other seat."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.server.test_takeback import post, whole_turn
from tests.server.test_web_online import create, finish_turn, join, move, started_game, view_of
from tests.web_client import FakeTime, Json, WebClient, web_config
from zamek.server import views
from zamek.server.app import create_app

Readers = tuple[int | None, ...]
EVERYONE: Readers = (None, 0, 1)
"""The readers of a game with a friend: a spectator (no token), and each seat with its token."""


def db_of(client: WebClient) -> Path:
    url = client.service.config.db_url
    assert url is not None and url.startswith("sqlite:///")
    return Path(url.removeprefix("sqlite:///"))


@contextmanager
def another_server(client: WebClient, fake: FakeTime | None = None) -> Iterator[WebClient]:
    """A server of its own on the same database that has seen nothing yet (nothing kept: each view made anew), with
    the tokens ``client`` holds and the same time."""
    app = create_app(web_config(db_of(client), **({"clock": fake} if fake is not None else {})))
    other = WebClient(app, client.tokens)  # no lifespan: no clock watch of its own
    try:
        yield other
    finally:
        other.close()
        other.service.close()


def read(client: WebClient, game_id: str, seat: int | None, **query: Any) -> Json:
    """The view ``seat`` reads (None: a spectator, with no token)."""
    headers = client.seat(game_id, seat) if seat is not None else {}
    answer = client.get(f"/api/games/{game_id}", headers=headers, params=query)
    assert answer.status_code == 200, answer.text
    view: Json = answer.json()
    return view


def warm(client: WebClient, game_id: str, readers: Readers = EVERYONE) -> None:
    """Every reader reads the game, twice: whatever can be kept of its position is."""
    for _ in range(2):
        for seat in readers:
            read(client, game_id, seat)


def as_made_anew(client: WebClient, game_id: str, readers: Readers = EVERYONE, fake: FakeTime | None = None
                 ) -> list[Json]:
    """Each reader's view equals the one a server that never saw the game makes; return the views."""
    seen = [read(client, game_id, seat) for seat in readers]
    with another_server(client, fake) as other:
        anew = [read(other, game_id, seat) for seat in readers]
    for seat, kept, made in zip(readers, seen, anew, strict=True):
        assert kept == made, f"the view of {'a spectator' if seat is None else f'seat {seat}'} is not as made anew"
    return seen


def test_a_seat_joining_and_the_first_moves_are_seen_by_every_reader(client: WebClient) -> None:
    game = create(client, name="Ala")
    gid = game["id"]
    warm(client, gid, (None, 0))
    join(client, game, name="Olek")
    joined = as_made_anew(client, gid)
    assert [s["name"] for s in joined[0]["seats"]] == ["Ala", "Olek"]
    warm(client, gid)
    view = finish_turn(client, joined[0])
    after = as_made_anew(client, gid)
    assert after[0]["revision"] == view["revision"] > joined[0]["revision"]
    assert after[0]["placements"] != joined[0]["placements"]


def test_a_move_and_its_undo_are_seen_by_every_reader(client: WebClient) -> None:
    view = join(client, create(client, name="Ala"), name="Olek")
    gid = view["id"]
    warm(client, gid)
    before = as_made_anew(client, gid)[0]
    placed = move(client, view, view["drawn"]["places"][0]["action"])  # the figure's choice is next: undo is open
    assert placed["can_undo"]
    warm(client, gid)
    assert as_made_anew(client, gid)[0]["moves_count"] == before["moves_count"] + 1
    undone = client.post(f"/api/games/{gid}/undo", json={"revision": placed["revision"]},
                         headers=client.seat(gid, view["current"]))
    assert undone.status_code == 200, undone.text
    back = as_made_anew(client, gid)[0]
    assert back["moves_count"] == before["moves_count"] and back["placements"] == before["placements"]
    assert back["revision"] == placed["revision"] + 1


def test_a_takeback_asked_and_accepted_is_seen_by_every_reader(client: WebClient) -> None:
    view = join(client, create(client, name="Ala"), name="Olek")
    gid = view["id"]
    whole_turn(client, gid)
    whole_turn(client, gid)
    ala = whole_turn(client, gid)
    warm(client, gid)
    start = as_made_anew(client, gid)[0]
    assert post(client, gid, "", ala, revision=start["revision"]).status_code == 200
    asked = as_made_anew(client, gid)[0]  # no move: the same position, a takeback asked
    assert asked["takeback"]["asked_by"] == ala and asked["moves_count"] == start["moves_count"]
    warm(client, gid)
    assert post(client, gid, "/accept", 1 - ala, revision=asked["revision"]).status_code == 200
    back = as_made_anew(client, gid)[0]
    assert back["moves_count"] < start["moves_count"] and back["current"] == ala


def test_a_clock_running_out_is_seen_by_every_reader(clocked: tuple[WebClient, FakeTime]) -> None:
    client, fake = clocked
    view = started_game(client, clock={"kind": "live", "minutes": 1, "increment": 0})
    gid = view["id"]
    warm(client, gid)
    fake.advance(61)
    assert client.service.expire_clocks() == [gid]
    over = as_made_anew(client, gid, fake=fake)[0]
    assert over["over"] and over["ended"] == {"reason": "timeout", "loser": 0} and over["seed"] is not None


def test_a_seats_words_never_reach_a_spectator_or_the_other_seat(client: WebClient) -> None:
    view = join(client, create(client, name="Ala"), name="Olek")
    gid = view["id"]
    mover = view["current"]
    answer = move(client, view, view["drawn"]["places"][0]["action"])  # made for the mover: "You place..."
    spectator, first, second = as_made_anew(client, gid)
    mine = [first, second][mover]
    assert answer["recent"] == mine["recent"]
    # The mover reads the move as their own, the others as a player's: what the mover's answer kept is not theirs.
    assert answer["recent"][-1]["words"] != spectator["recent"][-1]["words"]
    assert [first, second][1 - mover]["recent"][-1]["words"] != answer["recent"][-1]["words"]


def test_a_card_games_hand_never_reaches_a_spectator_or_the_other_seat(client: WebClient) -> None:
    created = client.post("/api/games", json={"game": "knights", "seats": ["person", "friend"], "name": "Ala"})
    assert created.status_code == 201, created.text
    gid = created.json()["id"]
    joined = client.post(f"/api/games/{gid}/join", json={"invite": created.json()["invite"], "name": "Olek"})
    assert joined.status_code == 201, joined.text
    mine = read(client, gid, 0)
    chosen = client.post(f"/api/games/{gid}/actions", headers=client.seat(gid, 0),
                         json={"action": mine["legal"][0], "revision": mine["revision"]})  # a secret choice
    assert chosen.status_code == 200, chosen.text
    warm(client, gid, (0, None, 1))
    spectator, first, second = as_made_anew(client, gid)
    assert first["my_choice"] == mine["legal"][0] and second["my_choice"] is None and second["hand"]
    assert spectator["hand"] is None and spectator["my_choice"] is None and spectator["legal"] == []


def test_a_position_is_made_once_for_all_its_readers_of_a_language(client: WebClient,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    board_fields = views.board_fields

    def counted(state: Any, infos: Any, lang: str) -> dict[str, Any]:
        made.append(lang)
        return board_fields(state, infos, lang)

    monkeypatch.setattr(views, "board_fields", counted)
    view = join(client, create(client, name="Ala"), name="Olek")
    gid = view["id"]
    made.clear()
    warm(client, gid)
    read(client, gid, None, lang="pl")
    assert made == ["en", "pl"]
    move(client, view, view["drawn"]["places"][0]["action"])
    warm(client, gid)
    assert made == ["en", "pl", "en"]  # a new position: made again, once
    assert view_of(client, gid)["moves_count"] == view["moves_count"] + 1


def unique_members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    names = [name for name, _ in pairs]
    assert len(names) == len(set(names)), f"a member written twice: {sorted(n for n in names if names.count(n) > 1)}"
    return dict(pairs)


def test_a_kept_body_is_the_view_model_written_whole(client: WebClient) -> None:
    """A body is written in parts (the position's, the reader's lines, the rest) and kept: it must be exactly the
    view the model writes in one piece, every member once, for every reader, move after move."""
    view = join(client, create(client, name="Ala"), name="Olek")
    gid = view["id"]
    service = client.service
    for _ in range(4):
        for seat in EVERYONE:
            token = client.tokens.token(gid, seat) if seat is not None else None
            for lang in ("en", "pl"):
                body = service.view_body(gid, lang, token=token).json
                whole = service.view(gid, lang, token=token).model_dump_json()
                assert json.loads(body, object_pairs_hook=unique_members) == json.loads(whole)
        view = finish_turn(client, view_of(client, gid))


def test_only_the_recent_moves_keep_their_lines_in_words(client: WebClient) -> None:
    """A move's lines in words are kept with it while the views list it among the recent moves, then let go: a long
    game holds no lines for its older moves (they would be thousands of models a game for the garbage collector to
    walk), and its views are still exactly the view model written whole."""
    view = join(client, create(client, name="Ala"), name="Olek")
    gid = view["id"]
    for _ in range(8):
        view = finish_turn(client, view_of(client, gid))
        warm(client, gid)
    live = client.service.get(gid)
    assert len(live.infos) > 2 * views.RECENT
    assert all(info.shown for info in live.infos[-views.RECENT:] if info.message is not None)
    assert not any(info.shown for info in live.infos[:-views.RECENT])
    for seat in EVERYONE:
        token = client.tokens.token(gid, seat) if seat is not None else None
        body = client.service.view_body(gid, "en", token=token).json
        assert json.loads(body) == json.loads(client.service.view(gid, "en", token=token).model_dump_json())
