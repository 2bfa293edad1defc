"""Loading the compiled module and the compiled rules: ``AVAILABLE``, ``core_rules``, ``new_state``, ``playouts``.

See the package's doc (:mod:`zamek.castle.fast`)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, NamedTuple

from zamek.castle.data.loader import rules_for
from zamek.castle.rules.actions import Action
from zamek.castle.rules.setup import Setup

if TYPE_CHECKING:
    from zamek.castle.fast._core import CoreRules, CoreState



def required() -> bool:
    """Whether a missing compiled core is an error: ``ZAMEK_REQUIRE_COMPILED`` (not 0) or ``CI`` is set."""
    flag = os.environ.get("ZAMEK_REQUIRE_COMPILED", "")
    return flag not in ("", "0") or bool(os.environ.get("CI"))


SOURCES: Final = ("_core.pyx", "zamek_core.h", "zamek_bots.h", "zamek_obs.h")
"""The compiled core's sources (setup.py builds their digest into the module)."""


def source_digest() -> str | None:
    """The SHA-256 of the compiled core's sources beside this file; None where they are not shipped."""
    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    try:
        for name in SOURCES:
            digest.update((here / name).read_bytes())
    except OSError:
        return None
    return digest.hexdigest()


def _load() -> str | None:
    """Import the compiled module; return why it cannot be used (not built, or built from other sources)."""
    try:
        import zamek.castle.fast._core as core
    except ImportError as exc:  # built without a compiler: the Python engine does everything
        return f"not built ({exc})"
    built, sources = getattr(core, "SOURCE_DIGEST", ""), source_digest()
    if built and sources is not None and sources != built:
        return "stale: built from other sources than those beside it"
    return None


BUILD_ADVICE: Final = (
    "The Linux wheels on the package index hold it; elsewhere build it: install a C compiler and Python's headers "
    "(Debian: apt-get install gcc python3-dev), then install zamek again from its source: "
    "pip install --force-reinstall --no-binary zamek 'zamek[env]', or pip install -e . in a checkout."
)
"""How to get the compiled core where it is missing (the messages of ``_need`` and of a required core)."""

UNAVAILABLE: str | None = _load()
"""Why the compiled core cannot be used here; None when it can."""
if UNAVAILABLE is not None and required():
    raise ImportError(f"the compiled core zamek.castle.fast._core is {UNAVAILABLE}, and ZAMEK_REQUIRE_COMPILED/CI asks "
                      f"for it. {BUILD_ADVICE}")
AVAILABLE: Final = UNAVAILABLE is None
if AVAILABLE:
    import zamek.castle.fast._core as _core
DRAW: Final = 2000
"""A tile drawn: DRAW + the tile's index in the rule set's tiles (``_core.DRAW``)."""
REVEAL: Final = 3000
"""A token revealed: REVEAL + its kind, Zamek numbering (``_core.REVEAL``)."""

_RULES: dict[Setup, CoreRules] = {}


def _need() -> None:
    """Refuse, saying how to build it, where the compiled core is missing: what steps many games at once in C (the
    vector environment, ``Batch``, playouts) has no Python counterpart."""
    if not AVAILABLE:
        raise RuntimeError(f"the compiled core is not available here ({UNAVAILABLE}): many games at once (the vector "
                           "environment, Batch) play only on it; castle_v0.env() and zamek/Castle-v0 play without it, "
                           f"slower. {BUILD_ADVICE}")


def core_rules(setup: Setup) -> CoreRules:
    """Return the (cached) C tables of a setup's rules, made from ``zamek.rules_for(setup)``."""
    _need()
    rules = _RULES.get(setup)
    if rules is None:
        rules = _RULES[setup] = _core.CoreRules(setup, rules_for(setup))
    return rules


def new_state(setup: Setup, moves: Iterable[Action] = (), *, log: bool = False) -> CoreState:
    """Return the compiled position after ``moves`` (actions and chance outcomes, as in a record) of a game of
    ``setup``; with ``log`` it keeps the itemised breakdown (``CoreState.log_items()``)."""
    rules = core_rules(setup)
    state = _core.CoreState(rules, log)
    for move in moves:
        state.apply(rules.encode(move))
    return state


class PlayoutGame(NamedTuple):
    """One game played on to its end in the compiled core."""

    seed: int
    scores: tuple[int, int]
    actions: int
    """Actions played from the start position to the end, chance outcomes included."""
    tiles_placed: int
    tiles_discarded: int

    @property
    def winners(self) -> tuple[int, ...]:
        """One player, or both on a shared victory (Z21)."""
        a, b = self.scores
        return (0,) if a > b else (1,) if b > a else (0, 1)


@dataclass(frozen=True)
class Playouts:
    """Games played on from one position: each game, and their statistics."""

    setup: Setup
    games: tuple[PlayoutGame, ...]

    @property
    def actions(self) -> int:
        return sum(game.actions for game in self.games)

    @property
    def wins(self) -> tuple[int, int]:
        """Games each player won outright."""
        outright = [game.winners for game in self.games if len(game.winners) == 1]
        return (sum(1 for w in outright if w == (0,)), sum(1 for w in outright if w == (1,)))

    @property
    def draws(self) -> int:
        return sum(1 for game in self.games if len(game.winners) == 2)

    @property
    def mean_scores(self) -> tuple[float, float]:
        n = max(1, len(self.games))
        return (sum(g.scores[0] for g in self.games) / n, sum(g.scores[1] for g in self.games) / n)


def playouts(setup: Setup, moves: Sequence[Action] = (), n: int = 1, seed: int = 0) -> Playouts:
    """Play ``n`` games to the end from the position after ``moves``, in C.

    Game ``k`` takes its chance from the seeding convention of ``seed + k`` (``zamek.castle.seeding``: the tiles
    still in the pile come in that seed's order, the tokens likewise) and its players choose uniformly at
    random with ``random.Random("zamek-player:S:P")``, as ``zamek.castle.runner.random_policy`` does: from the start
    of a game whose setup names its first player, game ``k`` is ``play_game(seed + k, setup=setup)``.
    """
    start = new_state(setup, moves)
    rows = _core.run_playouts(start, seed, n)
    games = tuple(PlayoutGame(seed + k, (a, b), actions, placed, discarded)
                  for k, (a, b, actions, placed, discarded) in enumerate(rows))
    return Playouts(setup, games)


def core_description() -> str:
    """Which core the fast paths use here: the compiled one, or the Python engine where it was not built."""
    return "compiled (zamek.castle.fast)" if AVAILABLE else f"python only: the compiled core is {UNAVAILABLE}"
