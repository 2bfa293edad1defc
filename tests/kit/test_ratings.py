"""Bradley–Terry ratings of the ladder (``zamek.kit.ratings``): the fit recovers known strengths, a perfect
record stays finite, the ladder's table shows each level's rating, and the committed ladder gives the manual's table
(docs/bots.md)."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.helpers import ROOT
from zamek.castle.arena import ArenaReport, GameResult, ladder_pairs, ladder_ratings, ladder_table, pair_file_name
from zamek.cli import main
from zamek.kit.ratings import PRIOR_POINTS, bradley_terry, expected_share


def test_two_players_are_as_far_apart_as_their_share_says() -> None:
    ratings = bradley_terry(["greedy", "hard"], {("hard", "greedy"): (150, 200)})
    assert ratings["greedy"] == 0
    gap = 400 * math.log10((150 + PRIOR_POINTS) / (50 + PRIOR_POINTS))
    assert ratings["hard"] == pytest.approx(gap, abs=1e-6)
    assert expected_share(ratings["hard"], ratings["greedy"]) == pytest.approx(150.5 / 201, abs=1e-6)


def test_the_fit_recovers_the_strengths_that_made_the_results() -> None:
    true = {"random": 0.0, "beginner": 350.0, "easy": 500.0, "medium": 800.0}
    names = list(true)
    games = 100_000
    results = {(a, b): (games * expected_share(true[a], true[b]), games)
               for i, a in enumerate(names) for b in names[i + 1:]}
    fitted = bradley_terry(names, results)
    for name in names:
        assert fitted[name] == pytest.approx(true[name], abs=1.0), (name, fitted)


def test_a_perfect_record_gives_a_large_but_finite_gap_and_order_is_kept() -> None:
    ratings = bradley_terry(["random", "greedy", "hard"], {("greedy", "random"): (200, 200),
                                                         ("hard", "greedy"): (160, 200)})
    assert 900 < ratings["greedy"] < 1200 and ratings["hard"] > ratings["greedy"]


def test_results_that_do_not_link_every_player_or_name_strangers_are_refused() -> None:
    with pytest.raises(ValueError, match="no games link hard"):
        bradley_terry(["random", "greedy", "hard"], {("greedy", "random"): (150, 200)})
    with pytest.raises(ValueError, match="not two of the players"):
        bradley_terry(["random", "greedy"], {("greedy", "chess"): (1, 2)})
    with pytest.raises(ValueError, match="3 points in 2 games"):
        bradley_terry(["random", "greedy"], {("greedy", "random"): (3, 2)})


def _report(a: str, b: str, a_points: list[int]) -> ArenaReport:
    """A match whose game k A won (2), drew (1) or lost (0)."""
    games = [GameResult(k, (a, b), 0, (10 + (p > 1) - (p < 1), 10), (1, 1), (0.1, 0.1), (0.1, 0.1))
             for k, p in enumerate(a_points)]
    return ArenaReport((a, b), "zamek", games, len(games))


def test_the_ladder_table_gives_each_level_its_rating() -> None:
    players = ["random", "beginner", "easy"]
    reports = [_report("random", "beginner", [0] * 9 + [2]), _report("random", "easy", [0] * 10),
               _report("beginner", "easy", [2] * 3 + [1] * 2 + [0] * 5)]
    ratings = ladder_ratings(players, reports)
    assert ratings is not None
    assert ratings == bradley_terry(players, {("random", "beginner"): (1, 10), ("random", "easy"): (0, 10),
                                              ("beginner", "easy"): (4, 10)})
    assert ratings["random"] == 0 < ratings["beginner"] < ratings["easy"]
    table = ladder_table(players, reports)
    assert "| rating |" in table.splitlines()[0]
    assert f"| {ratings['easy']:.0f} |" in table.splitlines()[-1]
    assert ladder_ratings(players, reports[:1]) is None  # easy never played: no rating compares it


LADDER_LEVELS = "random,beginner,easy,medium,hard,expert"


def test_the_committed_ladder_reprints_the_manual_table(tmp_path: Path) -> None:
    """``results/ladder`` holds every game of the manual's ladder (docs/bots.md): resuming it plays nothing and prints
    that table."""
    shutil.copytree(ROOT / "results" / "ladder", tmp_path, dirs_exist_ok=True)
    for pair in ladder_pairs(LADDER_LEVELS.split(",")):  # a missing game would be played here: hours with the expert
        path = tmp_path / pair_file_name(*pair)
        assert json.loads(path.read_text(encoding="utf-8"))["games"] == 200, path.name
    result = CliRunner().invoke(main, ["ladder", "--players", LADDER_LEVELS, "--games", "200", "--seed", "1",
                                       "--json-dir", str(tmp_path), "--resume", "--quiet"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    table = result.output[result.output.index("| row beats column |"):].strip()
    assert len(table.splitlines()) == 2 + len(LADDER_LEVELS.split(","))
    assert table in (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
