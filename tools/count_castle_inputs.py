"""Count the inputs a whole castle game asks of a player on the page: clicks with a mouse, key presses with the
keyboard only, taps on a phone.

Each run plays one game against the computer (level beginner, a fixed seed, so the computer's replies and the
tiles are the same every time) in Debian's Chromium, driven by Playwright as a person would: the game is started
from the lobby (not counted), then every decision is made on the page with the chosen input only, always the same
way: the first highlighted space where the tile fits as it is turned, the first figure offered (until none is
left; the page itself gives "No figure" when it is the only answer, as a new player's page does), the first answer
to a question of the scoring. With the keyboard a target is reached by Tab from wherever the page left the focus
(Enter presses it); each Tab and each Enter is one key press. On the phone (390x844, touch) a space is tapped where
the board shows it; the figure is tapped in the menu the page opens.

The page's options are left as a new player finds them (the first-game guide shows at the start), but for the option
to confirm each move with ``--confirm``.

Usage::

    PYTHONPATH=.:src .venv/bin/python tools/count_castle_inputs.py [--seed 7] [--modes mouse,keyboard,phone]
        [--turns N] [--json]

To count an older version of the page, run this file with PYTHONPATH naming this checkout's tests and that
version's code: ``PYTHONPATH=.:/path/to/old/src``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tools.extra import needs_extra

try:
    from playwright.sync_api import Browser, sync_playwright
except ImportError:
    raise needs_extra("playwright") from None
from tests.browser.pages import (
    CHROMIUM,
    FLAGS,
    answer_by_keys,
    answer_by_pointing,
    seed_games,
    separate_pages,
    start_game,
    wait_for_player,
)
from tests.live_server import start_server

MODES = ("mouse", "keyboard", "phone")


@dataclass
class Count:
    """The inputs of a game with one kind of input."""

    mode: str
    unit: str
    inputs: int = 0
    turns: int = 0
    """Tiles the player placed."""
    decisions: int = 0
    """Answers the player gave (placements, figures or passes, answers to questions)."""
    per_turn: list[int] = field(default_factory=list)
    """The inputs of each turn, from the tile shown to the computer's reply."""
    seconds: float = 0.0
    result: str = ""
    """The game's end as the page says it (empty when stopped before)."""

    @property
    def most_in_a_turn(self) -> int:
        return max(self.per_turn, default=0)


def play(browser: Browser, url: str, mode: str, seed: int, turns: int | None = None, confirm: bool = False) -> Count:
    """Play a game (or its first ``turns`` turns) with one kind of input, counting the inputs; ``confirm``: with the
    page's option to confirm each move on (each confirmed with one more input)."""
    phone = mode == "phone"
    count = Count(mode, {"mouse": "clicks", "keyboard": "key presses", "phone": "taps"}[mode])
    options = "localStorage.setItem('zamek-confirm', 'on')" if confirm else None
    with separate_pages(browser, 1, options, phone=phone) as [page]:
        seed_games(page, seed)
        began = time.monotonic()
        start_game(page, url, tap=phone)
        while True:
            kind = wait_for_player(page)
            if kind == "over" or (kind == "place" and count.turns == turns):
                break
            if kind == "place":
                count.turns += 1
                count.per_turn.append(0)
            used = answer_by_keys(page, kind) if mode == "keyboard" else answer_by_pointing(page, kind, phone)
            count.inputs += used
            count.decisions += 1
            if count.per_turn:
                count.per_turn[-1] += used
        count.seconds = round(time.monotonic() - began, 1)
        count.result = page.locator("#game-over").inner_text() if kind == "over" else ""
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--turns", type=int, default=None, help="stop after this many turns (default: the whole game)")
    parser.add_argument("--confirm", action="store_true", help="with the option to confirm each move on")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = parser.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m]
    unknown = set(modes) - set(MODES)
    if unknown:
        parser.error(f"unknown modes: {sorted(unknown)}")
    counts: list[Count] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for mode in modes:
            with tempfile.TemporaryDirectory() as folder:
                server = start_server(Path(folder) / "games.sqlite3")
                try:
                    counts.append(play(browser, server.url, mode, args.seed, args.turns, args.confirm))
                finally:
                    server.stop()
        browser.close()
    if args.json:
        print(json.dumps([asdict(c) | {"most_in_a_turn": c.most_in_a_turn} for c in counts], indent=2))
    else:
        for c in counts:
            print(f"{c.mode:8} {c.inputs:4} {c.unit} for {c.turns} turns ({c.decisions} decisions): "
                  f"{c.inputs / max(c.turns, 1):.1f} a turn, at most {c.most_in_a_turn}; {c.result} ({c.seconds} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
