"""One seeding convention (``zamek.castle.seeding``): a seed fixes a game's tiles and tokens wherever it is played."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.helpers import changed
from zamek.castle.data.loader import new_game
from zamek.castle.rules.actions import Action, Draw, Reveal
from zamek.castle.rules.position import Position
from zamek.castle.rules.setup import Phase, Setup
from zamek.castle.rules.state import GameState
from zamek.castle.runner import play_game
from zamek.castle.seeding import ALL_TOKENS, SeededChance, first_player, player_rng
from zamek.server.app import create_app
from zamek.server.service import WebConfig


def draws(actions: list[Action]) -> list[str]:
    return [a.tile for a in actions if isinstance(a, Draw)]


def reveals(actions: list[Action]) -> list[int]:
    return [a.kind for a in actions if isinstance(a, Reveal)]


def test_z3_the_tile_order_is_a_shuffle_of_the_set_fixed_by_the_seed() -> None:
    tiles = new_game().tiles
    a, b = SeededChance(5, tiles), SeededChance(5, tiles)
    assert a.tile_order == b.tile_order
    assert sorted(a.tile_order) == list(range(len(tiles)))
    assert SeededChance(6, tiles).tile_order != a.tile_order
    # Z3: each tile is as likely as any other to come first.
    firsts = Counter(SeededChance(seed, tiles).tile_order[0] for seed in range(6000))
    assert len(firsts) == len(tiles) and max(firsts.values()) < 3 * min(firsts.values())


def test_z4_the_tokens_come_in_the_order_fixed_by_the_seed() -> None:
    chance = SeededChance(3, new_game().tiles)
    assert sorted(chance.token_order) == sorted(ALL_TOKENS)
    pool = [0] + [2] * 9
    revealed = []
    for _ in range(len(ALL_TOKENS)):
        kind = chance._next_token(pool)
        pool[kind] -= 1
        revealed.append(kind)
    assert revealed == list(chance.token_order)


@pytest.mark.parametrize("setup", [Setup(), Setup(sokol=True, gate_guard=True)], ids=lambda s: s.name)
def test_the_players_do_not_change_the_tiles(setup: Setup) -> None:
    # The same seed with other players: the same tiles in the same order, and the same first player.
    random_game = play_game(11, setup=setup)
    other = play_game(11, policies=(lambda s, r: s.legal_actions()[0], lambda s, r: s.legal_actions()[-1]), setup=setup)
    assert draws(random_game.actions)[:20] == draws(other.actions)[:20]
    assert random_game.setup.first_player == other.setup.first_player == first_player(11)


def test_z8_a_discarded_tile_changes_nothing_after_it() -> None:
    state = new_game()
    chance = SeededChance(2, state.tiles)
    order = [state.tiles.tiles[t].id for t in chance.tile_order]
    state.play(chance.outcome(state))
    assert state.tiles.tiles[state.drawn].id == order[0]
    # Take the second tile of the order out of the pile (as a discard would): the third comes next after it.
    position = Position.from_state(state)
    state = changed(state, left=tuple(t for t in position.left if t != order[1]), out=(*position.out, order[1]))
    state.play(state.legal_actions()[0])
    state.play(state.legal_actions()[-1])
    while state.phase is not Phase.DRAW:
        state.play(state.legal_actions()[0])
    assert chance.outcome(state) == Draw(order[2])


def test_the_arena_seat_orders_of_a_seed_see_the_same_tiles() -> None:
    seen: list[list[str]] = []
    for a_seat in (0, 1):
        state = new_game(Setup(first_player=0))
        chance = SeededChance(4, state.tiles)
        tiles: list[str] = []
        rngs = [player_rng(4, 0), player_rng(4, 1)]
        policies = [lambda s, r: r.choice(s.legal_actions()), lambda s, r: s.legal_actions()[0]]
        while not state.is_over() and len(tiles) < 25:
            if state.is_chance():
                action: Action = chance.outcome(state)
                if isinstance(action, Draw):
                    tiles.append(action.tile)
            else:
                seat = state.current if a_seat == 0 else 1 - state.current
                action = policies[seat](state, rngs[seat])
            state.play(action)
        seen.append(tiles)
    assert seen[0] == seen[1]


def test_the_web_app_and_selfplay_agree_on_a_seeds_tiles(tmp_path: Path) -> None:
    game = play_game(9, setup=Setup(), first_player=0)
    expected = draws(game.actions)
    app = create_app(WebConfig(db_url=f"sqlite:///{tmp_path / 'g.sqlite3'}", bot_delay=0))
    with TestClient(app) as client:
        view = client.post("/api/games", json={"mode": "hotseat", "seed": 9}).json()
        record = client.get(f"/api/games/{view['id']}/record").json()
        assert record["seed"] is None and record["setup"]["first_player"] in (0, 1)  # given at the end (Z22)
        first_draw = [m for m in record["moves"] if m.startswith("draw:")]
        assert first_draw[0] == f"draw:{expected[0]}"


def test_the_web_apps_next_tile_does_not_depend_on_the_move_made(tmp_path: Path) -> None:
    app = create_app(WebConfig(db_url=f"sqlite:///{tmp_path / 'g.sqlite3'}", bot_delay=0))
    seconds = set()
    with TestClient(app) as client:
        for option in (0, -1):  # two games of one seed, the first tile placed in two different ways
            view = client.post("/api/games", json={"mode": "hotseat", "seed": 21}).json()
            tokens = {t["seat"]: {"Authorization": f"Bearer {t['token']}"} for t in view["tokens"]}
            place = view["drawn"]["places"][option]["action"]
            mover = tokens[view["current"]]
            view = client.post(f"/api/games/{view['id']}/actions", json={"action": place}, headers=mover).json()
            view = client.post(f"/api/games/{view['id']}/actions", json={"action": "pass"}, headers=mover).json()
            view = client.post(f"/api/games/{view['id']}/draw", json={"revision": view["revision"]},
                               headers=tokens[view["current"]]).json()
            seconds.add(view["drawn"]["id"])
    assert len(seconds) == 1


def test_replaying_a_record_needs_no_seed() -> None:
    game = play_game(13)
    state: GameState = new_game(game.setup)
    for action in game.actions:  # the record's moves hold every draw and reveal
        state.play(action)
    assert state.scores == game.state.scores
