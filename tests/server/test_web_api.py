"""The web app's API, through FastAPI's test client: games, moves, refusals, the computer, undo, storage."""

from __future__ import annotations

import json
import logging
import random
import re
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from tests.helpers import FIXTURES, SRC
from tests.web_client import Json, WebClient, client_for, finished_record, new_game, wait_for_person
from zamek.castle import fast
from zamek.castle.bots.levels import EXPERT_CAP_SECONDS
from zamek.castle.bots.mcts import PLACEMENT_SHARE
from zamek.castle.data import loader as datafiles
from zamek.castle.record import make_record
from zamek.castle.rules.actions import Action
from zamek.castle.rules.editions import Edition
from zamek.castle.rules.setup import Phase, Setup
from zamek.castle.runner import random_policy, sample_chance
from zamek.server.app import preferred_language
from zamek.server.computer import think
from zamek.server.db import Repository
from zamek.server.schemas import API_VERSION
from zamek.server.tables import StoredMatch


def space(x: int, y: int) -> str:
    return f"{chr(97 + x)}{y + 1}"


def first_placement(view: Json) -> str:
    action: str = view["drawn"]["places"][0]["action"]
    return action


def act(client: WebClient, view: Json, action: str, status: int = 200) -> Json:
    """A move by the seat to move (its token)."""
    response = client.post(f"/api/games/{view['id']}/actions", json={"action": action, "revision": view["revision"]},
                           headers=client.mover(view))
    assert response.status_code == status, response.text
    result: Json = response.json()
    return result


def play_turn(client: WebClient, view: Json) -> Json:
    """Place the drawn tile on its first legal space, pass, and answer any question with its first option."""
    view = act(client, view, first_placement(view))
    while view["human_to_act"] and view["phase"] != "place":
        choice = view["choices"][-1] if view["phase"] == "follower" else view["choices"][0]
        view = act(client, view, choice["action"])
    return view


# ------------------------------------------------------------------ games


def test_new_game_against_the_computer_starts_with_the_persons_tile(client: WebClient) -> None:
    view = new_game(client)
    assert view["api"] == API_VERSION == 5
    assert view["mode"] == "computer" and view["human"] == 0 and view["current"] == 0
    assert view["phase"] == "place" and view["human_to_act"]
    assert view["drawn"]["places"], "the drawn tile fits somewhere"
    assert view["rules"] == "zamek"
    assert len(view["players"]) == 2 and view["players"][0]["supply"] == 6


def test_new_game_options_are_validated(client: WebClient) -> None:
    bad: list[tuple[Json, str]] = [
        ({"level": "grandmaster"}, "level"),
        ({"gate_guard": True}, "Sokół"),
        ({"edition": "castle1999"}, "edition"),
        ({"seat": 3}, "seat"),
        ({"colour": "red"}, "colour"),
    ]
    for options, word in bad:
        response = client.post("/api/games", json={"mode": "computer"} | options)
        assert response.status_code == 422, options
        assert word in response.json()["message"]


def test_sokol_game_with_gate_guard(client: WebClient) -> None:
    view = new_game(client, sokol=True, gate_guard=True, edition="castle2003")
    assert view["rules"] == "castle2003+sokol+gate-guard"
    assert view["players"][0]["princes"] == 1 and view["players"][0]["falconers"] == 1
    assert view["terms"]["road"] == "path" and view["terms"]["prince"] == "prince"


def test_list_and_delete_games(client: WebClient) -> None:
    one = new_game(client)
    two = new_game(client, mode="hotseat")
    assert [t["seat"] for t in one["tokens"]] == [0] and [t["seat"] for t in two["tokens"]] == [0, 1]
    listed = {g["id"]: g for g in client.lobby()["castle"]}
    assert set(listed) == {one["id"], two["id"]}
    assert listed[two["id"]]["mode"] == "hotseat" and listed[one["id"]]["status"] == "playing"
    assert listed[one["id"]]["seats"] == [0] and listed[two["id"]]["seats"] == [0, 1]
    assert listed[one["id"]]["your_move"] and listed[two["id"]]["your_move"]
    assert client.delete(f"/api/games/{one['id']}", headers=client.seat(one["id"], 0)).status_code == 204
    assert client.get(f"/api/games/{one['id']}").status_code == 404
    assert [g["id"] for g in client.lobby()["castle"]] == [two["id"]]


def test_unknown_game_is_404_with_a_message(client: WebClient) -> None:
    for headers in ({}, {"Authorization": "Bearer " + "x" * 32}):
        response = client.post("/api/games/nope/actions", json={"action": "pass"}, headers=headers)
        assert response.status_code == 404
        assert "nope" in response.json()["message"]


# ------------------------------------------------------------------ moves


def test_a_move_and_the_computers_reply(client: WebClient) -> None:
    view = new_game(client)
    view = act(client, view, first_placement(view))
    assert view["phase"] == "follower"
    assert any(c["type"] == "figure" for c in view["choices"]) and view["choices"][-1]["type"] == "pass"
    assert all(c["label"] for c in view["choices"] if c["type"] == "figure")
    view = act(client, view, "pass")
    view = wait_for_person(client, view["id"])
    assert view["phase"] == "place" and view["current"] == 0 and view["human_to_act"]
    assert len(view["placements"]) == 2
    assert [p["player"] for p in view["placements"]] == [0, 1]
    assert any(m["player"] == 1 for m in view["recent"])


def test_follower_choices_are_named_by_role(client: WebClient) -> None:
    view = new_game(client)
    view = act(client, view, first_placement(view))
    roles = {"road": "herald", "house": "squire", "pigsty": "farmer", "meadow": "monk"}
    figures = [c for c in view["choices"] if c["type"] == "figure"]
    assert figures, view["choices"]  # a fresh supply and a new tile: there is a figure to place
    for choice in figures:
        assert choice["role"] == roles[choice["kind"]]
        assert choice["label"].startswith(choice["role"])
    polish = client.get(f"/api/games/{view['id']}?lang=pl").json()
    words = {"herald": "herold", "squire": "giermek", "farmer": "rolnik", "monk": "mnich"}
    polish_figures = [c for c in polish["choices"] if c["type"] == "figure"]
    assert len(polish_figures) == len(figures)
    for choice in polish_figures:
        assert choice["label"].startswith(words[choice["role"]])


def test_illegal_move_is_refused_with_the_engines_message(client: WebClient) -> None:
    view = new_game(client)
    legal = {place["space"] for place in view["drawn"]["places"]}
    x, y = next((x, y) for x in range(10) for y in range(10) if space(x, y) not in legal)
    response = client.post(f"/api/games/{view['id']}/actions", json={"action": f"{space(x, y)}/0"},
                           headers=client.mover(view))
    assert response.status_code == 409
    body = response.json()
    assert body["error"] == "illegal-move" and space(x, y) in body["message"]
    assert body["rule"] is not None and body["params"] and body["code"]
    after = client.get(f"/api/games/{view['id']}").json()
    assert after["revision"] == view["revision"] and after["phase"] == "place"


def test_malformed_move_is_400(client: WebClient) -> None:
    view = new_game(client)
    response = client.post(f"/api/games/{view['id']}/actions", json={"action": "fly:me"}, headers=client.mover(view))
    assert response.status_code == 400
    assert "is not an action" in response.json()["message"]


@pytest.mark.parametrize("body", [{}, {"action": 5}, {"action": ""}, {"action": "pass", "extra": 1}, [1, 2]])
def test_invalid_request_body_is_422(client: WebClient, body: Any) -> None:
    view = new_game(client)
    response = client.post(f"/api/games/{view['id']}/actions", json=body, headers=client.mover(view))
    assert response.status_code == 422
    assert response.json()["message"]


def test_broken_json_is_a_4xx_not_a_500(client: WebClient) -> None:
    view = new_game(client)
    response = client.post(f"/api/games/{view['id']}/actions", content=b"{not json",
                           headers={"Content-Type": "application/json"} | client.mover(view))
    assert 400 <= response.status_code < 500


def test_chance_is_not_the_persons_to_choose(client: WebClient) -> None:
    view = new_game(client)
    response = client.post(f"/api/games/{view['id']}/actions", json={"action": "draw:Z01"},
                           headers=client.mover(view))
    assert response.status_code == 409
    assert "drawn by the game" in response.json()["message"]


def test_moving_in_the_computers_turn_is_refused(tmp_path: Path) -> None:
    with client_for(tmp_path / "g.sqlite3", bot_delay=60) as client:
        view = new_game(client, seat="second")
        assert view["human"] == 1 and view["thinking"]
        response = client.post(f"/api/games/{view['id']}/actions", json={"action": "pass"},
                               headers=client.seat(view["id"], 1))
        assert response.status_code == 409 and response.json()["error"] == "not-your-turn"


def test_a_stale_revision_is_refused(client: WebClient) -> None:
    view = new_game(client)
    act(client, view, first_placement(view))
    response = client.post(f"/api/games/{view['id']}/actions", json={"action": "pass", "revision": view["revision"]},
                           headers=client.mover(view))
    assert response.status_code == 409 and response.json()["error"] == "stale"


def test_every_move_is_stored_before_the_answer(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    with client_for(db, bot_delay=60) as client:
        view = new_game(client)
        move = first_placement(view)
        view = act(client, view, move)
        # Read the database through a connection of its own, as a restarted server would.
        stored = Repository(f"sqlite:///{db}").get(view["id"])
        assert stored is not None
        assert stored.moves[-1] == move
        assert len(stored.moves) == view["moves_count"] and stored.revision == view["revision"]


def test_a_whole_game_against_the_beginner(client: WebClient) -> None:
    view = new_game(client, seed=11)
    turns = 0
    while not view["over"]:
        if view["thinking"]:
            view = wait_for_person(client, view["id"])
            continue
        view = play_turn(client, view)
        turns += 1
    assert turns >= 25
    assert view["result"]["scores"] == [p["score"] for p in view["players"]]
    assert any(item["final"] for item in view["log"])
    assert view["choices"] == [] and view["drawn"] is None
    record = client.get(f"/api/games/{view['id']}/record").json()
    assert record["result"]["scores"] == view["result"]["scores"]
    listed = client.lobby()["castle"]
    assert listed[0]["id"] == view["id"] and listed[0]["status"] == "over" and not listed[0]["your_move"]


def test_the_server_answers_while_the_computer_thinks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The hard level thinks in the Python engine (as where the compiled core is not built): long enough to ask
    # the server meanwhile (in the compiled core it replies within milliseconds).
    monkeypatch.setattr(fast, "AVAILABLE", False)
    with client_for(tmp_path / "g.sqlite3", bot_delay=0) as client:
        view = new_game(client, seat="second", level="hard", seed=3)
        assert view["thinking"]
        slowest = 0.0
        answered_while_thinking = 0
        for _ in range(5):
            start = time.monotonic()
            status = client.get(f"/api/games/{view['id']}/status").json()
            if status["thinking"]:
                answered_while_thinking += 1
                slowest = max(slowest, time.monotonic() - start)
        assert answered_while_thinking, "the hard level thinks for a while"
        # A server that waited for the computer would take its whole thinking time (seconds) to answer.
        assert slowest < 1.5
        assert client.delete(f"/api/games/{view['id']}", headers=client.seat(view["id"], 1)).status_code == 204


def test_the_expert_plays_its_turns_in_the_web_app(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # The person sits second: the expert's opening turn is thought out in the server's pool, and it is the turn
    # the expert bot chooses from the game's record (the same seeding whichever process plays it).
    caplog.set_level(logging.INFO, logger="zamek.server")
    with client_for(tmp_path / "g.sqlite3", bot_delay=0) as client:
        view = wait_for_person(client, new_game(client, seat="second", level="expert", seed=3)["id"])
        assert view["level"] == "expert" and view["human"] == 1
        record = client.get(f"/api/games/{view['id']}/record").json()
        assert record["players"] == ["computer:expert", "person"]
        first_draw, turn = record["moves"][:1], record["moves"][1:]
        assert turn[0][0] != "d" and turn[-1].startswith("draw:")  # a placement first, the person's tile last
        thought = think(record["setup"], first_draw, 3, "expert", 1)
        # The job records how long the reply took, by decision and by turn (here one turn: no extra turn).
        assert thought.thinking.turns == 1 and thought.thinking.decisions >= 1
        assert 0 < thought.thinking.longest <= thought.thinking.longest_turn
        replied = [r.getMessage() for r in caplog.records if "the computer replied" in r.getMessage()]
        assert replied and "longest turn" in replied[0]
        served = re.search(r"longest decision ([0-9.]+) s", replied[0])
        assert served is not None
        # The same choice wherever it is thought, unless a busy machine cut either search short at the expert's
        # cap on its placement (then its choice depends on the machine, as docs/bots.md says).
        cut_short = PLACEMENT_SHARE * EXPERT_CAP_SECONDS * 0.95
        if max(float(served.group(1)), thought.thinking.longest) < cut_short:
            assert thought.moves == turn
        else:
            assert thought.moves[0][0] != "d" and thought.moves[-1] == turn[-1]  # the person's tile: the seed's


# ------------------------------------------------------------------- undo


def test_undo_a_placement_before_choosing_a_figure(client: WebClient) -> None:
    view = new_game(client)
    placed = act(client, view, first_placement(view))
    response = client.post(f"/api/games/{view['id']}/undo", json={}, headers=client.last_mover(placed))
    assert response.status_code == 200
    back = response.json()
    assert back["phase"] == "place" and back["drawn"]["id"] == view["drawn"]["id"]
    assert back["moves_count"] == placed["moves_count"] - 1 and back["revision"] > placed["revision"]


def test_undo_the_last_move_before_the_computer_replies(tmp_path: Path) -> None:
    with client_for(tmp_path / "g.sqlite3", bot_delay=60) as client:
        view = play_turn(client, new_game(client))
        assert view["thinking"] and view["can_undo"]
        back = client.post(f"/api/games/{view['id']}/undo", headers=client.last_mover(view)).json()
        assert back["phase"] == "follower" and back["current"] == 0 and back["human_to_act"]
        assert not back["thinking"]


def test_no_undo_after_the_computer_replied(client: WebClient) -> None:
    view = play_turn(client, new_game(client))
    view = wait_for_person(client, view["id"])
    assert not view["can_undo"] and view["undo_refusal"]
    response = client.post(f"/api/games/{view['id']}/undo", headers=client.last_mover(view))
    assert response.status_code == 409 and response.json()["error"] == "cannot-undo"


def test_two_people_undo_until_the_next_tile_is_drawn(client: WebClient) -> None:
    view = new_game(client, mode="hotseat")
    assert view["phase"] == "place" and view["human_to_act"]
    view = play_turn(client, view)
    assert view["phase"] == "draw" and view["current"] == 1 and view["can_undo"]
    # Only the player who made the move takes it back (player 1 is to draw, player 0 passed).
    assert view["recent"][-1]["player"] == 0
    refused = client.post(f"/api/games/{view['id']}/undo", headers=client.seat(view["id"], 1))
    assert refused.status_code == 403 and refused.json()["error"] == "not-your-seat"
    back = client.post(f"/api/games/{view['id']}/undo", headers=client.seat(view["id"], 0)).json()
    assert back["phase"] == "follower" and back["current"] == 0
    view = act(client, back, "pass")
    drawn = client.post(f"/api/games/{view['id']}/draw", json={"revision": view["revision"]},
                        headers=client.mover(view))
    assert drawn.status_code == 200 and drawn.json()["phase"] == "place" and drawn.json()["current"] == 1
    refused = client.post(f"/api/games/{view['id']}/undo", headers=client.last_mover(drawn.json()))
    assert refused.status_code == 409 and "drawn" in refused.json()["message"]


def test_drawing_is_only_for_two_people_and_only_when_due(client: WebClient) -> None:
    computer = new_game(client)
    assert client.post(f"/api/games/{computer['id']}/draw", headers=client.mover(computer)).status_code == 409
    hotseat = new_game(client, mode="hotseat")
    response = client.post(f"/api/games/{hotseat['id']}/draw", headers=client.mover(hotseat))
    assert response.status_code == 409 and response.json()["code"] == "no-draw-now"


# ------------------------------------------------------------ persistence


def test_games_survive_a_restart_exactly(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    with client_for(db) as client:
        view = new_game(client, sokol=True)
        for _ in range(4):
            view = wait_for_person(client, play_turn(client, view)["id"])
        view = act(client, view, first_placement(view))
        before = client.get(f"/api/games/{view['id']}").json()
        record = client.get(f"/api/games/{view['id']}/record").json()
        tokens = client.tokens
    with client_for(db, tokens=tokens) as client:
        after = client.get(f"/api/games/{view['id']}").json()
        assert client.get(f"/api/games/{view['id']}/record").json() == record
        for key in ("phase", "current", "turn", "placements", "figures", "players", "log", "remaining", "choices",
                    "revision", "towers"):
            assert after[key] == before[key], key
        after = act(client, after, "pass")
        # The restored game goes on: the move made after the restart is accepted and stored. (That the
        # computer then replies is test_the_computer_goes_on_after_a_restart's concern.)
        assert after["moves_count"] > before["moves_count"]
        while after["human_to_act"] and after["phase"] != "place":  # a question about scoring (Z15, Z19)
            after = act(client, after, after["choices"][0]["action"])
        assert wait_for_person(client, view["id"])["moves_count"] >= after["moves_count"]


def test_the_computer_goes_on_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    with client_for(db, bot_delay=1) as client:  # stopped before its reply is due
        view = play_turn(client, new_game(client))
        assert view["thinking"]
    with client_for(db, bot_delay=0, tokens=client.tokens) as client:
        view = wait_for_person(client, view["id"])
        assert view["human_to_act"] and len(view["placements"]) == 2


def test_a_failed_write_of_the_computers_turn_is_tried_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with client_for(tmp_path / "g.sqlite3") as client:
        repo = client.service.repo
        store = repo.save
        failed: list[str] = []

        def fails_once(*args: Any, **kwargs: Any) -> Any:
            if not failed and threading.current_thread().name.startswith("zamek-bot"):
                failed.append(args[0])  # the database is gone for a moment, as the computer stores its turn
                raise OperationalError("UPDATE matches", {}, ConnectionError("server closed the connection"))
            return store(*args, **kwargs)

        monkeypatch.setattr(repo, "save", fails_once)
        view = play_turn(client, new_game(client))
        view = wait_for_person(client, view["id"])  # not frozen: the turn is tried again a second later
        assert failed == [view["id"]] and view["human_to_act"]


def test_a_process_keeps_a_bounded_number_of_games_in_memory(tmp_path: Path) -> None:
    with client_for(tmp_path / "g.sqlite3", cached_games=2) as client:
        games = [new_game(client, mode="hotseat")["id"] for _ in range(4)]
        assert client.service.sessions.in_memory() == 2
        for game in games:  # the games it forgot are read again from the database
            assert client.get(f"/api/games/{game}").json()["id"] == game
        assert client.service.sessions.in_memory() == 2


def test_start_up_reads_no_game(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    with client_for(db) as client:
        games = [play_turn(client, new_game(client, mode="hotseat"))["id"] for _ in range(3)]
    with client_for(db, tokens=client.tokens) as client:
        assert client.service.sessions.in_memory() == 0  # it listens at once; a game is read when asked for
        assert [client.get(f"/api/games/{g}").json()["moves_count"] > 0 for g in games] == [True] * 3


def test_the_same_seed_draws_the_same_tiles_after_an_undo(client: WebClient) -> None:
    view = play_turn(client, new_game(client, mode="hotseat", seed=9))
    first = client.post(f"/api/games/{view['id']}/draw", headers=client.mover(view)).json()["drawn"]["id"]
    game = client.get(f"/api/games/{view['id']}").json()
    assert game["drawn"]["id"] == first


# --------------------------------------------------------- export, import


def test_export_and_import_a_game(client: WebClient) -> None:
    view = new_game(client)
    for _ in range(3):
        view = wait_for_person(client, play_turn(client, view)["id"])
    response = client.get(f"/api/games/{view['id']}/record")
    assert "attachment" in response.headers["content-disposition"]
    record = response.json()
    assert record["format"] == "zamek-game" and len(record["moves"]) == view["moves_count"]
    # Z22: in the middle of the game neither the view nor the record tells the seed (it fixes the tiles).
    assert record["seed"] is None and view["seed"] is None
    # A game against the computer says so, and goes on against the same level when imported.
    assert record["players"] == ["person", "computer:beginner"]
    imported = client.post("/api/import", json=record)
    assert imported.status_code == 201, imported.text
    copy = imported.json()
    assert copy["id"] != view["id"] and (copy["mode"], copy["level"], copy["human"]) == ("computer", "beginner", 0)
    assert [t["seat"] for t in copy["tokens"]] == [0]  # the person's seat; the computer's is nobody's
    assert copy["placements"] == [p | {"player": p["player"]} for p in view["placements"]]
    assert copy["phase"] == "place" and copy["human_to_act"]
    # Without its players (or with players this program does not know) it is a game of two people at one screen.
    for players in (None, ["person", "computer:grandmaster"], ["person", "person"], "computer"):
        two = client.post("/api/import", json=record | {"players": players}).json()
        assert two["mode"] == "hotseat" and [t["seat"] for t in two["tokens"]] == [0, 1], players


def test_import_verifies_the_result(client: WebClient) -> None:
    record = finished_record(4)
    ok = client.post("/api/import", json=record)
    assert ok.status_code == 201 and ok.json()["over"]
    record["result"]["scores"] = [999, 0]
    refused = client.post("/api/import", json=record)
    assert refused.status_code == 400
    assert "result" in refused.json()["message"]


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b'{"format": "chess", "version": 1}', "format: expected 'zamek-game'"),
        (b'{"format": "zamek-game", "version": 7, "moves": []}', "version"),
        (b'{"format": "zamek-game", "version": 1, "moves": ["draw:Z01", "j10/0"]}', "move 2 (j10/0)"),
        (b'{"format": "zamek-game", "version": 1, "moves": ["hello"]}', "move 1"),
        (b"[1, 2, 3]", "JSON object"),
        (b"not json at all", "not valid JSON"),
    ],
)
def test_an_invalid_saved_game_is_refused_with_the_reason(client: WebClient, content: bytes, words: str) -> None:
    response = client.post("/api/import", content=content, headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert words in response.json()["message"]


# ----------------------------------------------------------------- replay


def test_replay_steps_through_a_game(client: WebClient) -> None:
    view = wait_for_person(client, play_turn(client, new_game(client))["id"])
    total = view["moves_count"]
    start = client.get(f"/api/games/{view['id']}/replay?move=0").json()
    assert start["placements"] == [] and start["replay"]["move"] == 0 and start["replay"]["total"] == total
    assert len(start["replay"]["moves"]) == total
    after_two = client.get(f"/api/games/{view['id']}/replay?move=2&lang=pl").json()
    assert len(after_two["placements"]) == 1 and after_two["choices"] == []
    assert after_two["replay"]["moves"][0]["words"].startswith("Tura 1")
    end = client.get(f"/api/games/{view['id']}/replay").json()
    assert end["placements"] == view["placements"]
    assert client.get(f"/api/games/{view['id']}/replay?move={total + 1}").status_code == 400
    assert client.get(f"/api/games/{view['id']}/replay?move=x").status_code == 422


# ----------------------------------------------------- questions (Z15, Z19)


def _prefix_reaching(phases: set[Phase], setup: Setup, seeds: range) -> tuple[Json, Phase] | None:
    """A record of random play up to a position where the player is asked one of ``phases``."""
    for seed in seeds:
        rng = random.Random(seed)
        state = datafiles.new_game(setup)
        actions: list[Action] = []
        while not state.is_over():
            if state.phase in phases:
                return make_record(setup, seed, actions), state.phase
            action: Action = sample_chance(state, rng) if state.is_chance() else random_policy(state, rng)
            state.apply(action)
            actions.append(action)
    return None


@pytest.mark.parametrize("phase", [Phase.ORDER, Phase.DOUBLE, Phase.EXTRA_TURN])
def test_scoring_questions_are_offered_and_answered(client: WebClient, phase: Phase) -> None:
    found = _prefix_reaching({phase}, Setup(edition=Edition.CASTLE_2003, sokol=True), range(1, 400))
    assert found is not None
    record, _ = found
    view = client.post("/api/import", json=record).json()
    assert view["phase"] == phase.name.lower() and view["human_to_act"]
    if phase is Phase.ORDER:
        assert len(view["choices"]) >= 2
        assert all(c["type"] == "order" and c["label"] and c["feature"]["spaces"] for c in view["choices"])
        answer = view["choices"][-1]["action"]
    else:
        kinds = [c["type"] for c in view["choices"]]
        assert "use" in kinds and "decline" in kinds
        use = next(c for c in view["choices"] if c["type"] == "use")
        assert "wall tile" in use["label"]
        answer = "decline"
    after = act(client, view, answer)
    assert after["moves_count"] > view["moves_count"]


def test_preferred_language_from_the_browser() -> None:
    assert preferred_language("pl-PL,pl;q=0.9,en;q=0.8") == "pl"
    assert preferred_language("en-GB,en;q=0.9,pl;q=0.5") == "en"
    assert preferred_language("de-DE,pl;q=0.7") == "pl"
    assert preferred_language(None) == "en"


def test_meta_and_geometry(client: WebClient) -> None:
    meta = client.get("/api/meta", headers={"Accept-Language": "pl"}).json()
    assert meta["lang"] == "pl" and meta["levels"] == ["beginner", "easy", "medium", "hard", "expert"]
    base = client.get("/api/geometry").json()
    assert sorted(s["n"] for s in base["wall"]["track"]) == list(range(100))
    assert len(base["spaces"]) == 76 and len(base["starts"]) == 7 and len(base["tiles"]) == 60
    assert base["wall"]["gates"] == []
    sokol = client.get("/api/geometry?sokol=true").json()
    assert len(sokol["spaces"]) == 95 and len(sokol["wall"]["gates"]) == 4 and len(sokol["tiles"]) == 78


def test_the_page_and_its_files_are_served(client: WebClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "app.js" in page.text
    for name in ("app.js", "board.js", "tiles.js", "i18n.js", "chart.js", "styles.css"):
        assert client.get(f"/static/{name}").status_code == 200, name
    # The page's modules by screen (lobby, game, replay), the API client and what they share: each one served,
    # and named by the page.
    static = SRC / "server" / "static"
    modules = sorted(p.name for p in static.glob("*.js"))
    assert {"api.js", "lobby.js", "game.js", "replay.js", "knights.js"} <= set(modules)
    for name in modules:
        assert client.get(f"/static/{name}").status_code == 200, name
        assert f"/static/{name}" in page.text, name


def test_zamek_play_starts_the_server_with_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    import zamek.server.server
    from zamek.cli import main
    from zamek.server.fairness import PUBLIC

    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(zamek.server.server, "serve", lambda *args, **kw: calls.append((*args, kw)))
    monkeypatch.setenv("ZAMEK_HEADER_TIMEOUT", "5")  # the connections' settings also come from the environment
    result = CliRunner().invoke(main, ["play", "--port", "8123", "--db", "sqlite://", "--no-browser",
                                       "--max-connections", "300"])
    assert result.exit_code == 0, result.output
    assert calls == [("127.0.0.1", 8123, "sqlite://", {
        "open_browser": False, "expire_unjoined_hours": 0.0, "expire_idle_days": 0.0, "fairness": PUBLIC,
        "header_timeout": 5.0, "body_timeout": 60.0, "max_connections": 300})]


def test_a_game_stored_before_board_2_goes_on_on_its_own_board(tmp_path: Path) -> None:
    # A game two people began at one screen on board 1 (its stored setup names no board).
    record = json.loads((FIXTURES / "record_v1_board1_zamek.json").read_text("utf-8"))
    moves = record["moves"][:61]  # White is to place a tile
    db = tmp_path / "g.sqlite3"
    stamp = datetime.now(UTC)
    Repository(f"sqlite:///{db}").add(StoredMatch(
        id="oldboard1game", kind="castle", created_at=stamp, updated_at=stamp, mode="hotseat", seed=record["seed"],
        setup=record["setup"], moves=moves, status="playing", scores=[0, 0], turn=21, revision=len(moves),
    ))
    with client_for(db) as client:
        view = client.get("/api/games/oldboard1game").json()
        assert view["board"] == 1 and view["phase"] == "place"
        # Stored before games had seats: this machine's browser adopts it (a token a seat) to go on.
        for adopted in client.service.adopt():
            client.tokens.seats.setdefault(adopted.id, {})[adopted.seat] = adopted.token
        assert sorted(client.tokens.held("oldboard1game")) == [0, 1]
        assert view["moves_count"] == len(moves)
        old = client.get("/api/geometry?board=1").json()
        assert [96, 97] in [t["track"] for t in old["wall"]["towers"]]
        assert [56, 57] in [t["track"] for t in client.get("/api/geometry").json()["wall"]["towers"]]
        refused = client.get("/api/geometry?board=9")
        assert refused.status_code == 400 and refused.json()["error"] == "bad-board"
        # It goes on: a placement of board 1 is accepted and stored.
        after = act(client, view, first_placement(view))
        assert after["moves_count"] == len(moves) + 1


# ------------------------------------------------- the typed protocol (version 3)

SUCCESS: dict[tuple[str, str], str] = {
    # Every answer of the API: (method, path) -> the schema of its success ("[X]": a list of X; "": no body;
    # "events": a stream of Server-Sent Events, no JSON).
    ("get", "/api/meta"): "Meta",
    ("get", "/api/geometry"): "Geometry",
    ("post", "/api/lobby"): "LobbyGames",
    ("post", "/api/adopt"): "[Adopted]",
    # One protocol for both games: a match's answers are the castle game's or the card game's ("A|B").
    ("post", "/api/games"): "SeatedView|SeatedKnightsView",
    ("get", "/api/games/{game_id}"): "GameView|KnightsView",
    ("delete", "/api/games/{game_id}"): "",
    ("get", "/api/games/{game_id}/status"): "GameStatus",
    ("get", "/api/games/{game_id}/events"): "events",
    ("post", "/api/games/{game_id}/actions"): "GameView|KnightsView",
    ("post", "/api/games/{game_id}/draw"): "GameView|KnightsView",
    ("post", "/api/games/{game_id}/undo"): "GameView|KnightsView",
    ("post", "/api/games/{game_id}/takeback"): "GameView|KnightsView",
    ("post", "/api/games/{game_id}/takeback/accept"): "GameView|KnightsView",
    ("post", "/api/games/{game_id}/takeback/decline"): "GameView|KnightsView",
    ("post", "/api/games/{game_id}/takeback/withdraw"): "GameView|KnightsView",
    ("post", "/api/games/{game_id}/join"): "SeatedView|SeatedKnightsView",
    ("post", "/api/games/{game_id}/invite"): "Invitation",
    ("post", "/api/games/{game_id}/resign"): "GameView|KnightsView",
    ("post", "/api/games/{game_id}/abort"): "GameView|KnightsView",
    ("post", "/api/games/{game_id}/rematch"): "SeatedView|SeatedKnightsView",
    ("get", "/api/games/{game_id}/record"): "SavedGame|KnightsSavedGame",
    ("get", "/api/games/{game_id}/replay"): "ReplayView",
    ("post", "/api/import"): "SeatedView",
    ("get", "/api/games/{game_id}/hints"): "Hints",
    ("get", "/api/games/{game_id}/analysis"): "AnalysisView",
    ("post", "/api/analysis"): "AnalysisView",
    ("get", "/api/words"): "Words",
    # Players, ratings and the leaderboard (issue 39).
    ("post", "/api/players"): "PlayerCreated",
    ("get", "/api/players/me"): "PlayerMe",
    ("patch", "/api/players/me"): "PlayerMe",
    ("get", "/api/players/me/games"): "MyGames",
    ("get", "/api/players/{name}"): "PlayerPage",
    ("get", "/api/leaderboard"): "Leaderboard",
    # issue 39: the live games to watch, a word at the table
    ("get", "/api/live"): "LiveGames",
    ("post", "/api/games/{game_id}/say"): "Said",
    ("post", "/api/challenges"): "ChallengeView",
    ("get", "/api/challenges"): "Challenges",
    ("post", "/api/challenges/{challenge_id}/accept"): "Started",
    ("delete", "/api/challenges/{challenge_id}"): "",
    ("post", "/api/pairing"): "Pairing",
    ("get", "/api/lobby/events"): "events",
}
SEATED = {"/api/games/{game_id}/actions", "/api/games/{game_id}/draw", "/api/games/{game_id}/undo",
          "/api/games/{game_id}/resign", "/api/games/{game_id}/abort", "/api/games/{game_id}/invite",
          "/api/games/{game_id}/rematch", "/api/games/{game_id}", "/api/games/{game_id}/takeback",
          "/api/games/{game_id}/takeback/accept", "/api/games/{game_id}/takeback/decline",
          "/api/games/{game_id}/takeback/withdraw", "/api/games/{game_id}/say"}
"""The routes that change a game (and need a seat's token), by path: their POST or DELETE."""
OPEN_OBJECTS = {"MessageView.params", "ErrorAnswer.params"}
"""A message's values: which a message takes is the catalogue's (its arguments), said in MessageView's description."""
CELL_KEYS = {"cell", "cells", "family_cells", "scoring_cells", "stride", "region_tiles"}
"""Version 1's fields that carried the engine's cell numbers."""


def untyped(spec: Json, schema: Json, where: str, seen: set[str]) -> list[str]:
    """Return where ``schema`` (resolved through ``spec``'s components) leaves a value untyped."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            return []
        seen.add(name)
        return untyped(spec, spec["components"]["schemas"][name], name, seen)
    found = []
    for key in ("anyOf", "oneOf", "allOf"):
        for i, option in enumerate(schema.get(key, [])):
            found += untyped(spec, option, f"{where}|{i}", seen)
    if any(key in schema for key in ("anyOf", "oneOf", "allOf", "const", "enum")):
        return found
    kind = schema.get("type")
    if kind == "object":
        extra = schema.get("additionalProperties")
        if not schema.get("properties") and not isinstance(extra, dict):
            return found if where in OPEN_OBJECTS else [*found, f"{where}: an object of unknown fields"]
        if isinstance(extra, dict):
            found += untyped(spec, extra, f"{where}.*", seen)
        for name, prop in schema.get("properties", {}).items():
            found += untyped(spec, prop, f"{where}.{name}", seen)
    elif kind == "array":
        items = schema.get("prefixItems", []) + ([schema["items"]] if "items" in schema else [])
        if not items:
            return [*found, f"{where}: a list of anything"]
        for i, item in enumerate(items):
            found += untyped(spec, item, f"{where}[{i}]", seen)
    elif kind not in ("string", "integer", "number", "boolean", "null"):
        return [*found, f"{where}: no type"]
    return found


def test_openapi_describes_every_answer_with_a_schema(client: WebClient) -> None:
    response = client.get("/api/openapi.json")
    spec = response.json()
    assert spec["info"]["version"] == str(API_VERSION) and f"version {API_VERSION}" in spec["info"]["description"]
    bearer = spec["components"]["securitySchemes"]["HTTPBearer"]
    assert bearer["type"] == "http" and bearer["scheme"] == "bearer" and "token" in bearer["description"]
    described = set()
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            described.add((method, path))
            expected = SUCCESS[(method, path)]
            if method in ("post", "delete") and path in SEATED:  # the seat's token is asked for (401, 403)
                assert operation["security"] == [{"HTTPBearer": []}], (method, path)
                assert {"401", "403"} <= set(operation["responses"]), (method, path)
            for status, answer in operation["responses"].items():
                if status.startswith("2") and not expected:
                    assert status == "204" and "content" not in answer, (method, path)
                    continue
                if status.startswith("2") and expected == "events":
                    assert status == "200" and "application/json" not in answer.get("content", {}), (method, path)
                    continue
                schema = answer["content"]["application/json"]["schema"]
                if status.startswith("2"):
                    name = expected.strip("[]")
                    ref = {"$ref": f"#/components/schemas/{name}"}
                    if expected.startswith("["):
                        assert schema["type"] == "array" and schema["items"] == ref, path
                    elif "|" in expected:
                        refs = [{"$ref": f"#/components/schemas/{n}"} for n in expected.split("|")]
                        assert schema["anyOf"] == refs, path
                    else:
                        assert schema == ref, path
                else:
                    assert status in ("400", "401", "403", "404", "409", "413", "422", "429"), (method, path, status)
                    assert schema == {"$ref": "#/components/schemas/ErrorAnswer"}, (method, path, status)
                assert untyped(spec, schema, f"{method} {path} {status}", set()) == []
    assert described == set(SUCCESS)
    assert not CELL_KEYS & set(json.dumps(spec["components"]["schemas"]).replace('"', " ").split())


def spaces_of(state: Any, mask: int) -> list[str]:
    """The engine's cells in a mask, by name (start spaces by id): what the view must say."""
    castle = state.castle
    names = {c: castle.name_of(c) for c in castle.interior} | {s.cell: s.id for s in castle.starts}
    return [names[c] for c in range(mask.bit_length()) if mask >> c & 1]


def check_names(answer: Any, names: set[str], where: str = "") -> None:
    """No field of an answer carries cell numbers; every space it names is a space of the castle."""
    if isinstance(answer, dict):
        for key, value in answer.items():
            assert key not in CELL_KEYS, f"{where}.{key}"
            if key == "space":
                assert value in names, f"{where}.{key}: {value}"
            elif key in ("spaces", "family_spaces"):
                assert set(value) <= names, f"{where}.{key}: {value}"
            check_names(value, names, f"{where}.{key}")
    elif isinstance(answer, list):
        for i, item in enumerate(answer):
            check_names(item, names, f"{where}[{i}]")


def check_with_the_engine(client: WebClient, view: Json) -> None:
    """The view's feature ids, spaces and usable tokens are the engine's own, read from the replayed record."""
    from zamek import TokenKind, replay

    state = replay(client.get(f"/api/games/{view['id']}/record").json())
    for choice in view["choices"]:
        if choice["type"] == "figure":
            feature = state.feature_at(view["placements"][-1]["space"], choice["part"])
            assert choice["feature"] == {"id": feature.id, "kind": feature.kind.key, "tiles": feature.tiles,
                                         "spaces": spaces_of(state, feature.cells)}
    order = state.order_choices()
    for choice in view["choices"]:
        if choice["type"] == "order":
            feature = order[int(choice["action"].removeprefix("order:"))]
            assert choice["feature"] == {"id": feature.id, "kind": feature.kind.key, "tiles": feature.tiles,
                                         "spaces": spaces_of(state, feature.cells)}
    scored = state.feature_being_scored() if view["phase"] in ("order", "double") else None
    assert view["scoring"] == (None if scored is None else {
        "id": scored.id, "kind": scored.kind.key, "tiles": scored.tiles, "spaces": spaces_of(state, scored.cells)})
    for figure in view["figures"]:
        assert figure["feature"] == state.feature_at(figure["space"], figure["part"]).id
    assert [item["spaces"] for item in view["log"]] == [spaces_of(state, item.cells) for item in state.log]
    for p, player in enumerate(view["players"]):
        assert player["family_spaces"] == spaces_of(state, state.family_cells[p])
    tokens = view["players"][view["current"]]["tokens"]
    for kind in {t["kind"] for t in tokens}:
        usable = sum(t["usable"] for t in tokens if t["kind"] == kind)
        assert usable == state.usable_tokens(TokenKind(kind)), (view["turn"], kind)


@pytest.mark.parametrize(
    ("options", "seed", "asked"),
    [({"sokol": True}, 23, "double"), ({"sokol": True, "edition": "castle2003", "gate_guard": True}, 10, "extra_turn")],
)
@pytest.mark.heavy
def test_answers_validate_against_their_models_and_name_spaces_not_cells(
    client: WebClient, options: Json, seed: int, asked: str
) -> None:
    """Random play of a whole game for two people (seeds chosen for a question about a token on the way)."""
    from zamek.server.knights_schemas import LobbyGames
    from zamek.server.layout import Geometry
    from zamek.server.schemas import GameStatus, GameView, Meta, ReplayView, SavedGame, SeatedView

    Meta.model_validate_json(client.get("/api/meta").text)
    geometry = Geometry.model_validate_json(client.get("/api/geometry?sokol=true").text)
    names = {s.name for s in geometry.spaces} | {s.id for s in geometry.starts}
    response = client.post("/api/games", json={"mode": "hotseat", "seed": seed} | options)
    rng = random.Random(seed)
    kinds: set[str] = set()
    phases: set[str] = set()
    while True:
        assert response.status_code in (200, 201), response.text
        assert response.headers["Zamek-Api"] == str(API_VERSION)
        model = SeatedView if response.status_code == 201 else GameView  # the new game's answer has its tokens
        view = model.model_validate_json(response.text).model_dump(mode="json")
        assert view == response.json()
        check_names(view, names)
        kinds |= {c["type"] for c in view["choices"]} | {m["kind"] for m in view["recent"]}
        phases.add(view["phase"])
        if view["phase"] not in ("place", "draw") or any(p["tokens"] for p in view["players"]):
            check_with_the_engine(client, view)
        if view["over"]:
            break
        if view["phase"] == "draw":
            response = client.post(f"/api/games/{view['id']}/draw", json={"revision": view["revision"]},
                                   headers=client.mover(view))
            continue
        if view["phase"] == "double":  # Z19: the question says what the token adds
            gains = [c["gain"] for c in view["choices"] if c["type"] == "use"]
            assert gains and all(g > 0 for g in gains), view["choices"]
        if view["phase"] == "place":
            action = rng.choice(view["drawn"]["places"])["action"]
        else:
            action = rng.choice(view["choices"])["action"]
        response = client.post(f"/api/games/{view['id']}/actions",
                               json={"action": action, "revision": view["revision"]}, headers=client.mover(view))
    assert {"figure", "pass", "draw", "place", "use", "decline", "reveal"} <= kinds and asked in phases
    assert any(item["spaces"] for item in view["log"]) and any(p["family_spaces"] for p in view["players"])
    GameStatus.model_validate_json(client.get(f"/api/games/{view['id']}/status").text)
    lobby = client.post("/api/lobby", json={"tokens": client.tokens.all()})
    assert [g.id for g in LobbyGames.model_validate_json(lobby.text).castle] == [view["id"]]
    record = client.get(f"/api/games/{view['id']}/record")
    assert SavedGame.model_validate_json(record.text).model_dump(mode="json", exclude_unset=True) == record.json()
    for move in (0, 7, view["moves_count"]):
        replayed = client.get(f"/api/games/{view['id']}/replay?move={move}")
        ReplayView.model_validate_json(replayed.text)
        check_names(replayed.json(), names)


def test_every_api_answer_says_the_protocol_version(client: WebClient) -> None:
    for url in ("/api/meta", "/api/games/nope", "/api/knights/nope", "/api/words", "/api/openapi.json"):
        assert client.get(url).headers["Zamek-Api"] == str(API_VERSION), url
    for url, body in (("/api/lobby", {"tokens": []}), ("/api/games/nope/actions", {"action": "pass"})):
        assert client.post(url, json=body).headers["Zamek-Api"] == str(API_VERSION), url
    assert client.get("/api/meta").json()["api"] == API_VERSION
    assert "Zamek-Api" not in client.get("/").headers


def test_z22_a_fixed_draw_order_is_shown_only_once_the_game_is_over(client: WebClient) -> None:
    # An imported game may carry a fixed draw order: it tells every tile to come, like the seed.
    order = [t.id for t in datafiles.new_game().tiles.tiles]
    record = make_record(Setup(draw_order=tuple(order)), None, [])
    view = client.post("/api/import", json=record).json()
    assert view["setup"]["draw_order"] is None and view["seed"] is None
    exported = client.get(f"/api/games/{view['id']}/record").json()
    assert exported["setup"]["draw_order"] is None and exported["seed"] is None
    assert client.post("/api/import", json=exported).status_code == 201  # the export still imports
    finished = finished_record(4)
    finished["setup"]["draw_order"] = [m.removeprefix("draw:") for m in finished["moves"] if m.startswith("draw:")]
    over = client.post("/api/import", json=finished).json()
    assert over["over"] and over["setup"]["draw_order"] == finished["setup"]["draw_order"]


def test_z19_the_doubling_question_says_what_the_token_adds() -> None:
    """The web's x2 question names the points the token adds: the holder's score after using it, less after
    keeping it, over the double questions of random games."""
    import random

    from zamek import Phase, UseToken, new_game
    from zamek.castle.rules.setup import Setup
    from zamek.castle.runner import random_policy, sample_chance
    from zamek.server.views import _doubling_gain

    rng = random.Random(3)
    asked = 0
    for _ in range(400):  # the question is rare in random play
        state = new_game(Setup())
        while not state.is_over():
            if state.phase is Phase.DOUBLE:
                for action in state.legal_actions():
                    if isinstance(action, UseToken):
                        gain = _doubling_gain(state, action)
                        used = state.copy()
                        used.apply(action)
                        assert gain > 0 and used.scores[state.current] - state.scores[state.current] >= gain
                        asked += 1
            step = sample_chance(state, rng) if state.is_chance() else random_policy(state, rng)
            state.apply(step)
        if asked >= 3:
            break
    assert asked >= 3


def test_z4_a_face_down_token_says_what_it_may_be(client: WebClient) -> None:
    """The view lists the tokens not yet revealed (a face-down token in a tower is one of them), with counts."""
    view = new_game(client)
    pool = datafiles.new_game(Setup()).unrevealed_tokens()
    assert sum(int(line.rsplit("×", 1)[1]) for line in view["hidden_tokens"]) == sum(pool)
    assert len(view["hidden_tokens"]) == sum(1 for n in pool if n)
