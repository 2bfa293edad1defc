"""Hints and the analysis in a real browser, in English and in Polish: three numbered hints on the board against the
computer, a finished game's analysis (graph, summary, flagged decisions; a decision picked draws the best move),
and no Hint button in a game against a friend created without hints.

The browser, the server and the page are the fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx2 as httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.pages import shot, start_game
from tests.live_server import Server
from tests.web_client import finished_record

WORDS = {
    "en": {"hint": "Hint", "analyse": "Analyse", "blunder": "blunder", "best": "Best", "hints-off": "no hints",
           "ahead": "(above the line: {who} ahead)"},
    "pl": {"hint": "Podpowiedź", "analyse": "Analizuj", "blunder": "poważny błąd", "best": "Najlepszy",
           "hints-off": "bez podpowiedzi", "ahead": "(nad linią: {who} na prowadzeniu)"},
}


@pytest.fixture(params=["en", "pl"])
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    lang = request.param
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB", bypass_csp=True)
    context.add_init_script(f"localStorage.setItem('zamek-lang', '{lang}');"
                            "localStorage.getItem('zamek-auto-pass') || localStorage.setItem('zamek-auto-pass', 'off')")
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.lang = lang  # type: ignore[attr-defined]
    yield pg
    context.close()
    assert not errors, errors


def words(page: Page) -> dict[str, str]:
    return WORDS[page.lang]  # type: ignore[attr-defined]


def test_three_numbered_hints_on_the_board_against_the_computer(page: Page, server: Server) -> None:
    start_game(page, server.url)
    hint = page.locator("#hint")
    expect(hint).to_contain_text(words(page)["hint"])
    hint.click()
    items = page.locator("#hint-list li")
    expect(items).to_have_count(3)
    ghosts = page.locator(".layer-ghosts .ghost-move.hint")
    # One drawing for each space hinted, its badge numbering the hints there ("1, 2" where two share it).
    numbered = ghosts.evaluate_all("nodes => nodes.map(n => n.dataset.hints.split(' '))")
    assert sorted(int(n) for here in numbered for n in here) == [1, 2, 3]
    svg_texts = "nodes => nodes.map(n => n.textContent)"  # SVG text has no inner text
    assert page.locator(".layer-ghosts .ghost-badge-text").evaluate_all(svg_texts) == [", ".join(h) for h in numbered]
    notes = dict(page.locator(".layer-ghosts .ghost-note").evaluate_all(
        "nodes => nodes.map(n => [n.dataset.n, n.textContent])"))
    leads = page.locator("#hint-list .hint-lead").all_inner_texts()
    # The lead of a hint alone on its space beside it, as in the list (where hints share a space, the list has them).
    assert notes == {here[0]: leads[int(here[0]) - 1] for here in numbered if len(here) == 1}, (notes, leads)
    assert all(re.fullmatch(r"[+−±]\d+\.\d", n) for n in notes.values()), notes
    # Each hint is a placement the drawn tile may take: its space is one of the highlighted ones.
    legal = set(page.eval_on_selector_all(".layer-legal [data-space]", "nodes => nodes.map(n => n.dataset.space)"))
    assert set(ghosts.evaluate_all("nodes => nodes.map(n => n.dataset.space)")) <= legal
    shot(page, f"hints-{page.lang}")  # type: ignore[attr-defined]
    # Picking a hint turns the tile as it says (the placement is still the player's click).
    second = page.locator("#hint-list li").nth(1)
    action = second.get_attribute("data-action") or ""
    second.locator("button").click()
    degrees = action.rsplit("/", 1)[1]
    expect(page.locator("#turn")).to_contain_text(f"{degrees}°")


def test_analyse_a_finished_game(page: Page, server: Server) -> None:
    game = httpx.post(f"{server.url}api/import", json=finished_record(4)).json()
    page.goto(f"{server.url}#/game/{game['id']}")
    page.wait_for_selector("#game-over")
    page.click("#analyse")
    page.wait_for_selector("#advantage", timeout=30_000)
    # The graph: a column per decision, markers on the flagged ones.
    analysis = httpx.get(f"{server.url}api/games/{game['id']}/analysis").json()
    decisions = analysis["decisions"]
    expect(page.locator("#advantage .advantage-hit")).to_have_count(len(decisions))
    flagged = [d for d in decisions if d["flag"]]
    expect(page.locator("#advantage .advantage-mark")).to_have_count(len(flagged))
    # The summary of each player, the legend with the thresholds, the decisions with their flags.
    rows = page.locator("#analysis-summary tbody tr")
    expect(rows).to_have_count(2)
    # The caption names the first player in words that read right for any name ("You", "Ty" included).
    first = rows.nth(0).locator("td").nth(0).inner_text().strip()
    caption = page.locator("#advantage-caption").inner_text()
    assert words(page)["ahead"].format(who=first) in caption and f" {first} " not in caption.split("(")[0], caption
    blunders = [s["blunders"] for s in analysis["summary"]]
    assert [rows.nth(p).locator("td").nth(3).inner_text() for p in (0, 1)] == [str(b) for b in blunders]
    legend = page.locator("#analysis-legend")
    expect(legend).to_contain_text(f"{analysis['thresholds']['blunder']:g}")
    expect(legend).to_contain_text("??")
    expect(page.locator("#decision-list li")).to_have_count(len(decisions))
    expect(page.locator("#decision-list li.flagged")).to_have_count(len(flagged))
    blunder = next(d for d in decisions if d["flag"] == "blunder" and d["played"][0].count("/") == 1)
    item = page.locator(f"#decision-list li[data-index='{blunder['index']}']")
    expect(item).to_contain_text(f"?? {words(page)['blunder']}")
    shot(page, f"analysis-{page.lang}")  # type: ignore[attr-defined]
    # A decision picked: the replay goes there and the best move is drawn beside the move played.
    item.click()
    page.wait_for_function(f"location.hash.endsWith('/{blunder['index']}')")
    expect(page.locator("#replay-position")).to_contain_text(str(blunder["index"]))
    best = page.locator(".layer-ghosts .ghost-move.best")
    expect(best).to_have_count(1)
    expect(best).to_have_attribute("data-space", blunder["best"][0].split("/")[0])
    played = page.locator(".layer-ghosts .ghost-move.played")
    expect(played).to_have_count(1)
    expect(played).to_have_attribute("data-space", blunder["played"][0].split("/")[0])
    expect(page.locator("#decision-detail")).to_contain_text(words(page)["best"])
    expect(page.locator(f"#decision-list li.current[data-index='{blunder['index']}']")).to_have_count(1)
    # A point of the graph goes to its decision too.
    other = decisions[0]
    page.locator(f"#advantage .advantage-hit[data-index='{other['index']}']").click()
    page.wait_for_function(f"location.hash.endsWith('/{other['index']}')")
    expect(page.locator(".layer-ghosts .ghost-move.best")).to_have_count(1)
    expect(page.locator(f"#decision-list li.current[data-index='{other['index']}']")).to_have_count(1)
    # The move played on the best move's space (turned another way): both drawn, neither hidden under the other.
    shared = next(d for d in decisions if d["played"] != d["best"] and "/" in d["played"][0]
                  and d["played"][0].split("/")[0] == d["best"][0].split("/")[0])
    page.locator(f"#decision-list li[data-index='{shared['index']}']").click()
    page.wait_for_function(f"location.hash.endsWith('/{shared['index']}')")
    space = shared["best"][0].split("/")[0]
    expect(page.locator(f".layer-ghosts .ghost-move.best[data-space='{space}']")).to_have_count(1)
    expect(page.locator(f".layer-ghosts .ghost-move.played[data-space='{space}']")).to_have_count(1)
    places = ("nodes => nodes.map(n => [n.getAttribute('x') || n.getAttribute('cx'),"
              " n.getAttribute('y') || n.getAttribute('cy')].join(','))")
    for part in (".ghost-badge", ".ghost-note"):
        best_at = page.locator(f".layer-ghosts .ghost-move.best {part}").evaluate_all(places)
        played_at = page.locator(f".layer-ghosts .ghost-move.played {part}").evaluate_all(places)
        assert best_at and played_at and not set(best_at) & set(played_at), (part, best_at, played_at)
    shot(page, f"analysis-shared-space-{page.lang}")  # type: ignore[attr-defined]


def join_as_friend(page: Page) -> Page:
    """The invitation link opened in another browser (its own storage: no seat of the game), in the same language."""
    link = page.locator("#invite-link").input_value()
    other = page.context.browser
    assert other is not None
    friend = other.new_context(bypass_csp=True).new_page()
    friend.add_init_script(f"localStorage.setItem('zamek-lang', '{page.lang}')")  # type: ignore[attr-defined]
    friend.goto(link)
    return friend


def friend_game(page: Page, server: Server, allow_hints: bool) -> Page:
    """Create a game against a friend, ticking *Allow hints* or not; the friend sees which before joining."""
    page.goto(server.url)
    page.wait_for_selector("#new-game")
    page.check("input[name=mode][value=friend]")
    expect(page.locator("#allow-hints")).not_to_be_checked()
    if allow_hints:
        page.check("#allow-hints")
    page.click("#start-game")
    page.wait_for_selector("#invite-link")
    friend = join_as_friend(page)
    expect(friend.locator("#join-hints")).to_have_attribute("data-hints", "true" if allow_hints else "false")
    friend.click("#join-game")
    return friend


def test_a_game_against_a_friend_without_hints_has_no_hint_button(page: Page, server: Server) -> None:
    friend = friend_game(page, server, allow_hints=False)
    friend.wait_for_selector("#their-turn")
    page.wait_for_selector(".legal.now")
    expect(page.locator("#hints-info")).to_contain_text(words(page)["hints-off"])
    expect(page.locator("#hint")).to_have_count(0)
    friend.context.close()


def test_a_game_against_a_friend_with_hints_says_so_before_joining(page: Page, server: Server) -> None:
    friend = friend_game(page, server, allow_hints=True)
    page.wait_for_selector(".legal.now")
    page.click("#hint")
    expect(page.locator("#hint-list li")).to_have_count(3)
    friend.context.close()
