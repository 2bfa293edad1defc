"""Hints and analyses through the web API: who may ask for hints and when, and the analysis of a finished game,
computed once and stored with it (and of a saved game sent in the request)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.web_client import Json, WebClient, bearer, finished_record, new_game
from zamek import new_game as new_game_state
from zamek import parse_action
from zamek.castle import analysis as judging
from zamek.castle.analysis import Hint
from zamek.castle.data import loader as datafiles
from zamek.castle.record import make_record
from zamek.castle.rules.actions import Action
from zamek.castle.rules.setup import Phase, Setup
from zamek.castle.runner import random_policy, sample_chance
from zamek.i18n import Message
from zamek.server.advice import hint_move


def friend_game(client: WebClient, hints: bool | None) -> Json:
    """A game against a friend (the creator plays first), joined by the friend."""
    body: Json = {"mode": "friend", "seat": "first"} | ({} if hints is None else {"hints": hints})
    created = client.post("/api/games", json=body).json()
    joined = client.post(f"/api/games/{created['id']}/join", json={"invite": created["invite"], "name": "Ola"})
    assert joined.status_code == 201, joined.text
    view: Json = joined.json()
    return view


def hints(client: WebClient, game_id: str, headers: dict[str, str] | None = None, lang: str = "en") -> Any:
    return client.get(f"/api/games/{game_id}/hints?lang={lang}", headers=headers or {})


# ------------------------------------------------------------------ hints


def test_hints_are_the_three_best_legal_moves_of_the_player_to_move(client: WebClient) -> None:
    view = new_game(client)
    response = hints(client, view["id"], client.mover(view))
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["player"] == 0 and answer["revision"] == view["revision"]
    found = answer["hints"]
    assert len(found) == 3
    assert [h["lead"] for h in found] == sorted((h["lead"] for h in found), reverse=True)
    places = {p["action"]: p for p in view["drawn"]["places"]}
    for hint in found:
        place = places[hint["move"][0]]  # a legal placement of the drawn tile
        assert (hint["space"], hint["rotation"]) == (place["space"], place["rotation"])
        assert len(hint["words"]) == len(hint["move"]) and view["drawn"]["id"] in hint["words"][0]
    # The figure of each hint is one the placement offers (or none): played through, each is taken.
    for hint in found:
        hot = new_game(client, mode="hotseat", seed=5)
        assert hot["drawn"]["id"] == view["drawn"]["id"]
        placed = client.post(f"/api/games/{hot['id']}/actions", json={"action": hint["move"][0]},
                             headers=client.mover(hot))
        assert placed.status_code == 200, placed.text
        choices = [c["action"] for c in placed.json()["choices"]]
        assert hint["move"][1] in choices
        assert (hint["part"] is None) == (hint["move"][1] == "pass")


def test_hints_name_the_feature_of_their_figure_by_its_spaces_and_the_tiles_side() -> None:
    """Z47 holds four houses: a squire on each of them, placed on j4 turned 0°, would read alike as "a squire on the
    house". A hint names the house by the spaces it covers once the tile is there (the tile's own first) and by the
    side of the tile it touches, in English and Polish, and gives those spaces for the board to shade (issue 37)."""
    state = new_game_state(Setup(draw_order=("Z47",)))
    (draw, _), = state.chance_outcomes()
    state.play(draw)
    said = {lang: [hint_move(state, Hint(("j4/0", f"follower:{part}"), 0.0), lang) for part in range(4)]
            for lang in ("en", "pl")}
    assert [h.words[-1] for h in said["en"]] == [
        "Player 1 puts a squire on the house on space j4 (north)",
        "Player 1 puts a squire on the house on spaces j4, S5 (east)",
        "Player 1 puts a squire on the house on space j4 (south)",
        "Player 1 puts a squire on the house on space j4 (west)"]
    assert [h.words[-1] for h in said["pl"]][:2] == [
        "Gracz 1 stawia figurę: giermek (obszar: dom na polu j4, od północy)",
        "Gracz 1 stawia figurę: giermek (obszar: dom na polach j4, S5, od wschodu)"]
    assert [h.feature_spaces for h in said["en"]] == [["j4"], ["j4", "S5"], ["j4"], ["j4"]]
    assert all(h.messages[-1].key == "move.figure-at" for h in said["en"])
    # A larger feature: its first spaces, and how many more.
    many = Message("move.spaces", {"spaces": ["e8", "f8", "f9"], "more": 2})
    assert (many.text("en"), many.text("pl")) == ("e8, f8, f9 and 2 more", "e8, f8, f9 i 2 innych")


def test_hints_need_the_token_of_the_seat_to_move(client: WebClient) -> None:
    view = new_game(client)
    game = view["id"]
    assert hints(client, game).status_code == 401  # no token: a spectator
    refused = hints(client, game, bearer("x" * 32))
    assert refused.status_code == 403 and refused.json()["error"] == "not-your-seat"
    other = new_game(client)
    assert hints(client, game, client.mover(other)).status_code == 403  # another game's seat
    # At one screen each seat has its token: the seat not to move gets none.
    hot = new_game(client, mode="hotseat")
    not_mover = client.seat(hot["id"], 1 - hot["current"])
    wrong = hints(client, hot["id"], not_mover)
    assert wrong.status_code == 409 and wrong.json()["error"] == "not-your-turn"
    assert hints(client, hot["id"], client.mover(hot)).status_code == 200


def test_hints_are_refused_against_a_friend_unless_both_agreed(client: WebClient) -> None:
    off = friend_game(client, None)
    assert off["hints"] is False
    refused = hints(client, off["id"], client.seat(off["id"], 0))
    assert refused.status_code == 403 and refused.json()["error"] == "hints-off"
    polish = hints(client, off["id"], client.seat(off["id"], 0), lang="pl")
    assert polish.status_code == 403 and polish.json()["message"].startswith("Podpowiedzi są w tej grze wyłączone")
    assert friend_game(client, False)["hints"] is False

    on = friend_game(client, True)
    assert on["hints"] is True and client.get(f"/api/games/{on['id']}").json()["hints"] is True
    given = hints(client, on["id"], client.seat(on["id"], 0))
    assert given.status_code == 200 and len(given.json()["hints"]) == 3
    assert hints(client, on["id"], client.seat(on["id"], 1)).status_code == 409  # the friend is not to move
    assert hints(client, on["id"]).status_code == 401  # a spectator never gets hints
    # The agreement is stored with the game: the server read again from its database still knows it.
    assert client.service.repo.get(on["id"]).hints is True  # type: ignore[union-attr]
    assert client.service.repo.get(off["id"]).hints is False  # type: ignore[union-attr]


def test_hints_are_allowed_against_the_computer_and_at_one_screen(client: WebClient) -> None:
    assert new_game(client)["hints"] is True
    assert new_game(client, mode="hotseat")["hints"] is True
    # Asking for hints at creation means nothing there (nor does it change a game against the computer).
    assert new_game(client, hints=True)["hints"] is True


def test_a_rematch_keeps_the_agreement_to_hints(client: WebClient) -> None:
    on = friend_game(client, True)
    resigned = client.post(f"/api/games/{on['id']}/resign", headers=client.seat(on["id"], 1))
    assert resigned.status_code == 200 and resigned.json()["over"]
    assert hints(client, on["id"], client.seat(on["id"], 0)).status_code == 409  # the game is over
    rematch = client.post(f"/api/games/{on['id']}/rematch", headers=client.seat(on["id"], 0))
    assert rematch.status_code == 201 and rematch.json()["hints"] is True


# ---------------------------------------------------------------- analysis


def test_an_unfinished_game_is_not_analysed(client: WebClient) -> None:
    view = new_game(client)
    refused = client.get(f"/api/games/{view['id']}/analysis")
    assert refused.status_code == 409 and refused.json()["error"] == "in-progress"
    polish = client.get(f"/api/games/{view['id']}/analysis?lang=pl")
    assert polish.json()["message"].startswith("Grę można przeanalizować dopiero po jej końcu")
    assert client.service.repo.analyses.get(view["id"]) is None
    assert client.get("/api/games/nosuchgame/analysis").status_code == 404


def test_a_finished_game_is_analysed_once_and_the_analysis_is_stored(client: WebClient,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    record = finished_record(4)
    game = client.post("/api/import", json=record).json()
    assert game["over"]
    first = client.get(f"/api/games/{game['id']}/analysis")
    assert first.status_code == 200, first.text
    analysis = first.json()
    assert analysis["format"] == "zamek-analysis" and analysis["game"] == game["id"]
    assert analysis["estimator"] == judging.estimator_name()
    assert set(analysis["thresholds"]) == {"inaccuracy", "mistake", "blunder"}
    assert [s["player"] for s in analysis["summary"]] == [0, 1]
    assert analysis["final_lead"] == record["result"]["scores"][0] - record["result"]["scores"][1]
    decisions = analysis["decisions"]
    assert decisions and any(d["flag"] for d in decisions), "random play makes mistakes"
    for d in decisions:
        assert record["moves"][d["index"]:d["index"] + len(d["played"])] == d["played"]
        assert d["loss"] >= 0 and len(d["played_words"]) == len(d["played"])
        assert len(d["best_words"]) == len(d["best"])
    stored = client.service.repo.analyses.get(game["id"])
    assert stored is not None and stored.estimator == analysis["estimator"] and stored.moves == len(record["moves"])
    assert stored.analysis["decisions"][0]["played"] == decisions[0]["played"]

    # Asked again: the stored analysis, not a new one (judging would fail now), the same row.
    def fail(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("analysed again")

    monkeypatch.setattr(judging, "analyse", fail)
    again = client.get(f"/api/games/{game['id']}/analysis")
    assert again.status_code == 200 and again.json() == analysis
    assert client.service.repo.analyses.get(game["id"]).created_at == stored.created_at  # type: ignore[union-attr]
    # In Polish: the same judging, the moves in Polish words.
    polish = client.get(f"/api/games/{game['id']}/analysis?lang=pl").json()
    assert [d["loss"] for d in polish["decisions"]] == [d["loss"] for d in decisions]
    assert polish["decisions"][0]["played_words"][0].startswith("Gracz")


def test_an_analysis_made_with_another_estimate_is_made_again(client: WebClient) -> None:
    game = client.post("/api/import", json=finished_record(7)).json()
    client.service.repo.analyses.save(game["id"], "value-old", len(finished_record(7)["moves"]),
                                      {"format": "zamek-analysis", "estimator": "value-old"})
    answer = client.get(f"/api/games/{game['id']}/analysis")
    assert answer.status_code == 200 and answer.json()["estimator"] == judging.estimator_name()
    assert client.service.repo.analyses.get(game["id"]).estimator == judging.estimator_name()  # type: ignore[union-attr]


def test_a_resigned_game_is_analysed_and_a_deleted_game_takes_its_analysis_along(client: WebClient) -> None:
    view = new_game(client, seed=3)
    resigned = client.post(f"/api/games/{view['id']}/resign", headers=client.mover(view))
    assert resigned.status_code == 200 and resigned.json()["over"]
    analysis = client.get(f"/api/games/{view['id']}/analysis")
    assert analysis.status_code == 200, analysis.text
    assert client.service.repo.analyses.get(view["id"]) is not None
    assert client.delete(f"/api/games/{view['id']}", headers=client.mover(view)).status_code == 204
    assert client.service.repo.analyses.get(view["id"]) is None


def test_a_saved_game_sent_in_the_request_is_analysed_and_not_stored(client: WebClient) -> None:
    record = finished_record(4)
    answer = client.post("/api/analysis", json=record)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["game"] is None and body["decisions"] and body["estimator"] == judging.estimator_name()
    assert client.service.repo.all() == []


@pytest.mark.parametrize("body", [
    b"not json", b"[]", b"{}", b"null", b'"zamek"', b'{"format": "zamek-game"}',
    b'{"format": "zamek-game", "version": 1, "setup": {}, "moves": "j4/0"}',
    b'{"format": "zamek-game", "version": 1, "setup": {"edition": "chess"}, "moves": []}',
    b'{"format": "zamek-game", "version": 1, "setup": {}, "moves": ["fly:me"]}',
    b'{"format": "zamek-game", "version": 99, "setup": {}, "moves": []}',
    b"[" * 100 + b"]" * 100,
    "\u0000\ufffe".encode(),
])
def test_a_malformed_saved_game_is_refused_with_a_reason(client: WebClient, body: bytes) -> None:
    answer = client.post("/api/analysis", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == "invalid-record" and answer.json()["message"]


def test_an_unfinished_or_doctored_saved_game_is_not_analysed(client: WebClient) -> None:
    record = finished_record(4)
    unfinished = record | {"moves": record["moves"][:20], "result": None}
    unfinished.pop("result")
    refused = client.post("/api/analysis", json=unfinished)
    assert refused.status_code == 400 and "not over" in refused.json()["message"]
    doctored = json.loads(json.dumps(record))
    doctored["result"]["scores"] = [999, 0]
    assert client.post("/api/analysis", json=doctored).status_code == 400
    assert client.post("/api/analysis", json=record | {"moves": ["pass"] * 6000}).status_code == 400
    big = client.post("/api/analysis", content=b" " * 2_100_000, headers={"Content-Type": "application/json"})
    assert big.status_code == 413


def record_drawing(tile_ids: set[str]) -> Json:
    """A saved game played at random until one of ``tile_ids`` is drawn for a placement (the record stops there)."""
    for seed in range(200):
        rng = random.Random(seed)
        setup = Setup()
        state = datafiles.new_game(setup)
        actions: list[Action] = []
        while not state.is_over():
            if not state.is_chance() and state.drawn >= 0 and state.phase is Phase.PLACE \
                    and state.tiles.tiles[state.drawn].id in tile_ids and len(state.legal_actions()) >= 3:
                return make_record(setup, seed, actions, state)
            action: Action = sample_chance(state, rng) if state.is_chance() else random_policy(state, rng)
            state.apply(action)
            actions.append(action)
    raise AssertionError(f"none of {tile_ids} drawn")


def test_hints_are_different_moves_when_the_tile_is_the_same_every_way_round(client: WebClient) -> None:
    # A tile of one feature (all houses, all meadow, all pigsty) is the same tile turned any way: the same space
    # and figure turned another way is the same move, and one move three times is no choice of three.
    record = record_drawing({"Z45", "Z46", "Z48"})
    game = client.post("/api/import", json=record)
    assert game.status_code == 201, game.text
    view = game.json()
    answer = hints(client, view["id"], client.mover(view))
    assert answer.status_code == 200, answer.text
    found = answer.json()["hints"]
    assert len(found) == 3
    moves = [(h["space"], h["move"][1]) for h in found]
    assert len(set(moves)) == 3, found
    assert [h["lead"] for h in found] == sorted((h["lead"] for h in found), reverse=True)


def test_an_analysis_stored_in_another_version_of_the_format_is_made_again(client: WebClient) -> None:
    record = finished_record(7)
    game = client.post("/api/import", json=record).json()
    old = {"format": "zamek-analysis", "version": judging.VERSION - 1, "estimator": judging.estimator_name(),
           "moves": []}  # what an earlier version might have stored, with the same estimate
    client.service.repo.analyses.save(game["id"], judging.estimator_name(), len(record["moves"]), old)
    answer = client.get(f"/api/games/{game['id']}/analysis")
    assert answer.status_code == 200, answer.text
    assert answer.json()["version"] == judging.VERSION and answer.json()["decisions"]
    assert client.service.repo.analyses.get(game["id"]).analysis["version"] == judging.VERSION  # type: ignore[union-attr]


def test_a_game_deleted_while_it_is_analysed_keeps_no_analysis(client: WebClient,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    view = new_game(client, seed=3)
    assert client.post(f"/api/games/{view['id']}/resign", headers=client.mover(view)).status_code == 200
    analyse = judging.analyse

    def deleted_meanwhile(raw: Any, *args: Any, **kwargs: Any) -> Any:
        assert client.delete(f"/api/games/{view['id']}", headers=client.mover(view)).status_code == 204
        return analyse(raw, *args, **kwargs)

    monkeypatch.setattr(judging, "analyse", deleted_meanwhile)
    client.get(f"/api/games/{view['id']}/analysis")
    assert client.service.repo.analyses.get(view["id"]) is None
    assert client.get(f"/api/games/{view['id']}").status_code == 404


def test_the_best_move_with_a_symmetric_tile_turned_another_way_is_the_best_move_played(client: WebClient) -> None:
    # A tile the same every way round (Z47: four houses, one on each side): turned another way, with the figure on
    # the house on the same side of the board, it is the same move: judged as good, and shown as the best played.
    from zamek.castle.rules.geometry import rotate_segment

    def same_square(state: Any, played: list[str], best: list[str]) -> bool:
        tile = state.tiles.tiles[state.drawn]
        symmetric = {"Z10", "Z14", "Z45", "Z46", "Z47", "Z48"}  # the same tile every way round
        if tile.id not in symmetric or played[0].split("/")[0] != best[0].split("/")[0]:
            return False

        def covers(move: list[str]) -> tuple[str, frozenset[int]]:
            rotation = int(move[0].split("/")[1]) // 90
            if move[1] == "pass":
                return ("pass", frozenset())
            piece, feature = move[1].split(":")
            return (piece, frozenset(rotate_segment(s, rotation) for s in tile.features[int(feature)].segments))

        return covers(played) == covers(best)

    for seed in (4, 7, 1, 2, 3, 5, 6, 8):
        record = finished_record(seed)
        raw = judging.analyse(record).to_json()
        state = datafiles.new_game(Setup())
        moves = [parse_action(m) for m in record["moves"]]
        twins = []
        by_index = {d["index"]: d for d in raw["decisions"]}
        for i, action in enumerate(moves):
            d = by_index.get(i)
            if d is not None and d["played"] != d["best"] and "/" in d["played"][0] \
                    and same_square(state, d["played"], d["best"]):
                twins.append(d)
            state.apply(action)
        if twins:
            break
    else:
        pytest.fail("no game with a symmetric tile's best move played turned another way")
    game = client.post("/api/import", json=record).json()
    view = client.get(f"/api/games/{game['id']}/analysis")
    assert view.status_code == 200, view.text
    shown = {d["index"]: d for d in view.json()["decisions"]}
    for d in twins:
        assert d["loss"] == 0 and d["flag"] is None
        assert shown[d["index"]]["best"] == shown[d["index"]]["played"] == d["played"]
        assert shown[d["index"]]["best_words"] == shown[d["index"]]["played_words"]
    # Other moves stay as judged.
    assert all(shown[d["index"]]["best"] == d["best"] for d in raw["decisions"] if d not in twins)
