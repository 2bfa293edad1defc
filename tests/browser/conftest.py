"""The browser tests' fixtures: a headless Chromium for each test module (Playwright drives Debian's ``chromium``),
a real server on a fresh SQLite file for each test, and a page in a new browser context.

The tests are skipped when /usr/bin/chromium is missing, except under CI (the environment variable CI set), where a
missing browser is a failure. Every test here is marked ``browser`` (``tests/conftest.py``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from tests.browser.pages import CHROMIUM, FLAGS, KNIGHTS_REVEAL_HELD
from tests.live_server import Server, start_server


@pytest.fixture(scope="module")  # not longer: Playwright's sync API keeps an event loop running while it lives
def browser() -> Iterator[Browser]:
    if not os.path.exists(CHROMIUM):
        message = f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(f"{message}; CI is set, so this fails", pytrace=False)
        pytest.skip(message)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = start_server(tmp_path / "games.sqlite3")
    yield s
    s.stop()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    # The tests' own string predicates (wait_for_function) are evaluated as strings, which the page's CSP
    # forbids: they run past it; test_the_page_works_under_its_content_security_policy keeps it on.
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-GB", bypass_csp=True)
    # These tests click every answer themselves: the page's own "No figure" when nothing else is possible is
    # tested on its own (test_screen_browser.py).
    context.add_init_script("localStorage.getItem('zamek-auto-pass') || localStorage.setItem('zamek-auto-pass', 'off');"
                        "localStorage.getItem('zamek-auto-draw') || localStorage.setItem('zamek-auto-draw', 'off')")
    context.add_init_script(KNIGHTS_REVEAL_HELD)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert not errors, errors
