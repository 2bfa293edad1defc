"""Players in a real browser (issue 39): a player made on one device, seen on their page, moved to a second device
(another browser context, no shared storage) by its link, where the player's games come too; a rated game between
two players, resigned, changes both ratings on their pages and the leaderboard; in English and Polish."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.pages import choose_language, separate_pages, shot, start_game
from tests.live_server import Server


@pytest.fixture
def devices(browser: Browser) -> Iterator[list[Page]]:
    with separate_pages(browser, count=3) as pages:
        yield pages


def make_player(page: Page, server: Server, name: str) -> None:
    page.goto(f"{server.url}#/me")
    page.fill("#create-player-name", name)
    page.click("#create-player-send")
    expect(page.locator("#you-are")).to_contain_text(name)
    expect(page.locator("#me-link")).to_have_text(name)


def test_a_player_is_made_shown_on_their_page_and_moved_to_another_device_by_its_link(
        devices: list[Page], server: Server) -> None:
    phone, laptop, _ = devices
    phone.goto(f"{server.url}#/me")
    phone.fill("#create-player-name", "ab")  # too short: the server's words say why
    phone.click("#create-player-send")
    expect(phone.locator("#error")).to_contain_text("3 to 20")
    make_player(phone, server, "Żaneta_7")
    game_id = start_game(phone, server.url)  # against the computer: the player's seat
    phone.goto(f"{server.url}#/me")
    phone.click("#your-page")
    expect(phone.locator("#player-name")).to_have_text("Żaneta_7")
    expect(phone.locator("#no-ratings")).to_be_visible()
    phone.goto(f"{server.url}#/me")
    link = phone.locator("#player-link").input_value()
    assert "#/me/" in link
    shot(phone, "player-me")

    laptop.goto(link)
    expect(laptop.locator("#you-are")).to_contain_text("Żaneta_7")
    assert laptop.url.endswith("#/me")  # the secret leaves the address at once
    laptop.goto(server.url)  # the lobby lists the player's game made on the phone
    expect(laptop.locator(f".game-item[data-id='{game_id}']")).to_have_count(1)
    laptop.click(f".game-item[data-id='{game_id}'] a")
    expect(laptop.locator(".legal.now").first).to_be_visible()  # and the laptop plays its seat
    laptop.goto(f"{server.url}#/me")
    choose_language(laptop, "pl")
    expect(laptop.locator("#you-are")).to_contain_text("Grasz jako Żaneta_7")
    expect(laptop.locator("#me-link")).to_have_text("Żaneta_7")


def test_a_rated_game_resigned_changes_both_ratings_on_their_pages_and_the_leaderboard(
        devices: list[Page], server: Server) -> None:
    host, friend, stranger = devices
    make_player(host, server, "Ala")
    make_player(friend, server, "Olek")
    host.goto(server.url)
    host.check("input[name=mode][value=friend]")
    host.check("input[name=seat][value=first]")
    host.check("#rated")
    host.click("#start-game")
    link = host.locator("#invite-link").input_value()
    friend.goto(link)
    friend.click("#join-game")
    friend.wait_for_url("**/#/game/*")
    expect(friend.locator("#rated-badge")).to_have_text("Rated game")
    expect(friend.locator("#takeback")).to_have_count(0)
    expect(friend.locator("#hint")).to_have_count(0)
    host.once("dialog", lambda dialog: dialog.accept())
    host.click("#resign")
    expect(friend.locator("#game-over")).to_contain_text("You win")

    stranger.goto(f"{server.url}#/player/Olek")
    rating = stranger.locator(".rating[data-rating='castle-correspondence']")
    expect(rating).to_contain_text("1 game")
    expect(rating.locator("svg.rating-chart")).to_have_count(1)
    expect(stranger.locator("#player-games li[data-result='won']")).to_contain_text("Ala")
    expect(stranger.locator("#opponents")).to_contain_text("1 won, 0 drawn, 0 lost")
    shot(stranger, "player-page")
    stranger.click("#player-games a.player-link")
    expect(stranger.locator("#player-name")).to_have_text("Ala")
    expect(stranger.locator("#player-games li[data-result='lost']")).to_have_count(1)

    stranger.goto(f"{server.url}#/leaderboard/castle/correspondence")
    expect(stranger.locator("#leaders tr[data-player]")).to_have_count(2)
    expect(stranger.locator("#leaders tr[data-player]").first).to_have_attribute("data-player", "Olek")
    expect(stranger.locator("#levels tr[data-level='medium']")).to_contain_text("1500")
    choose_language(stranger, "pl")
    expect(stranger.locator("#leaderboard h2")).to_have_text("Ranking")
    expect(stranger.locator("#leaders")).to_contain_text("tymczasowy")
    stranger.select_option("#board-clock", "live")
    expect(stranger.locator("#no-players")).to_have_text("Nikt nie ma tu jeszcze rankingu.")


def test_a_player_makes_a_rated_game_of_rycerze_i_zamki_against_one_friend(devices: list[Page], server: Server) -> None:
    host, _, _ = devices
    host.goto(server.url)
    expect(host.locator("#k-rated")).to_have_count(0)  # no player yet: no rated game
    make_player(host, server, "Ala")
    host.goto(server.url)
    host.select_option("#k-seat-1", "friend")
    expect(host.locator("#k-rated")).to_be_visible()
    host.select_option("#k-players", "3")  # three players: a rated game is for two
    expect(host.locator("#k-rated")).to_be_hidden()
    host.select_option("#k-players", "2")
    host.check("#k-rated")
    host.click("#k-start")
    host.wait_for_url("**/#/knights/*")
    game_id = host.url.rsplit("/", 1)[-1]
    view = host.evaluate(f"fetch('/api/games/{game_id}').then((r) => r.json())")
    assert view["rated"]
    mine = host.evaluate("fetch('/api/players/me/games', {headers: {'X-Zamek-Player': "
                         "JSON.parse(localStorage.getItem('zamek-player')).token}}).then((r) => r.json())")
    assert [(g["id"], g["kind"], g["rated"]) for g in mine["games"]] == [(game_id, "knights", True)]
