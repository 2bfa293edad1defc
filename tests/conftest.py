"""What every test folder shares: the markers given by folder and fixture, the ``slow`` switch, and a real
PostgreSQL (``tests/postgres.py``).

Markers (registered in pyproject.toml):

* ``browser``: every test in tests/browser/ (a real Chromium through Playwright);
* ``pg``: every test that uses a real PostgreSQL (the ``postgres`` fixture, also through ``pg_url``; a fixture
  that asks for it only while running marks its PostgreSQL parameter itself, as test_server_postgres's ``any_url``);
* ``heavy``: long property and statistical tests, marked by hand where they are defined;
* ``slow``: longer still; skipped unless asked for with ``-m slow`` or ``ZAMEK_SLOW=1``;
* ``long(seconds)``: a test that takes about that long on a busy 2-core machine (30 s or more), marked by hand.

``python3 dev.py test --fast`` leaves out the first three (``-m "not browser and not pg and not heavy"``).

Under ``pytest -n N --dist worksteal`` (``dev.py test``) the ``long`` tests start first, shared among the workers:
a worker is dealt its block of the collection at the start and others steal from its end, so each block begins with
its share of them (the longest to the least loaded). In collection order the wheel's test (about five minutes)
started last and held the suite a few minutes past its other tests.
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


@pytest.hookimpl(trylast=True, specname="pytest_collection_modifyitems")  # after ``-m`` has deselected
def order_long_tests_first(config: pytest.Config, items: list[pytest.Item]) -> None:
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if workers > 1 and config.getoption("dist", None) == "worksteal":
        items[:] = long_first(items, workers)


def seconds(item: pytest.Item) -> float:
    marker = item.get_closest_marker("long")
    return float(marker.args[0]) if marker is not None else 0.0


def long_first(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """``items`` in the order that starts each worker of xdist's work stealing on its share of the long tests: that
    scheduler deals the i-th of ``workers`` the next ``len(left) // (workers - i)`` items, and steals from the end."""
    shares: list[list[pytest.Item]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for item in sorted((i for i in items if seconds(i)), key=seconds, reverse=True):
        least = loads.index(min(loads))
        shares[least].append(item)
        loads[least] += seconds(item)
    rest = [i for i in items if not seconds(i)]
    ordered: list[pytest.Item] = []
    for worker, share in enumerate(shares):
        block = (len(items) - len(ordered)) // (workers - worker)
        taken = max(0, block - len(share))
        ordered += share + rest[:taken]
        rest = rest[taken:]
    return ordered + rest


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
