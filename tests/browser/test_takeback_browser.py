"""Issue 37, items 8 and 9, in a real browser.

A takeback by agreement between two people in two browser contexts (a game with a friend by link,
tests/browser/test_online_browser.py's ``start_friend_game``): Ala asks to take her turn back, Ola sees the request
by herself (live events) and declines; later Ala asks again, after Ola's reply, and Ola (reading Polish) accepts: both
pages are back at Ala's first tile. Then Ala asks once more and withdraws her request. A spectator is offered
nothing.

The projected scores: beside each score, what the final scoring of the position would give, the engine's number for
it (``projected_scores``), with the way to the rules page's section on the end of the game, in English and Polish.
"""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.pages import choose_language, shot
from tests.browser.test_online_browser import castle_click, contexts, start_friend_game
from tests.live_server import Server
from zamek.castle.data import loader
from zamek.castle.record import make_record
from zamek.castle.record import replay as replay_record
from zamek.castle.rules.actions import Action
from zamek.castle.rules.projection import projected_scores
from zamek.castle.rules.setup import Phase, Setup
from zamek.castle.runner import random_policy, sample_chance

__all__ = ["contexts"]  # the fixture: three pages in three contexts (the host, the friend, a spectator)


def whole_turn(page: Page) -> None:
    """The page's player places the tile on the first space offered and answers every question with its first
    answer (or passes)."""
    castle_click(page)
    while page.query_selector(".choice-button"):
        castle_click(page)


def game_json(page: Page, server: Server, game_id: str) -> Any:
    return page.request.get(f"{server.url}api/games/{game_id}").json()


def test_a_takeback_asked_declined_then_accepted_by_the_other_player(contexts: list[Page], server: Server) -> None:
    host, friend, spectator = contexts
    game_id = start_friend_game(host, friend, server)  # Ala (host) moves first
    expect(host.locator("#takeback")).to_have_count(0)  # nothing to take back yet
    whole_turn(host)
    expect(friend.locator(".legal.now").first).to_be_visible()
    expect(host.locator("#takeback")).to_have_count(0)  # the first moves cannot be taken back
    whole_turn(friend)  # both have made their first move: the game has begun
    expect(host.locator(".legal.now").first).to_be_visible()
    first_tile = host.get_attribute("#drawn-tile", "aria-label")
    assert first_tile
    opened = game_json(host, server, game_id)
    start = opened["moves_count"]
    whole_turn(host)
    expect(friend.locator(".legal.now").first).to_be_visible()
    expect(friend.locator("#takeback")).to_have_count(0)  # Ola's only turn was her first

    host.click("#takeback")
    expect(host.locator("#takeback-waiting")).to_have_text("Takeback proposed: waiting for Ola to answer…")
    prompt = friend.locator("#takeback-prompt")
    expect(prompt).to_contain_text("Ala asks to take back their last turn.")
    expect(prompt).not_to_contain_text("Your reply")  # Ola has not replied yet
    shot(friend, "takeback-prompt")
    spectator.goto(f"{server.url}#/watch/{game_id}")
    spectator.wait_for_selector("#board")
    expect(spectator.locator("#takeback, #takeback-prompt, #takeback-waiting")).to_have_count(0)

    friend.click("#takeback-decline")
    expect(host.locator("#takeback-declined")).to_contain_text("Your takeback request was declined")
    expect(host.locator("#takeback")).to_have_count(0)  # not again before the next move
    expect(prompt).to_have_count(0)

    whole_turn(friend)  # Ola replies; Ala's next tile is drawn
    expect(host.locator(".legal.now").first).to_be_visible()
    choose_language(friend, "pl")
    host.click("#takeback")
    expect(prompt).to_contain_text("Ala prosi o cofnięcie swojej ostatniej tury.")
    expect(prompt).to_contain_text("Twoja odpowiedź też zostałaby cofnięta.")
    friend.click("#takeback-accept")

    # Both pages are back at Ala's second tile, as placed then: the same tile, drawn again by the seed.
    expect(host.locator("#drawn-tile")).to_have_attribute("aria-label", first_tile)
    expect(host.locator(".legal.now").first).to_be_visible()
    expect(friend.locator("#their-tile")).to_have_attribute("aria-label", first_tile)
    expect(prompt).to_have_count(0)
    expect(host.locator("#takeback, #takeback-waiting, #takeback-declined")).to_have_count(0)
    view = game_json(host, server, game_id)
    assert view["moves_count"] == start and view["placements"] == opened["placements"]

    # Ala asks again after her next turn, then thinks better of it and withdraws her request (in English again).
    choose_language(friend, "en")
    whole_turn(host)
    expect(friend.locator(".legal.now").first).to_be_visible()
    host.click("#takeback")
    expect(prompt).to_be_visible()
    host.click("#takeback-withdraw")
    expect(prompt).to_have_count(0)
    expect(host.locator("#takeback-withdrawn")).to_contain_text("You withdrew your takeback request")
    expect(host.locator("#takeback")).to_have_count(0)  # not again before the next move


def position_record(seed: int, turn: int) -> dict[str, Any]:
    """A saved game of seed ``seed`` played at random until its tile ``turn`` is to be placed."""
    rng = random.Random(seed)
    setup = Setup()
    state = loader.new_game(setup)
    actions: list[Action] = []
    while not (state.turn == turn and state.phase is Phase.PLACE):
        action = sample_chance(state, rng) if state.is_chance() else random_policy(state, rng)
        state.apply(action)
        actions.append(action)
    return make_record(setup, seed, actions, state)


def test_the_projected_scores_are_the_engines_and_lead_to_the_end_of_the_rules(page: Page, server: Server) -> None:
    record = position_record(2, 30)
    state = replay_record(record)
    expected = projected_scores(state)
    assert list(expected) != state.scores  # a position whose end would change the scores
    game = page.request.post(f"{server.url}api/import", data=record).json()
    page.goto(f"{server.url}#/watch/{game['id']}")
    for player in (0, 1):
        shown = page.locator(f".player[data-player='{player}'] .projected")
        expect(shown).to_have_text(f"projected {expected[player]}")
        expect(shown).to_have_attribute("data-projected", str(expected[player]))
        expect(page.locator(f".player[data-player='{player}'] .score")).to_have_text(str(state.scores[player]))

    shot(page, "projected")
    page.click("#projected-help")
    page.wait_for_url("**/#/help/end")
    expect(page.locator("#help-end")).to_be_in_viewport()
    expect(page.locator("#help-end")).to_contain_text("the score that player would have if the game ended now")
    page.click("#help-end-tokens")
    expect(page.locator("#help-tokens")).to_be_in_viewport()

    page.goto(f"{server.url}#/watch/{game['id']}")
    choose_language(page, "pl")
    expect(page.locator(".player[data-player='0'] .projected")).to_have_text(f"prognoza {expected[0]}")
    expect(page.locator("#projected-help")).to_have_text("Jak punktuje się koniec gry")
    page.click("#projected-help")
    expect(page.locator("#help-end")).to_contain_text("gdyby gra skończyła się teraz")
