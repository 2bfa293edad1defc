"""The page's signs and numbers in a real browser: icons drawn as SVG (not symbol characters that depend on the
reader's fonts) with their names in words, the gate guard named in words beside a drawn shield, the analysis's
decisions numbered 1, 2, 3…, and an imported game marked as such in the lobby.

The browser, the server and the page are the fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import json

from playwright.sync_api import FilePayload, Page, expect

from tests.browser.pages import choose_language, start_game
from tests.live_server import Server
from tests.web_client import finished_record

# Symbol characters the page once drew as icons: many systems' fonts have none of them (or draw them as emoji).
# (The arrow keys' names, ← and →, are words of the catalogue: they are no icons.)
SYMBOLS = "⏮⏭⏪⏩▶⏸🛡↶↷⟲⟳⊕⊖↻«»‹›"

# Every word a button or an image of the page says: its text, its name and its tooltip.
SAID = """() => [document.body.innerText,
  ...[...document.querySelectorAll('[aria-label], [title]')].flatMap(e => [e.getAttribute('aria-label') || '',
                                                                          e.getAttribute('title') || ''])].join(' ')"""


def no_symbols(page: Page) -> None:
    said = page.evaluate(SAID)
    assert not [c for c in SYMBOLS if c in said], [c for c in SYMBOLS if c in said]


def import_finished(page: Page, server: Server) -> str:
    """Import a finished game through the lobby's form (this browser holds its seats); the replay opens."""
    page.goto(server.url)
    record: FilePayload = {"name": "game.json", "mimeType": "application/json",
                           "buffer": json.dumps(finished_record(4)).encode()}
    page.set_input_files("#import-file", files=[record])
    page.click(".import button[type=submit]")
    page.wait_for_selector("#replay-controls, .replay-controls")
    return page.url.split("#/replay/", 1)[1].split("/", 1)[0]


def test_the_replay_controls_are_drawn_icons_named_in_words(page: Page, server: Server) -> None:
    import_finished(page, server)
    buttons = page.locator(".replay-controls button")
    expect(buttons).to_have_count(7)
    for i in range(7):
        button = buttons.nth(i)
        expect(button.locator("svg.icon")).to_have_count(1)
        assert button.inner_text().strip() == "", button.inner_text()  # no character drawn as its sign
        name = button.get_attribute("aria-label") or ""
        assert name and button.get_attribute("title") == name
    play = page.locator("#replay-play")
    expect(play.locator("svg.icon")).to_have_attribute("data-icon", "play")
    expect(play).to_have_attribute("aria-label", "Play by itself")
    page.click("#replay-first")
    page.click("#replay-play")
    expect(play.locator("svg.icon")).to_have_attribute("data-icon", "pause")
    expect(play).to_have_attribute("aria-label", "Pause")
    no_symbols(page)
    page.click("#replay-play")
    expect(play.locator("svg.icon")).to_have_attribute("data-icon", "play")
    choose_language(page, "pl")
    expect(page.locator("#replay-play")).to_have_attribute("aria-label", "Odtwarzaj")
    no_symbols(page)


def test_the_tile_turns_with_drawn_arrows(page: Page, server: Server) -> None:
    start_game(page, server.url)
    for side in ("left", "right"):
        button = page.locator(f"#rotate-{side}")
        expect(button.locator("svg.icon")).to_have_attribute("data-icon", f"rotate-{side}")
        assert button.inner_text().strip() == ""
        assert button.get_attribute("aria-label")
    no_symbols(page)


def test_the_gate_guard_is_named_in_words_beside_a_drawn_shield(page: Page, server: Server) -> None:
    page.goto(server.url)
    page.wait_for_selector("#new-game")
    page.check("input[name=level][value=beginner]")
    page.check("input[name=sokol]")
    page.check("input[name=gate_guard]")
    page.click("#start-game")
    page.wait_for_selector(".legal.now")
    sign = page.locator("#game-title [data-rule=gate-guard]")
    expect(sign).to_have_text("Gate guard")
    expect(sign.locator("svg.icon-shield")).to_have_attribute("aria-hidden", "true")  # the words name it
    no_symbols(page)
    page.goto(server.url)
    line = page.locator(".game-list .game-item").first
    expect(line.locator("[data-rule=gate-guard]")).to_have_text("Gate guard")
    expect(line.locator("svg.icon-shield")).to_have_count(1)
    choose_language(page, "pl")
    expect(line.locator("[data-rule=gate-guard]")).to_have_text("Stój! Kto idzie?")
    no_symbols(page)


# The number each item of an ordered list shows (HTML's ordinal values: its value, or one more than the last).
ORDINALS = """list => { let n = list.hasAttribute('start') ? list.start - 1 : 0;
  return [...list.children].map(li => (n = li.hasAttribute('value') ? Number(li.getAttribute('value')) : n + 1)); }"""


def test_the_analysis_numbers_its_decisions_one_two_three(page: Page, server: Server) -> None:
    import_finished(page, server)
    page.click("#analyse")
    page.wait_for_selector("#decision-list li", timeout=30_000)
    numbers = page.locator("#decision-list").evaluate(ORDINALS)
    assert numbers == list(range(1, len(numbers) + 1)), numbers[:6]
    # The graph's points say the same numbers.
    titles = page.locator("#advantage .advantage-hit title").all_text_contents()
    assert [t.split(".", 1)[0] for t in titles[:3]] == ["1", "2", "3"], titles[:3]


def test_an_imported_game_is_marked_in_the_lobby(page: Page, server: Server) -> None:
    start_game(page, server.url)  # a game of this browser's own: not marked
    imported = import_finished(page, server)
    page.goto(server.url)
    expect(page.locator(".game-list .game-item")).to_have_count(2)
    expect(page.locator(f".game-item[data-id='{imported}'] .badge.imported")).to_have_text("imported")
    expect(page.locator(".game-item .badge.imported")).to_have_count(1)
    choose_language(page, "pl")
    expect(page.locator(f".game-item[data-id='{imported}'] .badge.imported")).to_have_text("zaimportowana")
