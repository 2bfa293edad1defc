"""Meeting in the lobby, in a real browser (issue 39): the live games a creator listed, watched with one click; the
fixed words said at the table, heard by the other player and the spectators, hidden by whoever mutes them; in both
games. Each person is a browser context of their own (no shared storage)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.pages import choose_language, create_knights_game, join_knights_game, separate_pages, shot
from tests.browser.test_online_browser import start_friend_game
from tests.live_server import Server


@pytest.fixture
def people(browser: Browser) -> Iterator[list[Page]]:
    """The host (Ala), the friend (Ola) and a spectator."""
    with separate_pages(browser) as pages:
        yield pages


def say(page: Page, message: str) -> None:
    page.click("#talk-menu summary")
    page.click(f".talk-message[data-message={message}]")


def test_a_listed_game_is_in_every_lobby_and_one_click_watches_it(people: list[Page], server: Server) -> None:
    host, friend, spectator = people
    spectator.goto(server.url)
    expect(spectator.locator("#no-live-games")).to_be_visible()
    game_id = start_friend_game(host, friend, server, listed=True)
    spectator.reload()
    line = spectator.locator(f"#live-games .game-item[data-id='{game_id}']")
    expect(line).to_be_visible()
    expect(line.locator(".live-players")).to_contain_text("Ala")
    expect(line.locator(".live-players")).to_contain_text("Ola")
    shot(spectator, "lobby-live-games")
    line.locator(".watch-game").click()
    spectator.wait_for_url(f"**/#/watch/{game_id}")
    expect(spectator.locator("#spectating")).to_be_visible()
    expect(host.locator("#watching")).to_have_attribute("data-count", "1")


def test_a_game_by_link_is_not_listed(people: list[Page], server: Server) -> None:
    host, friend, spectator = people
    start_friend_game(host, friend, server)
    spectator.goto(server.url)
    expect(spectator.locator("#no-live-games")).to_be_visible()


def test_the_other_player_and_the_spectator_hear_a_word_and_a_muted_page_hides_them(
        people: list[Page], server: Server) -> None:
    host, friend, spectator = people
    game_id = start_friend_game(host, friend, server)
    spectator.goto(f"{server.url}#/watch/{game_id}")
    expect(spectator.locator("#spectating")).to_be_visible()
    expect(spectator.locator("#talk-menu")).to_have_count(0)  # a spectator hears, and says nothing
    expect(host.locator("#watching")).to_have_attribute("data-count", "1")
    say(host, "good-luck")
    for page in (host, friend, spectator):
        expect(page.locator(".talk-line[data-message=good-luck]")).to_have_text("Ala (you): Good luck!" if page is host
                                                                               else "Ala: Good luck!")
    shot(friend, "table-talk")
    friend.check("#talk-mute")
    expect(friend.locator(".talk-line")).to_have_count(0)
    say(host, "oops")
    expect(spectator.locator(".talk-line[data-message=oops]")).to_be_visible()
    friend.wait_for_timeout(500)
    expect(friend.locator(".talk-line")).to_have_count(0)
    friend.reload()  # the choice is kept in the browser
    expect(friend.locator("#talk-mute")).to_be_checked()
    say(host, "thanks")
    expect(spectator.locator(".talk-line[data-message=thanks]")).to_be_visible()
    expect(friend.locator(".talk-line")).to_have_count(0)


def test_words_at_a_table_of_rycerze_i_zamki(people: list[Page], server: Server) -> None:
    host, friend, _ = people
    link = create_knights_game(host, server, ["person", "friend"])
    join_knights_game(friend, link, "Ola")
    say(friend, "hello")
    expect(host.locator(".talk-line[data-message=hello]")).to_contain_text("Ola")
    expect(host.locator(".talk-line[data-message=hello]")).to_contain_text("Hello!")
    shot(host, "knights-table-talk")


def become(page: Page, server: Server, name: str) -> None:
    """Open the lobby and create this browser's player."""
    page.goto(server.url)
    page.fill("#player-name", name)
    page.click("#create-player")
    expect(page.locator("#playing-as")).to_contain_text(name)


def test_two_players_who_share_nothing_meet_through_a_challenge_and_play_rated(
        people: list[Page], server: Server) -> None:
    ala, ola, _ = people
    become(ala, server, "Ala")
    become(ola, server, "Ola")
    ala.check("#seek-rated")
    ala.click("#post-challenge")
    challenge = ola.locator(".challenge[data-poster=Ala]")
    expect(challenge).to_be_visible()  # the lobby's events bring it
    shot(ola, "lobby-challenge")
    challenge.locator(".accept").click()
    ola.wait_for_url("**/#/game/*")
    game_id = ola.url.rsplit("/", 1)[-1]
    ala.wait_for_url(f"**/#/game/{game_id}")  # the poster's page goes to the game by itself
    for page in (ala, ola):
        expect(page.locator("#seats")).to_contain_text("Ala")
        expect(page.locator("#seats")).to_contain_text("Ola")
    ola.once("dialog", lambda dialog: dialog.accept())
    ola.click("#resign")
    expect(ala.locator("#ended")).to_have_attribute("data-reason", "resign")
    ratings = ala.request.get(f"{server.url}api/players/Ala").json()["ratings"]
    assert [r["rating"] > 1500 for r in ratings] == [True]
    # Each sees the change on their own page, in their own language.
    ala.goto(f"{server.url}#/player/Ala")
    expect(ala.locator(".rating")).to_contain_text(f": {round(ratings[0]['rating'])} ± ")
    expect(ala.locator(".rating")).to_contain_text("1 game")
    choose_language(ola, "pl")
    ola.goto(f"{server.url}#/player/Ola")
    lost = ola.request.get(f"{server.url}api/players/Ola").json()["ratings"][0]["rating"]
    assert lost < 1500
    expect(ola.locator(".rating")).to_contain_text(f": {round(lost)} ± ")
    expect(ola.locator(".rating")).to_contain_text("1 gra")


def test_play_now_pairs_two_players(people: list[Page], server: Server) -> None:
    ala, ola, _ = people
    become(ala, server, "Ala")
    become(ola, server, "Ola")
    ala.click("#play-now")
    expect(ala.locator("#pairing-waiting")).to_be_visible()
    ola.click("#play-now")
    ola.wait_for_url("**/#/game/*")
    ala.wait_for_url(f"**/#/game/{ola.url.rsplit('/', 1)[-1]}")
