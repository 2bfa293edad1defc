"""Online play in a real browser: two people in two browser contexts (two devices, each with its own storage)
play a whole game through the invitation link while a third watches; a reload in the middle; Rycerze i zamki
with a friend too.

The browser, the server and the page are the fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.pages import choose_cards, choose_language, recruit, separate_pages, shot
from tests.live_server import Server

CASTLE_MOVES = ".legal.now, .choice-button"
KNIGHTS_MOVES = "#k-next, #k-show, .k-card, .k-recruit"


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[Page]]:
    """Three pages in three contexts (no shared storage): the host, the friend and a spectator."""
    # Every answer is clicked here (the page's own "No figure" is tested in test_screen_browser.py).
    answers = ("localStorage.getItem('zamek-auto-pass') || localStorage.setItem('zamek-auto-pass', 'off');"
               "localStorage.getItem('zamek-auto-draw') || localStorage.setItem('zamek-auto-draw', 'off')")
    with separate_pages(browser, init_script=answers) as pages:
        yield pages


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


@pytest.mark.long(75)
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
    choose_language(friend, "pl")  # the invitation stays, in the other language
    expect(friend.locator("#join h2")).to_have_text("Zaproszenie do gry Zamek")
    choose_language(friend, "en")
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


def start_friend_game(host: Page, friend: Page, server: Server, *, listed: bool = False) -> str:
    """Ala (first) invites Ola, who joins: the game's id. ``listed``: Ala lists it among the live games."""
    host.goto(server.url)
    host.check("input[name=mode][value=friend]")
    host.check("input[name=seat][value=first]")
    host.fill("#your-name", "Ala")
    if listed:
        host.check("#listed")
    host.click("#start-game")
    friend.goto(host.locator("#invite-link").input_value())
    friend.fill("#join-name", "Ola")
    friend.click("#join-game")
    friend.wait_for_url("**/#/game/*")
    expect(host.locator(".legal.now").first).to_be_visible()
    return friend.url.rsplit("/", 1)[-1]


PLAYER_CONTROLS = "#auto-pass, #auto-draw, #undo, #resign, #hint, #rematch, #invite-link, #seat-link, .legal, #draw"


def test_the_opponent_and_spectators_see_the_tile_being_placed_and_where_it_fits(
        contexts: list[Page], server: Server) -> None:
    """Z22: the tile drawn is public (as at a real table); only its player places it, the others may see where it
    fits, and clicking there does nothing."""
    host, friend, spectator = contexts
    game_id = start_friend_game(host, friend, server)
    spectator.goto(f"{server.url}#/watch/{game_id}")
    tile = host.get_attribute("#drawn-tile", "aria-label")
    assert tile
    fits = host.evaluate("new Set([...document.querySelectorAll('.legal')].map((r) => r.dataset.space)).size")
    for page in (friend, spectator):
        expect(page.locator("#their-turn")).to_have_text(f"Ala is placing tile {tile}.")
        expect(page.locator("#their-tile")).to_have_attribute("aria-label", tile)
        assert page.locator(".legal").count() == 0
        expect(page.locator(".cells.fits")).to_have_count(0)
        page.click("#show-fits")
        expect(page.locator("#show-fits")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#show-fits")).to_have_text("Hide where it fits")
        expect(page.locator(".cells.fits rect")).to_have_count(fits)
    expect(spectator.locator("#spectating")).to_contain_text("You are watching")
    shot(friend, "online-their-tile")
    # A click on a shaded space places nothing.
    before = revision(friend)
    box = friend.locator(".cells.fits rect").first.bounding_box()
    assert box is not None
    friend.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    friend.wait_for_timeout(300)
    assert revision(friend) == before == revision(host)
    expect(host.locator("#drawn-tile")).to_be_visible()
    # Once Ala's turn is over the next tile is Ola's: Ala sees it, Ola places it (her page shades nothing more).
    castle_click(host)
    while host.query_selector(".choice-button"):
        castle_click(host)
    expect(friend.locator("#drawn-tile")).to_be_visible()
    expect(friend.locator(".legal.now").first).to_be_visible()
    expect(host.locator("#their-turn")).to_contain_text("Ola is placing tile")
    assert friend.locator(".cells.fits").count() == 0


def test_a_spectator_sees_no_players_controls_and_follows_the_players_to_their_rematch(
        contexts: list[Page], server: Server) -> None:
    host, friend, spectator = contexts
    game_id = start_friend_game(host, friend, server)
    spectator.goto(f"{server.url}#/watch/{game_id}")
    expect(spectator.locator("#turn")).to_contain_text("You are watching this game.")
    expect(spectator.locator("#sound")).to_be_visible()  # what a spectator may use stays
    assert spectator.locator(PLAYER_CONTROLS).count() == 0, spectator.inner_html("#turn")
    host.once("dialog", lambda dialog: dialog.accept())
    host.click("#resign")
    expect(spectator.locator("#game-over")).to_be_visible()
    assert spectator.locator(PLAYER_CONTROLS).count() == 0
    host.click("#rematch")
    host.wait_for_url(lambda url: game_id not in url)
    rematch = host.url.rsplit("/", 1)[-1]
    # Offered, not yet taken: the spectator stays where the players' last game ended.
    expect(friend.locator("#rematch")).to_have_text("Play the rematch")
    spectator.wait_for_timeout(500)
    assert spectator.url.endswith(f"#/watch/{game_id}")
    friend.click("#rematch")
    friend.wait_for_url(host.url)
    spectator.wait_for_url(f"**/#/watch/{rematch}")
    expect(spectator.locator("#their-turn")).to_have_text(re.compile(r"^Ola is placing tile "))
    expect(spectator.locator("#spectating")).to_be_visible()
    assert spectator.locator(PLAYER_CONTROLS).count() == 0
    assert spectator.evaluate("Object.keys(JSON.parse(localStorage.getItem('zamek-seats') || '{}')).length") == 0


def test_the_players_see_how_many_are_watching(contexts: list[Page], server: Server) -> None:
    host, friend, spectator = contexts
    game_id = start_friend_game(host, friend, server)
    expect(host.locator("#watching")).to_be_hidden()
    spectator.goto(f"{server.url}#/watch/{game_id}")
    for page in (host, friend, spectator):
        expect(page.locator("#watching")).to_have_text(" · 1 watching")
    second = spectator.context.new_page()
    second.goto(f"{server.url}#/watch/{game_id}")
    expect(host.locator("#watching")).to_have_text(" · 2 watching")
    choose_language(host, "pl")
    expect(host.locator("#watching")).to_have_text(" · 2 osoby oglądają")
    second.close()
    expect(host.locator("#watching")).to_have_text(" · 1 osoba ogląda")
    expect(friend.locator("#watching")).to_have_text(" · 1 watching")


def test_either_player_aborts_before_the_first_moves_and_the_game_ends_with_no_result(
    contexts: list[Page], server: Server,
) -> None:
    host, friend, _ = contexts
    game = start_friend_game(host, friend, server)
    expect(friend.locator("#abort")).to_be_visible()  # before any first move: the player not to move may abort
    friend.once("dialog", lambda dialog: dialog.accept())
    friend.click("#abort")
    for page in (host, friend):
        expect(page.locator("#ended")).to_have_attribute("data-reason", "abort")
        expect(page.locator("#game-over")).to_contain_text("No result")
        expect(page.locator("#abort")).to_have_count(0)
    assert friend.url.endswith(game)
    # The lobby's line says the same: no result, not a shared victory.
    host.goto(server.url)
    line = host.locator(".game-list[data-status=over] .outcome")
    expect(line).to_have_text("No result. (aborted)")


def test_a_page_reads_the_game_neither_for_its_own_moves_nor_for_the_other_players(contexts: list[Page],
                                                                                  server: Server) -> None:
    """The answer to a move is the position it leads to, and the live event of the other player's move brings the
    position too: the page reads the game only when it opens it (issue 38: a request a move less for the server)."""
    host, friend, _ = contexts
    game_id = start_friend_game(host, friend, server)
    reads: list[str] = []
    host.on("request", lambda request: reads.append(request.url) if request.method == "GET"
            and request.url.split("?")[0].endswith(f"/api/games/{game_id}") else None)
    own = 0
    while host.query_selector(CASTLE_MOVES) and own < 6:
        castle_click(host)
        own += 1
    host.wait_for_timeout(500)  # the events of those moves have come, and any read they would bring
    assert own >= 2 and reads == []
    castle_click(friend)  # the other player's move: its event brings the position
    host.wait_for_function(f"Number((document.body.dataset.revision || '-1').split(':')[0]) >= {revision(friend)}")
    host.wait_for_timeout(500)  # any read the event would bring
    assert reads == []
