"""The benchmark (``python -m tools.bench``) on tiny budgets: it prints its speeds and times the search in
a saved game's positions. Its comparisons of the two engines are in tests/castle/fast/test_fast_core.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from tools.bench import bench

from zamek.cli import main


def run_bench(*args: str) -> Result:
    return CliRunner().invoke(bench, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The record of a self-played game (seed 1)."""
    folder = tmp_path_factory.mktemp("games")
    result = CliRunner().invoke(main, ["selfplay", "--games", "1", "--seed", "1", "--save", str(folder)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return folder / "game-1.json"


@pytest.mark.heavy  # a timed run of every part of the bench: seconds of each engine's playouts and searches
def test_bench_prints_speeds() -> None:
    result = run_bench("--seconds", "0.5", "--mcts-iterations", "0")  # the search is timed by the tests below
    assert result.exit_code == 0
    rate = re.search(r"([\d,]+) actions/s", result.stdout)
    games = re.search(r"([\d,.]+) games/s", result.stdout)
    assert rate and games
    assert int(rate.group(1).replace(",", "")) > 0
    assert float(games.group(1).replace(",", "")) > 0


def test_bench_times_the_search_in_a_saved_games_positions(saved_game: Path) -> None:
    result = run_bench("--seconds", "0.2", "--mcts-iterations", "4", "--mcts-game", str(saved_game))
    assert result.exit_code == 0
    assert re.search(r"MCTS \(4 iterations per decision\), 10 placement decisions:", result.stdout)
    assert re.search(r"[\d,]+ iterations/s", result.stdout)
    bad = saved_game.parent / "not-a-game.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    refused = CliRunner().invoke(bench, ["--seconds", "0.1", "--mcts-game", str(bad)])
    assert refused.exit_code == 2 and "not-a-game.json" in refused.output
