"""The castle game's board screen at the table, in a real browser (issue 37): hints that name their feature and stand
apart on the board, a turn played with a few keys, the board pinched and zoomed on a phone with the first-game guide
following it, and the option to confirm each move before it is sent. Desktop (1280x860) and phone (390x844, touch),
in English and in Polish where the words differ.

The browser, the server and the default page are the fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from tools.count_castle_inputs import play as count_inputs

from tests.browser.pages import (
    answer_by_keys,
    revision,
    seed_games,
    separate_pages,
    shot,
    start_game,
    wait_for_player,
)
from tests.live_server import Server

HOUSES_SEED = 1
"""A game whose first tile (Z47, three houses) has its three hints on one space, each on another house."""

SIDES = {"en": {"east": "(east)", "north": "(north)", "south": "(south)"},
         "pl": {"east": "od wschodu", "north": "od północy", "south": "od południa"}}


@contextmanager
def open_page(browser: Browser, lang: str = "en", *, phone: bool = False, guide: bool = False) -> Iterator[Page]:
    """A page in a context of its own, in ``lang``, on a desktop or a ``phone``; the first-game guide on only when
    ``guide``."""
    no_guide = "localStorage.getItem('zamek-guide') || localStorage.setItem('zamek-guide', 'off');"
    with separate_pages(browser, 1, f"localStorage.setItem('zamek-lang', '{lang}');" + ("" if guide else no_guide),
                        phone=phone) as [page]:
        yield page


def boxes_meeting(page: Page, selector: str) -> list[str]:
    """The pairs of elements of ``selector`` whose boxes on the screen overlap."""
    found: list[str] = page.evaluate("""(selector) => {
      const nodes = [...document.querySelectorAll(selector)];
      const boxes = nodes.map((n) => n.getBoundingClientRect());
      const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
        && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
      const name = (n) => `${n.getAttribute('class')} ${n.textContent}`;
      const pairs = [];
      boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b, j) => meet(a, b)
        && pairs.push(`${name(nodes[i])} / ${name(nodes[i + 1 + j])}`)));
      return pairs;
    }""", selector)
    return found


TEXTS = "nodes => nodes.map((n) => n.textContent)"  # SVG text has no inner text


def hint_words(page: Page) -> list[str]:
    """Each hint's move in words (after its number and its lead)."""
    words: list[str] = page.locator("#hint-list .hint-item").evaluate_all(
        "nodes => nodes.map((n) => n.lastChild.textContent)")
    return words


# ------------------------------------------------------------------------------------------ hints


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_hints_on_one_space_name_their_houses_and_stand_apart_on_the_board(
        browser: Browser, server: Server, lang: str) -> None:
    """Three hints put a squire on three houses of one tile on one space: each names its house (its spaces and the
    side of the tile), one badge on the board numbers them all, nothing drawn there overlaps, and pointing at a hint
    (or focusing it, or picking it) outlines its house."""
    with open_page(browser, lang) as page:
        seed_games(page, HOUSES_SEED)
        start_game(page, server.url)
        page.click("#hint")
        expect(page.locator("#hint-list li")).to_have_count(3)
        words = hint_words(page)
        assert len(set(words)) == 3, words  # no two read alike
        for said, side in zip(words, ("east", "north", "south"), strict=True):
            assert "j4" in said.rsplit(";", 1)[-1] and SIDES[lang][side] in said, said
        # One space, one badge with the three numbers, a numbered figure for each, nothing on top of another.
        ghost = page.locator(".layer-ghosts .ghost-move.hint")
        expect(ghost).to_have_count(1)
        expect(ghost).to_have_attribute("data-hints", "1 2 3")
        assert page.locator(".ghost-badge-text").evaluate_all(TEXTS) == ["1, 2, 3"]
        assert sorted(page.locator(".ghost-figure-n").evaluate_all(TEXTS)) == ["1", "2", "3"]
        labels = ".layer-ghosts .ghost-badge, .layer-ghosts .ghost-note, .layer-ghosts .ghost-figure-n"
        assert boxes_meeting(page, labels) == []
        assert boxes_meeting(page, ".layer-ghosts .figure") == []
        shot(page, f"hints-one-space-{lang}")
        # Pointing at a hint, or focusing it, outlines its house (another house for each) and shades its spaces.
        outlines = []
        for n in (1, 2, 3):
            item = page.locator(f"#hint-list li[data-n='{n}'] .hint-item")
            item.hover() if n != 3 else item.focus()
            shown = page.locator(f".layer-highlight .hint-shown[data-n='{n}']")
            expect(shown.locator(".hint-outline")).to_have_count(1)
            assert shown.locator(".cells.hint-feature rect").count() >= 1
            outlines.append(shown.locator(".hint-outline").get_attribute("d"))
        assert len(set(outlines)) == 3, outlines
        # Picked, it stays shown, its tile turned as it says, and the keyboard's focus is on its space.
        page.locator("#hint-list li[data-n='2'] .hint-item").click()
        page.mouse.move(5, 5)
        expect(page.locator(".layer-highlight .hint-shown[data-n='2']")).to_have_count(1)
        expect(page.locator("#hint-list li[data-n='2']")).to_have_class(re.compile("picked"))
        assert page.evaluate("document.activeElement.dataset.space") == "j4"


def test_on_a_phone_a_hint_picked_brings_its_space_into_view(browser: Browser, server: Server) -> None:
    """The hints are listed under the board on a phone: picking one there brings the board's part with its space onto
    the screen (the castle moved there, the page scrolled up to it)."""
    with open_page(browser, phone=True) as phone:
        seed_games(phone, HOUSES_SEED)
        start_game(phone, server.url, tap=True)
        phone.locator("#hint").tap()
        expect(phone.locator("#hint-list li")).to_have_count(3)
        # The castle moved away from j4 (a finger drags it), the page scrolled down to the list.
        frame = phone.locator("#board").bounding_box()
        assert frame is not None
        for _ in range(2):
            phone.mouse.move(frame["x"] + 40, frame["y"] + frame["height"] / 2)
            phone.mouse.down()
            phone.mouse.move(frame["x"] + frame["width"] - 20, frame["y"] + frame["height"] / 2, steps=10)
            phone.mouse.up()
        assert not space_in_view(phone, "j4")
        phone.locator("#hint-list li").last.scroll_into_view_if_needed()
        phone.evaluate("window.scrollBy(0, 400)")
        phone.locator("#hint-list li[data-n='1'] .hint-item").tap()
        phone.wait_for_function(f"({SPACE_IN_VIEW})('j4')", timeout=5_000)
        shot(phone, "hint-picked-phone")


# Whether the middle of a space is on the screen and within the part of the castle the board shows.
SPACE_IN_VIEW = """(space) => {
  const name = [...document.querySelectorAll('.layer-spaces .space-name')].find((n) => n.textContent === space);
  const r = name.previousElementSibling.getBoundingClientRect(); // the space, drawn before its name
  const frame = document.getElementById('board').getBoundingClientRect();
  const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
  return x > frame.left && x < frame.right && y > frame.top && y < frame.bottom && y > 0 && y < window.innerHeight;
}"""


def space_in_view(page: Page, space: str) -> bool:
    return bool(page.evaluate(f"({SPACE_IN_VIEW})({space!r})"))


# ------------------------------------------------------------------------------------------ the keyboard


def keyboard_turns(page: Page, turns: int) -> list[int]:
    """Play ``turns`` turns against the computer with the keyboard alone, always the first space where the tile fits
    and the first figure (answer_by_keys: Tab to it from where the page leaves the focus, Enter): the key presses of
    each turn. At the start of each the focus is on the board already."""
    presses: list[int] = []
    while True:
        kind = wait_for_player(page)
        if kind == "over" or (kind == "place" and len(presses) == turns):
            return presses
        if kind == "place":
            assert page.evaluate("document.activeElement.matches('.legal.now')"), "the turn starts on the board"
            presses.append(0)
        if presses:
            presses[-1] += answer_by_keys(page, kind)


@pytest.mark.parametrize("confirming", [False, True], ids=["as-sent", "confirming-each-move"])
def test_a_whole_turn_takes_at_most_five_key_presses(page: Page, server: Server, confirming: bool) -> None:
    """Against the computer, turn after turn: the focus is on the first space where the tile fits when the turn
    starts, Enter places, the figure question has the focus, Enter answers: two key presses in the usual case, four
    with every move confirmed (Enter on Confirm; the option counts only when it is on), never more than five."""
    if confirming:
        page.goto(server.url)
        page.evaluate("localStorage.setItem('zamek-confirm', 'on')")
    start_game(page, server.url)
    presses = keyboard_turns(page, 6)
    assert len(presses) == 6
    assert max(presses) <= 5, presses
    assert presses[0] == (4 if confirming else 2), presses


TABBABLE = """() => [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
  .filter((n) => n.tabIndex >= 0 && !n.disabled && !n.closest('[hidden]')
    && getComputedStyle(n).visibility !== 'hidden')
  .map((n) => n.id || n.className.baseVal || n.className)"""


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_skip_to_the_board_comes_first_and_a_reply_leaves_a_field_alone(
        browser: Browser, server: Server, lang: str) -> None:
    with open_page(browser, lang) as page:
        # The reply is to be held on its way, so it must come by a read of the page's, which the test can hold: its
        # stream is opened without the views that the events would bring (the page then reads, as it does whenever
        # an event comes without one). Both ways the reply is drawn by the same function.
        page.route(re.compile(r"/api/games/[^/?]+/events\?"),
                   lambda route: route.continue_(url=route.request.url.replace("view=true", "view=false")))
        start_game(page, server.url)
        # The page's first stop for the keyboard: "Skip to the board", to the first space where the tile fits.
        assert page.evaluate(TABBABLE)[0] == "skip-to-board"
        link = page.locator("#skip-to-board")
        expect(link).to_have_text({"en": "Skip to the board", "pl": "Przejdź do planszy"}[lang])
        page.locator("header.top").click(position={"x": 640, "y": 5})  # nowhere in particular, at the top
        page.keyboard.press("Shift+Tab")
        assert page.evaluate("document.activeElement.id") == "skip-to-board"
        box = link.bounding_box()
        assert box is not None and box["y"] >= 0, "it shows once focused"
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.matches('.legal.now')")
        # While the computer replies the player goes to the language menu: the reply leaves the focus there.
        held: list[Route] = []
        holding = [True]
        page.route(re.compile(r"/api/games/[^/?]+\?lang="),
                   lambda route: held.append(route) if holding[0] else route.continue_())
        answer_by_keys(page, "place")
        before = revision(page)
        page.keyboard.press("Enter")  # the figure question's first answer
        page.wait_for_function(f"document.body.dataset.revision !== '{before}'")
        page.wait_for_timeout(300)
        assert held, "the computer's reply is on its way"
        page.focus("#lang-switch")
        holding[0] = False
        for route in held:
            route.continue_()
        page.wait_for_selector(".legal.now")
        page.wait_for_timeout(200)
        assert page.evaluate("document.activeElement.id") == "lang-switch"


def test_the_input_count_plays_with_each_kind_of_input(browser: Browser, server: Server) -> None:
    """tools/count_castle_inputs.py, on a few turns: the clicks, key presses and taps it counts."""
    counts = {mode: count_inputs(browser, server.url, mode, HOUSES_SEED, turns=3)
              for mode in ("mouse", "keyboard", "phone")}
    for count in counts.values():
        assert count.turns == 3 and len(count.per_turn) == 3 and count.inputs == sum(count.per_turn)
        assert count.decisions <= count.inputs <= 5 * count.turns, count
    assert counts["keyboard"].per_turn == counts["mouse"].per_turn, "a key press for each click"


# ------------------------------------------------------------------------------------------ a phone


def pinch(page: Page, at: tuple[float, float], start: float, end: float, steps: int = 8) -> list[float]:
    """Two fingers on the board around ``at``, from ``start`` pixels apart to ``end`` (touch events through the
    browser's own input, as a screen gives them): the board's width in spaces after each step."""
    session = page.context.new_cdp_session(page)
    x, y = at

    def fingers(kind: str, apart: float | None) -> None:
        points = [] if apart is None else [{"x": x - apart / 2, "y": y, "id": 0}, {"x": x + apart / 2, "y": y, "id": 1}]
        session.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    widths = []
    fingers("touchStart", start)
    for k in range(1, steps + 1):
        fingers("touchMove", start + (end - start) * k / steps)
        widths.append(board_width(page))
    fingers("touchEnd", None)
    session.detach()
    return widths


def board_width(page: Page) -> float:
    return float(page.evaluate("document.getElementById('board').viewBox.baseVal.width"))


def test_on_a_phone_two_fingers_zoom_the_board_smoothly_and_not_the_page(browser: Browser, server: Server) -> None:
    with open_page(browser, phone=True) as phone:
        start_game(phone, server.url, tap=True)
        frame = phone.locator("#board").bounding_box()
        assert frame is not None
        middle = (frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2)
        rev = revision(phone)
        before = board_width(phone)
        wider = pinch(phone, middle, 200, 60)  # fingers together: more of the castle
        assert wider[-1] > before + 1, (before, wider)
        assert len({round(w, 2) for w in wider}) >= 4, f"the zoom follows the fingers: {wider}"
        closer = pinch(phone, middle, 60, 260)  # apart: closer
        assert closer[-1] < wider[-1] - 1 and closer == sorted(closer, reverse=True), closer
        assert phone.evaluate("visualViewport.scale") == 1, "the page itself is not zoomed"
        assert revision(phone) == rev, "a pinch places nothing"
        # As far as it goes: three spaces across; the + button says so.
        pinch(phone, middle, 40, 380)
        pinch(phone, middle, 40, 380)
        assert board_width(phone) == pytest.approx(3, abs=0.01)
        expect(phone.locator("#zoom-more")).to_be_disabled()
        # The − and + buttons go step by step, out to the whole castle and no further.
        steps = []
        for _ in range(12):
            if phone.locator("#zoom-less").is_disabled():
                break
            phone.locator("#zoom-less").tap()
            steps.append(board_width(phone))
        assert len(steps) >= 3 and steps == sorted(steps), steps
        whole = board_width(phone)
        phone.locator("#zoom-more").tap()
        assert board_width(phone) < whole


def test_ctrl_and_the_wheel_zoom_the_board_around_the_pointer(page: Page, server: Server) -> None:
    start_game(page, server.url)
    whole = board_width(page)
    expect(page.locator("#zoom-less")).to_be_disabled()
    space = page.locator(".legal.now").first
    box = space.bounding_box()
    assert box is not None
    at = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.move(*at)
    scroll = page.evaluate("window.scrollY")
    page.keyboard.down("Control")
    page.mouse.wheel(0, -200)
    page.keyboard.up("Control")
    page.wait_for_function(f"document.getElementById('board').viewBox.baseVal.width < {whole - 0.5}")
    after = space.bounding_box()
    assert after is not None and after["width"] > box["width"] * 1.2
    # The space under the pointer stays under it.
    assert after["x"] <= at[0] <= after["x"] + after["width"] and after["y"] <= at[1] <= after["y"] + after["height"]
    assert page.evaluate("window.scrollY") == scroll
    page.click("#zoom-less")
    page.click("#zoom-less")
    page.click("#zoom-less")
    assert board_width(page) == pytest.approx(whole, abs=0.01)


POINTER_TIP = """() => {
  const p = document.getElementById('guide-pointer');
  if (!p || p.hidden) return null;
  const r = p.getBoundingClientRect();
  const up = p.classList.contains('up');
  return { x: r.left + r.width / 2, y: up ? r.top : r.bottom, box: [r.left, r.top, r.right, r.bottom], up };
}"""

# The element a few pixels past the tip of the guide's arrow.
UNDER_TIP = """() => {
  const p = document.getElementById('guide-pointer');
  const r = p.getBoundingClientRect();
  const up = p.classList.contains('up');
  const n = document.elementFromPoint(r.left + r.width / 2, up ? r.top - 6 : r.bottom + 6);
  return n ? { cls: n.getAttribute('class'), space: n.dataset.space || null } : null;
}"""


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_on_a_phone_the_guide_names_no_key_and_its_marks_follow_the_board(
        browser: Browser, server: Server, lang: str) -> None:
    with open_page(browser, lang, phone=True, guide=True) as phone:
        start_game(phone, server.url, tap=True)
        tile = phone.locator("#guide-tile")
        expect(tile).to_be_visible()
        said = " ".join(phone.locator(s).first.inner_text() for s in ("#guide-tile", "#guide-spaces", "#turn .small"))
        assert not re.search(r"\bR\b|←|→|Shift", said), said
        assert {"en": "tap one", "pl": "dotknij"}[lang] in said
        # The mark ② stands over a highlighted space, and stays on it when a finger moves the castle, or zooms it.
        under = phone.evaluate(UNDER_TIP)
        assert under and "legal" in under["cls"], under
        pointed = phone.locator(f".legal.now[data-space='{under['space']}']")
        frame = phone.locator("#board").bounding_box()
        assert frame is not None
        middle = (frame["x"] + frame["width"] * 0.5, frame["y"] + frame["height"] * 0.5)
        for dx, dy in ((70, 50), (-70, -50), (70, -50), (-70, 50)):  # a way the castle can go from where it is
            was = pointed.bounding_box()
            phone.mouse.move(*middle)
            phone.mouse.down()
            phone.mouse.move(middle[0] + dx, middle[1] + dy, steps=8)
            phone.mouse.up()
            now = pointed.bounding_box()
            assert was is not None and now is not None
            if abs(now["x"] - was["x"]) + abs(now["y"] - was["y"]) > 40:
                break
        else:
            raise AssertionError("the castle never moved")
        phone.wait_for_timeout(100)
        assert phone.evaluate(UNDER_TIP) == under, "after a drag"
        phone.locator("#zoom-less").tap()
        phone.wait_for_timeout(100)
        assert phone.evaluate(UNDER_TIP) == under, "after a zoom"
        # ③ beside the tile just placed: it covers none of it.
        placed = phone.evaluate("""() => { const frame = document.getElementById('board').getBoundingClientRect();
          const n = [...document.querySelectorAll('.legal.now')].find((x) => { const r = x.getBoundingClientRect();
            return r.left > frame.left && r.right < frame.right && r.top > frame.top && r.bottom < frame.bottom; });
          return n ? n.dataset.space : null; }""")
        assert placed is not None
        before = revision(phone)
        phone.locator(f".legal.now[data-space='{placed}']").tap()
        phone.wait_for_function(f"document.body.dataset.revision !== '{before}'")
        expect(phone.locator("#guide-figure")).to_be_visible()
        end = time.monotonic() + 3  # the mark settles a frame or two after the tile is drawn (longer on a busy machine)
        while True:
            tip = phone.evaluate(POINTER_TIP)
            assert tip is not None
            drawn = phone.locator(f".layer-tiles .placed-wrap[data-space='{placed}']").bounding_box()
            assert drawn is not None
            left, top, right, bottom = tip["box"]
            if right <= drawn["x"] or left >= drawn["x"] + drawn["width"] or bottom <= drawn["y"] \
                    or top >= drawn["y"] + drawn["height"]:
                break
            assert time.monotonic() < end, ("the mark covers the tile", tip, drawn)
            phone.wait_for_timeout(100)
        assert drawn["x"] <= tip["x"] <= drawn["x"] + drawn["width"], "it points at the tile"
        shot(phone, f"guide-figure-phone-{lang}")


# ------------------------------------------------------------------------------------------ confirming


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_each_move_waits_for_confirm_when_the_option_is_on(browser: Browser, server: Server, lang: str) -> None:
    words = {"en": ("Confirm", "Cancel", "Place"), "pl": ("Potwierdź", "Anuluj", "Położyć")}[lang]
    with open_page(browser, lang) as page:
        game = start_game(page, server.url)
        option = page.locator("#confirm-moves")
        expect(option).not_to_be_checked()  # off unless turned on
        option.check()
        assert page.evaluate("localStorage.getItem('zamek-confirm')") == "on"
        sent: list[str] = []
        page.on("request", lambda r: sent.append(r.url) if r.method == "POST" and "/actions" in r.url else None)
        space = page.locator(".legal.now").first
        where = space.get_attribute("data-space")
        rev = revision(page)
        space.click()
        bar = page.locator("#confirm-move")
        expect(bar).to_be_visible()
        expect(bar).to_contain_text(f"{words[2]} ")
        expect(bar).to_contain_text(str(where))
        expect(page.locator("#confirm-yes")).to_have_text(words[0])
        expect(page.locator("#confirm-no")).to_have_text(words[1])
        expect(page.locator("#confirm-yes")).to_be_focused()
        expect(page.locator(".layer-pending .pending-tile")).to_have_count(1)
        # Escape: nothing sent, back on the space.
        page.keyboard.press("Escape")
        expect(bar).to_have_count(0)
        expect(page.locator(".layer-pending *")).to_have_count(0)
        assert page.evaluate("document.activeElement.dataset.space") == where
        # Cancel with a click as well; then Confirm sends it.
        space.click()
        page.click("#confirm-no")
        expect(bar).to_have_count(0)
        page.wait_for_timeout(200)
        assert revision(page) == rev and sent == []
        space.click()
        page.click("#confirm-yes")
        page.wait_for_function(f"document.body.dataset.revision !== '{rev}'")
        assert len(sent) == 1
        # The figure too: chosen, shown on the tile, sent on Enter.
        figure = page.locator("#turn .choice-button").first
        figure.click()
        expect(bar).to_be_visible()
        assert len(sent) == 1
        rev = revision(page)
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.body.dataset.revision !== '{rev}'")
        assert len(sent) == 2
        # Kept in this browser, as the other options are.
        page.reload()
        page.wait_for_selector(".legal.now")
        expect(page.locator("#confirm-moves")).to_be_checked()
        assert game in page.url


def test_on_a_phone_a_move_to_confirm_is_asked_under_the_board(browser: Browser, server: Server) -> None:
    with open_page(browser, phone=True) as phone:
        phone.goto(server.url)
        phone.evaluate("localStorage.setItem('zamek-confirm', 'on')")
        start_game(phone, server.url, tap=True)
        rev = revision(phone)
        space = phone.evaluate("""() => { const frame = document.getElementById('board').getBoundingClientRect();
          const n = [...document.querySelectorAll('.legal.now')].find((x) => { const r = x.getBoundingClientRect();
            return r.left > frame.left && r.right < frame.right && r.top > frame.top && r.bottom < frame.bottom; });
          return n.dataset.space; }""")
        phone.locator(f".legal.now[data-space='{space}']").tap()
        yes = phone.locator("#confirm-yes")
        expect(yes).to_be_in_viewport()
        box = yes.bounding_box()
        assert box is not None and box["height"] >= 44
        assert revision(phone) == rev
        yes.tap()
        expect(phone.locator("#figure-menu")).to_be_visible()
        phone.locator("#figure-menu .menu-entry").first.tap()
        expect(phone.locator("#figure-menu")).to_have_count(0)
        expect(yes).to_be_in_viewport()
        rev = revision(phone)
        yes.tap()
        phone.wait_for_function(f"document.body.dataset.revision !== '{rev}'")
        shot(phone, "confirm-phone")
