"""The research environments (``zamek.env``): PettingZoo's and Gymnasium's own conformance checks, the castle
observation against the position it describes, hidden information, seeds, rewards and the vector environment
against one game at a time."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from tests.env.checks import EXPLICIT_CHANCE_WARNINGS, KNOWN_WARNINGS, checked, require_env
from tests.helpers import ROOT
from zamek.castle import fast

require_env()

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import zamek.castle.fast._core as core  # noqa: E402
from zamek.castle.rules.actions import ACTION_COUNT, Draw, Follower, Reveal  # noqa: E402
from zamek.castle.rules.setup import Phase  # noqa: E402
from zamek.castle.runner import play_game  # noqa: E402
from zamek.env import castle_v0  # noqa: E402
from zamek.env.castle_gym import CastleGymEnv  # noqa: E402
from zamek.env.castle_v0 import RULE_SETS, CastleEnv  # noqa: E402
from zamek.env.spec import CASTLE, CASTLE_SIDE, FEATURE_SIZE, castle_square, markdown  # noqa: E402

# ------------------------------------------------------------------------------- conformance


@pytest.mark.parametrize("rules", list(RULE_SETS))
def test_pettingzoo_api_test_passes_for_every_rule_set(rules: str) -> None:
    checked(lambda: api_test(castle_v0.env(rules=rules), num_cycles=400))


@pytest.mark.parametrize("reward", ["win", "score"])
def test_pettingzoo_api_test_passes_with_an_explicit_chance_player(reward: str) -> None:
    checked(lambda: api_test(castle_v0.env(chance="explicit", reward=reward), num_cycles=400),
            KNOWN_WARNINGS + EXPLICIT_CHANCE_WARNINGS)


def test_pettingzoo_seed_test_passes() -> None:
    checked(lambda: seed_test(castle_v0.env, num_cycles=300))
    checked(lambda: seed_test(lambda: castle_v0.env(chance="explicit"), num_cycles=300))


@pytest.mark.parametrize("opponent", ["greedy", "hard"])
def test_gymnasium_check_env_passes(opponent: str) -> None:
    import zamek.env  # noqa: F401  (registers zamek/Castle-v0)

    game = gymnasium.make("zamek/Castle-v0", opponent=opponent)
    checked(lambda: check_env(game.unwrapped), ())


# ---------------------------------------------------------------------------- the observation


def test_the_layout_matches_the_compiled_core_and_the_documentation() -> None:
    assert CASTLE.size == core.OBSERVATION_SIZE
    assert CASTLE.plane_count == core.OBSERVATION_PLANES
    assert CASTLE_SIDE == core.OBSERVATION_SIDE
    assert CASTLE.size - CASTLE.plane_count * CASTLE.area == core.OBSERVATION_VECTOR
    documented = (ROOT / "docs" / "environment.md").read_text(encoding="utf-8")
    assert markdown() in documented, "docs/environment.md is stale: paste zamek.env.spec.markdown() into it"


def planes(observation: np.ndarray, name: str) -> np.ndarray:
    """A plane part as (planes, rows, columns)."""
    part = observation[CASTLE.span(name)]
    return part.reshape(-1, CASTLE_SIDE, CASTLE_SIDE)


def vector(observation: np.ndarray, name: str) -> np.ndarray:
    return observation[CASTLE.span(name)]


def square(castle: Any, cell: int) -> tuple[int, int]:
    x, y = castle.xy(cell)
    return y + 1, x + 1


def check_observation(env: CastleEnv, seat: int) -> None:
    """Every part of ``seat``'s observation against the Python engine's position after the same moves."""
    state = env.python_state()
    castle = state.castle
    observation = env.observe(f"player_{seat}")["observation"]
    them = 1 - seat
    assert vector(observation, "score").tolist() == [state.scores[seat], state.scores[them]]
    assert vector(observation, "track").tolist() == [state.scores[seat] % 100, state.scores[them] % 100]
    assert vector(observation, "supply").tolist() == [state.supply[seat], state.supply[them]]
    assert vector(observation, "family_size").tolist() == [state.family_size[seat], state.family_size[them]]
    for name, player in (("my_tokens", seat), ("their_tokens", them)):
        tokens = [0] * 9
        for token in state.tokens[player]:
            tokens[token.kind - 1] += 1
        assert vector(observation, name).tolist() == tokens
    assert vector(observation, "phase").tolist() == [int(state.phase == p) for p in range(8)]
    mine = not state.is_over() and not state.is_chance() and state.current == seat
    assert vector(observation, "my_turn")[0] == mine
    assert vector(observation, "tiles_left")[0] == len(state.remaining)
    assert sorted(np.flatnonzero(vector(observation, "pile")).tolist()) == sorted(state.remaining)
    drawn = np.flatnonzero(vector(observation, "drawn")).tolist()
    assert drawn == ([] if state.drawn < 0 else [state.drawn])
    # The board: spaces, tiles, figures and who holds what.
    interior = planes(observation, "interior")[0]
    assert sorted(zip(*np.nonzero(interior), strict=True)) == sorted(square(castle, c) for c in castle.interior)
    assert int(planes(observation, "start")[0].sum()) == len({s.cell for s in castle.starts})
    figures = planes(observation, "figures")
    assert int(figures[:3].sum()) == sum(1 for f in state.followers if f.player == seat)
    assert int(figures[3:].sum()) == sum(1 for f in state.followers if f.player == them)
    for f in state.followers:
        row, column = square(castle, f.cell)
        assert figures[(0 if f.player == seat else 3) + int(f.piece), row, column] >= 1
    kinds = planes(observation, "kind")
    held = planes(observation, "held")
    open_edges = np.zeros((3, CASTLE_SIDE, CASTLE_SIDE), np.int64)
    tiles = np.zeros((3, CASTLE_SIDE, CASTLE_SIDE), np.int64)
    for feature in state.features():
        if int(feature.kind) < 3 and feature.open_edges > 0:  # an unfinished road, house or pigsty
            for cell in range(castle.cell_count):
                if feature.cells >> cell & 1:
                    row, column = square(castle, cell)
                    k = int(feature.kind)
                    open_edges[k, row, column] = max(open_edges[k, row, column], feature.open_edges)
                    tiles[k, row, column] = max(tiles[k, row, column], feature.tiles)
    assert np.array_equal(planes(observation, "open_edges"), open_edges)
    assert np.array_equal(planes(observation, "feature_tiles"), tiles)
    for feature in state.features():
        cells = [c for c in range(castle.cell_count) if feature.cells >> c & 1]
        for cell in cells:
            row, column = square(castle, cell)
            assert kinds[int(feature.kind), row, column] == 1
            if feature.occupied:
                which = 0 if feature.controller == seat else 1 if feature.controller == them else 2
                assert held[which, row, column] == 1
    # The tile placed last, and what each of its features is part of (Follower actions name them).
    if state.placements:
        cell, tile, rotation = state.placements[-1]
        assert np.flatnonzero(vector(observation, "last_tile")).tolist() == [tile]
        assert np.flatnonzero(vector(observation, "last_rotation")).tolist() == [rotation]
        described = vector(observation, "last_features").reshape(12, FEATURE_SIZE)
        for f, feature in enumerate(state.tiles.tiles[tile].features):
            assert np.flatnonzero(described[f, :5]).tolist() == [int(feature.kind)]
            whole = next(v for v in state.features() if v.id == state.find(state.cell_node[cell] + f))
            mine_, theirs_ = whole.followers[seat], whole.followers[them]
            expected = [whole.tiles, whole.open_edges, mine_, theirs_, int(whole.complete and whole.kind != 3)]
            assert described[f, 5:].tolist() == expected
        for action in state.legal_actions():
            if isinstance(action, Follower):  # a free feature: nobody's figures on the whole of it (Z10)
                assert described[action.feature, 7] == described[action.feature, 8] == 0
    # Every legal placement goes on a frontier space.
    if state.phase is Phase.PLACE:
        frontier = planes(observation, "frontier")[0]
        for action in state.legal_actions():
            row, column = castle_square(action.index)
            assert frontier[row, column] == 1 and interior[row, column] == 1


@pytest.mark.heavy
@pytest.mark.parametrize("rules", list(RULE_SETS))
def test_the_observation_describes_the_position_in_every_rule_set(rules: str) -> None:
    env = CastleEnv(rules=rules)
    rng = random.Random(rules)
    env.reset(seed=7)
    step = 0
    while not env.state_core.is_over():
        if step % 7 == 0 or env.state_core.phase != Phase.PLACE:
            check_observation(env, 0)
            check_observation(env, 1)
        mask = env.observe(env.agent_selection)["action_mask"]
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(a.index for a in env.python_state().legal_actions())
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
        step += 1
    check_observation(env, 0)


def test_observations_hold_no_hidden_information() -> None:
    """Z22: the draw order and the face-down tokens are hidden. A game played with chance sampled from its seed
    (a shuffled pile inside) and the same game replayed on another seed by an explicit chance player (no pile
    order at all) look the same to both seats at every decision."""
    sampled = CastleEnv(rules="castle2003-sokol", first_player=0)
    sampled.reset(seed=5)
    rng = random.Random(3)
    seen: list[tuple[str, list[np.ndarray]]] = []
    while not sampled.state_core.is_over():
        agent = sampled.agent_selection
        seen.append((agent, [sampled.observe(a)["observation"].copy() for a in sampled.possible_agents]))
        sampled.step(rng.choice(np.flatnonzero(sampled.observe(agent)["action_mask"]).tolist()))
    explicit = CastleEnv(rules="castle2003-sokol", chance="explicit", first_player=0)
    explicit.reset(seed=999)
    decisions = iter(seen)
    for code in sampled.moves:
        if explicit.agent_selection == "chance":
            explicit.step(castle_v0._chance_action(code))
            continue
        agent, observations = next(decisions)
        assert explicit.agent_selection == agent
        for seat, observation in zip(explicit.possible_agents, observations, strict=False):
            assert np.array_equal(explicit.observe(seat)["observation"], observation), (seat, len(explicit.moves))
        explicit.step(code)
    assert next(decisions, None) is None and explicit.state_core.is_over()
    assert explicit.state_core.scores == sampled.state_core.scores


def test_the_other_seat_sees_no_legal_actions_and_the_chance_player_its_probabilities() -> None:
    env = CastleEnv(chance="explicit")
    env.reset(seed=2)
    assert env.agent_selection == "chance"  # the first tile
    info = env.infos["chance"]["chance"]["probabilities"]
    mask = env.observe("chance")["action_mask"]
    assert abs(info.sum() - 1) < 1e-9 and np.array_equal(info > 0, mask == 1) and mask.sum() == 60
    env.step(int(np.flatnonzero(mask)[0]))
    mover = env.agent_selection
    other = "player_1" if mover == "player_0" else "player_0"
    assert env.observe(mover)["action_mask"].sum() > 0
    assert env.observe(other)["action_mask"].sum() == 0


# ------------------------------------------------------------------------- seeds and rewards


def test_a_seed_gives_play_game_s_tiles_and_tokens() -> None:
    """reset(seed=s) plays chance as zamek.castle.runner.play_game(s) does: the same player moves give its game."""
    played = play_game(21)
    env = CastleEnv()
    env.reset(seed=21)
    rules = fast.core_rules(env.game_setup)
    for action in played.actions:
        if isinstance(action, Draw | Reveal):
            continue
        env.step(action.index)
    assert [rules.decode(code) for code in env.moves] == played.actions
    assert env.state_core.scores == tuple(played.state.scores)
    assert env.terminations == {"player_0": True, "player_1": True}


def test_rewards_win_and_score_difference() -> None:
    for reward in ("win", "score"):
        env = CastleEnv(reward=reward)
        totals = {"player_0": 0.0, "player_1": 0.0}
        rng = random.Random(5)
        env.reset(seed=5)
        while env.agents:
            agent = env.agent_selection
            _, gained, terminated, _, _ = env.last()
            totals[agent] += gained
            if terminated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]).tolist()))
        a, b = env.state_core.scores
        if reward == "win":
            assert totals["player_0"] == (a > b) - (a < b) == -totals["player_1"]
        else:
            assert totals["player_0"] == a - b == -totals["player_1"]


def test_bad_input_is_refused_clearly_and_changes_nothing() -> None:
    with pytest.raises(ValueError, match="unknown rule set 'chess'"):
        castle_v0.env(rules="chess")
    with pytest.raises(ValueError, match="chance must be"):
        castle_v0.env(chance="sometimes")
    env = CastleEnv()
    env.reset(seed=4)
    before = env.state_core.snapshot()
    legal = set(env.legal_actions())
    illegal = next(a for a in range(ACTION_COUNT) if a not in legal)
    for bad in (illegal, -1, 5000, "north", None):
        with pytest.raises(ValueError):
            env.step(bad)
    assert env.state_core.snapshot() == before


# ------------------------------------------------------------------------------- Gymnasium


def test_the_gymnasium_environment_plays_play_game_s_game_against_its_level() -> None:
    """The opponent thinks with the stream play_game gives its seat: a bot's move against a bot's move; also in an
    environment that played a game before (each game's opponent starts afresh)."""
    import zamek.env  # noqa: F401
    from zamek.castle.bots.levels import make_bot
    from zamek.castle.seeding import player_rng

    seed = 8
    game = gymnasium.make("zamek/Castle-v0", opponent="medium", seat=0).unwrapped
    assert isinstance(game, CastleGymEnv)
    mine = make_bot("easy")
    played = play_game(seed, [mine.choose, make_bot("medium").choose])
    game.reset(seed=seed + 1)
    for _ in range(5):  # part of another game, left unfinished
        game.step(int(np.flatnonzero(game.game.observe(game.agent)["action_mask"])[0]))
    game.reset(seed=seed)
    rng = player_rng(seed, 0)
    me = make_bot("easy")
    terminated = False
    total = 0.0
    while not terminated:
        action = me.choose(game.game.python_state(), rng)
        _, reward, terminated, _, info = game.step(action.index)
        total += float(reward)
    assert info["scores"] == tuple(played.state.scores)
    a, b = played.state.scores
    assert total == (a > b) - (a < b)


def test_the_gymnasium_score_rewards_add_up_to_the_final_lead() -> None:
    """Also in the second seat, where the opponent may score before the agent's first move (carried into it)."""
    game = CastleGymEnv(opponent="random", seat=1, reward="score")
    rng = random.Random(2)
    for seed in (1, 19, 24):
        observation, info = game.reset(seed=seed)
        total, terminated = 0.0, False
        while not terminated:
            observation, reward, terminated, _, info = game.step(
                rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            total += float(reward)
        mine, theirs = info["scores"][1], info["scores"][0]
        assert total == mine - theirs, seed


def test_an_illegal_action_loses_the_game_or_raises() -> None:
    import zamek.env  # noqa: F401

    game = gymnasium.make("zamek/Castle-v0", opponent="random")
    observation, info = game.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = game.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    strict = gymnasium.make("zamek/Castle-v0", opponent="random", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(illegal)


def test_pictures() -> None:
    env = CastleEnv(render_mode="rgb_array")
    env.reset(seed=3)
    empty = env.render()
    assert isinstance(empty, np.ndarray) and empty.shape == (CASTLE_SIDE * 20, CASTLE_SIDE * 20, 3)
    rng = random.Random(1)
    while not env.state_core.is_over():
        env.step(rng.choice(env.legal_actions()))
    full = env.render()
    assert isinstance(full, np.ndarray)
    changed = np.any(full != empty, axis=2)
    assert changed.sum() > 60 * 16 * 16 * 0.8  # about every tile of the 60 was drawn
    text = CastleEnv(render_mode="ansi")
    text.reset(seed=3)
    picture = text.render()
    assert isinstance(picture, str) and "scores 0:0" in picture and "to move" in picture


# ---------------------------------------------------------------------------------- many games


def test_the_vector_environment_plays_the_same_games_as_the_aec_environment() -> None:
    """Slot i plays seed + i: with the same actions, its observations, masks, rewards and the end are those of
    the AEC environment reset on that seed, and a finished slot starts the next seed's game."""
    n, seed = 3, 40
    venv = castle_v0.vector_env(n, seed=seed, reward="score")
    step = venv.reset()
    games = []
    for i in range(n):
        env = CastleEnv(reward="score")
        env.reset(seed=seed + i)
        games.append(env)
    rng = random.Random(0)
    finished = 0
    totals = np.zeros((n, 2))
    while finished < n + 1:
        actions = []
        for i, env in enumerate(games):
            seat = env.state_core.current
            assert step.player[i] == seat and step.observation is not None
            seen = env.observe(f"player_{seat}")
            assert np.array_equal(step.observation[i], seen["observation"])
            assert np.array_equal(step.action_mask[i], seen["action_mask"])
            actions.append(rng.choice(np.flatnonzero(seen["action_mask"]).tolist()))
        step = venv.step(actions)
        for i, env in enumerate(games):
            env.step(actions[i])
            assert step.rewards[i].tolist() == [env.rewards["player_0"], env.rewards["player_1"]]
            totals[i] += step.rewards[i]
            assert bool(step.terminated[i]) == env.state_core.is_over()
            if step.terminated[i]:
                finished += 1
                a, b = env.state_core.scores
                assert step.final_scores[i].tolist() == [a, b] and totals[i].tolist() == [a - b, b - a]
                totals[i] = 0
                env.reset(seed=int(venv.seeds()[i]))
    assert sorted(venv.seeds().tolist())[-1] >= seed + n


def test_the_vector_environment_refuses_an_illegal_action_and_changes_nothing() -> None:
    venv = castle_v0.vector_env(4, seed=1)
    first = venv.reset()
    venv.step(venv.sample_actions())
    before = [venv.state(i).snapshot() for i in range(4)]
    actions = venv.sample_actions()
    shown = venv._result()  # what the environment shows now, made again from the games in the core
    wrong = actions.copy()
    wrong[2] = int(np.flatnonzero(shown.action_mask[2] == 0)[0])
    for bad in (wrong, actions[:3], actions.astype(np.float64), np.full(4, 2**40), np.full(4, -1)):
        with pytest.raises(ValueError):
            venv.step(bad)
    assert [venv.state(i).snapshot() for i in range(4)] == before
    again = venv._result()
    assert np.array_equal(again.action_mask, shown.action_mask) and np.array_equal(again.player, shown.player)
    assert again.observation is not None and shown.observation is not None
    assert np.array_equal(again.observation, shown.observation)
    moved = venv.step(actions).observation  # and the games go on
    assert moved is not None and first.observation is not None and not np.array_equal(moved, first.observation)


def test_the_vector_environment_refuses_bad_options_and_use_before_reset() -> None:
    with pytest.raises(ValueError, match="first_player"):
        castle_v0.vector_env(2, first_player=7)
    with pytest.raises(ValueError, match="first_player"):
        core.BatchCore(fast.core_rules(castle_v0.RULE_SETS["zamek"]), 2, 0, 7)
    venv = castle_v0.vector_env(2)
    for early in (lambda: venv.step([0, 0]), venv.sample_actions, venv.seeds, lambda: venv.state(0),
                  lambda: venv.bot_action(0, "greedy", random.Random(1))):
        with pytest.raises(RuntimeError, match="reset"):
            early()
    venv.reset()
    with pytest.raises(ValueError, match="no game 2"):
        venv.state(2)
    batch = venv._core
    with pytest.raises(ValueError, match="a seat is"):
        batch.observe(np.zeros(2 * CASTLE.size, np.int16), np.array([0, 2], np.int8))


def test_sampled_actions_are_legal_and_a_masks_only_environment_makes_no_observations() -> None:
    venv = castle_v0.vector_env(16, rules="sokol", seed=3, observations=False, copy=False)
    step = venv.reset()
    assert step.observation is None
    games = 0
    for _ in range(300):
        actions = venv.sample_actions()
        assert all(step.action_mask[i, a] == 1 for i, a in enumerate(actions))
        step = venv.step(actions)
        games += int(step.terminated.sum())
    assert games >= 16


def test_the_manual_example_runs() -> None:
    """docs/research.md's example does what it says (tests/test_docs.py runs it, and the README's shorter one, too)."""
    page = ROOT / "docs" / "research.md"
    code = page.read_text(encoding="utf-8").split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, Any] = {}
    exec(compile(code, str(page), "exec"), namespace)
    env, venv, step = namespace["env"], namespace["venv"], namespace["step"]
    assert not env.agents  # the random agents played a whole game
    assert step.action_mask.shape == (1024, 1100) and step.action_mask.dtype == np.int8
    assert step.observation is None and venv.n == 1024
    assert namespace["cards"].agents and namespace["observation"]["action_mask"].dtype == np.int8


def test_env_bench_prints_every_figure_as_json() -> None:
    import json

    from click.testing import CliRunner

    from zamek.cli import main

    cores = os.sched_getaffinity(0)
    result = CliRunner().invoke(main, ["env-bench", "--games", "8", "--seconds", "0.1", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)["figures"]
    assert [f["name"].split(" ")[0] for f in figures] == [
        "castle_v0.vector_env(8),", "castle_v0.vector_env(8),", "castle_v0.env()", "knights_v0.env(players=3)"]
    assert all(f["steps"] > 0 and f["steps_per_second"] > 0 for f in figures)
    assert os.sched_getaffinity(0) == cores  # the bench gave back the cores it did not use


def test_the_vector_environment_s_bots_choose_as_make_bot_does() -> None:
    """A greedy level's choice in slot i is make_bot(level)'s in the same position with the same stream."""
    from zamek.castle.bots.levels import make_bot

    venv = castle_v0.vector_env(2, seed=9)
    venv.reset()
    env = CastleEnv()
    env.reset(seed=9)
    for _ in range(30):
        for level in ("medium", "beginner", "random"):
            mine = venv.bot_action(0, level, random.Random(1))
            theirs = make_bot(level).choose(env.python_state(), random.Random(1)).index
            assert mine == theirs, level
        action = venv.bot_action(0, "medium", random.Random(2))
        env.step(action)
        venv.step([action, venv.sample_actions()[1]])
    with pytest.raises(ValueError, match="greedy levels"):
        venv.bot_action(0, "hard", random.Random(1))


def test_without_the_extra_the_import_says_what_to_install() -> None:
    import subprocess
    import sys

    code = "import sys; sys.modules['pettingzoo'] = None\nimport zamek.env"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert "zamek.env needs the env extra: pip install 'zamek[env]' (pettingzoo is missing)" in done.stderr
