"""What a user meets after ``pip install "zamek[env]"``: Gymnasium makes the castle's environment without an
import of zamek.env first, and where the compiled core was not built the castle's environments refuse with a
message that says how to build it, while the card game's still plays."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from tests.env.checks import require_env

require_env()

import gymnasium  # noqa: E402

from zamek.castle.fast import native  # noqa: E402
from zamek.env import castle_v0, knights_v0  # noqa: E402


def test_gymnasium_makes_the_castle_environment_without_importing_zamek_env_first() -> None:
    code = ("import sys, gymnasium\n"
            "assert 'zamek.env' not in sys.modules\n"
            "env = gymnasium.make('zamek.env:zamek/Castle-v0', opponent='random')\n"
            "observation, info = env.reset(seed=3)\n"
            "print(observation['observation'].shape, int(observation['action_mask'].sum()) > 0)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(7178,) True"


@pytest.mark.parametrize("make", [
    lambda: castle_v0.env(),
    lambda: castle_v0.vector_env(2),
    lambda: gymnasium.make("zamek/Castle-v0", opponent="random"),
], ids=["aec", "vector", "gymnasium"])
def test_without_the_compiled_core_the_castle_environments_say_how_to_build_it(
        make: Callable[[], Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "AVAILABLE", False)
    monkeypatch.setattr(native, "UNAVAILABLE", "not built (No module named 'zamek.castle.fast._core')")
    with pytest.raises(RuntimeError) as refused:
        make()
    message = str(refused.value)
    assert "not built (No module named 'zamek.castle.fast._core')" in message
    assert "apt-get install gcc python3-dev" in message
    assert "pip install --force-reinstall --no-binary zamek 'zamek[env]'" in message


def test_without_the_compiled_core_the_card_game_s_environment_still_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "AVAILABLE", False)
    monkeypatch.setattr(native, "UNAVAILABLE", "not built")
    env = knights_v0.env(players=3)
    env.reset(seed=1)
    agent = env.agent_selection
    env.step(env.action_space(agent).sample(env.observe(agent)["action_mask"]))
    assert env.agent_selection != agent or env.terminations[agent]
