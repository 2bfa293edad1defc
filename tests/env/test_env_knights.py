"""Rycerze i zamki as a PettingZoo environment (``zamek.env.knights_v0``): conformance, K8's hidden information,
seeds and rewards."""

from __future__ import annotations

import random

import pytest

from tests.env.checks import EXPLICIT_CHANCE_WARNINGS, KNOWN_WARNINGS, checked, require_env

require_env()

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from zamek.env import knights_v0  # noqa: E402
from zamek.env.knights_spec import KNIGHTS, KNIGHTS_TILES  # noqa: E402
from zamek.env.knights_v0 import KnightsEnv  # noqa: E402
from zamek.knights.rules.actions import Choose, Recruit, action_from_index  # noqa: E402
from zamek.knights.rules.cards import Card  # noqa: E402
from zamek.knights.rules.engine import Phase  # noqa: E402
from zamek.knights.runner import play_game  # noqa: E402


def part(observation: np.ndarray, name: str) -> np.ndarray:
    return observation[KNIGHTS.span(name)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test_passes_for_2_to_4_players(players: int) -> None:
    checked(lambda: api_test(knights_v0.env(players=players), num_cycles=300))


def test_pettingzoo_api_test_passes_with_explicit_chance_and_score_rewards() -> None:
    checked(lambda: api_test(knights_v0.env(players=3, chance="explicit", reward="score"), num_cycles=300),
            KNOWN_WARNINGS + EXPLICIT_CHANCE_WARNINGS)


def test_pettingzoo_seed_test_passes() -> None:
    checked(lambda: seed_test(knights_v0.env, num_cycles=300))


def test_a_secret_choice_stays_secret_k8() -> None:
    """K8: until the reveal, the others see only that a seat has chosen, never what; after a hidden recruitment
    they see the card as uncertain."""
    seen = []
    for choice in (Choose(Card.DRAGON, Card.SHEPHERD), Choose(Card.HOG, Card.PEASANT)):
        env = KnightsEnv(players=3)
        env.reset(seed=11)
        assert env.agent_selection == "player_0"
        env.step(Choose(Card.KNIGHT, Card.SHEPHERD).index)
        chooser = env.agent_selection
        env.step(choice.index)
        seen.append({a: env.observe(a)["observation"] for a in env.possible_agents})
        own = seen[-1][chooser]
        assert part(own, "my_choice")[choice.index] == 1
    chooser_seat = int(chooser[-1])
    for agent in ("player_0", "player_1", "player_2"):
        if agent != chooser:
            assert np.array_equal(seen[0][agent], seen[1][agent]), f"{agent} sees another seat's choice"
    observer = "player_0"
    k = (chooser_seat - 0) % 3
    assert part(seen[0][observer], f"seat{k}.chosen")[0] == 1


def test_the_observation_is_the_view_and_what_it_lets_a_seat_deduce() -> None:
    env = KnightsEnv(players=4)
    env.reset(seed=3)
    rng = random.Random(3)
    while env.agents:
        agent = env.agent_selection
        observation, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        assert env.state is not None
        seat = int(agent[-1])
        view = env.state.view(seat)
        obs = observation["observation"]
        assert part(obs, "hand").tolist() == list(view.hand)
        assert part(obs, "camp").tolist() == list(view.camp)
        assert part(obs, "round")[0] == view.round
        assert part(obs, "phase")[int(view.phase)] == 1
        for k in range(4):
            other = (seat + k) % 4
            assert part(obs, f"seat{k}.points")[0] == view.points[other]
            assert part(obs, f"seat{k}.hand_size")[0] == view.hand_sizes[other]
        # The mask is exactly the view's legal actions.
        legal = sorted(a.index for a in view.legal_actions())
        assert np.flatnonzero(observation["action_mask"]).tolist() == legal
        env.step(rng.choice(legal))
    assert env.state is not None and env.state.phase is Phase.OVER


def test_a_seed_turns_up_play_game_s_tiles_and_the_winner_gets_plus_one() -> None:
    played = play_game(17, ["random", "random", "random"])
    env = KnightsEnv(players=3)
    env.reset(seed=17)
    rewards = {a: 0.0 for a in env.possible_agents}
    for action in played.actions:
        if isinstance(action, Choose | Recruit):
            env.step(action.index)
            for a, r in env.rewards.items():
                rewards[a] += r
    assert env.state is not None
    assert env.state.drawn == played.state.drawn and env.state.points == played.state.points
    result = played.state.result()
    assert result is not None
    assert rewards == {f"player_{p}": 1.0 if p == result.winner else -1.0 for p in range(3)}


def test_explicit_chance_turns_up_the_chosen_tile_and_refuses_others() -> None:
    env = KnightsEnv(players=2, chance="explicit")
    env.reset(seed=1)
    assert env.agent_selection == "chance"
    probabilities = env.infos["chance"]["chance"]["probabilities"]
    assert abs(probabilities.sum() - 1) < 1e-9 and probabilities[KNIGHTS_TILES.index("drum")] == 2 / 8
    env.step(KNIGHTS_TILES.index("wood-big"))
    assert env.state is not None and env.state.tile == "wood-big"
    with pytest.raises(ValueError, match="not legal"):
        env.step(Recruit(Card.DRAGON).index)  # no card is in a camp yet
    assert action_from_index(0) is not None
    with pytest.raises(ValueError, match="2 to 4 players"):
        KnightsEnv(players=5)
