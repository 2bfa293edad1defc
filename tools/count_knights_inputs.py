"""Count the clicks and taps a person makes to play a whole game of Rycerze i zamki in the real page.

A game for three (the person at this screen against two careful computer players) with a fixed seed, played in
headless Chromium through the page as a person would: the lobby's form (three players, then Start), two cards and
"Lay these two cards" each castle round, one card each drum round, and "Next" only where the page waits for it:
before clicking "Next" the person gives the page a moment (``--patience``) to move on by itself. The person plays
the first and the last card of the hand, and recruits the first card offered, so every run plays the same game.

The server is the app of the ``zamek`` package on PYTHONPATH (``tests.live_server``: uvicorn on a free port, a fresh
SQLite file, the computer answering at once), the page its static files; the seed goes into the page's own request
that creates the game (``tests.browser.pages.seed_knights_games``). So the same script counts an older page: put that
checkout's ``src`` on PYTHONPATH instead of this one's.

Usage::

    PYTHONPATH=.:src .venv/bin/python tools/count_knights_inputs.py [--seed 7] [--json]
    PYTHONPATH=.:/path/to/older/checkout/src .venv/bin/python tools/count_knights_inputs.py
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tools.extra import needs_extra

try:
    from playwright.sync_api import Page, sync_playwright
except ImportError:
    raise needs_extra("playwright") from None
from tests.browser.pages import CHROMIUM, FLAGS, KNIGHTS_READY, seed_knights_games
from tests.live_server import start_server

SEED = 7
PATIENCE = 4.0
"""Seconds a person waits for the reveal to go on by itself before clicking "Next"."""


@dataclass
class Count:
    seed: int
    inputs: int = 0
    by_control: Counter[str] = field(default_factory=Counter)
    rounds_chosen: int = 0
    rounds_recruited: int = 0
    seconds: float = 0.0

    def tap(self, page: Page, selector: str, control: str) -> None:
        page.locator(selector).first.click()
        self.inputs += 1
        self.by_control[control] += 1


def moved_on_by_itself(page: Page, before: str, patience: float) -> bool:
    try:
        page.wait_for_function("(before) => document.body.dataset.revision !== before", arg=before,
                               timeout=patience * 1000)
    except Exception:
        return False
    return True


def play(page: Page, url: str, seed: int, patience: float) -> Count:
    count = Count(seed)
    started = time.monotonic()
    seed_knights_games(page, seed)
    page.goto(url)
    page.wait_for_selector("#knights-new")
    page.select_option("#k-players", "3")  # seats 2 and 3 are the careful computer already
    count.inputs += 1
    count.by_control["lobby-players"] += 1
    count.tap(page, "#k-start", "lobby-start")
    page.wait_for_url("**/#/knights/*")
    for _ in range(1000):
        page.wait_for_function(KNIGHTS_READY, timeout=60_000)
        if page.query_selector("#k-over"):
            break
        if page.query_selector(".k-card"):
            count.tap(page, ".k-card >> nth=0", "card")
            count.tap(page, ".k-card >> nth=-1", "card")
            count.tap(page, "#k-play", "play")
            page.wait_for_selector("#k-play", state="detached", timeout=20_000)
            count.rounds_chosen += 1
        elif page.query_selector(".k-recruit"):
            count.tap(page, ".k-recruit", "recruit")
            page.wait_for_selector(".k-recruit", state="detached", timeout=20_000)
            count.rounds_recruited += 1
        elif page.query_selector("#k-show"):
            count.tap(page, "#k-show", "show-hand")
        elif page.query_selector("#k-next"):
            before = str(page.evaluate("document.body.dataset.revision"))
            if not moved_on_by_itself(page, before, patience) and page.query_selector("#k-next"):
                count.tap(page, "#k-next", "next")
    else:
        raise RuntimeError("the game did not end")
    count.seconds = round(time.monotonic() - started, 1)
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--patience", type=float, default=PATIENCE)
    parser.add_argument("--json", action="store_true", help="print the count as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder) / "games.sqlite3", bot_delay=0.0)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-GB",
                                              bypass_csp=True)
                count = play(context.new_page(), server.url, args.seed, args.patience)
                browser.close()
        finally:
            server.stop()
    if args.json:
        print(json.dumps({**asdict(count), "by_control": dict(count.by_control)}, indent=2))
    else:
        decisions = count.rounds_chosen + count.rounds_recruited
        print(f"{count.inputs} clicks/taps for a whole game of three (seed {count.seed}): {decisions} decisions, "
              + ", ".join(f"{k} {v}" for k, v in sorted(count.by_control.items())) + f"; {count.seconds} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
