"""A third language is a catalogue folder, not code: with the pseudo-locale (zamek.i18n.pseudo: every message of
the English catalogue accented, lengthened and wrapped in ⟦…⟧) given to the server as a folder, whole games of
both games played through the page show no word outside a message, on every screen a player passes: the lobby,
the game, the end, the replay, the rules page. A word on screen outside the brackets bypassed the catalogue."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.browser.pages import KNIGHTS_READY, choose_cards, play_step, recruit, shot
from tests.live_server import Server, start_server
from zamek import i18n
from zamek.i18n.pseudo import PSEUDO, unwrapped, write_pseudo_locale

SCREEN_TEXT = """() => {
  const texts = [document.body.innerText, document.title];
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    if (el.closest('[hidden]')) continue;
    for (const name of ['title', 'aria-label', 'placeholder', 'alt']) {
      if (el.hasAttribute(name)) texts.push(el.getAttribute(name));
    }
  }
  for (const el of document.querySelectorAll('svg title')) texts.push(el.textContent);
  return texts.join('\\n');
}"""
"""What a player reads: the visible text, the titles and labels a pointer or a screen reader gives."""

COORDINATES = {*"abcdefghij"}
"""The board's column letters are coordinates, not words."""


def endonyms() -> set[str]:
    """The languages' own names, which the language menu shows in every language (English, Polski)."""
    return {word for code in i18n.languages() for word in i18n.catalogue(code).name.split()}


@pytest.fixture
def pseudo_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    write_pseudo_locale(tmp_path / "catalogues")
    monkeypatch.setenv(i18n.CATALOGUES_ENV, str(tmp_path / "catalogues"))
    i18n.reset()
    server = start_server(tmp_path / "games.sqlite3")
    try:
        yield server
    finally:
        server.stop()
        monkeypatch.delenv(i18n.CATALOGUES_ENV)
        i18n.reset()


@pytest.fixture
def pseudo_page(page: Page) -> Page:
    """The conftest's page, in the pseudo-locale from its first screen."""
    page.context.add_init_script(f"localStorage.setItem('zamek-lang', '{PSEUDO}')")
    return page


class Reading:
    """Every screen the test passes, read as a player reads it; the words outside the catalogue's messages."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.found: dict[str, str] = {}
        self.screens = 0
        self.allowed = COORDINATES | endonyms()

    def read(self, where: str) -> None:
        self.screens += 1
        text = str(self.page.evaluate(SCREEN_TEXT))
        assert "⟦" in text, f"{where}: the page is not in the pseudo-locale"
        for word in unwrapped(text):
            if word not in self.allowed:
                self.found.setdefault(word, where)

    def check(self) -> None:
        if self.found:
            shot(self.page, "pseudo-locale-leak")
        assert not self.found, f"words outside the catalogue (word: screen): {self.found}"


@pytest.mark.long(35)
def test_a_whole_castle_game_in_the_pseudo_locale(pseudo_page: Page, pseudo_server: Server) -> None:
    page = pseudo_page
    reading = Reading(page)
    page.goto(pseudo_server.url)
    page.wait_for_selector("#new-game")
    reading.read("the lobby")
    page.check("input[name=level][value=beginner]")
    page.check("input[name=sokol]")
    page.click("#start-game")
    page.wait_for_selector(".legal.now")
    steps = 0
    while True:
        reading.read(f"the game, step {steps}")
        if not play_step(page):
            break
        steps += 1
        assert steps < 400
    reading.read("the end of the game")
    game = page.url.rsplit("/", 1)[-1]
    page.goto(f"{pseudo_server.url}#/replay/{game}")
    page.wait_for_selector("#replay, .replay", timeout=20_000)
    reading.read("the replay")
    page.goto(f"{pseudo_server.url}#/help")
    page.wait_for_selector("#help, .help", timeout=20_000)
    reading.read("the rules page")
    page.goto(pseudo_server.url)
    page.wait_for_selector(".game-list[data-status=over] .game-item")
    reading.read("the lobby after the game")
    assert reading.screens > 30
    reading.check()


def test_a_whole_card_game_in_the_pseudo_locale(pseudo_page: Page, pseudo_server: Server) -> None:
    page = pseudo_page
    reading = Reading(page)
    page.goto(pseudo_server.url)
    page.wait_for_selector("#knights-new")
    page.select_option("#k-players", "3")
    page.select_option("#k-seat-0", "person")
    reading.read("the card game's lobby")
    page.click("#k-start")
    page.wait_for_url("**/#/knights/*")
    for step in range(400):
        page.wait_for_function(KNIGHTS_READY, timeout=20_000)
        reading.read(f"the card game, step {step}")
        if page.query_selector("#k-over"):
            break
        if page.query_selector("#k-next"):
            page.click("#k-next")
        elif page.query_selector(".k-card"):
            choose_cards(page)
        elif page.query_selector(".k-recruit"):
            recruit(page)
        else:
            page.click("#k-show")
    assert page.query_selector("#k-over")
    reading.check()
