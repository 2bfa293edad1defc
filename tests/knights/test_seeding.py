"""The card game's one seeding convention (``zamek.knights.seeding``): a seed turns up the same tiles wherever the
game is played — a game between bots (the arena's seat orders alike), the research environment and the web app's
computer seats — whatever the players choose; each tile is a uniform draw from those left (K3)."""

from __future__ import annotations

from collections import Counter

from zamek.env.knights_v0 import env as knights_env
from zamek.knights import record as records
from zamek.knights.rules.actions import Draw
from zamek.knights.rules.engine import KnightsSetup, KnightsState
from zamek.knights.runner import play_game
from zamek.knights.seeding import SeededTiles, tile_order
from zamek.server.games.knights import think


def tiles_of(moves: list[str]) -> list[str]:
    return [m.removeprefix("draw:") for m in moves if m.startswith("draw:")]


def test_k3_one_seed_turns_up_the_same_tiles_everywhere() -> None:
    setup = KnightsSetup(players=3)
    seed = 11
    order = tile_order(seed, setup)
    assert Counter(order) == Counter(KnightsState.new(setup).undrawn)
    games = [play_game(seed, lineup, setup) for lineup in (["random", "heuristic", "random"],
                                                           ["heuristic", "random", "heuristic"])]
    drawn = [tiles_of([str(a) for a in game.actions]) for game in games]
    assert drawn[0] == drawn[1] == order[:len(drawn[0])] and len(drawn[0]) == 7
    served = think(records.setup_to_json(setup), [], seed, ["random", "heuristic", "random"])
    assert tiles_of(served.moves) == drawn[0]
    environment = knights_env(players=3)
    environment.reset(seed=seed)
    for agent in environment.agent_iter():
        *_, done, cut, _ = environment.last()
        environment.step(None if done or cut else int(environment.action_space(agent).sample(
            environment.observe(agent)["action_mask"])))
    assert environment.unwrapped.state is not None
    assert tiles_of([str(Draw(t)) for t in environment.unwrapped.state.drawn]) == drawn[0]


def test_k3_the_tiles_of_a_seed_are_a_fair_draw() -> None:
    setup = KnightsSetup(players=2)
    first = Counter(tile_order(seed, setup)[0] for seed in range(3000))
    tiles = Counter(KnightsState.new(setup).undrawn)
    total = sum(tiles.values())
    for tile, count in tiles.items():
        assert abs(first[tile] / 3000 - count / total) < 0.04, (tile, first[tile])


def test_a_game_begun_by_another_convention_goes_on_with_the_tiles_left() -> None:
    setup = KnightsSetup(players=2)
    state = KnightsState.new(setup)
    state.play(Draw(sorted(state.undrawn)[-1]))  # a tile the seed's order may not have first
    tiles = SeededTiles(5, setup)
    while not state.is_over():
        if state.is_chance():
            tile = tiles.outcome(state)
            assert tile.tile in state.undrawn
            state.play(tile)
        else:
            state.play(state.legal_actions()[0])
