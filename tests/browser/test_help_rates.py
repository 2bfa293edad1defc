"""The rules page draws its examples' points with the server's rates (/api/meta), not with numbers of its own (Z14,
Z20)."""

from __future__ import annotations

import json

from playwright.sync_api import Page, Route, expect

from tests.live_server import Server
from zamek.castle.rules.rates import RATES


def badges(page: Page) -> list[str]:
    page.wait_for_selector("#help-scoring .help-figure svg")
    scoring = page.locator("#help-scoring .help-figure svg text").all_text_contents()
    area = page.locator("#help-end svg text").all_text_contents()
    return [*scoring, *area]


def test_the_rules_pages_points_are_the_servers_rates(page: Page, server: Server) -> None:
    page.goto(f"{server.url}#/help")
    # A road of 3 tiles, a house and a pigsty of 2, an empty area of 5 spaces, at the rulebook's rates.
    expected = [3 * RATES.road, 2 * RATES.house, 2 * RATES.pigsty, 5 * RATES.empty_space]
    assert badges(page) == [str(n) for n in expected]


def test_other_rates_from_the_server_are_drawn(page: Page, server: Server) -> None:
    def other_rates(route: Route) -> None:
        answer = route.fetch()
        meta = answer.json()
        meta["rates"].update(road=7, house=5, pigsty=11, empty_space=3)
        route.fulfill(response=answer, body=json.dumps(meta))

    page.route("**/api/meta", other_rates)
    page.goto(f"{server.url}#/help")
    expect(page.locator("#help-scoring .help-figure svg text").first).to_have_text("21")
    assert badges(page) == ["21", "10", "22", "15"]
