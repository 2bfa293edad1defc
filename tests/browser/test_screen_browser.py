"""Defects of the game screen, each seen in a real browser: the replay's slider and numbering, a replay address
that names no move, the family-house shade, the empty "Last moves" frame, an import without a file.

The browser, the server and the page are the fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, FilePayload, Page, expect

from tests.browser.pages import READY, choose_language, click_and_wait, play_step, revision, start_game
from tests.live_server import Server
from zamek.castle import record as records


def api_view(server: Server, game_id: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}api/games/{game_id}") as answer:
        view: dict[str, Any] = json.load(answer)
        return view


def settled_view(page: Page, server: Server, game_id: str) -> dict[str, Any]:
    """The server's view once the page shows it and waits for a click: nothing will redraw it meanwhile."""
    for _ in range(100):
        page.wait_for_function(READY, timeout=30_000)
        view = api_view(server, game_id)
        if revision(page) == str(view["revision"]):
            return view
        page.wait_for_timeout(100)
    raise AssertionError("the page never caught up with the server")


def test_the_replay_slider_can_be_dragged_and_moves_are_numbered_from_one(
        page: Page, server: Server) -> None:
    game = start_game(page, server.url)
    for _ in range(8):
        play_step(page)
    page.goto(f"{server.url}#/replay/{game}/0")
    slider = page.locator("#replay-slider")
    expect(page.locator("#replay-position")).to_contain_text("0")
    box = slider.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + 4, box["y"] + box["height"] / 2)
    page.mouse.down()
    for step in range(1, 11):  # a drag is many input events: each must leave the slider in the hand
        page.mouse.move(box["x"] + box["width"] * step / 20, box["y"] + box["height"] / 2)
        page.wait_for_timeout(30)
    page.mouse.up()
    expect(page.locator("#move-list li.current")).not_to_have_attribute("data-n", "0")
    reached = int(page.locator("#replay-slider").input_value())
    total = int(page.locator("#replay-slider").get_attribute("max") or "0")
    assert 0 < reached < total and abs(reached - total / 2) <= total / 5
    expect(page.locator("#move-list li.current")).to_have_attribute("data-n", str(reached))
    # The start is number 0: move 3 is numbered 3 in the list.
    assert page.locator("#move-list li[data-n='3']").evaluate("li => li.value") == 3


def test_a_replay_address_without_a_move_number_shows_the_end(page: Page, server: Server) -> None:
    game = start_game(page, server.url)
    play_step(page)
    page.goto(f"{server.url}#/replay/{game}/abc")
    expect(page.locator("#replay-slider")).to_be_visible()
    expect(page.locator(".error")).to_have_count(0)
    assert page.locator("#replay-slider").input_value() == page.locator("#replay-slider").get_attribute("max")


def test_the_family_house_shade_goes_when_the_pointer_leaves(page: Page, server: Server) -> None:
    game = start_game(page, server.url)
    for _ in range(200):
        players: list[dict[str, Any]] = api_view(server, game)["players"]
        if any(p["family_size"] for p in players) or page.query_selector("#game-over"):
            break
        # A squire on every house offered: a house scored with one is a family house (Z18), and 1-tile houses
        # are common, so one comes soon whatever the tiles.
        squire = ".choice-button:not(.pass):not(.piece):has-text('squire')"
        if page.query_selector(squire) is not None and not page.query_selector(".legal.now"):
            click_and_wait(page, squire)
        else:
            play_step(page)
    # The computer may still be answering: hovering a panel that its move then redraws would lose the shade.
    players = settled_view(page, server, game)["players"]
    owner = next(i for i, p in enumerate(players) if p["family_size"])
    family = page.locator(f".player[data-player='{owner}'] .family")
    family.hover()
    expect(page.locator(".layer-highlight .cells.family rect").first).to_be_visible()
    page.mouse.move(0, 0)
    expect(page.locator(".layer-highlight .cells.family")).to_have_count(0)


def test_no_empty_last_moves_frame_before_the_first_move(page: Page, server: Server) -> None:
    start_game(page, server.url, hotseat=True)
    expect(page.locator("#recent")).to_be_hidden()
    play_step(page)
    expect(page.locator("#recent")).to_be_visible()


def test_importing_without_a_file_says_so(page: Page, server: Server) -> None:
    page.goto(server.url)
    page.click(".import button[type=submit]")
    expect(page.locator("#import-error")).to_be_visible()
    expect(page.locator("#import-error")).to_contain_text(".json")


def test_switching_the_language_redraws_every_heading_and_hint(page: Page, server: Server) -> None:
    start_game(page, server.url)
    expect(page.locator("#log summary")).to_have_text("Scores")
    label = page.locator("#lang-switch").get_attribute("aria-label")
    choose_language(page, "pl")
    expect(page.locator("#log summary")).to_have_text("Punktacja")
    expect(page.locator("#legend summary")).to_have_text("Legenda")
    expect(page.locator(".keys")).to_contain_text("Klawisze")
    assert page.locator("#lang-switch").get_attribute("aria-label") != label
    expect(page.locator(".legal.now").first).to_be_visible()  # the game goes on as it was


def test_one_name_per_seat_everywhere(page: Page, server: Server) -> None:
    """Against the computer the seats are 'You' and 'Computer (…)' in the moves, the score log and the replay too,
    never 'Player 1/2'."""
    game = start_game(page, server.url)
    for _ in range(10):
        play_step(page)
    recent = page.inner_text("#recent")
    assert "You" in recent and "Computer" in recent, recent
    for where in ("#recent", "#log", "#players"):
        text = page.inner_text(where) if page.query_selector(where) else ""
        assert "Player 1" not in text and "Player 2" not in text, (where, text)
    page.goto(f"{server.url}#/replay/{game}/")
    moves = page.inner_text("#move-list")
    assert "You" in moves and "Player 1" not in moves and "Player 2" not in moves


@pytest.mark.long(45)
def test_no_figure_question_when_no_figure_can_be_put(page: Page, server: Server) -> None:
    """A whole game against the computer with the option on (its default): where "No figure" is the only answer,
    the page gives it by itself; a person's clicks are their decisions only."""
    page.goto(server.url)
    page.evaluate("localStorage.setItem('zamek-auto-pass', 'on')")
    game = start_game(page, server.url)
    assert page.locator("#auto-pass").is_checked()
    clicks = pass_clicks = by_itself = 0
    for _ in range(400):
        page.wait_for_function(READY, timeout=30_000)
        if page.query_selector("#game-over"):
            break
        # The revision first: should the page answer while the loop reads it, the wait below sees the answer's
        # revision rather than waiting for one after it (which, on the person's turn, never comes).
        before = page.evaluate("document.body.dataset.revision")
        passing = not page.query_selector(".legal.now") and page.query_selector(".choice-button.pass")
        if passing and page.locator(".choice-button").count() == 1:
            page.wait_for_function(f"document.body.dataset.revision !== '{before}'", timeout=10_000)
            by_itself += 1  # a person would have waited as well: the page answered
            continue
        figure = page.query_selector(".choice-button:not(.pass)")
        if figure and not page.query_selector(".legal.now"):
            figure.click()  # every figure goes out: soon none is left to put
            page.wait_for_function(f"document.body.dataset.revision !== '{before}'", timeout=20_000)
            passing = None
        else:
            play_step(page)
        clicks += 1
        pass_clicks += bool(passing)
    expect(page.locator("#game-over")).to_be_visible()
    moves = api_replay(server, game)["replay"]["moves"]
    passes = [i for i, m in enumerate(moves) if m["kind"] == "pass" and m["player"] == 0]
    # The positions each pass was made in: where "No figure" was the only answer, the page gave it (the loop never
    # clicks one); every other pass was one of the loop's clicks. The loop reads the page in several steps, so on a
    # busy machine it may look only after the page has answered (400 ms after drawing) and miss one of the page's
    # answers, or count as a pass a click the page had meanwhile turned into another: hence the inequalities.
    with urllib.request.urlopen(f"{server.url}api/games/{game}/record") as answer:
        record = json.load(answer)
    only = sum(1 for i in passes if len(records.replay(record, upto=i).legal_actions()) == 1)
    assert len(passes) - only <= pass_clicks  # the page never passed where a figure could be put
    print(f"a whole game against the beginner: {clicks} clicks, {only} answers given by the page")
    assert only >= by_itself > 0


def api_replay(server: Server, game_id: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}api/games/{game_id}/replay") as answer:
        view: dict[str, Any] = json.load(answer)
        return view


def test_the_gate_guard_box_says_it_needs_sokol(page: Page, server: Server) -> None:
    page.goto(server.url)
    page.uncheck("input[name=sokol]")
    expect(page.locator("input[name=gate_guard]")).to_be_disabled()
    expect(page.locator("#gate-guard-needs")).to_be_visible()
    expect(page.locator("#gate-guard-needs")).to_contain_text("Sokół")
    page.check("input[name=sokol]")
    expect(page.locator("#gate-guard-needs")).to_be_hidden()


def test_the_replay_steps_by_turns_and_plays_by_itself(page: Page, server: Server) -> None:
    game = start_game(page, server.url)
    for _ in range(10):
        play_step(page)
    page.goto(f"{server.url}#/replay/{game}/0")
    expect(page.locator("#move-list li.current")).to_have_attribute("data-n", "0")
    page.click("#replay-next-turn")  # to the next tile drawn: a turn begins
    current = page.locator("#move-list li.current")
    expect(current).to_have_class(re.compile(r"\bchance\b"))
    first = int(current.get_attribute("data-n") or "0")
    page.click("#replay-next-turn")
    expect(page.locator("#move-list li.current")).not_to_have_attribute("data-n", str(first))
    second = int(page.locator("#move-list li.current").get_attribute("data-n") or "0")
    assert second > first + 1  # a whole turn: its placement and figure in between
    page.click("#replay-prev-turn")
    expect(page.locator("#move-list li.current")).to_have_attribute("data-n", str(first))
    page.click("#replay-play")
    page.wait_for_function(f"Number(document.querySelector('#move-list li.current').dataset.n) >= {first + 2}",
                           timeout=10_000)
    page.click("#replay-play")  # pause
    stopped = page.locator("#move-list li.current").get_attribute("data-n")
    page.wait_for_timeout(1500)
    assert page.locator("#move-list li.current").get_attribute("data-n") == stopped


def test_a_polish_page_gets_the_servers_refusal_in_polish(page: Page, server: Server) -> None:
    page.goto(server.url)
    choose_language(page, "pl")
    expect(page.locator("#new-game h2")).to_have_text("Nowa gra")
    corrupt: FilePayload = {"name": "zla.json", "mimeType": "application/json",
                            "buffer": b'{"format": "zamek-game", "version": 3}'}
    page.set_input_files("#import-file", files=[corrupt])
    page.click(".import button[type=submit]")
    # The server's own refusal, as it words it in Polish (not in English).
    said = {lang: refusal(server, corrupt["buffer"], lang) for lang in ("pl", "en")}
    assert said["pl"] != said["en"], said
    expect(page.locator("#import-error")).to_have_text(said["pl"])


def refusal(server: Server, body: bytes, lang: str) -> str:
    """The message of the server's refusal of a saved game, in ``lang``."""
    request = urllib.request.Request(f"{server.url}api/import?lang={lang}", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(request)
    except urllib.error.HTTPError as refused:
        message: str = json.load(refused)["message"]
        return message
    raise AssertionError("the saved game was taken")


def test_at_one_screen_the_next_tile_is_drawn_by_itself(page: Page, server: Server) -> None:
    page.goto(server.url)
    page.evaluate("localStorage.setItem('zamek-auto-draw', 'on')")
    start_game(page, server.url, hotseat=True)
    assert page.locator("#auto-draw").is_checked()
    first = page.evaluate("document.querySelector('.turn-head strong').textContent")
    play_step(page)  # the placement
    page.click(".choice-button.pass")
    # No "Draw" to click: the next player's tile comes by itself.
    page.wait_for_function("document.body.dataset.phase === 'place'", timeout=10_000)
    assert page.query_selector("#draw") is None
    assert page.evaluate("document.querySelector('.turn-head strong').textContent") != first
    expect(page.locator(".legal.now").first).to_be_visible()


def test_moves_are_announced_and_the_figure_question_takes_the_focus(page: Page, server: Server) -> None:
    start_game(page, server.url)
    page.click(".legal.now")
    page.wait_for_function("document.body.dataset.phase === 'follower'")
    # The keyboard goes on from the figure question; the placement is announced for screen readers.
    assert page.evaluate("document.activeElement.classList.contains('choice-button')")
    announce = page.locator("#announce")
    assert announce.get_attribute("aria-live") == "polite"
    expect(announce).to_contain_text("You place ")
    page.keyboard.press("Enter")  # the focused answer
    # The computer's reply is announced too, in words.
    expect(announce).to_contain_text("Computer", timeout=20_000)


def test_a_face_down_tower_says_what_it_may_hold(page: Page, server: Server) -> None:
    start_game(page, server.url)
    title = page.locator(".tower:not(.taken) title").first
    assert "×" in (title.text_content() or "")


def test_a_touch_screen_shows_no_keyboard_hint(browser: Browser, server: Server) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  bypass_csp=True)
    try:
        phone = context.new_page()
        start_game(phone, server.url)
        expect(phone.locator(".keys")).to_be_hidden()
    finally:
        context.close()


@pytest.mark.long(45)
def test_a_feature_just_scored_flashes_with_its_points(page: Page, server: Server) -> None:
    page.emulate_media(reduced_motion="reduce")
    start_game(page, server.url)
    # The flash lasts a moment: its points and its shading are read in one step, before it goes.
    read_flash = """() => {
        const label = document.querySelector('.flash-points');
        if (!label) return null;
        const shade = label.parentNode.querySelector('rect');
        return { points: label.textContent, animation: shade && getComputedStyle(shade).animationName };
    }"""
    flash = None
    for _ in range(80):
        play_step(page)
        flash = page.evaluate(read_flash)
        if flash is not None:
            break
    assert flash is not None, "nothing was scored"
    assert flash["points"].startswith("+")
    # Asked for less motion: the feature is shaded, not animated.
    assert flash["animation"] == "none"
