"""Rycerze i zamki in a real browser: a whole 2-seat game, a person against the computer, by clicking (on a phone:
test_knights_table_browser.py).

The browser, the server and the page are the fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.pages import KNIGHTS_READY, choose_cards, recruit, shot, start_knights_game
from tests.live_server import Server


def test_play_a_whole_game_of_knights_against_the_computer(page: Page, server: Server) -> None:
    play_against_the_computer(page, server)
    assert "Round 7 of 7" not in page.inner_text("#k-round")  # the end says so, not the last round with no tile
    assert page.inner_text("#k-round") == "Game over"


def play_against_the_computer(page: Page, server: Server) -> None:
    start_knights_game(page, server.url, ["person", "heuristic"])
    chose = recruited = steps = 0
    revealed_first = False
    for _ in range(400):
        page.wait_for_function(KNIGHTS_READY, timeout=20_000)
        if page.query_selector("#k-over"):
            break
        if page.query_selector("#k-next"):
            # Steps that tell nothing new are not shown (an empty camp, the sword staying where it was).
            assert not page.query_selector("#k-event.k-ev-EmptyCamp")
            if page.query_selector("#k-event.k-ev-CardsRevealed") and not revealed_first:
                # The first castle's result is not on the table before its step: no points yet, its round still on.
                points = [int(x) for x in page.locator(".k-points").all_inner_texts()]
                assert sum(points) == 0, points
                reveal_round = page.get_attribute("#k-event", "data-round")
                assert f"Round {reveal_round} of 7" in page.inner_text("#k-round")
                revealed_first = True
            page.click("#k-next")
            steps += 1
        elif page.query_selector(".k-card"):
            if chose == 1:
                shot(page, "knights-hand")
            choose_cards(page)
            chose += 1
        elif page.query_selector(".k-recruit"):
            recruit(page)
            recruited += 1
        else:
            page.click("#k-show")
    assert page.query_selector("#k-over")
    shot(page, "knights-over")
    assert chose >= 5 and chose + recruited <= 7 and steps >= 7
    assert len(page.query_selector_all(".k-ranking tbody tr")) == 2
    assert "Winner" in page.inner_text("#k-over")
    assert revealed_first
    # Where you finished, in words.
    assert page.inner_text("#k-place").startswith("You finished ")


def test_two_people_at_one_screen_pass_the_device_and_play_to_the_end(page: Page, server: Server) -> None:
    start_knights_game(page, server.url, ["person", "person", "heuristic"])
    handovers: list[str] = []
    for _ in range(400):
        page.wait_for_function(KNIGHTS_READY, timeout=20_000)
        if page.query_selector("#k-over"):
            break
        # One screen for two: nobody resigns for the other, and a game with no friend is not aborted.
        assert page.locator("#k-resign, #k-abort, #invite-link").count() == 0
        if page.query_selector("#k-next"):
            page.click("#k-skip")
        elif page.query_selector("#k-show"):
            who = page.inner_text("#k-show").removeprefix("I am ").removesuffix(": show my hand")
            page.click("#k-show")
            expect(page.locator("#k-stage h3").first).to_contain_text(who)  # the hand of the player named
            handovers.append(who)
        elif page.query_selector(".k-card"):
            choose_cards(page)
        elif page.query_selector(".k-recruit"):
            recruit(page)
    assert page.query_selector("#k-over")
    # Each of the two, in every round with a castle (at least five of the seven: one of the two drums may come).
    assert len(handovers) >= 10 and set(handovers) == {"Player 1", "Player 2"}, handovers
    assert len(page.query_selector_all(".k-ranking tbody tr")) == 3
    assert not page.query_selector("#k-place")  # two seats here: no single "you"
