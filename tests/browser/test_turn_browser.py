""""Your move" (issue 37, item 7): the tab's title says it while it is the player's move in the game shown, a short
tone plays when it becomes their move (on unless turned off, even with the other sounds off), and, where the player
allowed it, a browser notification comes when it becomes their move in a game they are not looking at (the tab
hidden, or the lobby) and never where the browser's permission is not given.

Two people in two browser contexts play with a friend by link (tests/browser/pages.py separate_pages). Each page's
tones are caught by an AudioContext stub and its notifications by a Notification stub (init scripts); a hidden tab
is a document.hidden made to say so.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.pages import (
    choose_cards,
    choose_language,
    create_knights_game,
    join_knights_game,
    recruit,
    separate_pages,
)
from tests.browser.test_online_browser import (
    CASTLE_MOVES,
    KNIGHTS_MOVES,
    castle_click,
    start_friend_game,
    wait_for_turn,
)
from tests.live_server import Server

# The page's tones (the frequencies started) and notifications, caught; document.hidden as the test says it.
CATCH = """
localStorage.getItem('zamek-auto-pass') || localStorage.setItem('zamek-auto-pass', 'off');
localStorage.getItem('zamek-auto-draw') || localStorage.setItem('zamek-auto-draw', 'off');
window.__tones = [];
window.__notes = [];
window.__hidden = false;
Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => window.__hidden === true });
class FakeAudio {
  constructor() { this.currentTime = 0; this.state = 'running'; this.destination = {}; }
  resume() { return Promise.resolve(); }
  createOscillator() {
    return { type: '', frequency: { setValueAtTime: (f) => window.__tones.push(f) },
             connect: (next) => next, start() {}, stop() {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (next) => next };
  }
}
window.AudioContext = FakeAudio;
window.webkitAudioContext = FakeAudio;
const RealNotification = window.Notification;
class FakeNotification {
  constructor(title, options = {}) {
    window.__notes.push({ title, body: options.body || '' });
    (window.__shown = window.__shown || []).push(this);
  }
  close() { this.closed = true; }
  static get permission() { return RealNotification ? RealNotification.permission : 'denied'; }
  static requestPermission() { return RealNotification.requestPermission(); }
}
window.Notification = FakeNotification;
"""

TURN_TONE = 880  # turn.js TURN_TONE's first note
TITLE = {"en": "● Your move — Zamek", "pl": "● Twój ruch — Zamek"}


@pytest.fixture
def pages(browser: Browser) -> Iterator[list[Page]]:
    with separate_pages(browser, count=2, init_script=CATCH) as made:
        yield made


def tones(page: Page) -> list[float]:
    return list(page.evaluate("window.__tones"))


def notes(page: Page) -> list[dict[str, str]]:
    return list(page.evaluate("window.__notes"))


def play_turn(page: Page) -> None:
    """The castle: place the tile and answer the figure question, until the page has nothing more to do."""
    while page.query_selector(CASTLE_MOVES):
        castle_click(page)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_title_says_your_move_on_the_waiting_players_page_and_a_tone_plays(
        pages: list[Page], server: Server, lang: str) -> None:
    host, friend = pages
    start_friend_game(host, friend, server)
    choose_language(friend, lang)
    friend.wait_for_selector("#board")
    mover = wait_for_turn(pages, CASTLE_MOVES, "#game-over")
    assert mover is host  # Ala chose to be first
    expect(host).to_have_title(TITLE["en"])
    expect(friend).to_have_title("Zamek")
    # The tone is on by default, the other sounds off; neither page heard "your move" yet.
    expect(friend.locator("#turn-sound")).to_be_checked()
    expect(friend.locator("#sound")).not_to_be_checked()
    expect(friend.locator("#notify")).not_to_be_checked()
    assert TURN_TONE not in tones(friend)
    friend.evaluate("window.__hidden = true")  # Ola looks at another tab
    heard = tones(host).count(TURN_TONE)  # Ala's "your move" came when Ola joined
    play_turn(host)
    expect(friend).to_have_title(TITLE[lang])
    expect(host).to_have_title("Zamek")
    friend.wait_for_function(f"window.__tones.includes({TURN_TONE})")
    assert tones(host).count(TURN_TONE) == heard  # no tone for one's own move
    assert notes(friend) == []  # notifications are off unless turned on
    # Ola's move, then Ala's again: the titles follow; the lobby says no more "your move" in the title.
    friend.evaluate("window.__hidden = false")
    play_turn(friend)
    expect(friend).to_have_title("Zamek")
    expect(host).to_have_title(TITLE["en"])
    host.wait_for_function(f"window.__tones.includes({TURN_TONE})")
    host.goto(server.url)
    expect(host).to_have_title("Zamek")


def test_the_tone_has_its_own_switch(pages: list[Page], server: Server) -> None:
    host, friend = pages
    start_friend_game(host, friend, server)
    friend.uncheck("#turn-sound")
    assert friend.evaluate("localStorage.getItem('zamek-turn-sound')") == "off"
    play_turn(host)
    expect(friend).to_have_title(TITLE["en"])
    friend.wait_for_timeout(300)
    assert TURN_TONE not in tones(friend)


def test_a_notification_comes_where_the_player_allowed_it_and_not_elsewhere(
        pages: list[Page], server: Server) -> None:
    host, friend = pages
    friend.context.grant_permissions(["notifications"], origin=server.url.rstrip("/"))
    game_id = start_friend_game(host, friend, server)
    friend.wait_for_selector("#board")
    # Ola turns the notifications on (the browser allows them); Ala's page keeps them on too, but her browser
    # never gave the permission.
    friend.check("#notify")
    expect(friend.locator("#notify")).to_be_checked()
    assert friend.evaluate("localStorage.getItem('zamek-notify')") == "on"
    host.evaluate("localStorage.setItem('zamek-notify', 'on')")
    # Looking at the game: the title says it, no notification.
    play_turn(host)
    expect(friend).to_have_title(TITLE["en"])
    friend.wait_for_timeout(500)
    assert notes(friend) == []
    # Ola's move; Ala's tab is hidden, and her browser does not allow notifications: none for her.
    host.evaluate("window.__hidden = true")
    play_turn(friend)
    expect(host).to_have_title(TITLE["en"])
    host.wait_for_function(f"window.__tones.includes({TURN_TONE})")
    assert notes(host) == []
    # Ala's move while Ola's tab is hidden: a notification.
    friend.evaluate("window.__hidden = true")
    host.evaluate("window.__hidden = false")
    play_turn(host)
    friend.wait_for_function("window.__notes.length === 1")
    assert notes(friend)[0]["title"] == "Your move — Zamek"
    assert notes(friend)[0]["body"] == "It is your move in a castle game."
    # Ola plays, then goes to the lobby (in view): Ala's next move comes as a notification there too.
    friend.evaluate("window.__hidden = false")
    play_turn(friend)
    friend.goto(server.url)
    expect(friend.locator(f".game-item[data-id='{game_id}']")).to_have_count(1)
    expect(friend.locator("#notify")).to_be_checked()
    friend.wait_for_timeout(500)  # the lobby has seen the game as Ala's move
    play_turn(host)
    friend.wait_for_function("window.__notes.length === 1", timeout=15_000)
    assert notes(host) == []
    # Clicking the notification (as the system would: its onclick) opens that game, and the note goes.
    friend.evaluate("window.__shown[window.__shown.length - 1].onclick()")
    expect(friend).to_have_url(re.compile(f"#/game/{game_id}$"))
    friend.wait_for_selector("#board")
    assert friend.evaluate("window.__shown[window.__shown.length - 1].closed") is True


def test_rycerze_i_zamki_says_your_move_in_the_title(pages: list[Page], server: Server) -> None:
    host, friend = pages
    join_knights_game(friend, create_knights_game(host, server, ["person", "friend"]), "Ola")
    choose_language(friend, "pl")
    seen = {id(host): False, id(friend): False}
    for _ in range(60):
        page = wait_for_turn(pages, KNIGHTS_MOVES, "#k-over")
        assert page is not None
        other = friend if page is host else host
        if page.query_selector(".k-card, .k-recruit"):
            # The page with cards to choose says it is its move; the other does not.
            expect(page).to_have_title(TITLE["pl" if page is friend else "en"])
            expect(other).to_have_title("Zamek")
            seen[id(page)] = True
            if all(seen.values()):
                break
            if page.query_selector(".k-card"):
                choose_cards(page)
            else:
                recruit(page)
        elif page.query_selector("#k-next"):
            page.click("#k-skip")
        else:
            page.click("#k-show")
    assert all(seen.values())
    assert TURN_TONE in tones(host) or TURN_TONE in tones(friend)
