"""What the research environments' tests share: the guard that skips them where the env extra or the compiled
core is missing (an error under CI), and PettingZoo's conformance checks with the warnings they may give."""

from __future__ import annotations

import importlib.util
import os
import warnings
from collections.abc import Callable
from typing import Any

import pytest

from zamek.castle import fast

KNOWN_WARNINGS = (
    # A dict observation (observation + action_mask) is the convention the issue asks for and PettingZoo's own
    # classic games use; api_test warns about it for every environment outside its own list.
    "Observation space for each agent probably should be gymnasium.spaces.box",
    "Observation is not a NumPy array",
)
EXPLICIT_CHANCE_WARNINGS = (
    # The chance agent (OpenSpiel's name) has its own action space: the outcomes, not the players' actions.
    "Agents have different observation space sizes",
    'We recommend agents to be named in the format <descriptor>_<number>',
)


def require_env() -> None:
    """Skip the calling test module where the env extra (numpy, gymnasium, pettingzoo) or the compiled core is
    missing; under CI (the environment variable CI set) that is an error. Call it before importing them."""
    missing = [name for name in ("numpy", "gymnasium", "pettingzoo") if importlib.util.find_spec(name) is None]
    if missing or not fast.AVAILABLE:
        why = (f"the env extra is not installed ({', '.join(missing)})"
               if missing else f"no compiled core: {fast.UNAVAILABLE}")
        if os.environ.get("CI"):
            raise ImportError(f"CI runs the research environments' tests, but {why}")
        pytest.skip(why, allow_module_level=True)


def checked(run: Callable[[], Any], allowed: tuple[str, ...] = KNOWN_WARNINGS) -> None:
    """Run a conformance check; any warning it gives beyond the known ones fails the test."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run()
    unexpected = {str(w.message) for w in caught if not any(str(w.message).startswith(a) for a in allowed)}
    assert not unexpected, unexpected
