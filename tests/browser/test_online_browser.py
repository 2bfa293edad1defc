"""Online play in a real browser: two people in two browser contexts (two devices, each with its own storage)
play a whole game through the invitation link while a third watches; a reload in the middle; Rycerze i zamki
with a friend too.

The browser, the server and the page are the fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.pages import choose_cards, recruit, shot
from tests.live_server import Server

CASTLE_MOVES = ".legal.now, .choice-button"
KNIGHTS_MOVES = "#k-next, #k-show, .k-card, .k-recruit"


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[Page]]:
    """Three pages in three contexts (no shared storage): the host, the friend and a spectator."""
    made = [browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-GB", bypass_csp=True)
            for _ in range(3)]
    for c in made:  # every answer is clicked here (the page's own "No figure" is tested in test_screen_browser.py)
        c.add_init_script("localStorage.getItem('zamek-auto-pass') || localStorage.setItem('zamek-auto-pass', 'off');"
                        "localStorage.getItem('zamek-auto-draw') || localStorage.setItem('zamek-auto-draw', 'off')")
    pages = [c.new_page() for c in made]
    errors: list[str] = []
    for p in pages:
        p.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pages
    for c in made:
        c.close()
    assert not errors, errors


def revision(page: Page) -> int:
    value = page.evaluate("document.body.dataset.revision || '-1'")
    return int(str(value).split(":")[0])


def wait_for_turn(pages: list[Page], moves: str, done: str, timeout: float = 30.0) -> Page | None:
    """The page that may act now (None once every page shows the end)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if all(p.query_selector(done) for p in pages):
            return None
        for p in pages:
            if p.query_selector(moves) and not p.query_selector("#thinking"):
                return p
        time.sleep(0.03)
    raise AssertionError("nobody could move: " + " | ".join(p.inner_text("main")[:200] for p in pages))


def castle_click(page: Page) -> None:
    before = revision(page)
    if page.query_selector(".legal.now"):
        page.click(".legal.now")
    elif page.query_selector(".choice-button.pass"):
        page.click(".choice-button.pass")
    else:
        page.click(".choice-button")
    page.wait_for_function(f"Number((document.body.dataset.revision || '-1').split(':')[0]) > {before}",
                           timeout=20_000)


def test_two_people_play_a_whole_game_by_link_while_a_third_watches(
        contexts: list[Page], server: Server) -> None:
    host, friend, spectator = contexts
    host.goto(server.url)
    host.check("input[name=mode][value=friend]")
    host.fill("#your-name", "Ala")
    host.select_option("#clock", "live-20-10")
    host.click("#start-game")
    invite = host.locator("#invite-link")
    expect(invite).to_be_visible()
    link = invite.input_value()
    assert "#/join/" in link
    shot(host, "online-invitation")

    friend.goto(link)
    expect(friend.locator("#join")).to_contain_text("Ala")
    box = friend.locator("#join-name").bounding_box()
    assert box is not None and box["width"] > 100  # a field to type a name in, not a checkbox-sized box
    friend.click("#lang-switch")  # the invitation stays, in the other language
    expect(friend.locator("#join h2")).to_have_text("Zaproszenie do gry Zamek")
    friend.click("#lang-switch")
    expect(friend.locator("#join h2")).to_have_text("An invitation to Zamek")
    friend.fill("#join-name", "Ola")
    friend.click("#join-game")
    friend.wait_for_url("**/#/game/*")
    game_id = friend.url.rsplit("/", 1)[-1]
    # The host's page learns by itself that the friend came, and that their page is open.
    expect(host.locator("#invitation")).to_have_count(0)
    expect(host.locator(".seat[data-seat='1'] .seat-name")).to_contain_text("Ola")
    expect(host.locator(".seat[data-seat='1'] .presence")).to_have_attribute("data-connected", "true")
    expect(host.locator(".clock")).to_have_count(2)

    spectator.goto(f"{server.url}#/watch/{game_id}")
    spectator.wait_for_selector("#board")
    expect(spectator.locator("#turn")).to_contain_text("watching")

    players = [host, friend]
    moves = 0
    while (page := wait_for_turn(players, CASTLE_MOVES, "#game-over")) is not None:
        castle_click(page)
        moves += 1
        acted = revision(page)
        # Everyone else sees the move by themselves (live events), the spectator included.
        for other in (*players, spectator):
            other.wait_for_function(
                f"Number((document.body.dataset.revision || '-1').split(':')[0]) >= {acted}", timeout=10_000)
        assert spectator.query_selector(CASTLE_MOVES) is None, "a spectator is offered a move"
        if moves == 20:
            shot(host, "online-middle")
            friend.reload()  # a reload in the middle: the seat's token is kept, the game goes on
            friend.wait_for_selector("#board")
    assert moves > 40
    for p in (*players, spectator):
        expect(p.locator("#game-over")).to_be_visible()
    # The seed is public once the game is over (Z22); the spectator never held a seat.
    assert spectator.evaluate("Object.keys(JSON.parse(localStorage.getItem('zamek-seats') || '{}')).length") == 0
    shot(spectator, "online-over-spectator")
    # Each player's lobby lists the game; a stranger's lists nothing.
    host.goto(server.url)
    expect(host.locator(f".game-item[data-id='{game_id}']")).to_have_count(1)
    expect(host.locator(f".game-item[data-id='{game_id}']")).to_contain_text("against Ola")
    spectator.goto(server.url)
    expect(spectator.locator(".game-item")).to_have_count(0)


def test_resign_and_rematch_with_seats_swapped(contexts: list[Page], server: Server) -> None:
    host, friend, _ = contexts
    host.goto(server.url)
    host.check("input[name=mode][value=friend]")
    host.check("input[name=seat][value=first]")
    host.fill("#your-name", "Ala")
    host.click("#start-game")
    link = host.locator("#invite-link").input_value()
    friend.goto(link)
    friend.fill("#join-name", "Ola")
    friend.click("#join-game")
    friend.wait_for_url("**/#/game/*")
    host.once("dialog", lambda dialog: dialog.accept())
    host.click("#resign")
    for p in (host, friend):
        expect(p.locator("#ended")).to_have_attribute("data-reason", "resign")
    expect(friend.locator("#game-over")).to_contain_text("You win")
    old = friend.url
    host.click("#rematch")
    host.wait_for_url(lambda url: url != old)
    expect(host.locator("#invitation")).to_contain_text("waiting for Ola")
    # The friend's page learns of the rematch and takes its seat there (seats swapped: the friend starts).
    expect(friend.locator("#rematch")).to_have_text("Play the rematch")
    friend.click("#rematch")
    friend.wait_for_url(host.url)
    expect(friend.locator(".legal.now").first).to_be_visible()
    expect(host.locator("#their-turn")).to_be_visible()


def test_rycerze_i_zamki_with_a_friend_by_link(contexts: list[Page], server: Server) -> None:
    host, friend, spectator = contexts
    host.goto(server.url)
    host.select_option("#k-players", "2")
    host.select_option("#k-seat-0", "person")
    host.select_option("#k-seat-1", "friend")
    host.click("#k-start")
    host.wait_for_url("**/#/knights/*")
    link = host.locator("#invite-link").input_value()
    game_id = host.url.rsplit("/", 1)[-1]
    friend.goto(link)
    friend.click("#join-game")
    friend.wait_for_url("**/#/knights/*")
    spectator.goto(f"{server.url}#/knights/{game_id}/watch")
    # Each player sees whether the other's page is open, and no dot on their own row.
    expect(host.locator(".k-players tr[data-seat='1']")).to_contain_text("●")
    expect(friend.locator(".k-players tr[data-seat='0']")).to_contain_text("●")
    assert "●" not in friend.inner_text(".k-players tr[data-seat='1']")
    players = [host, friend]
    chose = 0
    for _ in range(600):
        page = wait_for_turn(players, KNIGHTS_MOVES, "#k-over")
        if page is None:
            break
        if page.query_selector("#k-next"):
            page.click("#k-skip")
        elif page.query_selector(".k-card"):
            choose_cards(page)
            chose += 1
        elif page.query_selector(".k-recruit"):
            recruit(page)
        else:
            page.click("#k-show")
        # K8: the spectator never sees a hand.
        assert spectator.query_selector(".k-card, .k-recruit") is None
    for p in players:
        expect(p.locator("#k-over")).to_be_visible()
    assert chose >= 10
    spectator.reload()
    spectator.wait_for_selector("#k-over, #k-next")
