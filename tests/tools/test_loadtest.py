"""The load test's machinery (``python -m tools.loadtest``) on a tiny load against a real server in this process.

Only correctness is asserted (no error, no lost move, every event delivered): timings belong to the benchmark
(``python -m tools.loadtest --start``), not to the tests.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from tools.loadtest import LoadConfig, legal_actions, percentiles, run_load
from tools.lobby_load import lobby_test

from tests.live_server import start_server


def test_a_tiny_load_loses_no_move_and_no_event(tmp_path: Path) -> None:
    server = start_server(tmp_path / "games.sqlite3")
    try:
        # The server runs in this process: its CPU time is this process's.
        report = asyncio.run(run_load(LoadConfig(server.url, games=3, pace=0.05, moves_per_game=6, seed=7,
                                                 server_pid=os.getpid())))
    finally:
        server.stop()
    assert report.errors == {}
    assert report.games == 3
    assert report.moves == 3 * 6  # no game ends within six moves
    assert report.lost == 0
    assert report.unconfirmed == 0
    assert report.events_missed == 0
    assert report.ok
    assert report.streams == 6
    assert report.server_cpu_ms_per_move is not None and report.server_cpu_ms_per_move > 0
    assert report.requests["move"] == report.moves  # counted while the games played: the setup's are not
    assert "server CPU per move" in report.table()
    assert "games" in report.table()
    assert report.to_json()["error_count"] == 0


def test_games_against_the_computer_are_played_and_its_replies_timed(tmp_path: Path) -> None:
    server = start_server(tmp_path / "games.sqlite3", bot_delay=0.2)
    try:
        config = LoadConfig(server.url, games=1, pace=0.05, moves_per_game=4, seed=3, computer_games=3,
                            level="beginner")
        report = asyncio.run(run_load(config))
    finally:
        server.stop()
    assert report.ok, report.table()
    assert report.games == 1 and report.computer_games == 3
    assert report.streams == 2 + 3  # one stream a person's page against the computer
    assert report.moves >= 4 + 3 * 4
    # The computer's pause is part of its reply (timed from the answer, which leaves the server after the pause began).
    assert report.reply_ms["p50"] >= 100
    assert "against the computer" in report.table()


def test_percentiles_are_nearest_rank_in_milliseconds() -> None:
    values = [i / 1000 for i in range(1, 101)]  # 1..100 ms
    assert percentiles(values) == {"p50": 50.0, "p90": 90.0, "p99": 99.0, "max": 100.0}
    assert percentiles([]) == {"p50": 0.0, "p90": 0.0, "p99": 0.0, "max": 0.0}


def test_legal_actions_come_from_the_places_or_the_choices() -> None:
    placing = {"phase": "place", "drawn": {"places": [{"action": "e10/90"}]}, "choices": []}
    choosing = {"phase": "follower", "drawn": None, "choices": [{"action": "pass"}, {"action": "follower:1"}]}
    assert legal_actions(placing) == ["e10/90"]
    assert legal_actions(choosing) == ["pass", "follower:1"]


def test_the_lobby_mode_takes_every_challenge_exactly_once_and_tells_every_poster(tmp_path: Path) -> None:
    server = start_server(tmp_path / "games.sqlite3")
    try:
        report = lobby_test(server.url, 8, 2, seed=3)
    finally:
        server.stop()
    assert report.ok, report.table()
    assert report.challenges == report.accepted == report.games_told == 8 and report.doubly_taken == 0
    assert len(report.latencies["started"]) == 8
