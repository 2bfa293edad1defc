"""Rycerze i zamki's table in a real browser (issue 37): a round's reveal plays by itself (and can be held, stepped and
skipped, by the keyboard too), the castle at stake stays on the table while its round is revealed, the steps shown are
numbered one after another, and the whole table fits a phone.

Every game here is the same: three seats (the person, two careful computer players) and the seed SEED, whose first
round is a castle and whose fourth round has no card laid twice (a step left out, K4's step 2). The browser, the
server and the page are the fixtures of tests/browser/conftest.py; there the reveal waits for "Next" (as after the
person's "Pause"), except where a test lets it play.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.pages import (
    KNIGHTS_READY,
    choose_cards,
    choose_language,
    click_and_wait,
    knights_move,
    revision,
    seed_knights_games,
    shot,
    start_knights_game,
)
from tests.live_server import Server

SEED = 7
SEATS = ["person", "heuristic", "heuristic"]
HELD_LONGER_THAN_A_STEP_MS = 3500
"""Longer than any step of the reveal stays (knights.js: STEP_MS, CARDS_MS)."""


def start(page: Page, server: Server, seats: list[str] = SEATS, lang: str = "en", reveal_plays: bool = False) -> None:
    """Start the game; ``reveal_plays``: as for a person who never held the reveal (the fixture's page holds it)."""
    seed_knights_games(page, SEED)
    page.goto(server.url)
    choose_language(page, lang)
    if reveal_plays:
        page.evaluate("localStorage.setItem('zamek-knights-reveal', 'play')")
    start_knights_game(page, server.url, seats)


def round_on_the_table(page: Page) -> int:
    found = re.search(r"\d+", page.inner_text("#k-round"))
    assert found, page.inner_text("#k-round")
    return int(found.group())


def play_stepping(page: Page, look: Callable[[], None]) -> None:
    """Play the game to its end, each reveal step by step with "Next"; ``look`` sees every screen."""
    for _ in range(400):
        page.wait_for_function(KNIGHTS_READY, timeout=20_000)
        look()
        if page.query_selector("#k-over"):
            return
        knights_move(page)
    raise AssertionError("the game did not end")


def test_a_rounds_reveal_plays_by_itself_and_can_be_paused_stepped_and_skipped(page: Page, server: Server) -> None:
    start(page, server, reveal_plays=True)
    # The first tile turned up goes by itself: the hand comes with no click.
    page.wait_for_selector(".k-card", timeout=15_000)
    choose_cards(page)
    # The round's steps come one after another by themselves, each moving in and told to screen readers.
    expect(page.locator("#k-event.k-ev-CardsRevealed")).to_be_visible(timeout=20_000)
    expect(page.locator("#k-hold")).to_have_text("Pause")
    taken = page.locator("#k-event.k-ev-CastleTaken")
    expect(taken).to_be_visible(timeout=10_000)
    assert page.eval_on_selector("#k-event", "e => getComputedStyle(e).animationName") == "k-step-in"
    expect(page.locator("#announce")).to_contain_text("3. Player 2 takes the small stone castle")
    # The next round's hand comes by itself, the first round's result under it.
    page.wait_for_selector(".k-card", timeout=20_000)
    result = page.locator("#k-last-round")
    expect(result.locator("h3")).to_have_text("Round 1: what happened")
    expect(result.locator(".k-ev-CastleTaken")).to_contain_text("Player 2 takes the small stone castle")
    expect(result.locator("li")).to_have_count(5)  # the cards laid, K4's steps 1 to 4 (the sword stays where it was)
    shot(page, "knights-reveal-result")

    # Pause, by the keyboard: the reveal waits, and says so.
    choose_cards(page)
    hold = page.locator("#k-hold")
    expect(hold).to_be_visible(timeout=20_000)
    hold.focus()
    page.keyboard.press("Enter")
    expect(hold).to_have_text("Continue")
    expect(hold).to_have_attribute("data-held", "true")
    held_at = revision(page)
    page.wait_for_timeout(HELD_LONGER_THAN_A_STEP_MS)
    assert revision(page) == held_at, "the reveal went on while held"
    # Held, it is kept (a reload too); "Next" shows one step and no more.
    page.reload()
    expect(hold).to_have_text("Continue")
    click_and_wait(page, "#k-next")
    stepped_at = revision(page)
    page.wait_for_timeout(HELD_LONGER_THAN_A_STEP_MS)
    assert revision(page) == stepped_at, "the reveal went on while held"
    # Continue: the next step at once, and on by itself again, the keyboard staying on the button.
    hold.focus()
    page.keyboard.press("Enter")
    expect(hold).to_have_text("Pause")
    page.wait_for_function(f"document.body.dataset.revision !== '{stepped_at}'", timeout=1000)
    went_on = revision(page)
    page.wait_for_function(f"document.body.dataset.revision !== '{went_on}'", timeout=HELD_LONGER_THAN_A_STEP_MS)
    if page.query_selector("#k-hold"):
        assert page.evaluate("document.activeElement.id") == "k-hold"
    # "Skip to the result": the round's whole result at once, with the next round's choice.
    page.wait_for_selector("#k-skip, .k-recruit")
    if page.query_selector("#k-skip"):
        page.click("#k-skip")
    page.wait_for_selector(".k-recruit")
    expect(result.locator("h3")).to_have_text("Round 2: what happened")
    expect(result.locator(".k-ev-CastleTaken")).to_contain_text("Player 3 takes the big wooden castle")


def test_with_less_motion_the_reveal_still_plays_by_itself(page: Page, server: Server) -> None:
    page.emulate_media(reduced_motion="reduce")
    start(page, server, reveal_plays=True)
    page.wait_for_selector(".k-card", timeout=15_000)
    choose_cards(page)
    expect(page.locator("#k-event.k-ev-CardsRevealed")).to_be_visible(timeout=20_000)
    expect(page.locator("#k-event.k-ev-CastleTaken")).to_be_visible(timeout=10_000)
    # The step comes without moving in.
    assert page.eval_on_selector("#k-event", "e => getComputedStyle(e).animationName") == "none"
    page.wait_for_selector(".k-card", timeout=20_000)


def test_the_castle_at_stake_stays_on_the_table_while_its_round_is_revealed(page: Page, server: Server) -> None:
    start(page, server)
    at_stake: dict[int, str] = {}
    seen = 0

    def look() -> None:
        nonlocal seen
        if page.query_selector(".k-card"):
            at_stake[round_on_the_table(page)] = page.inner_text("#k-tile")
        event = page.query_selector("#k-event")
        kind = (event.get_attribute("class") or "") if event else ""
        if event and not re.search(r"k-ev-(TileRevealed|GameEnded)\b", kind):
            played = int(event.get_attribute("data-round") or 0)
            # The table shows the round being revealed and its castle (K4), not a dash.
            assert round_on_the_table(page) == played, kind
            assert page.locator("#k-tile").count() == 1, f"no castle at stake during {kind}"
            if played in at_stake:
                assert page.inner_text("#k-tile") == at_stake[played], kind
                seen += 1

    play_stepping(page, look)
    assert len(at_stake) >= 5 and seen >= 20, (at_stake, seen)


def test_the_steps_of_a_round_are_numbered_one_after_another(page: Page, server: Server) -> None:
    start(page, server, lang="pl")
    numbers: dict[int, list[int]] = {}
    text = ""

    def look() -> None:
        nonlocal text
        event = page.query_selector("#k-event")
        if not event:
            return
        first = event.query_selector("p")
        text = first.inner_text() if first else ""
        number = re.match(r"(\d+)\. ", text)
        if number:
            numbers.setdefault(int(event.get_attribute("data-round") or 0), []).append(int(number.group(1)))

    play_stepping(page, look)
    expect(page.locator("#k-over")).to_contain_text("Wygrywa")  # the catalogue's Polish
    for round_, shown in numbers.items():
        assert shown == list(range(1, len(shown) + 1)), (round_, shown)
    # Round 4 had no card laid twice: its step 2 is left out, and the steps after it go on from 2.
    assert numbers[4] == [1, 2, 3, 4], numbers


# Whatever is out of a phone's screen: the page scrolling sideways, or a seat, a card or a step reaching past an edge.
OUT_OF_SCREEN = """(width) => {
  const out = [];
  if (document.scrollingElement.scrollWidth > width) out.push(`the page: ${document.scrollingElement.scrollWidth}`);
  const areas = '.k-players tbody tr, #k-tile, .k-card, .k-recruit, .k-laid-seat, .k-event, .k-ranking, '
    + '.k-step-buttons button, #k-play, #k-round';
  for (const node of document.querySelectorAll(areas)) {
    const box = node.getBoundingClientRect();
    const name = node.className || node.id;
    if (box.width && (box.left < 0 || box.right > width)) out.push(`${name}: ${box.left}-${box.right}`);
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_whole_table_fits_a_phone(page: Page, server: Server, lang: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    start(page, server, seats=["person", "heuristic", "heuristic", "heuristic"], lang=lang)
    looked = 0

    def look() -> None:
        nonlocal looked
        out = page.evaluate(OUT_OF_SCREEN, 390)
        if out:
            shot(page, f"knights-phone-{lang}-out")
        assert not out, out
        looked += 1

    play_stepping(page, look)
    shot(page, f"knights-phone-{lang}-over")
    assert looked >= 30
