"""``zamek games expired``: lists the unfinished games past the limits of expiry, removes them with ``--purge``
(keeping the finished ones and the recent ones), reads the limits as ``zamek serve`` does (options, ``ZAMEK_*``), and
answers a database it cannot use with a clear message and exit status 2, never a traceback."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.server.test_matches import joined, new_match
from tests.web_client import FakeTime, client_for
from zamek.cli import main
from zamek.server.db import Repository

DAY = 86400.0


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


def stored_games(db: Path) -> dict[str, str]:
    """A server's database: a game with a friend left 40 days ago, one for a friend nobody joined (2 days old), a
    finished one as old, and a fresh one waiting for its friend."""
    fake = FakeTime(time.time() - 40 * DAY)
    with client_for(db, clock=fake, purge_seconds=0) as web:
        idle = new_match(web, "castle")
        joined(web, idle)
        fake.advance(38 * DAY)
        unjoined = new_match(web, "knights")
        done = new_match(web, "castle")
        joined(web, done)
        assert web.post(f"/api/games/{done['id']}/resign", json={}, headers=web.seat(done["id"], 0)).status_code == 200
        fake.now = time.time()
        fresh = new_match(web, "castle")
    return {"idle": idle["id"], "unjoined": unjoined["id"], "finished": done["id"], "fresh": fresh["id"]}


def test_the_command_lists_the_expired_games_then_purges_them(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    games = stored_games(db)
    url = f"sqlite:///{db}"
    listed = run("games", "expired", "--db", url)
    assert listed.exit_code == 0, listed.output
    lines = listed.output.splitlines()
    assert lines[0].startswith(games["idle"]) and " idle " in lines[0] and "(40.0 days)" in lines[0]
    assert lines[1].startswith(games["unjoined"]) and " unjoined " in lines[1] and "knights" in lines[1]
    assert lines[2] == "2 expired games: 1 for friends nobody joined, 1 idle (limits: unjoined 24 hours, idle 30 days)"
    assert len(lines) == 3
    repo = Repository(url)
    assert all(repo.get(game_id) is not None for game_id in games.values())  # listing removes nothing

    # The limits are those of zamek serve: its options, or the same environment variables.
    unjoined_only = run("games", "expired", "--db", url, "--expire-idle-days", "0")
    assert games["idle"] not in unjoined_only.output and games["unjoined"] in unjoined_only.output
    kinder = run("games", "expired", "--db", url, env={"ZAMEK_EXPIRE_UNJOINED_HOURS": "72"})
    assert games["unjoined"] not in kinder.output and games["idle"] in kinder.output
    assert "no game expires" in run("games", "expired", "--db", url, "--expire-idle-days", "0",
                                    "--expire-unjoined-hours", "0").output

    purged = run("games", "expired", "--db", url, "--purge")
    assert purged.exit_code == 0, purged.output
    assert purged.output.splitlines()[-1] == "removed 2 games"
    assert repo.get(games["idle"]) is None and repo.get(games["unjoined"]) is None
    assert repo.seats(games["unjoined"]) == []
    assert repo.get(games["finished"]) is not None and repo.get(games["fresh"]) is not None
    assert run("games", "expired", "--db", url).output.startswith("0 expired games")
    repo.close()


@pytest.mark.parametrize(("url", "words"), [
    ("nonsense", "not a database URL"),
    ("postgresql://nobody@127.0.0.1:1/none", "cannot use the database postgresql+psycopg://nobody@127.0.0.1:1/none"),
    ("mysql://zamek:secret@localhost/zamek", "mysql://zamek:***@localhost/zamek: its driver is not installed"),
    ("sqlite:///{tmp}/missing.sqlite3", "no database at"),
    ("sqlite:///{tmp}/empty.sqlite3", "has schema none, this version's is"),
    ("sqlite:///{tmp}/text.sqlite3", "cannot use the database"),
])
def test_a_database_the_command_cannot_use_is_a_clear_error_with_status_2(tmp_path: Path, url: str, words: str
                                                                          ) -> None:
    (tmp_path / "empty.sqlite3").write_bytes(b"")
    (tmp_path / "text.sqlite3").write_text("not a database, " * 100)
    result = run("games", "expired", "--db", url.format(tmp=tmp_path), "--purge")
    assert result.exit_code == 2, result.output
    assert words in result.output and "error: " in result.output.lower()  # click's Error: where the URL is bad
    assert "Traceback" not in result.output and "secret" not in result.output
    assert not (tmp_path / "missing.sqlite3").exists()


def test_serve_and_play_take_the_limits_from_their_options_or_the_environment(monkeypatch: pytest.MonkeyPatch
                                                                            ) -> None:
    from zamek.server import server

    given: dict[str, Any] = {}
    monkeypatch.setattr(server, "serve_workers", lambda **settings: given.setdefault("serve", settings))
    monkeypatch.setattr(server, "serve", lambda *args, **options: given.setdefault("play", (*args, options)))
    served = run("serve", "--db", "postgresql://zamek@localhost/zamek", "--expire-idle-days", "7",
                 env={"ZAMEK_EXPIRE_UNJOINED_HOURS": "6"})
    assert served.exit_code == 0, served.output
    assert (given["serve"]["expire_unjoined_hours"], given["serve"]["expire_idle_days"]) == (6.0, 7.0)
    assert run("play", "--no-browser").exit_code == 0
    options = given["play"][-1]
    assert (options["expire_unjoined_hours"], options["expire_idle_days"]) == (0.0, 0.0)
    refused = CliRunner().invoke(main, ["serve", "--db", "x", "--expire-idle-days", "-1"])
    assert refused.exit_code == 2 and "Traceback" not in refused.output


def test_each_worker_of_serve_gets_the_limits(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import gc
    import json

    from zamek.server import server

    config = {"db_url": f"sqlite:///{tmp_path / 'games.sqlite3'}", "allowed_hosts": ["localhost"], "bot_workers": 1,
              "bot_delay": 0.0, "bot_lease": 5.0, "expire_unjoined_hours": 6.0, "expire_idle_days": 7.0,
              "metrics_allow_ips": ["127.0.0.1"], "header_timeout": 10.0, "body_timeout": 60.0,
              "max_connections": None}
    monkeypatch.setenv(server.CONFIG_VARIABLE, json.dumps(config))
    app = server.app_from_environment()
    gc.unfreeze()  # a worker keeps what it loaded out of the collector's passes; this test process does not
    settings = app.state.service.config  # type: ignore[attr-defined]
    assert (settings.expire_unjoined_hours, settings.expire_idle_days) == (6.0, 7.0)
    app.state.service.close()  # type: ignore[attr-defined]
