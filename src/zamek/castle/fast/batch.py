"""Many games at once for the research environment: one call steps them all, in C.

``Batch(setup, n, seed)`` holds ``n`` games of one rule set. Game ``i`` starts as ``zamek.castle.runner.play_game(seed +
i)`` starts: its first player, tiles and tokens follow the seeding convention of its seed (``zamek.castle.seeding``),
and chance is played inside, so after every call each game waits for a player's decision or is over. Actions
are the engine's stable integer indices (``zamek.castle.rules.actions``, below ``ACTIONS``)::

    batch = Batch(Setup(), 256, seed=0)
    while not all(batch.done()):
        masks = batch.legal_masks()          # (256, ACTIONS) of 0/1
        batch.step(choose(masks))            # one action per game (ignored where it is over)
        for i in finished(batch.done()):
            record(batch.scores()[i]); batch.reset(i)   # a new game there, on the next seed

Arrays are numpy arrays where numpy is installed (``numpy=False`` refuses it), else ``memoryview`` s of
``array.array`` with the same shapes; either way they are fresh copies, safe to keep. A game takes about
19 KB of memory.
"""

from __future__ import annotations

import array
import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Literal

from zamek.castle.fast import native as fast
from zamek.castle.rules.setup import Setup

if TYPE_CHECKING:
    from zamek.castle.fast._core import BatchCore, CoreState

_UNSEEN: Final = object()
_NUMPY: Any = _UNSEEN
"""numpy, None where it is not installed (memoryviews then); looked for on first use, so that the processes that
only play (arena, the server's pool) neither load it nor start its BLAS threads."""

__all__ = ["ACTIONS", "Batch"]

ACTIONS: Final = 1100
"""Width of a legal mask: every player action's index is below it (``zamek.castle.rules.actions.ACTION_COUNT``)."""


class Batch:
    """``n`` games of ``setup`` stepped together in the compiled core (see the module docstring)."""

    def __init__(self, setup: Setup, n: int, seed: int = 0, *, first_player: int | None = None,
                 numpy: bool | None = None) -> None:
        """``first_player``: who starts every game (None: each game's seed chooses, as ``play_game`` does);
        ``numpy``: return numpy arrays (None: where numpy is installed)."""
        fast._need()
        import zamek.castle.fast._core as _core
        if numpy and _numpy() is None:
            raise ImportError("numpy is not installed")
        self.setup = setup
        self.numpy = _numpy() is not None if numpy is None else numpy
        self._core: BatchCore = _core.BatchCore(fast.core_rules(setup), n,
                                                    seed, -1 if first_player is None else first_player)
        self.size = n

    def __len__(self) -> int:
        return self.size

    def _array(self, code: Literal["B", "b", "i", "q"], data: array.array[Any], shape: tuple[int, ...],
               dtype: str) -> Any:
        np = _numpy()
        if self.numpy and np is not None:
            return np.frombuffer(data, dtype=dtype).reshape(shape)
        return memoryview(data).cast("B").cast(code, shape) if len(shape) > 1 else memoryview(data)

    def legal_masks(self) -> Any:
        """Each game's legal actions: an (n, ACTIONS) array of 0 and 1 (uint8); all 0 where a game is over."""
        data = array.array("B", bytes(self.size * ACTIONS))
        self._core.legal_masks(data)
        return self._array("B", data, (self.size, ACTIONS), "uint8")

    def step(self, actions: Sequence[int] | Any) -> None:
        """Play one action in every game still on (where a game is over its entry is ignored: -1 will do),
        then the chance events that follow. An illegal action raises ValueError and changes nothing."""
        np = _numpy()
        if np is not None and isinstance(actions, np.ndarray):
            data: Any = np.ascontiguousarray(actions, dtype=np.intc)
        else:
            data = array.array("i", actions)
        self._core.step(data)

    def _fields(self) -> tuple[array.array[int], array.array[int], array.array[int], array.array[int]]:
        scores = array.array("i", bytes(4 * 2 * self.size))
        current = array.array("b", bytes(self.size))
        phase = array.array("b", bytes(self.size))
        seeds = array.array("q", bytes(8 * self.size))
        self._core.fill(scores, current, phase, seeds)
        return scores, current, phase, seeds

    def scores(self) -> Any:
        """Each game's scores: an (n, 2) int32 array (final once the game is over)."""
        return self._array("i", self._fields()[0], (self.size, 2), "intc")

    def current(self) -> Any:
        """The player to move in each game (0 or 1), -1 where it is over: an (n,) int8 array."""
        return self._array("b", self._fields()[1], (self.size,), "int8")

    def done(self) -> Any:
        """Whether each game is over: an (n,) array of bool (numpy) or of 0 and 1."""
        current = self._fields()[1]
        over = array.array("B", (1 if c < 0 else 0 for c in current))
        np = _numpy()
        if self.numpy and np is not None:
            return np.frombuffer(over, dtype=np.uint8).astype(bool)
        return memoryview(over)

    def phases(self) -> Any:
        """Each game's phase (``zamek.castle.rules.setup.Phase`` values): an (n,) int8 array."""
        return self._array("b", self._fields()[2], (self.size,), "int8")

    def seeds(self) -> Any:
        """The seed of the game in each slot: an (n,) int64 array."""
        return self._array("q", self._fields()[3], (self.size,), "int64")

    def reset(self, i: int) -> int:
        """Start a new game in slot ``i`` on the next seed (``seed + n``, then on); return that seed."""
        return self._core.reset(i)

    def state(self, i: int) -> CoreState:
        """A copy of game ``i``'s position (a ``CoreState``: legal actions, snapshot, breakdown-free)."""
        return self._core.state(i)


def _numpy() -> Any:
    """The numpy module, or None where it is not installed."""
    global _NUMPY
    if _NUMPY is _UNSEEN:
        try:
            _NUMPY = importlib.import_module("numpy")
        except ImportError:
            _NUMPY = None
    return _NUMPY
