"""The in-process cost of a move (``python -m tools.move_cost``): every step is played and timed."""

from __future__ import annotations

from pathlib import Path

from tools.move_cost import STEPS, measure


def test_each_step_of_each_move_is_timed(tmp_path: Path) -> None:
    played, spent = measure(games=2, moves=3, seed=5, folder=tmp_path)
    assert played == 6  # no game ends within three moves
    assert list(spent) == list(STEPS) and all(seconds > 0 for seconds in spent.values())
