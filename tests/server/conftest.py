"""Fixtures of the web server's tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web_client import FakeTime, WebClient, client_for, web_config
from zamek.server.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[WebClient]:
    """A test client of a fresh app on its own SQLite file (test_web_hardening has a client of its own)."""
    with client_for(tmp_path / "games.sqlite3") as c:
        yield c


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.pg)])
def any_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh SQLite file, then a fresh PostgreSQL database (marked ``pg``: its fixture is asked for here only)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def clocked(tmp_path: Path) -> Iterator[tuple[WebClient, FakeTime]]:
    """A client whose app reads a fake time, without the lifespan: the clocks are checked only when a test calls
    ``expire_clocks`` (the server's own watch: test_a_clock_survives_a_restart_and_the_servers_watch_ends_the_game)."""
    fake = FakeTime()
    app = create_app(web_config(tmp_path / "games.sqlite3", clock=fake))
    c = WebClient(app)
    try:
        yield c, fake
    finally:
        c.close()
        c.service.close()
