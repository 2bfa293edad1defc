"""Fixtures of the web server's tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web_client import WebClient, client_for


@pytest.fixture
def client(tmp_path: Path) -> Iterator[WebClient]:
    """A test client of a fresh app on its own SQLite file (test_web_hardening has a client of its own)."""
    with client_for(tmp_path / "games.sqlite3") as c:
        yield c
