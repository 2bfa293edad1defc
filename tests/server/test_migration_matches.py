"""The one table of matches: a database of the schema before it (0003: ``games`` and ``knights_games``), holding
games of every kind — against the computer (its turn waiting as a job, and the person to move), between friends
with a running clock, one waiting for the friend, at one screen, finished, resigned with a rematch offered, card
games in progress, finished and waiting — is upgraded with nothing lost, and every game is played on.

The fixture ``games-at-0003.json`` holds every row of such a database, made by the program of that schema; the
clocks and the computer's job are moved to the time the test runs (a live clock's time runs on a wall clock).
"""

from __future__ import annotations

import json
import time
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from alembic import command
from tools.loadtest import legal_actions

from tests.helpers import FIXTURES
from tests.server.test_server_postgres import client as app_on
from tests.web_client import Json, wait_for_person
from zamek.server.db import Repository
from zamek.server.migrate import config, current, head
from zamek.server.tables import driver_url

DATA: Json = json.loads((FIXTURES / "games-at-0003.json").read_text())
GAMES: dict[str, str] = DATA["games"]


def database_at_0003(url: str) -> None:
    """Make the schema 0003 with the Alembic migrations, and put the fixture's rows in it (times moved to now)."""
    engine = sa.create_engine(driver_url(url))
    with engine.begin() as connection:
        command.upgrade(config(connection), "0003")
    moment = time.time()
    with engine.begin() as connection:
        for name, rows in DATA["tables"].items():
            table = sa.Table(name, sa.MetaData(), autoload_with=connection)
            for row in rows:
                row = {key: _value(table.c[key].type, value) for key, value in row.items()}
                if name == "game_extras" and row["clock"] and row["clock"]["since"] is not None:
                    row["clock"]["since"] = moment
                    row["deadline_ms"] = round(moment * 1000) + row["clock"]["left_ms"][row["clock"]["running"]]
                if name == "computer_jobs":
                    row["due_ms"] = round(moment * 1000)
                connection.execute(table.insert().values(**row))
    engine.dispose()


def _value(kind: Any, value: Any) -> Any:
    if isinstance(kind, sa.DateTime) and isinstance(value, str):
        return datetime.fromisoformat(value)
    if isinstance(kind, sa.JSON) and isinstance(value, str):
        return json.loads(value)  # SQLite gives JSON back as its text
    return value


def play_castle(web: Any, game_id: str) -> Json:
    """One move by the seat to move (a draw first where two people at one screen draw)."""
    view: Json = web.get(f"/api/games/{game_id}").json()
    if view["phase"] == "draw":
        drawn = web.post(f"/api/games/{game_id}/draw", headers=web.mover(view), json={"revision": view["revision"]})
        view = drawn.json()
    answer = web.post(f"/api/games/{game_id}/actions", headers=web.mover(view),
                      json={"action": legal_actions(view)[0], "revision": view["revision"]})
    assert answer.status_code == 200, answer.text
    played: Json = answer.json()
    assert played["moves_count"] > view["moves_count"]
    return played


def test_a_database_of_schema_0003_becomes_one_table_of_matches_and_every_game_goes_on(any_url: str) -> None:
    database_at_0003(any_url)
    repo = Repository(any_url)  # upgrades it, as a server's start does (before any worker plays on)
    assert current(repo.engine) == head()
    with repo.engine.connect() as connection:
        assert not {"games", "knights_games"} & set(sa.inspect(connection).get_table_names())
    # Nothing lost: every row of both tables is a match, with its moves, scores and revision.
    stored = {m.id: m for m in repo.all()}
    for row in DATA["tables"]["games"]:
        match = stored[row["id"]]
        assert (match.kind, match.mode, match.level, match.human, match.seed, match.revision, match.hints) == (
            "castle", row["mode"], row["level"], row["human"], row["seed"], row["revision"], bool(row["hints"]))
        assert match.moves == _value(sa.JSON(), row["moves"]) and match.scores == _value(sa.JSON(), row["scores"])
    for row in DATA["tables"]["knights_games"]:
        match = stored[row["id"]]
        assert (match.kind, match.mode, match.players, match.scores, match.turn, match.revision) == (
            "knights", "table", _value(sa.JSON(), row["seats"]), _value(sa.JSON(), row["points"]), row["round"],
            row["revision"])
        assert match.moves == _value(sa.JSON(), row["moves"])
    assert len(stored) == len(DATA["tables"]["games"]) + len(DATA["tables"]["knights_games"])
    assert repo.jobs_waiting() == len(DATA["tables"]["computer_jobs"])
    repo.close()

    with app_on(any_url) as web:
        for game_id, seats in DATA["tokens"].items():
            for seat, token in seats.items():
                web.tokens.seats.setdefault(game_id, {})[int(seat)] = token
        # The computer's turn was a job: it is played.
        view = wait_for_person(web, GAMES["computer_thinking"])
        assert view["human_to_act"]
        play_castle(web, GAMES["computer_person"])
        # A friend game with a running clock: its clock goes on from what it had left.
        before = web.get(f"/api/games/{GAMES['friend_clock']}").json()
        assert before["clock"]["running"] is not None and not before["over"]
        after = play_castle(web, GAMES["friend_clock"])
        assert after["clock"]["running"] == 1 - before["clock"]["running"]
        # The friend opens the invitation of the game that waited for them.
        joined = web.post(f"/api/games/{GAMES['friend_waiting']}/join",
                          json={"invite": DATA["invites"][GAMES["friend_waiting"]]})
        assert joined.status_code == 201, joined.text
        play_castle(web, GAMES["hotseat"])
        finished = web.get(f"/api/games/{GAMES['finished']}").json()
        assert finished["over"] and finished["seed"] is not None
        assert web.get(f"/api/games/{GAMES['finished']}/record").status_code == 200
        # The resigned game's rematch: the other player takes their seat in it.
        resigned = web.get(f"/api/games/{GAMES['resigned']}").json()
        assert resigned["ended"]["reason"] == "resign" and resigned["rematch"] == GAMES["rematch"]
        taken = web.post(f"/api/games/{GAMES['resigned']}/rematch", headers=web.seat(GAMES["resigned"], 1), json={})
        assert taken.status_code == 201 and taken.json()["id"] == GAMES["rematch"], taken.text

        # The card games: one under way goes on, the finished one gives its record, the waiting one is joined.
        game = GAMES["knights_playing"]
        view = web.get(f"/api/games/{game}", headers=web.seat(game, 0)).json()
        seat = view["person_to_act"]
        view = web.get(f"/api/games/{game}", headers=web.seat(game, seat)).json()
        moved = web.post(f"/api/games/{game}/actions", headers=web.seat(game, seat),
                         json={"action": view["legal"][0], "revision": view["revision"]})
        assert moved.status_code == 200 and moved.json()["revision"] > view["revision"], moved.text
        assert web.get(f"/api/games/{GAMES['knights_over']}/record").status_code == 200
        joined = web.post(f"/api/games/{GAMES['knights_waiting']}/join",
                          json={"invite": DATA["invites"][GAMES["knights_waiting"]]})
        assert joined.status_code == 201, joined.text

        lobby = web.lobby()
        assert {g["id"] for g in lobby["castle"]} >= {GAMES["computer_thinking"], GAMES["friend_clock"]}
        assert {g["id"] for g in lobby["knights"]} >= {GAMES["knights_playing"], GAMES["knights_over"]}


def test_one_protocol_serves_both_games_and_the_old_card_game_routes_are_gone(any_url: str) -> None:
    database_at_0003(any_url)
    with app_on(any_url) as web:
        card_game = web.get(f"/api/games/{GAMES['knights_playing']}")
        assert card_game.status_code == 200, card_game.text
        assert card_game.json()["kind"] == "knights" and card_game.json()["hand"] is None  # the public view
        castle = web.get(f"/api/games/{GAMES['friend_clock']}")
        assert castle.status_code == 200 and castle.json()["kind"] == "castle"
        for game in (GAMES["knights_playing"], GAMES["friend_clock"]):  # protocol 3's routes ended with protocol 5
            old = web.get(f"/api/knights/{game}")
            assert old.status_code == 404 and old.json()["error"] == "http"
