"""What a user meets after ``pip install "zamek[env]"``: Gymnasium makes the castle's environment without an
import of zamek.env first; where the compiled core was not built, the castle's AEC and Gymnasium environments play
the same games on the Python engine (``zamek.env.python_core``), the vector environment refuses with a message
that says how to build the core, and the card game's environment plays as ever."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import pytest

from tests.env.checks import require_env

require_env()

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

from zamek.castle.fast import native  # noqa: E402
from zamek.env import castle_v0, knights_v0  # noqa: E402
from zamek.env.base import Chance  # noqa: E402
from zamek.env.spec import CASTLE  # noqa: E402


def test_gymnasium_makes_the_castle_environment_without_importing_zamek_env_first() -> None:
    code = ("import sys, gymnasium\n"
            "assert 'zamek.env' not in sys.modules\n"
            "env = gymnasium.make('zamek.env:zamek/Castle-v0', opponent='random')\n"
            "observation, info = env.reset(seed=3)\n"
            "print(observation['observation'].shape, int(observation['action_mask'].sum()) > 0)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(7178,) True"


def hide_the_compiled_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """As where zamek.castle.fast._core was never built (what native._load finds then)."""
    monkeypatch.setattr(native, "AVAILABLE", False)
    monkeypatch.setattr(native, "UNAVAILABLE", "not built (No module named 'zamek.castle.fast._core')")


def first_difference(compiled: list[Step], python: list[Step]) -> str:
    """Where two episodes part: the step, and the observation's part (zamek.env.spec names) or the field."""
    for i, (a, b) in enumerate(zip(compiled, python, strict=False)):
        if a == b:
            continue
        if a[0] == "picture":
            return "the rgb_array pictures of the last position differ"
        if a[:1] != b[:1] or a[2:] != b[2:]:
            return f"step {i}: {a[:1] + a[2:]} != {b[:1] + b[2:]}"
        left, right = np.frombuffer(a[1], np.int16), np.frombuffer(b[1], np.int16)
        first = int(np.flatnonzero(left != right)[0])
        seat, where = divmod(first, CASTLE.size)
        at, part = 0, ""
        for candidate in (*CASTLE.planes, *CASTLE.vector):
            size = candidate.size * (CASTLE.area if candidate in CASTLE.planes else 1)
            if at <= where < at + size:
                part = candidate.name
            at += size
        return f"step {i}: player_{seat}'s observation[{where}] ({part}) {left[first]} != {right[first]}"
    return f"lengths {len(compiled)} != {len(python)}"


Step = tuple[Any, ...]


def aec_episode(rules: str, chance: Chance) -> list[Step]:
    """A seeded game of random legal actions: at every step both seats' observations, the rewards and the chance
    player's probabilities."""
    env = castle_v0.raw_env(rules=rules, reward="score", chance=chance, render_mode="rgb_array")
    env.reset(seed=11)
    rng = random.Random(rules)
    steps: list[Step] = []
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        seats = b"".join(env.observe(f"player_{seat}")["observation"].tobytes() for seat in (0, 1))
        chance_p = info.get("chance", {}).get("probabilities")
        steps.append((agent, seats, observation["action_mask"].tobytes(), reward, terminated,
                      None if chance_p is None else chance_p.tobytes()))
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        env.step(None if terminated or truncated else rng.choice(legal))
    assert env.compiled == native.AVAILABLE
    steps.append(("picture", env.render().tobytes()))  # type: ignore[union-attr]
    return steps


@pytest.mark.parametrize(("rules", "chance"), [("zamek", "sampled"), ("castle2003+sokol", "explicit"),
                                               ("zamek+sokol+gate-guard", "sampled")])
def test_without_the_compiled_core_the_aec_environment_plays_the_same_game_on_the_python_engine(
        rules: str, chance: Chance, monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = aec_episode(rules, chance)
    hide_the_compiled_core(monkeypatch)
    python = aec_episode(rules, chance)
    assert len(compiled) > 100
    assert python == compiled, first_difference(compiled, python)


def gym_episode() -> list[Step]:
    env = gymnasium.make("zamek/Castle-v0", opponent="easy", reward="score")
    observation, info = env.reset(seed=5)
    rng = random.Random(5)
    steps: list[Step] = [(info["seat"], observation["observation"].tobytes(), 0.0, False)]
    terminated = False
    while not terminated:
        action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        observation, reward, terminated, _truncated, info = env.step(action)
        steps.append((info["seat"], observation["observation"].tobytes(), float(reward), terminated))
    assert env.unwrapped.game.compiled == native.AVAILABLE  # type: ignore[attr-defined]
    return steps


def test_without_the_compiled_core_the_gymnasium_environment_plays_the_same_game_against_its_bot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = gym_episode()
    hide_the_compiled_core(monkeypatch)
    python = gym_episode()
    assert python == compiled, first_difference(compiled, python)


def test_an_interpreter_that_cannot_import_the_compiled_core_plays_the_environments() -> None:
    code = ("import sys; sys.modules['zamek.castle.fast._core'] = None  # as if never built\n"
            "import gymnasium\n"
            "from zamek.castle import fast\n"
            "from zamek.env import castle_v0\n"
            "env = gymnasium.make('zamek/Castle-v0', opponent='medium')\n"
            "observation, info = env.reset(seed=2)\n"
            "observation, reward, terminated, truncated, info = env.step(int(observation['action_mask'].argmax()))\n"
            "print(fast.UNAVAILABLE.split(' (')[0], env.unwrapped.game.compiled, info['scores'])\n"
            "castle_v0.vector_env(2)\n")
    env = {key: value for key, value in os.environ.items() if key not in ("CI", "ZAMEK_REQUIRE_COMPILED")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120,
                          env=env)
    assert done.stdout.startswith("not built False ("), done.stdout + done.stderr
    assert done.returncode == 1 and "apt-get install gcc python3-dev" in done.stderr.splitlines()[-1]


def test_without_the_compiled_core_the_vector_environment_says_how_to_build_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    hide_the_compiled_core(monkeypatch)
    with pytest.raises(RuntimeError) as refused:
        castle_v0.vector_env(2)
    message = str(refused.value)
    assert "not built (No module named 'zamek.castle.fast._core')" in message
    assert "apt-get install gcc python3-dev" in message
    assert "pip install --force-reinstall --no-binary zamek 'zamek[env]'" in message


def test_without_the_compiled_core_the_card_game_s_environment_still_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    hide_the_compiled_core(monkeypatch)
    env = knights_v0.env(players=3)
    env.reset(seed=1)
    agent = env.agent_selection
    env.step(env.action_space(agent).sample(env.observe(agent)["action_mask"]))
    assert env.agent_selection != agent or env.terminations[agent]
