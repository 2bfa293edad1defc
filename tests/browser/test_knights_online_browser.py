"""Rycerze i zamki online in a real browser (protocol 4, /api/games): two people in two browser contexts play with
a clock through the invitation link, one resigns and both play the rematch; a spectator sees the public view and
is counted on the players' pages; an abort before the first moves ends the game with no result; the computer's
choice is announced while it is made.

The browser, the server and the page are the fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.pages import (
    KNIGHTS_READY,
    choose_cards,
    choose_language,
    create_knights_game,
    join_knights_game,
    knights_move,
    separate_pages,
    shot,
)
from tests.live_server import Server

SEATED = "Object.keys(JSON.parse(localStorage.getItem('zamek-seats') || '{}')).length"
PLAYING = "() => !!document.querySelector('#k-next, #k-show, .k-card, .k-recruit, #k-their-turn')"
PLAYER_CONTROLS = ".k-card, .k-recruit, #k-show, #k-resign, #k-abort, #k-rematch, #invite-link, #seat-link"


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[Page]]:
    """Three pages in three contexts (no shared storage): the host, the friend and a spectator."""
    with separate_pages(browser) as pages:
        yield pages


def play_until(pages: list[Page], done: str, timeout: float = 40.0) -> None:
    """The players click until the first page shows ``done``."""
    end = time.monotonic() + timeout
    while not pages[0].query_selector(done):
        if time.monotonic() > end:
            raise AssertionError(f"never {done}: " + " | ".join(p.inner_text("main")[:300] for p in pages))
        if not any(knights_move(p, reveal="#k-skip") for p in pages):
            time.sleep(0.05)


def test_friends_play_with_a_clock_one_resigns_and_both_play_the_rematch(
        contexts: list[Page], server: Server) -> None:
    host, friend, _ = contexts
    link = create_knights_game(host, server, ["person", "friend"], clock="live-10-5")
    expect(host.locator("#invitation")).to_contain_text("Waiting for your friend to open the invitation (1 seat free)")
    expect(host.locator("#invitation button.copy")).to_have_text("Copy")
    shot(host, "knights-online-invitation")

    friend.goto(link)
    # The invitation says who sends it, and what game it is.
    expect(friend.locator("#join-text")).to_have_text("Ala invites you to a game.")
    expect(friend.locator("#join-about")).to_contain_text("10 min + 5 s a move")
    game_id = join_knights_game(friend, link, "Ola")
    expect(host.locator("#invitation")).to_have_count(0)  # the host's page learns by itself that Ola came
    expect(host.locator(".k-players tr[data-seat='1']")).to_contain_text("Ola")
    for page in (host, friend):
        expect(page.locator(".k-players .clock")).to_have_count(2)
        expect(page.locator(".k-players .clock").first).to_have_text("10:00")
        # A fair start: no clock runs until both have made a first move, and until then the game may be aborted.
        expect(page.locator(".clock.running")).to_have_count(0)
        expect(page.locator("#k-abort")).to_be_visible()

    play_until([host, friend], ".clock.running")
    for page in (host, friend):
        expect(page.locator(".clock.running")).to_have_count(1)
        expect(page.locator("#k-abort")).to_have_count(0)
    running = host.locator(".clock.running")
    before = running.inner_text()
    expect(running).not_to_have_text(before, timeout=3000)  # it counts down on the page

    host.once("dialog", lambda dialog: dialog.accept())
    host.click("#k-resign")
    for page in (host, friend):
        expect(page.locator("#k-ended")).to_have_attribute("data-reason", "resign")
    expect(host.locator("#k-ended")).to_have_text("You resigned.")  # the reader is addressed as "you"
    expect(friend.locator("#k-ended")).to_have_text("Player 1 (Ala) resigned.")
    expect(host.locator("#k-headline")).to_have_text("You lost.")
    expect(friend.locator("#k-headline")).to_have_text("You win!")
    shot(friend, "knights-online-resigned")

    host.click("#k-rematch")
    host.wait_for_url(lambda url: game_id not in url)
    rematch = host.url.rsplit("/", 1)[-1]
    expect(host.locator("#invitation")).to_contain_text("waiting for Ola")
    # Ola's page learns of the rematch and takes her seat there (seats moved round: Ola is the first now).
    expect(friend.locator("#k-rematch")).to_have_text("Play the rematch")
    friend.click("#k-rematch")
    friend.wait_for_url(f"**/#/knights/{rematch}")
    expect(host.locator("#invitation")).to_have_count(0)
    for page in (host, friend):
        expect(page.locator(".k-players tr[data-seat='0']")).to_contain_text("Ola")
        expect(page.locator(".k-players tr[data-seat='1']")).to_contain_text("Ala")
        expect(page.locator(".k-players .clock")).to_have_count(2)
        page.wait_for_function(PLAYING)
    assert host.evaluate(f"!!JSON.parse(localStorage.getItem('zamek-seats'))['{rematch}'].tokens['1']")
    assert friend.evaluate(f"!!JSON.parse(localStorage.getItem('zamek-seats'))['{rematch}'].tokens['0']")
    play_until([host, friend], ".k-players td:has-text('✓')")  # the new game is played


def test_a_spectator_sees_the_public_view_and_the_players_see_how_many_watch(
        contexts: list[Page], server: Server) -> None:
    host, friend, spectator = contexts
    link = create_knights_game(host, server, ["person", "friend", "heuristic"])
    game_id = join_knights_game(friend, link, "Ola")
    expect(host.locator("#watching")).to_be_hidden()
    host.click(".seat-links summary")
    watch = host.locator("#watch-link").input_value()
    assert watch.endswith(f"#/knights/{game_id}/watch")
    spectator.goto(watch)
    expect(spectator.locator("#k-spectating")).to_have_text("You are watching this game.")
    for page in (host, friend, spectator):
        expect(page.locator("#watching")).to_have_text(" · 1 watching")
    choose_language(host, "pl")
    expect(host.locator("#watching")).to_have_text(" · 1 osoba ogląda")
    choose_language(host, "en")
    second = spectator.context.new_page()
    second.goto(watch)
    expect(friend.locator("#watching")).to_have_text(" · 2 watching")
    second.close()
    expect(friend.locator("#watching")).to_have_text(" · 1 watching")

    # The players play a while; the spectator follows, never with a hand or a player's button.
    hands = 0
    for _ in range(30):
        chooser = next((p for p in (host, friend) if p.query_selector(".k-card")), None)
        if chooser is None:
            for p in (host, friend):
                knights_move(p, reveal="#k-skip")
            time.sleep(0.05)
            continue
        choose_cards(chooser)
        hands += 1
        revision = int(chooser.evaluate("document.body.dataset.revision").split(":")[0])
        spectator.wait_for_function(f"Number(document.body.dataset.revision.split(':')[0]) >= {revision}")
        assert spectator.locator(PLAYER_CONTROLS).count() == 0, spectator.inner_text("main")
        if hands == 4:
            break
    assert hands == 4
    assert spectator.evaluate(SEATED) == 0
    # Every view the spectator's page asked for was the public one: no seat, no token.
    asked: list[str] = []
    spectator.on("request", lambda r: asked.append(f"{r.url} {r.headers.get('authorization')}")
                 if f"/api/games/{game_id}" in r.url else None)
    spectator.reload()
    spectator.wait_for_selector("#k-table")
    assert asked and all(a.endswith(" None") and "seat=" not in a for a in asked), asked
    shot(spectator, "knights-online-spectator")


def test_an_abort_before_the_first_moves_ends_the_game_with_no_result(
        contexts: list[Page], server: Server) -> None:
    host, friend, _ = contexts
    link = create_knights_game(host, server, ["person", "friend"])
    game_id = join_knights_game(friend, link, "Ola")
    expect(friend.locator("#k-abort")).to_be_visible()
    friend.once("dialog", lambda dialog: dialog.accept())
    friend.click("#k-abort")
    for page in (host, friend):
        expect(page.locator("#k-ended")).to_have_attribute("data-reason", "abort")
        expect(page.locator("#k-ended")).to_have_text("The game was aborted: no result.")
        expect(page.locator("#k-over .k-ranking")).to_have_count(0)  # nobody won, nobody lost
        expect(page.locator("#k-headline")).to_have_count(0)
        expect(page.locator("#k-resign, #k-abort, .k-card")).to_have_count(0)
    host.goto(server.url)
    expect(host.locator(f"#knights-games .game-item[data-id='{game_id}']")).to_contain_text("Finished (aborted)")


def test_a_page_that_missed_the_first_moves_is_refused_an_abort_and_hides_its_button(
        contexts: list[Page], server: Server) -> None:
    host, friend, _ = contexts
    link = create_knights_game(host, server, ["person", "friend"])
    join_knights_game(friend, link, "Ola")
    # A second tab of Ala's that hears no live events: it still offers to abort once both have moved.
    stale = host.context.new_page()
    stale.route("**/api/games/*/events", lambda route: route.abort())
    stale.goto(host.url)
    expect(stale.locator("#k-abort")).to_be_visible()
    play_until([host, friend], "#k-tools:not(:has(#k-abort))")
    expect(friend.locator("#k-abort")).to_have_count(0)
    expect(stale.locator("#k-abort")).to_be_visible()
    stale.once("dialog", lambda dialog: dialog.accept())
    stale.click("#k-abort")
    expect(stale.locator("#k-error")).to_have_text(
        "Every player has moved: the game can no longer be aborted (resign instead).")
    expect(stale.locator("#k-abort")).to_have_count(0)
    for page in (stale, host, friend):
        expect(page.locator("#k-ended")).to_have_count(0)


# Every text the "computer is choosing" note had, in the order shown (the Monte Carlo player takes a moment).
SEE_THINKING = """window.thinkingSeen = [];
new MutationObserver(() => {
  const note = document.getElementById('k-thinking');
  const last = window.thinkingSeen[window.thinkingSeen.length - 1];
  if (note && last !== note.textContent) window.thinkingSeen.push(note.textContent);
}).observe(document, { subtree: true, childList: true });"""


def test_the_page_says_the_computer_is_choosing_and_goes_on_when_it_has(page: Page, server: Server) -> None:
    page.add_init_script(SEE_THINKING)
    page.goto(server.url)
    page.wait_for_selector("#knights-new")
    page.select_option("#k-seat-1", "mc")
    page.click("#k-start")
    page.wait_for_url("**/#/knights/*")
    for _ in range(80):
        # After a move of the person's, the answer says the computer is choosing (a job of the server's), and the
        # page says so until the job's live event brings the next position.
        if page.evaluate("window.thinkingSeen.length"):
            break
        page.wait_for_function(KNIGHTS_READY, timeout=20_000)
        knights_move(page, reveal="#k-skip")
    assert page.evaluate("window.thinkingSeen") == ["The computer is choosing…"]
    expect(page.locator("#k-thinking")).to_have_count(0, timeout=10_000)
    page.wait_for_function(KNIGHTS_READY, timeout=10_000)
