"""The rules page and the first-game guide, in a real browser.

The rules page (#/help) is one click away from every screen, speaks English and Polish in the words of either
edition (every text is the catalogue's: help.toml, and terms.toml for the game's words), draws its pictures with
the board's renderer, and has a section for Rycerze i zamki. The guide points, on a first game, at the drawn
tile, the highlighted spaces and the figure choice; it never stands in the way of a click, can be switched off,
and is started again from the rules page.

The browser, the server and the page are the fixtures of tests/browser/conftest.py: the page is that of someone who
has never played here (the guide is on), in English.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.pages import choose_language, click_and_wait, play_step, start_game
from tests.live_server import Server
from zamek.castle.rules.tokens import TokenKind, printed_number
from zamek.i18n import say


def open_help(page: Page) -> None:
    page.click("#help-link")
    page.wait_for_selector("#help")
    assert page.url.endswith("#/help")


# ------------------------------------------------------------------------------------------ the rules


def test_the_rules_are_one_click_away_from_every_screen(page: Page, server: Server) -> None:
    page.goto(server.url)
    page.wait_for_selector("#new-game")
    open_help(page)
    expect(page.locator("#help-link")).to_have_attribute("aria-current", "page")
    page.click("#help-back")
    page.wait_for_selector("#new-game")
    game = start_game(page, server.url)
    open_help(page)
    page.go_back()
    page.wait_for_selector(".legal.now")  # back in the game, as it was
    page.goto(f"{server.url}#/replay/{game}/")
    page.wait_for_selector("#replay-slider")
    open_help(page)
    page.goto(server.url)
    page.wait_for_selector("#knights-new")
    page.select_option("#k-seat-1", "heuristic")
    page.click("#k-start")
    page.wait_for_url("**/#/knights/*")
    page.wait_for_selector("#k-stage")
    open_help(page)
    page.goto(f"{server.url}#/help/tokens")
    page.wait_for_selector("#help-tokens")
    assert page.evaluate("document.getElementById('help-tokens').getBoundingClientRect().top") < 100


# The answer held back, of the knights screen's GETs of its game: (sent with a seat's token, the how-manieth of those).
HELD_BACK = {"opening": (False, 1), "connected": (False, 2), "hand": (True, 1)}


@pytest.mark.parametrize("held_back", list(HELD_BACK))
def test_a_knights_answer_that_comes_back_after_leaving_for_the_rules_draws_nothing(
        page: Page, server: Server, held_back: str) -> None:
    # A flaky run's race: the rules link clicked while the knights screen waited for an answer (the table when
    # opened, the table again when the live events connect, the person's hand after the reveal), whose late
    # drawing put the game over the rules page.
    token, nth = HELD_BACK[held_back]
    seen: list[Route] = []
    held: list[Route] = []

    def hold(route: Route) -> None:
        if route.request.method == "GET" and ("authorization" in route.request.headers) == token:
            seen.append(route)
            if len(seen) == nth:
                held.append(route)
                return
        route.continue_()

    page.goto(server.url)
    page.wait_for_selector("#knights-new")
    page.select_option("#k-seat-1", "heuristic")
    page.route(re.compile(r"/api/games/[^/?]+\?(seat=\d+&)?lang="), hold)
    page.click("#k-start")
    page.wait_for_url("**/#/knights/*")
    if held_back == "hand":
        page.click("#k-skip")  # past the reveal of the first tile: the page asks for the hand
    for _ in range(500):
        if held:
            break
        page.wait_for_timeout(20)
    assert held, f"no {held_back} request to hold back"
    open_help(page)
    with page.expect_response(lambda r: r.request == held[0].request):
        held[0].continue_()
    page.evaluate("() => new Promise((done) => setTimeout(done, 300))")  # time for the late answer's drawing
    assert page.url.endswith("#/help")
    expect(page.locator("#help")).to_be_visible()
    expect(page.locator("#k-stage")).to_have_count(0)


def test_the_rules_in_both_languages_and_in_the_words_of_both_editions(page: Page, server: Server) -> None:
    page.goto(server.url)
    page.wait_for_selector("#new-game")
    open_help(page)
    help_page = page.locator("#help")
    expect(page.locator("#help-features-title")).to_have_text("What is on a tile")
    features = page.locator("#help-features")
    expect(features).to_contain_text("Pigsty: the brown yards")
    expect(features).to_contain_text("Stocks: they stand beside a road")
    # The Castle (2003): a pigsty is a tower, stocks a fountain, a fountain a square, special tokens wall tiles.
    page.check("input[name=help-edition][value=castle2003]")
    expect(help_page).to_have_attribute("data-edition", "castle2003")
    expect(features).to_contain_text("Tower: the brown yards")
    expect(features).to_contain_text("Fountain: it stands beside a path")
    expect(features).to_contain_text("Square: the path arms")
    assert "pigsty" not in features.inner_text().lower()
    # The wall tiles in their own numbering (C4): number 2 is "tower x2", and a wall tile may be used at once (C3).
    first_two = page.locator(".help-tokens .help-item strong").all_inner_texts()[:2]
    assert first_two == ["1. extra turn", "2. tower x2"]
    expect(page.locator("#help-tokens")).to_contain_text("already in the turn you took it")
    # The choice of edition is kept.
    page.reload()
    expect(page.locator("#help")).to_have_attribute("data-edition", "castle2003")
    # In Polish, still in the 2003 words, and back to Zamek's.
    choose_language(page, "pl")
    expect(page.locator("#help-features-title")).to_have_text("Co jest na kafelku")
    expect(page.locator("#help-link")).to_have_text("Zasady")
    expect(features).to_contain_text("Wieża: brązowa zagroda")
    expect(page.locator("#help-end")).to_contain_text("Donżon:")
    page.check("input[name=help-edition][value=zamek]")
    expect(features).to_contain_text("Chlew: brązowa zagroda")
    expect(features).to_contain_text("Dyby: stoją przy drodze")
    expect(page.locator("#help-end")).to_contain_text("Siedziba rodu:")
    # No English in the Polish rules (but the 2003 edition's own name).
    text = page.inner_text("#help").replace("The Castle", "")
    english = re.findall(r"\b(the|and|tile|tiles|points?|score[sd]?|your|with|when|player)\b", text)
    assert not english, english
    expect(page.locator("#help-knights-title")).to_have_text("Rycerze i zamki (gra karciana)")


def test_the_rules_pictures_are_drawn_by_the_boards_renderer(page: Page, server: Server) -> None:
    page.goto(f"{server.url}#/help")
    page.wait_for_selector("#help")
    features = page.locator("#help-features .help-item")
    assert features.evaluate_all("nodes => nodes.map(n => n.dataset.kind)") == [
        "road", "house", "pigsty", "meadow", "shrine", "stocks", "fountain"]
    for kind, art in [("road", ".cobbles"), ("house", ".roof"), ("pigsty", ".pig"), ("meadow", ".grass"),
                      ("shrine", ".icon.shrine"), ("stocks", ".icon.stocks"), ("fountain", ".icon.fountain")]:
        item = page.locator(f"#help-features .help-item[data-kind={kind}]")
        expect(item.locator("svg g.tile").first).to_be_attached()  # a whole tile, as the board draws it
        expect(item.locator(f"svg {art}").first).to_be_attached()
        expect(item.locator(f"svg .swatch-{kind}")).to_have_count(1)  # and its close-up
        assert item.locator("svg").first.get_attribute("role") == "img"
    expect(page.locator("#help-figures svg .figure")).to_have_count(4)
    expect(page.locator("#help-scoring .help-figure svg")).to_have_count(3)
    expect(page.locator("#help-tokens .token-art")).to_have_count(9)
    expect(page.locator("#help-end svg g.tile").first).to_be_attached()
    expect(page.locator("#help-sokol svg .chapel-art")).to_have_count(1)
    expect(page.locator("#help-sokol svg .icon.nest")).to_have_count(1)
    # Rycerze i zamki: the printed knight (6, 3, 2 against stone, brick, wood), the shepherd, the tiles.
    knight = page.locator("#help-knights .k-card[data-card=knight]")
    assert knight.locator(".k-str-value").all_inner_texts() == ["6", "3", "2"]
    expect(knight.locator("svg.k-kind-mark")).to_have_count(3)
    expect(page.locator("#help-knights .k-card[data-card=shepherd] svg.k-card-art")).to_have_count(1)
    expect(page.locator("#help-knights svg.k-tile-art")).to_have_count(7)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_rules_tokens_are_the_games_own(page: Page, server: Server, lang: str) -> None:
    """The rules page opens before any game: its tokens are numbered as each edition prints them (C4, the engine's
    printed_number) and named by the catalogue (token.*), in the words of the edition read."""
    page.goto(server.url)
    page.evaluate(f"localStorage.setItem('zamek-lang', '{lang}')")
    for edition in ("zamek", "castle2003"):
        page.evaluate(f"localStorage.setItem('zamek-help-edition', '{edition}')")
        page.goto(f"{server.url}#/help/tokens")
        page.reload()
        expect(page.locator("#help")).to_have_attribute("data-edition", edition)
        items = page.locator(".help-tokens .help-item")
        expect(items).to_have_count(len(TokenKind))
        shown = items.evaluate_all("nodes => nodes.map(n => [+n.dataset.token, n.querySelector('strong').textContent])")
        expected = sorted(((int(kind), f"{printed_number(kind, edition)}. {say(f'token.{int(kind)}', lang, edition)}")
                           for kind in TokenKind), key=lambda entry: printed_number(TokenKind(entry[0]), edition))
        assert [tuple(item) for item in shown] == expected, (lang, edition)


# ------------------------------------------------------------------------------------------ the guide


def guide_steps(page: Page) -> list[str]:
    steps: list[str] = page.locator(".guide-callout").evaluate_all("nodes => nodes.map(n => n.dataset.step)")
    return steps


def test_the_first_game_guide_points_at_the_tile_the_spaces_and_the_figure_choice(
        page: Page, server: Server) -> None:
    start_game(page, server.url)
    # ① the drawn tile: the callout stands right above it; ② the highlighted spaces: a callout, and a marker over one.
    expect(page.locator("#guide-tile")).to_be_visible()
    assert guide_steps(page) == ["tile", "spaces"]
    assert page.evaluate("document.querySelector('#guide-tile').nextElementSibling"
                         ".contains(document.getElementById('drawn-tile'))")
    expect(page.locator("#guide-spaces")).to_contain_text("highlighted spaces")
    pointer = page.locator("#guide-pointer")
    expect(pointer).to_be_visible()
    spot = page.evaluate("""() => {
      const p = document.getElementById('guide-pointer').getBoundingClientRect();
      const under = [...document.querySelectorAll('.legal.now')].map((n) => n.getBoundingClientRect());
      return under.some((r) => Math.abs(p.left + p.width / 2 - (r.left + r.width / 2)) < 3
        && Math.abs(p.bottom - r.top) < 12);
    }""")
    assert spot, "the marker stands over no highlighted space"
    # The marker takes no click: what is under it is the board.
    assert page.evaluate("""() => {
      const p = document.getElementById('guide-pointer').getBoundingClientRect();
      const hit = document.elementFromPoint(p.left + p.width / 2, p.top + p.height / 2);
      return !!hit && !hit.closest('#guide-pointer');
    }""")
    # ③ after placing: the figure choice, the focus still on it, and a marker over the ghost figure.
    click_and_wait(page, ".legal.now")
    expect(page.locator("#guide-figure")).to_be_visible()
    assert guide_steps(page) == ["figure"]
    assert page.evaluate("document.querySelector('#guide-figure').nextElementSibling.classList.contains('choices')")
    assert page.evaluate("document.activeElement.classList.contains('choice-button')")
    expect(pointer).to_be_visible()
    # A figure (or none) put: the guide has shown it all and is done, for this game and the next ones.
    click_and_wait(page, ".choice-button.pass")
    expect(page.locator(".guide-callout")).to_have_count(0)
    expect(pointer).to_be_hidden()
    assert page.evaluate("localStorage.getItem('zamek-guide')") == "done"
    start_game(page, server.url)
    page.wait_for_timeout(300)
    expect(page.locator(".guide-callout")).to_have_count(0)
    # The rules page starts it again.
    open_help(page)
    assert not page.is_checked("#guide-on")
    page.click("#guide-restart")
    expect(page.locator("#guide-restarted")).to_be_visible()
    assert page.is_checked("#guide-on")
    start_game(page, server.url)
    expect(page.locator("#guide-tile")).to_be_visible()


def test_the_guide_can_be_hidden_and_speaks_the_pages_language(page: Page, server: Server) -> None:
    start_game(page, server.url)
    expect(page.locator("#guide-tile")).to_contain_text("This is your tile")
    choose_language(page, "pl")
    expect(page.locator("#guide-tile")).to_contain_text("To twój kafelek")
    expect(page.locator("#guide-tile .guide-hide")).to_have_text("Ukryj przewodnik")
    page.click("#guide-tile .guide-hide")
    expect(page.locator(".guide-callout")).to_have_count(0)
    expect(page.locator("#guide-pointer")).to_be_hidden()
    assert page.evaluate("localStorage.getItem('zamek-guide')") == "off"
    click_and_wait(page, ".legal.now")
    page.wait_for_timeout(200)
    expect(page.locator(".guide-callout")).to_have_count(0)  # switched off: not for the figure either
    open_help(page)
    assert not page.is_checked("#guide-on")
    page.check("#guide-on")
    assert page.evaluate("localStorage.getItem('zamek-guide')") is None


def test_the_guide_stays_away_from_a_game_opened_later(page: Page, server: Server) -> None:
    """Only a game's first turns bring the guide: a game resumed in its middle goes on without it."""
    page.goto(server.url)
    page.evaluate("localStorage.setItem('zamek-guide', 'off')")
    start_game(page, server.url)
    for _ in range(8):
        play_step(page)
    page.evaluate("localStorage.removeItem('zamek-guide')")
    page.reload()
    page.wait_for_selector(".legal.now")
    assert page.evaluate("document.body.dataset.phase") == "place"
    page.wait_for_timeout(300)
    expect(page.locator(".guide-callout")).to_have_count(0)
