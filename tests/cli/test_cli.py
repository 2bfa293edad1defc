"""The ``zamek`` command line, driven through click's test runner."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from zamek.castle.data.loader import new_game
from zamek.castle.record import make_record, replay
from zamek.castle.rules.actions import Action, Pass, Place
from zamek.castle.rules.setup import Setup
from zamek.castle.runner import play_game
from zamek.cli import main


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the records of three self-played games."""
    folder = tmp_path_factory.mktemp("games")
    result = run("selfplay", "--games", "3", "--seed", "1", "--save", str(folder))
    assert result.exit_code == 0, result.output
    return folder


def test_selfplay_json_lines() -> None:
    result = run("selfplay", "--games", "3", "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 4
    games = [json.loads(line) for line in lines[:3]]
    assert [g["seed"] for g in games] == [1, 2, 3]
    for g in games:
        assert {"seed", "scores", "tiles_placed", "tiles_discarded", "actions"} <= set(g)
        assert g["tiles_placed"] + g["tiles_discarded"] == 60
        assert len(g["scores"]) == 2 and all(isinstance(s, int) and s >= 0 for s in g["scores"])
        # Every placed tile takes a draw, a placement and a follower step at least.
        assert g["actions"] >= 3 * g["tiles_placed"] + g["tiles_discarded"]
        # The line is the game that the seed plays.
        played = play_game(g["seed"]).state
        assert g["scores"] == played.scores
        assert g["tiles_placed"] == len(played.placements)
    summary = json.loads(lines[-1])["summary"]
    assert summary["games"] == 3
    assert sum(summary["wins"]) + summary["draws"] == 3
    assert summary["mean_scores"] == [round(sum(g["scores"][p] for g in games) / 3, 2) for p in (0, 1)]


def test_selfplay_is_reproducible() -> None:
    first = run("selfplay", "--games", "2", "--seed", "9", "--json").stdout
    assert first == run("selfplay", "--games", "2", "--seed", "9", "--json").stdout


def test_selfplay_save_writes_records_that_replay(saved: Path) -> None:
    files = sorted(saved.glob("*.json"))
    assert [f.name for f in files] == ["game-1.json", "game-2.json", "game-3.json"]
    for file in files:
        record = json.loads(file.read_text(encoding="utf-8"))
        state = replay(record)
        assert state.is_over()
        assert record["result"]["scores"] == state.scores
        result = run("replay", str(file))
        assert result.exit_code == 0, result.output
        assert "replays exactly, finished" in result.stdout
        assert "Score breakdown" in result.stdout
        assert f"Total for Player 1: {state.scores[0]} points" in result.stdout
        assert f"Total for Player 2: {state.scores[1]} points" in result.stdout
        assert "Final scoring" in result.stdout


def test_replay_in_polish(saved: Path) -> None:
    result = run("replay", str(saved / "game-2.json"), "--lang", "pl")
    assert result.exit_code == 0
    assert "Punktacja" in result.stdout and "Razem — Gracz 1: " in result.stdout


def test_replay_of_a_corrupt_record_exits_2(saved: Path, tmp_path: Path) -> None:
    record = json.loads((saved / "game-1.json").read_text(encoding="utf-8"))
    record["moves"][11] = "c1/0"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    result = run("replay", str(bad))
    assert result.exit_code == 2
    assert "move 12 (c1/0)" in result.stderr
    assert "replays exactly" not in result.stdout

    record["moves"][11] = "nonsense"
    bad.write_text(json.dumps(record), encoding="utf-8")
    result = run("replay", str(bad))
    assert result.exit_code == 2
    assert "move 12" in result.stderr and "nonsense" in result.stderr


def test_replay_of_tampered_scores_exits_2(saved: Path, tmp_path: Path) -> None:
    record = json.loads((saved / "game-3.json").read_text(encoding="utf-8"))
    record["result"]["scores"][0] += 5
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    result = run("replay", str(bad))
    assert result.exit_code == 2
    assert "result" in result.stderr


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"format": "chess-game"}'])
def test_replay_of_a_file_that_is_no_record_exits_2(tmp_path: Path, content: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    result = run("replay", str(bad))
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ")


def test_replay_of_a_missing_file_exits_2(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nowhere.json"))
    assert result.exit_code == 2
    assert "cannot read" in result.stderr


def test_show_prints_the_castle_after_a_move(saved: Path) -> None:
    file = saved / "game-1.json"
    record = json.loads(file.read_text(encoding="utf-8"))
    state = replay(record, upto=10)
    result = run("show", str(file), "--move", "10")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == list("abcdefghij")
    for row in range(1, 11):
        assert any(re.match(rf"^\s*{row} ", line) for line in lines), f"row {row} missing"
    assert f"Player 1: {state.scores[0]}   Player 2: {state.scores[1]}" in result.stdout
    # Every empty space shows a dot; the tiles placed so far do not.
    assert 0 < len(state.placements) < 10
    assert result.stdout.count("·") == 76 - len(state.placements)
    # After 10 moves only a few tiles lie in the castle; at the end all placed tiles do.
    end = run("show", str(file)).stdout
    assert len(end) > len(result.stdout)


def test_show_past_the_end_exits_2(saved: Path) -> None:
    file = saved / "game-1.json"
    moves = len(json.loads(file.read_text(encoding="utf-8"))["moves"])
    result = run("show", str(file), "--move", str(moves + 5))
    assert result.exit_code == 2
    assert "no move" in result.stderr


def test_tiles_prints_every_tile() -> None:
    result = run("tiles")
    assert result.exit_code == 0
    ids = re.findall(r"^(Z\d\d)\b", result.stdout, flags=re.MULTILINE)
    assert ids == [f"Z{i:02d}" for i in range(1, 61)]


def test_tiles_stats_prints_the_table() -> None:
    result = run("tiles", "--stats", "5")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert re.search(r"Random legal play, .*5 games \(seeds 1\.\.5\)", out)
    rows = {}
    for label in (
        "tiles discarded per game",
        "tiles placed per game",
        "completed roads per game",
        "completed houses per game",
        "completed pigsties per game",
        "share of shrines on meadows with a monk",
        "largest empty area (spaces)",
        "points per player per game",
    ):
        match = re.search(rf"^\| {re.escape(label)}\s*\|([^|]+)\|([^|]+)\|([^|]+)\|([^|]+)\|$", out, re.MULTILINE)
        assert match, label
        rows[label] = [float(v) for v in match.groups()]
    # mean, stdev, min, max: placed and discarded tiles add up to the 60 tiles in every game.
    assert rows["tiles placed per game"][0] + rows["tiles discarded per game"][0] == pytest.approx(60)
    for mean, stdev, low, high in rows.values():
        assert low <= mean <= high and stdev >= 0
    assert re.search(r"tiles\s+60\b", out)
    assert re.search(r"tiles with no placement in the empty castle\s+0\b", out)


def test_watch_prints_moves_and_the_breakdown() -> None:
    result = run("watch", "--seed", "3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    game = play_game(3)
    assert out.startswith("Seed 3\n")
    first_tile = str(game.actions[0]).removeprefix("draw:")
    assert f"Turn 1: Player {game.setup.first_player + 1} draws {first_tile}" in out
    player_moves = re.findall(r"^  (Player [12]) (.+)$", out, flags=re.MULTILINE)
    expected = _player_actions(game.actions, game.setup)
    assert len(player_moves) == len(expected)
    for (name, text), (action, player) in zip(player_moves, expected, strict=True):
        assert name == f"Player {player + 1}"
        if isinstance(action, Place):
            assert text.startswith("places ") and text.endswith(f"turned {90 * action.rotation}°")
        elif isinstance(action, Pass):
            assert text == "places no figure"
    assert "Score breakdown" in out
    assert f"Total for Player 1: {game.state.scores[0]} point" in out
    assert f"Total for Player 2: {game.state.scores[1]} point" in out
    assert "Winner" in out or "Shared victory" in out


def _player_actions(actions: Sequence[Action], setup: Setup) -> list[tuple[Action, int]]:
    state = new_game(setup)
    result = []
    for action in actions:
        if not state.is_chance():
            result.append((action, state.current))
        state.apply(action)
    return result


def test_record_written_by_selfplay_matches_make_record(saved: Path) -> None:
    game = play_game(2)
    expected = make_record(game.setup, game.seed, game.actions, game.state)
    assert json.loads((saved / "game-2.json").read_text(encoding="utf-8")) == expected


def test_a_breakdown_line_counts_its_points_in_words() -> None:
    """'1 point', '2 points'; Polish keeps its abbreviation 'pkt' for every number."""
    from zamek.castle.report import item_line
    from zamek.castle.rules.breakdown import ScoreItem

    one = ScoreItem("house", 0, 1, 1, 1, 3)
    assert item_line(one).endswith("1 tile x 1 = 1 point")
    assert item_line(ScoreItem("house", 0, 2, 1, 2, 3)).endswith("2 tiles x 1 = 2 points")
    assert item_line(one, "pl").endswith("= 1 pkt")


def test_migrate_upgrades_a_database_and_serve_refuses_what_cannot_work(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    from zamek.server.migrate import head

    result = CliRunner().invoke(main, ["migrate", "--db", db])
    assert result.exit_code == 0 and f"schema none -> {head()}" in result.output
    assert f"schema {head()} -> {head()}" in CliRunner().invoke(main, ["migrate", "--db", db]).output  # once is enough
    several = CliRunner().invoke(main, ["serve", "--db", db, "--workers", "2"])
    assert several.exit_code == 2 and "need a database server" in several.output
    unreachable = CliRunner().invoke(main, ["serve", "--db", "postgresql://nobody@127.0.0.1:1/none"])
    assert unreachable.exit_code == 2 and "cannot use the database" in unreachable.output
    assert "Traceback" not in several.output + unreachable.output


def test_a_refused_record_is_said_in_the_words_of_its_edition(tmp_path: Path) -> None:
    """C1: the refusal of a 2003 game's record names the edition, so its words are the 2003 ones."""
    from zamek.cli.games import edition_named

    game = play_game(4, setup=Setup.parse("castle2003"))
    record = make_record(game.setup, game.seed, game.actions, game.state)
    file = tmp_path / "castle2003.json"
    file.write_text(json.dumps(record), encoding="utf-8")
    assert edition_named(file) == "castle2003"
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    assert edition_named(tmp_path / "broken.json") is None
