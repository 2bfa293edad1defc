"""The compiled core: the castle game's rules in C, fifty times faster, for search, self-play and research.

The Python engine (:mod:`zamek.castle.rules`) stays the reference: people's games, messages and records go through
it. This package plays the same rules over flat C arrays (``zamek_core.h``, wrapped by the Cython module
``_core``), every rule set: Zamek (2020), The Castle (2003), Sokół and its gate guard. It is built from the
engine's public values only (``zamek.rules_for(setup)``, the setup, a record's moves) and checked against
the engine after every action (``tests/castle/fast/test_fast_core.py``).

Python calls it per decision or per batch, never per action:

- :func:`playouts` plays whole games on from a position in C (without the interpreter lock), with the
  project's seeding convention (``zamek.castle.seeding``) and random players: from the start of a game, game
  ``k`` is exactly ``zamek.castle.runner.play_game(seed + k)``.
- :func:`new_state` gives a :class:`CoreState` to step by hand: actions are the engine's stable integer
  indices (``zamek.castle.rules.actions``), chance outcomes ``DRAW + tile index`` and ``REVEAL + kind``.

- :class:`Batch` (``zamek.castle.fast.batch``) steps many games at once for the research environment: legal
  masks, one action per game, chance played inside by each game's seed, scores and ends as arrays.
- :mod:`zamek.castle.bots.compiled` is the computer players' thinking in C (``zamek_bots.h``): the position
  estimates, the one-turn look, greedy choices and MCTS, deciding exactly as ``zamek.castle.bots`` does for the
  same position and generator. The bots call it by themselves where the compiled core is available.

Where the module was not built (no compiler where the package was installed), or was built from other
sources than those beside it (edited since: ``pip install -e .`` again), :data:`AVAILABLE` is False and
:data:`UNAVAILABLE` says why; everything else in zamek runs on the Python engine. With
``ZAMEK_REQUIRE_COMPILED=1`` or ``CI`` in the environment, importing this package without a usable compiled
module raises ImportError instead.
"""

from zamek.castle.fast.batch import ACTIONS, Batch
from zamek.castle.fast.native import (
    AVAILABLE,
    DRAW,
    REVEAL,
    UNAVAILABLE,
    PlayoutGame,
    Playouts,
    core_description,
    core_rules,
    new_state,
    playouts,
    required,
    source_digest,
)

__all__ = [
    "ACTIONS",
    "AVAILABLE",
    "DRAW",
    "REVEAL",
    "UNAVAILABLE",
    "Batch",
    "PlayoutGame",
    "Playouts",
    "core_description",
    "core_rules",
    "new_state",
    "playouts",
    "required",
    "source_digest",
]
