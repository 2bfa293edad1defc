"""The web app in a real browser: Playwright drives Debian's headless Chromium and clicks like a person.

The browser, the server and the page are the fixtures of ``tests/browser/conftest.py`` (skipped when
/usr/bin/chromium is missing, except under CI); screenshots go to test-screenshots/ (ignored by git).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.pages import READY, choose_language, click_and_wait, play_step, revision, shot, start_game
from tests.live_server import Server, start_server


@pytest.mark.long(40)
def test_play_a_whole_game_against_the_beginner(page: Page, server: Server) -> None:
    start_game(page, server.url)
    shot(page, "game-start")
    clicks = 0
    while play_step(page):
        clicks += 1
        if clicks == 12:
            page.hover(".legal.now") if page.query_selector(".legal.now") else None
            shot(page, "game-middle")
        assert clicks < 400
    expect(page.locator("#game-over")).to_contain_text("Game over")
    expect(page.locator("#chart svg")).to_be_visible()
    assert page.locator(".breakdown tr").count() >= 1
    shot(page, "game-over")
    page.goto(server.url)
    expect(page.locator(".game-list[data-status=over] .game-item")).to_have_count(1)
    # A finished game says who won, with the colour you played.
    outcome = page.locator(".game-list[data-status=over] .outcome")
    assert outcome.inner_text().strip() in ("You win!", "The computer wins.", "Shared victory!")
    expect(outcome.locator(".dot.p0")).to_have_count(1)


def test_the_page_places_by_space_name_and_shades_a_feature(page: Page, server: Server) -> None:
    """The page works with the protocol's space names: the highlighted spaces carry them, and hovering a
    figure choice shades the spaces of its feature (the view's spaces, no cell numbers)."""
    start_game(page, server.url)
    names = page.locator(".legal.now").evaluate_all("nodes => nodes.map(n => n.dataset.space)")
    assert names and all(re.fullmatch(r"[a-j]([1-9]|10)", name) for name in names), names
    click_and_wait(page, f".legal.now[data-space='{names[0]}']")
    assert page.evaluate("document.body.dataset.phase") == "follower"
    expect(page.locator(".layer-tiles .placed")).to_have_count(1)
    page.hover(".choice-button:not(.pass)")
    expect(page.locator(".layer-highlight .cells.hover rect").first).to_be_visible()
    page.mouse.move(0, 0)
    expect(page.locator(".layer-highlight .cells.hover")).to_have_count(0)


def test_switch_language_at_any_time(page: Page, server: Server) -> None:
    page.goto(server.url)
    expect(page.locator("#new-game h2")).to_have_text("New game")
    choose_language(page, "pl")
    expect(page.locator("#new-game h2")).to_have_text("Nowa gra")
    page.click("#start-game")
    page.wait_for_selector(".legal.now")
    expect(page.locator("#turn")).to_contain_text("Połóż kafelek")
    click_and_wait(page, ".legal.now")
    # Feature and role names come from the server, in Polish.
    expect(page.locator(".choice-button.pass")).to_have_text("Bez figury (pas)")
    labels = page.locator(".choice-button:not(.pass)").all_inner_texts()
    assert labels and all(any(w in label for w in ("herold", "giermek", "rolnik", "mnich")) for label in labels)
    shot(page, "polish")
    choose_language(page, "en")
    expect(page.locator("#turn")).to_contain_text("Put a figure")
    page.reload()
    expect(page.locator("#turn")).to_contain_text("Put a figure")


def test_undo_a_placement_and_turn_the_tile(page: Page, server: Server) -> None:
    start_game(page, server.url)
    drawn = page.locator("#drawn-tile").get_attribute("aria-label")
    before = page.locator("#rotate-right").count()
    assert before == 1
    page.keyboard.press("r")
    expect(page.locator("#turn")).to_contain_text("90°")
    page.click("#rotate-left")
    expect(page.locator("#turn")).to_contain_text("0°")
    click_and_wait(page, ".legal.now")
    assert page.evaluate("document.body.dataset.phase") == "follower"
    click_and_wait(page, "#undo")
    assert page.evaluate("document.body.dataset.phase") == "place"
    assert page.locator("#drawn-tile").get_attribute("aria-label") == drawn
    # Keyboard: focus a highlighted space and press Enter to place.
    page.locator(".legal.now").first.focus()
    before_rev = revision(page)
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.body.dataset.revision !== '{before_rev}'")
    assert page.evaluate("document.body.dataset.phase") == "follower"
    page.keyboard.press("u")
    page.wait_for_function("document.body.dataset.phase === 'place'")


def test_resume_after_a_server_restart(page: Page, tmp_path: Path) -> None:
    db = tmp_path / "restart.sqlite3"
    first = start_server(db)
    try:
        game = start_game(page, first.url, sokol=True)
        for _ in range(4):
            play_step(page)
        while True:  # on to the person's next placement
            page.wait_for_function(READY, timeout=30_000)
            if page.query_selector(".legal.now"):
                break
            play_step(page)
        click_and_wait(page, ".legal.now")
        placed = page.locator(".layer-tiles .placed").count()
        scores = page.locator(".player .score").all_inner_texts()
    finally:
        first.stop()
    second = start_server(db, port=int(first.url.rsplit(":", 1)[1].strip("/")))
    try:
        page.goto(f"{second.url}#/game/{game}")
        page.wait_for_selector(".choice-button")
        assert page.locator(".layer-tiles .placed").count() == placed
        assert page.locator(".player .score").all_inner_texts() == scores
        assert page.evaluate("document.body.dataset.phase") == "follower"
        click_and_wait(page, ".choice-button.pass")
        page.wait_for_function(READY, timeout=20_000)
        shot(page, "resumed")
    finally:
        second.stop()


def test_step_through_a_replay(page: Page, server: Server) -> None:
    start_game(page, server.url)
    for _ in range(6):
        play_step(page)
    page.wait_for_function(READY)
    page.click("#to-replay")
    page.wait_for_selector("#replay-slider")
    total = int(page.locator("#replay-slider").get_attribute("max") or 0)
    assert total > 6
    expect(page.locator("#replay-position")).to_contain_text(f"{total} of {total}")
    page.click("#replay-first")
    expect(page.locator("#replay-position")).to_contain_text(f"0 of {total}")
    assert page.locator(".layer-tiles .placed").count() == 0
    page.click("#replay-next")
    page.click("#replay-next")
    expect(page.locator("#replay-position")).to_contain_text(f"2 of {total}")
    assert page.locator(".layer-tiles .placed").count() == 1
    page.click("#replay-prev")
    expect(page.locator("#replay-position")).to_contain_text(f"1 of {total}")
    page.locator("#move-list li[data-n='5']").click()
    expect(page.locator("#replay-position")).to_contain_text(f"5 of {total}")
    page.keyboard.press("End")
    expect(page.locator("#replay-position")).to_contain_text(f"{total} of {total}")
    shot(page, "replay")
    page.click("#back-to-game")
    page.wait_for_selector(".legal.now")


def test_the_page_works_under_its_content_security_policy(browser: Browser, server: Server) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-GB")
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    response = page.goto(server.url)
    assert response is not None and "frame-ancestors 'none'" in response.headers["content-security-policy"]
    page.wait_for_selector("#new-game")
    page.check("input[name=mode][value=hotseat]")
    page.click("#start-game")
    page.wait_for_selector(".legal.now")
    page.click(".legal.now")
    page.wait_for_selector(".choice-button")
    page.click("a.brand")
    page.wait_for_selector("#new-game")
    context.close()
    assert not problems, problems


def test_two_people_at_one_screen(page: Page, server: Server) -> None:
    start_game(page, server.url, hotseat=True)
    click_and_wait(page, ".legal.now")
    click_and_wait(page, ".choice-button.pass")
    expect(page.locator("#draw")).to_be_visible()
    expect(page.locator("#turn")).to_contain_text("Player 2")
    click_and_wait(page, "#undo")
    assert page.evaluate("document.body.dataset.phase") == "follower"
    click_and_wait(page, ".choice-button.pass")
    click_and_wait(page, "#draw")
    page.wait_for_selector(".legal.now")
    expect(page.locator(".player.current")).to_have_attribute("data-player", "1")


def test_the_lobby_offers_the_levels_the_server_offers(page: Page, server: Server) -> None:
    offered = json.loads(page.request.get(f"{server.url}api/meta").text())["levels"]
    page.goto(server.url)
    page.wait_for_selector("#new-game")
    choices = page.locator("input[name=level]")
    assert choices.evaluate_all("inputs => inputs.map((i) => i.value)") == offered
    expect(page.locator("input[name=level]:checked")).to_have_value(offered[0])
    # The last choice is kept; a level the server no longer offers falls back to the weakest.
    page.evaluate("localStorage.setItem('zamek-new-game', JSON.stringify({ level: 'expert' }))")
    page.reload()
    expect(page.locator("input[name=level]:checked")).to_have_value("expert")
    page.evaluate("localStorage.setItem('zamek-new-game', JSON.stringify({ level: 'grandmaster' }))")
    page.reload()
    expect(page.locator("input[name=level]:checked")).to_have_value(offered[0])


def test_an_invalid_saved_game_is_refused_in_the_page(page: Page, server: Server, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "zamek-game", "version": 1, "moves": ["draw:Z01", "j10/0"]}))
    page.goto(server.url)
    page.set_input_files("#import-file", str(bad))
    page.click(".import button[type=submit]")
    expect(page.locator("#import-error")).to_contain_text("move 2 (j10/0)")


def test_readable_in_a_phone_sized_window(browser: Browser, server: Server) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        start_game(page, server.url)
        box = page.locator("#board").bounding_box()
        assert box is not None and box["width"] <= 390 and box["width"] > 330
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, "nothing sticks out sideways"
        page.locator(".legal.now").first.tap()
        page.wait_for_selector(".choice-button.pass")
        shot(page, "phone")
    finally:
        context.close()
