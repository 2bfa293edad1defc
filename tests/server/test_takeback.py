"""Takebacks by agreement in a castle game with a friend (``zamek.server.takeback``): a seat asks to take its last
turn back, the other seat sees the request and accepts (the game goes back exactly, chance the same) or declines (no
second request before the next move); any move lets a request lapse; every request proves its seat, and every
refusal is a 4xx with its code. On SQLite and PostgreSQL (``any_url``), across two processes and a restart.
"""

from __future__ import annotations

from typing import Any

import pytest
from tools.loadtest import legal_actions

from tests.server.test_matches import decide, joined, new_match, public
from tests.server.test_server_postgres import client as app_on
from tests.web_client import FakeTime, Json, WebClient, bearer
from zamek.castle import record as records
from zamek.castle.rules.projection import projected_scores
from zamek.server.games import MoveInfo
from zamek.server.takeback import kept_moves, started_before


def post(web: WebClient, gid: str, route: str, seat: int | None, **body: Any) -> Any:
    """A takeback route (``""``, ``"/accept"``, ``"/decline"``) asked with ``seat``'s token (None: none)."""
    headers = web.seat(gid, seat) if seat is not None else {}
    return web.post(f"/api/games/{gid}/takeback{route}", json=body or None, headers=headers)


def refused(answer: Any, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["code"] == code, answer.text


def whole_turn(web: WebClient, gid: str) -> int:
    """The seat to move plays its whole turn (the first legal choice each time); return that seat."""
    seat: int = public(web, gid)["current"]
    while not (view := public(web, gid))["over"] and view["current"] == seat:
        decide(web, gid)
    return seat


def friend_game(web: WebClient, begun: bool = True, **options: Any) -> str:
    """A castle game with a friend, joined; ``begun``: both players have made their first move (the first moves
    cannot be taken back)."""
    match = new_match(web, "castle", **options)
    joined(web, match)
    gid = str(match["id"])
    if begun:
        whole_turn(web, gid)
        whole_turn(web, gid)
    return gid


def test_a_takeback_goes_back_to_where_the_turn_began_and_chance_stays(any_url: str) -> None:
    with app_on(any_url) as web:
        gid = friend_game(web)
        first = public(web, gid)
        ala = first["current"]
        olek = 1 - ala
        whole_turn(web, gid)
        after = public(web, gid)  # Olek's tile is drawn: he is to place it
        assert after["current"] == olek and after["takeback"]["can_ask"][ala] and not after["takeback"]["can_ask"][olek]

        asked = post(web, gid, "", ala, revision=after["revision"])
        assert asked.status_code == 200, asked.text
        seen = public(web, gid)  # what Olek's page reads when the change's event comes
        assert seen["revision"] == after["revision"] + 1 and seen["moves_count"] == after["moves_count"]
        assert seen["takeback"]["asked_by"] == ala and seen["takeback"]["can_ask"] == [False, False]
        assert seen["takeback"]["moves"][ala] >= 2 and seen["takeback"]["moves"][olek] == 0  # a tile and a figure

        accepted = post(web, gid, "/accept", olek, revision=seen["revision"])
        assert accepted.status_code == 200, accepted.text
        back = public(web, gid)
        # Exactly the position after Ala's tile was drawn: the same tile to place, the same board and scores.
        assert back["moves_count"] == first["moves_count"] and back["current"] == ala
        for field in ("drawn", "placements", "figures", "players", "remaining", "phase"):
            assert back[field] == first[field], field
        assert back["takeback"] == {"can_ask": [False, False], "asked_by": None, "declined": [], "withdrawn": [],
                                    "moves": []}
        # Chance is the seed's: Ala's turn played again brings Olek the same tile.
        whole_turn(web, gid)
        assert public(web, gid)["drawn"]["id"] == after["drawn"]["id"]

    with app_on(any_url) as restarted:  # another process: the database holds the game as it went back
        again = public(restarted, gid)
        assert again["moves_count"] == back["moves_count"] + (after["moves_count"] - first["moves_count"])


def test_the_other_players_reply_is_taken_back_with_the_turn(client: WebClient) -> None:
    gid = friend_game(client)
    ala = whole_turn(client, gid)
    start = public(client, gid)
    olek = whole_turn(client, gid)
    view = public(client, gid)
    assert view["current"] == ala and view["takeback"]["can_ask"] == [True, True]
    assert post(client, gid, "", ala).status_code == 200
    moves = public(client, gid)["takeback"]["moves"]
    assert moves[ala] >= 2 and moves[olek] >= 2  # Ala's turn and Olek's reply
    assert post(client, gid, "/accept", olek).status_code == 200
    back = public(client, gid)
    assert back["current"] == ala and back["moves_count"] < start["moves_count"]
    # Ala's tile is hers to place again; the tiles before it lie as they lay (their features' ids may differ: her
    # tile may have joined some of their features into one)
    def laid(placements: list[Json]) -> list[Json]:
        return [{k: v for k, v in p.items() if k != "features"} for p in placements]

    assert laid(back["placements"]) == laid(start["placements"][:-1])
    record = client.get(f"/api/games/{gid}/record").json()
    assert len(record["moves"]) == back["moves_count"]


def test_a_declined_request_is_not_asked_again_before_the_next_move(client: WebClient) -> None:
    gid = friend_game(client)
    ala = whole_turn(client, gid)
    olek = 1 - ala
    assert post(client, gid, "", ala).status_code == 200
    refused(post(client, gid, "", ala), 409, "takeback-open")
    refused(post(client, gid, "", olek), 409, "takeback-open")
    refused(post(client, gid, "/accept", ala), 403, "takeback-own")
    refused(post(client, gid, "/decline", ala), 403, "takeback-own")
    declined = post(client, gid, "/decline", olek)
    assert declined.status_code == 200, declined.text
    view = public(client, gid)
    assert view["takeback"]["asked_by"] is None and view["takeback"]["declined"] == [ala]
    assert view["takeback"]["can_ask"][ala] is False and view["moves_count"] > 0
    refused(post(client, gid, "", ala), 409, "takeback-declined")
    refused(post(client, gid, "/accept", olek), 409, "no-takeback")
    decide(client, gid)  # Olek moves: the position changes, Ala may ask again
    assert public(client, gid)["takeback"]["can_ask"][ala] is True
    assert post(client, gid, "", ala).status_code == 200


def test_a_move_lets_an_open_request_lapse(client: WebClient) -> None:
    gid = friend_game(client)
    ala = whole_turn(client, gid)
    olek = 1 - ala
    assert post(client, gid, "", ala).status_code == 200
    decide(client, gid)  # Olek plays on instead of answering
    view = public(client, gid)
    assert view["takeback"]["asked_by"] is None and view["takeback"]["declined"] == []
    refused(post(client, gid, "/accept", olek), 409, "no-takeback")


def test_every_takeback_request_proves_its_seat_and_is_refused_with_a_code(client: WebClient) -> None:
    waiting = new_match(client, "castle")
    gid = waiting["id"]
    refused(post(client, gid, "", 0), 409, "waiting-friend")
    joined(client, waiting)
    mover = public(client, gid)["current"]
    refused(post(client, gid, "", mover), 409, "nothing-to-take-back")  # nothing decided yet
    whole_turn(client, gid)
    refused(post(client, gid, "", None), 401, "needs-token")
    stranger = client.post(f"/api/games/{gid}/takeback", json={}, headers=bearer("x" * 32))
    refused(stranger, 403, "not-a-seat")
    stale = post(client, gid, "", mover, revision=public(client, gid)["revision"] - 1)
    assert stale.status_code == 409 and stale.json()["error"] == "stale"
    refused(client.post("/api/games/nope/takeback", json={}, headers=client.seat(gid, mover)), 404, "no-game")
    assert client.post(f"/api/games/{gid}/resign", json={}, headers=client.seat(gid, mover)).status_code == 200
    refused(post(client, gid, "", mover), 409, "game-over")
    refused(post(client, gid, "/accept", 1 - mover), 409, "game-over")

    computer = client.post("/api/games", json={"mode": "computer", "level": "beginner", "seat": "first"}).json()
    refused(post(client, computer["id"], "", 0), 409, "takeback-friends")
    knights = new_match(client, "knights")
    refused(post(client, knights["id"], "", 0), 409, "takeback-friends")


def test_an_open_request_survives_a_restart_and_is_answered_through_another_process(any_url: str) -> None:
    with app_on(any_url) as first, app_on(any_url) as second:
        second.tokens = first.tokens  # one browser's tokens, its requests served by either process
        gid = friend_game(first)
        ala = whole_turn(first, gid)
        assert post(first, gid, "", ala).status_code == 200
        assert public(second, gid)["takeback"]["asked_by"] == ala
        assert post(second, gid, "/accept", 1 - ala).status_code == 200
        assert public(first, gid)["takeback"]["asked_by"] is None and public(first, gid)["current"] == ala
        ala_again = whole_turn(first, gid)
        assert post(first, gid, "", ala_again).status_code == 200
        tokens = first.tokens
    with app_on(any_url) as restarted:
        restarted.tokens = tokens
        assert public(restarted, gid)["takeback"]["asked_by"] == ala_again
        assert post(restarted, gid, "/decline", 1 - ala_again).status_code == 200


@pytest.mark.parametrize("clock", [{"kind": "live", "minutes": 5, "increment": 0},
                                   {"kind": "live", "minutes": 5, "increment": 3},
                                   {"kind": "correspondence", "days": 1}], ids=["live", "increment", "by-days"])
def test_no_time_is_given_back(clocked: tuple[WebClient, FakeTime], clock: dict[str, Any]) -> None:
    web, fake = clocked
    gid = friend_game(web, begun=False, clock=clock)
    ala = whole_turn(web, gid)
    olek = whole_turn(web, gid)  # both have made a first move: the clocks run, Ala's first
    start = public(web, gid)["clock"]["left_ms"]
    increment = clock.get("increment", 0) * 1000
    fake.advance(10)
    whole_turn(web, gid)  # Ala's turn takes 10 s, and earns her the increment (a live clock)
    after_turn = public(web, gid)["clock"]["left_ms"][ala]
    fake.advance(40)
    assert post(web, gid, "", ala).status_code == 200  # after 40 s of Olek's; his clock runs on while he thinks
    fake.advance(5)
    assert post(web, gid, "/accept", olek).status_code == 200
    left = public(web, gid)["clock"]
    # Back to Ala's turn, her clock running from now: nothing she spent comes back; Olek is charged his 45 s, with
    # no increment and no new day: his turn did not end.
    assert left["running"] == ala
    assert left["left_ms"][ala] == after_turn
    assert left["left_ms"][olek] == start[olek] - 45_000
    if clock["kind"] == "live":
        assert after_turn == start[ala] - 10_000 + increment


def test_the_first_moves_cannot_be_taken_back(client: WebClient) -> None:
    """Going back to before both players had moved would re-open the game's abort and idle its clock."""
    gid = friend_game(client, begun=False)
    ala = whole_turn(client, gid)
    whole_turn(client, gid)
    assert public(client, gid)["takeback"]["can_ask"][ala] is False
    refused(post(client, gid, "", ala), 409, "takeback-first-moves")
    whole_turn(client, gid)  # Ala's second turn: that one can be taken back
    assert public(client, gid)["takeback"]["can_ask"][ala] is True
    assert post(client, gid, "", ala).status_code == 200


def test_the_projected_scores_are_the_engines_and_the_same_for_every_reader(client: WebClient) -> None:
    gid = friend_game(client)
    for _ in range(6):
        whole_turn(client, gid)
    state = records.replay(client.get(f"/api/games/{gid}/record").json())
    expected = list(projected_scores(state))
    views: list[Json] = [public(client, gid)] + [
        client.get(f"/api/games/{gid}", headers=client.seat(gid, s)).json() for s in (0, 1)]
    for view in views:
        assert [p["projected"] for p in view["players"]] == expected
        assert all(p["projected"] >= p["score"] for p in view["players"])


def test_an_extra_turn_is_taken_back_with_the_turn_that_earned_it() -> None:
    """Z19: an extra turn follows its player's turn straight away; a takeback of that player's last turn takes both
    back, to the first decision after the other player's last one, and the draw before it stays."""
    def moves(*who: tuple[str, int]) -> list[MoveInfo]:
        return [MoveInfo(name, player, None, chance=name == "draw") for name, player in who]

    game = moves(("draw", 0), ("place", 0), ("figure", 0),            # Ala's first turn
                 ("draw", 1), ("place", 1), ("figure", 1),            # Olek's
                 ("draw", 0), ("place", 0), ("figure", 0), ("extra", 0),  # Ala's turn, earning an extra turn
                 ("draw", 0), ("place", 0), ("figure", 0))            # and the extra turn
    assert kept_moves(game, 0) == 7  # back to the place after Ala's draw of index 6
    assert started_before(game, 0, 7)
    assert kept_moves(game, 1) == 4 and started_before(game, 1, 4) is False  # Olek's only turn was his first
    assert kept_moves(game[:3], 1) is None  # Olek has decided nothing


def test_a_move_sent_from_the_position_stands_when_a_takeback_was_asked_meanwhile(any_url: str) -> None:
    """Asking or declining a takeback raises the game's revision but keeps its position (``position``): the other
    player's move, sent from their page of that position as the request came, is played and the request lapses;
    their page keys its hints and menus on the position. A page of an older position is still stale. The position's
    revision is stored with the request: another process, here the one the move reaches, knows it too."""
    with app_on(any_url) as web:
        gid = friend_game(web)
        ala = whole_turn(web, gid)
        olek = 1 - ala
        decide(web, gid)  # Olek places his tile: he is to decide on a figure
        page = public(web, gid)  # Olek's page
        assert page["position"] == page["revision"]
        assert post(web, gid, "", ala, revision=page["revision"]).status_code == 200
        asked = public(web, gid)
        assert asked["revision"] == page["revision"] + 1 and asked["position"] == page["position"]
        assert post(web, gid, "/decline", olek, revision=page["revision"]).status_code == 200

    with app_on(any_url) as other:
        declined = public(other, gid)
        assert declined["revision"] == page["revision"] + 2 and declined["position"] == page["position"]

        def act(revision: int) -> Any:
            return other.post(f"/api/games/{gid}/actions", headers=web.seat(gid, olek),
                              json={"action": legal_actions(page)[0], "revision": revision})

        old = act(page["revision"] - 1)  # a page from before Olek's placement
        assert old.status_code == 409 and old.json()["error"] == "stale"
        moved = act(page["revision"])
        assert moved.status_code == 200, moved.text
        after = public(other, gid)
        assert after["moves_count"] > page["moves_count"] and after["position"] == after["revision"]
        assert after["takeback"]["declined"] == []  # the move let the declined request lapse


def test_the_asking_seat_withdraws_its_request_and_may_not_ask_again_before_the_next_move(client: WebClient) -> None:
    gid = friend_game(client)
    ala = whole_turn(client, gid)
    olek = 1 - ala
    refused(post(client, gid, "/withdraw", ala), 409, "no-own-takeback")  # nothing asked yet
    assert post(client, gid, "", ala).status_code == 200
    refused(post(client, gid, "/withdraw", olek), 409, "no-own-takeback")  # Olek answers; he withdraws nothing
    refused(post(client, gid, "/withdraw", None), 401, "needs-token")
    withdrawn = post(client, gid, "/withdraw", ala)
    assert withdrawn.status_code == 200, withdrawn.text
    view = public(client, gid)["takeback"]
    assert view["asked_by"] is None and view["withdrawn"] == [ala] and view["declined"] == []
    assert not view["can_ask"][ala]
    refused(post(client, gid, "", ala), 409, "takeback-withdrawn")  # no asking over and over
    refused(post(client, gid, "/accept", olek), 409, "no-takeback")
    whole_turn(client, gid)  # Olek's turn: the position changes
    view = public(client, gid)["takeback"]
    assert view["withdrawn"] == [] and view["can_ask"][ala]
