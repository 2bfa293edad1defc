"""The commands that run for more than a moment show a progress bar on standard error where a person watches, and
nothing where nobody does: output piped or written to a file, or --json (issue 40: tiles --stats 2000 was silent
for 10 s, train silent during its self-play).

click's bar is replaced by one that records what it was told: each stage's label and length, and the steps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.corrupt_records import castle_record
from zamek.cli import main, progress


class Bar:
    """Stands for click's ProgressBar: records its stage."""

    def __init__(self, stages: list[Bar], length: int, label: str, **_options: Any) -> None:
        self.length, self.label, self.pos, self.closed = length, label, 0, False
        stages.append(self)

    def __enter__(self) -> Bar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.closed = True

    def update(self, steps: int) -> None:
        self.pos += steps


@pytest.fixture
def stages(monkeypatch: pytest.MonkeyPatch) -> list[Bar]:
    """The bars the command showed, as if standard output and error were a terminal."""
    shown: list[Bar] = []
    monkeypatch.setattr(progress, "watched", lambda as_json=False: not as_json)
    for module in ("games", "info", "matches", "knights", "training"):
        monkeypatch.setattr(f"zamek.cli.{module}.watched", lambda as_json=False: not as_json, raising=False)
    monkeypatch.setattr("click.progressbar", lambda **options: Bar(shown, **options))
    return shown


def run(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def steps(stages: list[Bar]) -> list[tuple[str, int, int]]:
    assert all(bar.closed for bar in stages)
    return [(bar.label, bar.pos, bar.length) for bar in stages]


def test_tiles_stats_counts_its_games(stages: list[Bar]) -> None:
    run("tiles", "--stats", "3")
    assert steps(stages) == [("random games", 3, 3)]


def test_selfplay_counts_its_games_of_either_game(stages: list[Bar]) -> None:
    run("selfplay", "--games", "3")
    run("knights", "selfplay", "--games", "2", "--match")
    assert steps(stages) == [("games", 3, 3), ("matches", 2, 2)]


def test_a_match_and_a_ladder_count_their_games(stages: list[Bar]) -> None:
    run("arena", "--players", "random,greedy", "--games", "2")
    run("ladder", "--players", "random,greedy,random", "--games", "2")
    run("knights", "arena", "--players", "random,random,random", "--games", "3")
    assert steps(stages) == [("random vs greedy", 2, 2), *[("ladder pair", 2, 2)] * 3,
                             ("random vs random vs random", 3, 3)]


@pytest.mark.heavy  # two games of the hard level after the pass: seconds
def test_train_counts_its_self_play_and_each_pass_games(stages: list[Bar], tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    run("train", "--bot", "random", "--games", "20", "--epochs", "1", "--eval-games", "2", "--out",
        str(tmp_path / "net.json"))
    assert steps(stages)[0] == ("games", 20, 20)  # the self-play
    assert steps(stages)[1:] and all(stage == ("games", 2, 2) for stage in steps(stages)[1:])


def test_train_value_counts_each_rounds_games(stages: list[Bar], tmp_path: Path) -> None:
    run("train-value", "--games", "10,10", "--out", str(tmp_path / "value.json"))
    assert steps(stages) == [("games", 10, 10), ("games", 10, 10)]


def test_analyse_counts_the_moves_it_judged(stages: list[Bar], tmp_path: Path) -> None:
    file = tmp_path / "game.json"
    file.write_text(json.dumps(castle_record()), encoding="utf-8")
    run("analyse", str(file))
    moves = len(castle_record()["moves"])
    assert [(label, length) for label, _, length in steps(stages)] == [("judging the moves", moves)]
    assert 0 < stages[0].pos <= moves


def test_no_bar_with_json_or_quiet(stages: list[Bar]) -> None:
    run("selfplay", "--games", "2", "--json")
    run("knights", "selfplay", "--games", "2", "--json")
    run("arena", "--players", "random,random", "--games", "2", "--quiet")
    assert stages == []


def test_no_bar_and_no_trace_of_one_where_nobody_watches() -> None:
    """Under click's runner standard output and error are no terminal: the output is what it was."""
    result = CliRunner().invoke(main, ["tiles", "--stats", "2"])
    assert result.exit_code == 0 and result.stderr == ""
    result = CliRunner().invoke(main, ["selfplay", "--games", "2"])
    assert result.stderr == "" and result.stdout.count("\n") == 3
    assert "\x1b" not in result.output and "\r" not in result.output
