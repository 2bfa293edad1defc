"""What the browser tests share besides their fixtures (``tests/browser/conftest.py``): the Chromium they drive,
and the clicks of a person playing: start a game, click and wait for the page's answer, play the quickest step,
save a screenshot (to test-screenshots/, ignored by git)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from playwright.sync_api import Browser, Page, Route, expect

from tests.helpers import SHOTS
from tests.live_server import Server

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]

# Ready for the next click: nobody is thinking and the page offers something to do (or the game is over).
READY = """() => !document.querySelector('#thinking') && !!(document.querySelector('#game-over')
  || document.querySelector('.legal.now') || document.querySelector('.choice-button')
  || document.querySelector('#draw'))"""

# Rycerze i zamki: the reveal waits for "Next", as after the person's "Pause" (kept in localStorage), unless a test
# chose otherwise; the tests that step through it click themselves (the reveal playing by itself is tested on its own,
# test_knights_table_browser.py).
KNIGHTS_REVEAL_HELD = ("localStorage.getItem('zamek-knights-reveal')"
                       " || localStorage.setItem('zamek-knights-reveal', 'hold')")

# Ready for the next click in Rycerze i zamki.
KNIGHTS_READY = """() => !!(document.querySelector('#k-next') || document.querySelector('#k-show')
  || document.querySelector('.k-card') || document.querySelector('.k-recruit') || document.querySelector('#k-over'))"""


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def start_game(page: Page, url: str, *, hotseat: bool = False, sokol: bool = False, tap: bool = False) -> str:
    """Start a game from the lobby (against the computer, beginner, unless ``hotseat``), with clicks, or with taps
    (``tap``: a finger, as a phone's page sees it); the game's id."""
    page.goto(url)
    page.wait_for_selector("#new-game")
    choose = (lambda selector: page.locator(selector).tap()) if tap else page.check
    if hotseat:
        choose("input[name=mode][value=hotseat]")
    else:
        choose("input[name=level][value=beginner]")
    if sokol:
        choose("input[name=sokol]")
    if tap:
        page.locator("#start-game").tap()
    else:
        page.click("#start-game")
    page.wait_for_selector(".legal.now")
    return page.url.rsplit("/", 1)[-1]


def choose_language(page: Page, lang: str) -> None:
    """Choose the page's language in its menu (the server's languages, by their own names)."""
    page.select_option("#lang-switch", lang)
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")


def revision(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.revision"))


def click_and_wait(page: Page, selector: str) -> None:
    before = revision(page)
    page.click(selector)
    page.wait_for_function(f"document.body.dataset.revision !== '{before}'", timeout=20_000)


def play_step(page: Page) -> bool:
    """Make the quickest legal click: the first highlighted space, then 'pass' or the first answer."""
    try:
        page.wait_for_function(READY, timeout=30_000)
    except Exception:
        shot(page, "stuck")
        raise AssertionError(f"nothing to click; the page says: {page.inner_text('#turn')[:300]!r}") from None
    if page.query_selector("#game-over"):
        return False
    if page.query_selector(".legal.now"):
        click_and_wait(page, ".legal.now")
    elif page.query_selector("#draw"):
        click_and_wait(page, "#draw")
    elif page.query_selector(".choice-button.pass"):
        click_and_wait(page, ".choice-button.pass")
    else:
        click_and_wait(page, ".choice-button")
    return True


# What the page waits for from the player: "place", "figure" (a figure or "No figure" to choose), "question" (a
# question of the scoring), "confirm" (a move chosen, to confirm: an option), "over", or null while it is not the
# player's to act (the computer thinks, the page gives an answer by itself, an answer is on its way).
WAITING_FOR = """() => {
  if (document.querySelector('#game-over')) return 'over';
  if (document.querySelector('#thinking')) return null;
  if (document.querySelector('#confirm-move')) return 'confirm';
  const phase = document.body.dataset.phase;
  const answers = [...document.querySelectorAll('#turn .choice-button')];
  if (phase === 'place' && document.querySelector('.legal.now')) return 'place';
  if (phase === 'follower') {
    if (answers.length === 1 && answers[0].matches('.pass')) return null; // the page answers by itself
    return answers.length ? 'figure' : null;
  }
  return answers.length ? 'question' : null;
}"""

# The first target of a kind (WAITING_FOR's); on a phone the first highlighted space the board shows, and the figure
# in the menu the page opens. Null when there is none.
FIRST_TARGET = """([kind, phone]) => {
  if (kind === 'confirm') return document.querySelector('#confirm-yes');
  if (kind === 'place') {
    const spaces = [...document.querySelectorAll('.legal.now')];
    if (!phone) return spaces[0] || null;
    const frame = document.getElementById('board').getBoundingClientRect();
    return spaces.find((n) => { const r = n.getBoundingClientRect();
      const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
      return x > frame.left && x < frame.right && y > frame.top && y < frame.bottom; }) || null;
  }
  if (kind === 'figure' && phone && document.querySelector('#figure-menu')) {
    return document.querySelector('#figure-menu .menu-entry:not(.pass)')
      || document.querySelector('#figure-menu .menu-entry');
  }
  return document.querySelector('#turn .choice-button');
}"""

def wait_for_player(page: Page) -> str:
    """Wait until the page waits for the player; what for (WAITING_FOR)."""
    page.wait_for_function(WAITING_FOR, timeout=60_000)
    return str(page.evaluate(WAITING_FOR))


def answer_and_wait(page: Page, act: Callable[[], None]) -> None:
    """Give one answer and wait for the page to take it."""
    before = revision(page)
    asked = page.locator("#confirm-move").count() > 0
    act()
    # The position changes, or (a move chosen, with the option to confirm each on) the page asks to confirm it.
    confirming = "" if asked else " || !!document.querySelector('#confirm-move')"
    page.wait_for_function(f"document.body.dataset.revision !== {before!r}{confirming}", timeout=30_000)


def answer_by_keys(page: Page, kind: str) -> int:
    """Answer with the keyboard only, always the first target of ``kind``: Tab from wherever the focus is until it is
    there, then Enter. The key presses."""
    target = page.evaluate_handle(FIRST_TARGET, [kind, False]).as_element()
    assert target is not None, kind
    presses = 0
    while not target.evaluate("(n) => n === document.activeElement"):
        page.keyboard.press("Tab")
        presses += 1
        assert presses < 400, f"Tab never reaches the {kind}"
    answer_and_wait(page, lambda: page.keyboard.press("Enter"))
    return presses + 1


def answer_by_pointing(page: Page, kind: str, phone: bool) -> int:
    """Answer with a click (a tap on a ``phone``), always the first target of ``kind``: the clicks."""
    target = page.evaluate_handle(FIRST_TARGET, [kind, phone]).as_element()
    used = 0
    if target is None and phone and kind == "place":
        page.locator("#zoom").tap()  # no space shown: the whole castle
        used += 1
        target = page.evaluate_handle(FIRST_TARGET, [kind, phone]).as_element()
    assert target is not None, kind
    answer_and_wait(page, target.tap if phone else target.click)
    return used + 1


def choose_cards(page: Page) -> None:
    """Rycerze i zamki: play the first and the last card of the hand shown."""
    # Locators, not handles: a live event may draw the hand again between two clicks (the choice is kept).
    page.locator(".k-card").first.click()
    page.locator(".k-card").last.click()
    page.click("#k-play")
    page.wait_for_selector("#k-play", state="detached", timeout=20_000)


def recruit(page: Page) -> None:
    """Rycerze i zamki: take the first recruit offered."""
    page.click(".k-recruit")
    page.wait_for_selector(".k-recruit", state="detached", timeout=20_000)


def knights_move(page: Page, reveal: str = "#k-next") -> bool:
    """Rycerze i zamki: one click of the person at this page (the reveal's ``reveal``: "#k-next" steps, "#k-skip"
    goes to the result; two cards; a recruit; the hand shown); False when the page offers none."""
    if page.query_selector("#k-next"):
        page.click(reveal)
    elif page.query_selector(".k-card"):
        choose_cards(page)
    elif page.query_selector(".k-recruit"):
        recruit(page)
    elif page.query_selector("#k-show"):
        page.click("#k-show")
    else:
        return False
    return True


PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
"""A phone's browser: 390x844, a touch screen."""


@contextmanager
def separate_pages(browser: Browser, count: int = 3, init_script: str | None = None, *,
                   phone: bool = False) -> Iterator[list[Page]]:
    """Pages in contexts of their own (no shared storage: one player each, or a spectator), on a desktop (1280x860) or
    a ``phone``; no page may raise."""
    screen = PHONE if phone else {"viewport": {"width": 1280, "height": 860}}
    made = [browser.new_context(**screen, locale="en-GB", bypass_csp=True) for _ in range(count)]
    for context in made:
        context.add_init_script(KNIGHTS_REVEAL_HELD)
        if init_script is not None:
            context.add_init_script(init_script)
    pages = [c.new_page() for c in made]
    errors: list[str] = []
    for p in pages:
        p.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pages
    for context in made:
        context.close()
    assert not errors, errors


def seed_games(page: Page, seed: int, game: str = "castle") -> None:
    """The games of ``game`` ("castle" or "knights") this page creates get ``seed`` (the same tiles, and the
    computer's same choices for the same moves): it is added to the page's own request, as the lobby's form has no
    field for it."""

    def with_seed(route: Route) -> None:
        body = route.request.post_data_json if route.request.method == "POST" else None
        if isinstance(body, dict) and body.get("game", "castle") == game:
            route.continue_(post_data=json.dumps({**body, "seed": seed}))
        else:
            route.continue_()

    page.route(re.compile(r"/api/games\?"), with_seed)


def seed_knights_games(page: Page, seed: int) -> None:
    """The card games this page creates get ``seed`` (seed_games)."""
    seed_games(page, seed, "knights")


def start_knights_game(page: Page, url: str, seats: list[str]) -> None:
    """Start a card game from the lobby, each seat as the form offers it (a person here, or the computer)."""
    page.goto(url)
    page.wait_for_selector("#knights-new")
    page.select_option("#k-players", str(len(seats)))
    for i, kind in enumerate(seats):
        page.select_option(f"#k-seat-{i}", kind)
    page.click("#k-start")
    page.wait_for_url("**/#/knights/*")


def create_knights_game(host: Page, server: Server, seats: list[str], *, clock: str | None = None,
                        name: str = "Ala") -> str:
    """The host starts a card game from the lobby: the invitation link."""
    host.goto(server.url)
    host.wait_for_selector("#knights-new")
    expect(host.locator("#k-friend-options")).to_be_hidden()  # no friend seat yet: nothing to say about one
    host.select_option("#k-players", str(len(seats)))
    for i, kind in enumerate(seats):
        host.select_option(f"#k-seat-{i}", kind)
    expect(host.locator("#k-friend-options")).to_be_visible()
    host.fill("#k-name", name)
    if clock:
        host.select_option("#k-clock", clock)
    host.click("#k-start")
    host.wait_for_url("**/#/knights/*")
    link = host.locator("#invite-link").input_value()
    assert "#/knights-join/" in link
    return link


def join_knights_game(friend: Page, link: str, name: str) -> str:
    friend.goto(link)
    friend.fill("#join-name", name)
    friend.click("#join-game")
    friend.wait_for_url("**/#/knights/*")
    return friend.url.rsplit("/", 1)[-1]
