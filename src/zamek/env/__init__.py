"""Zamek for reinforcement-learning research: PettingZoo and Gymnasium environments of both games.

``from zamek.env import castle_v0, knights_v0`` gives the PettingZoo AEC environments (``castle_v0.env()``,
``knights_v0.env(players=3)``) and the castle's vector environment (``castle_v0.vector_env(n)``), which steps
many games in one call in the compiled core. Importing this package registers the Gymnasium environment
``zamek/Castle-v0`` (one seat against a computer level: ``gymnasium.make("zamek/Castle-v0", opponent="hard")``);
without importing it first, ``gymnasium.make("zamek.env:zamek/Castle-v0")`` imports it (Gymnasium's module prefix).
Gymnasium 1.0 dropped its plugin entry points (``gymnasium.envs``), so no installed package can register itself
before it is imported. Needs the ``env`` extra: ``pip install zamek[env]`` (numpy, gymnasium, pettingzoo). The
castle's environments play on the compiled core; where it was not built, the AEC and Gymnasium environments play
the same games on the Python engine (``zamek.env.python_core``, slower), and the vector environment refuses with a
message saying how to build it (``zamek.castle.fast.native.BUILD_ADVICE``).
"""

from __future__ import annotations

try:
    import gymnasium
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - the message is the point
    raise ImportError(f"zamek.env needs the env extra: pip install 'zamek[env]' ({exc.name} is missing)") from exc

from zamek.env import castle_v0, knights_v0

__all__ = ["castle_v0", "knights_v0"]

if "zamek/Castle-v0" not in gymnasium.registry:
    gymnasium.register(id="zamek/Castle-v0", entry_point="zamek.env.castle_gym:CastleGymEnv")
