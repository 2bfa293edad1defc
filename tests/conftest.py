"""What every test folder shares: the markers given by folder and fixture, the ``slow`` switch, and a real
PostgreSQL (``tests/postgres.py``).

Markers (registered in pyproject.toml):

* ``browser``: every test in tests/browser/ (a real Chromium through Playwright);
* ``pg``: every test that uses a real PostgreSQL (the ``postgres`` fixture, also through ``pg_url``; a fixture
  that asks for it only while running marks its PostgreSQL parameter itself, as test_server_postgres's ``any_url``);
* ``heavy``: long property and statistical tests, marked by hand where they are defined;
* ``slow``: longer still; skipped unless asked for with ``-m slow`` or ``ZAMEK_SLOW=1``.

``python3 dev.py test --fast`` leaves out the first three (``-m "not browser and not pg and not heavy"``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import TESTS
from tests.postgres import Cluster, binaries

BROWSER = TESTS / "browser"


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(item.path).is_relative_to(BROWSER):
            item.add_marker(pytest.mark.browser)
        if "postgres" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.pg)


@pytest.fixture(autouse=True)
def _slow_only_when_asked(request: pytest.FixtureRequest) -> None:
    """The slow tests (2,000 games a rule set) run with ``-m slow`` or ``ZAMEK_SLOW=1`` only."""
    if request.node.get_closest_marker("slow") is None or os.environ.get("ZAMEK_SLOW"):
        return
    if "slow" not in str(request.config.getoption("markexpr") or ""):
        pytest.skip("slow: run with -m slow (or ZAMEK_SLOW=1)")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster for this test process. Skipped when PostgreSQL is missing, except under CI
    (the environment variable CI set), where that fails: ``python3 dev.py test`` installs it."""
    bindir = binaries()
    if bindir is None:
        message = "these tests need PostgreSQL (apt-get install postgresql)"
        if os.environ.get("CI"):
            pytest.fail(f"{message}; CI is set, so this fails", pytrace=False)
        pytest.skip(message)
    cluster = Cluster(bindir)
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_url(postgres: Cluster) -> str:
    """The URL of a fresh, empty database."""
    return postgres.new_database()
