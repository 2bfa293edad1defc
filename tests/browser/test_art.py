"""The tiles' art (tiles.js) and Rycerze i zamki's cards and tiles (knights-art.js), in a real browser: every tile
drawn the same way each time, its features' shapes and figure spots those the board has always had, the art
never in the way of a click, each feature with its own picture (roofs, pigs, cobbles, grass, a chapel, the
fountain, shrines, stocks, nests), close-ups that differ from one another, and the cards drawn as cards.

The browser, the server and the page are the fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.pages import start_game
from tests.helpers import FIXTURES
from tests.live_server import Server

SHAPES_BEFORE = FIXTURES / "tile_shapes.json"

# Every tile of the Sokół set (the base tiles with them), drawn by tiles.js: what the board clicks and outlines.
SHAPES = """async () => {
  const T = await import('/static/tiles.js');
  const geo = await (await fetch('/api/geometry?sokol=true')).json();
  const round = (v) => Math.round(v * 1e4) / 1e4;
  const out = {};
  for (const tile of geo.tiles) {
    const svg = T.el('svg');
    T.drawTile(svg, tile);
    const features = [...svg.querySelectorAll('[data-feature]')]
      .map((n) => [Number(n.dataset.feature), n.getAttribute('class'), n.getAttribute('d')]);
    features.sort((a, b) => a[0] - b[0]);
    const outlines = tile.features.map((_, i) => {
      const node = T.featureOutline(T.el('g'), tile, i, 'x');
      const [cx, cy, r] = ['cx', 'cy', 'r'].map((a) => node.getAttribute(a));
      return node.getAttribute('d') || `circle ${cx} ${cy} ${r}`;
    });
    out[tile.id] = { features, outlines, anchors: T.tileAnchors(tile).map((p) => p.map(round)) };
  }
  return out;
}"""

DRAWINGS = """async () => {
  const T = await import('/static/tiles.js');
  const geo = await (await fetch('/api/geometry?sokol=true')).json();
  return Object.fromEntries(geo.tiles.map((tile) => {
    const svg = T.el('svg');
    T.drawTile(svg, tile);
    return [tile.id, svg.innerHTML];
  }));
}"""

# What each tile's art shows, feature by feature, and what the tile says it has.
ART = """async () => {
  const T = await import('/static/tiles.js');
  const geo = await (await fetch('/api/geometry?sokol=true')).json();
  return geo.tiles.map((tile) => {
    const svg = T.el('svg');
    T.drawTile(svg, tile);
    const art = [...svg.querySelectorAll('.art')];
    return {
      id: tile.id,
      kinds: tile.features.map((f) => f.kind),
      fountain: !!tile.fountain,
      shrines: tile.features.reduce((n, f) => n + (f.shrines || 0), 0),
      stocks: tile.features.filter((f) => f.stocks).length,
      nests: tile.features.reduce((n, f) => n + (f.nests || 0), 0),
      roofs: [...svg.querySelectorAll('.art-house')].map((g) => g.querySelectorAll('.roof').length),
      pigs: [...svg.querySelectorAll('.art-pigsty')].map((g) => g.querySelectorAll('.pig').length),
      chapels: [...svg.querySelectorAll('.art-chapel')].map((g) => g.querySelectorAll('.chapel-art').length),
      cobbles: svg.querySelectorAll('.cobbles path').length,
      grass: svg.querySelectorAll('.grass path').length,
      fountains: svg.querySelectorAll('.icon.fountain').length,
      shrineIcons: svg.querySelectorAll('.icon.shrine').length,
      stocksIcons: svg.querySelectorAll('.icon.stocks').length,
      nestIcons: svg.querySelectorAll('.icon.nest').length,
      artTakesClicks: art.filter((g) => g.getAttribute('pointer-events') !== 'none').length,
    };
  });
}"""


def tiles_page(page: Page, server: Server) -> None:
    """A page of the server that runs no screen of the app: the modules are imported by the test itself."""
    page.goto(f"{server.url}api/meta")


def test_the_features_shapes_and_the_figures_spots_are_the_boards_own(page: Page, server: Server) -> None:
    """The art changes nothing the board points at: every feature's shape (the path with its data-feature), its
    outline and the spot a figure stands on are, tile by tile, those of tiles.js before the art (the fixture
    was written by that version, commit 3864e5e)."""
    tiles_page(page, server)
    shapes = page.evaluate(SHAPES)
    before = json.loads(SHAPES_BEFORE.read_text())
    assert len(shapes) == len(before) == 78
    changed = [tile for tile in before if shapes.get(tile) != before[tile]]
    assert not changed, changed


def test_every_tile_is_drawn_the_same_way_every_time(browser, server: Server) -> None:
    drawings = []
    for _ in range(2):  # two pages: nothing is kept from one to the other
        context = browser.new_context()
        try:
            page = context.new_page()
            tiles_page(page, server)
            drawings.append(page.evaluate(DRAWINGS))
            again = page.evaluate(DRAWINGS)
            assert again == drawings[-1]
        finally:
            context.close()
    assert drawings[0] == drawings[1]
    assert len(set(drawings[0].values())) == len(drawings[0]) == 78  # and no two tiles look alike


def test_every_feature_is_drawn_as_what_it_is(page: Page, server: Server) -> None:
    tiles_page(page, server)
    tiles: list[dict[str, Any]] = page.evaluate(ART)
    for t in tiles:
        where = t["id"]
        assert len(t["roofs"]) == t["kinds"].count("house") and all(n >= 1 for n in t["roofs"]), where
        assert len(t["pigs"]) == t["kinds"].count("pigsty") and all(n >= 1 for n in t["pigs"]), where
        assert len(t["chapels"]) == t["kinds"].count("chapel") and all(n == 1 for n in t["chapels"]), where
        assert t["cobbles"] == 3 * t["kinds"].count("road"), where  # cobbles on every road
        assert t["grass"] > 0, where
        assert t["fountains"] == int(t["fountain"]), where
        assert (t["shrineIcons"], t["stocksIcons"], t["nestIcons"]) == (t["shrines"], t["stocks"], t["nests"]), where
        assert t["artTakesClicks"] == 0, where
    assert sum(t["stocks"] for t in tiles) >= 6 and sum(t["shrines"] for t in tiles) >= 12


def test_the_art_is_never_in_the_way_of_a_click(page: Page, server: Server) -> None:
    """On a placed tile, what is under the spot of every figure is the board's feature or ground, never a roof, a
    pig or an icon: the board's pointing at features works as it did."""
    tiles_page(page, server)
    hits = page.evaluate("""async () => {
      const T = await import('/static/tiles.js');
      const geo = await (await fetch('/api/geometry?sokol=true')).json();
      const svg = T.el('svg', { viewBox: '0 0 1 1', width: 300, height: 300 });
      document.body.innerHTML = '';
      document.body.style.margin = '0';
      document.body.append(svg);
      const wrong = [];
      for (const tile of geo.tiles) {
        svg.innerHTML = '';
        T.drawTile(svg, tile);
        T.tileAnchors(tile).forEach(([x, y], i) => {
          const hit = document.elementFromPoint(x * 300, y * 300);
          if (!hit || hit.closest('.art')) wrong.push(`${tile.id}:${i}`);
        });
      }
      return wrong;
    }""")
    assert hits == []


SWATCHES = ["road", "house", "pigsty", "meadow", "chapel", "shrine", "stocks", "fountain", "nest"]


def test_the_close_ups_of_the_legend_differ_from_one_another(page: Page, server: Server) -> None:
    """drawSwatch's close-ups (for a legend and the rules page), each rasterised at the legend's 26 pixels: any two
    differ in a good part of their pixels."""
    tiles_page(page, server)
    pixels: dict[str, list[int]] = page.evaluate("""async (kinds) => {
      const T = await import('/static/tiles.js');
      const out = {};
      for (const kind of kinds) {
        const svg = T.el('svg', { xmlns: 'http://www.w3.org/2000/svg', viewBox: '0 0 1 1', width: 26, height: 26 });
        T.drawSwatch(svg, kind);
        const image = new Image();
        image.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg.outerHTML);
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = canvas.height = 26;
        const ctx = canvas.getContext('2d');
        ctx.drawImage(image, 0, 0, 26, 26);
        out[kind] = [...ctx.getImageData(0, 0, 26, 26).data];
      }
      return out;
    }""", SWATCHES)
    for i, a in enumerate(SWATCHES):
        for b in SWATCHES[i + 1:]:
            differ = sum(1 for k in range(0, len(pixels[a]), 4)
                         if sum(abs(pixels[a][k + c] - pixels[b][k + c]) for c in range(3)) > 60)
            assert differ / (26 * 26) > 0.12, (a, b, differ)


def test_the_legend_shows_the_close_ups(page: Page, server: Server) -> None:
    start_game(page, server.url, sokol=True)
    drawn = page.locator("#legend-body .legend-list:not(.roles) svg.swatch .swatch-art").evaluate_all(
        "nodes => nodes.map((n) => [...n.classList].find((c) => c.startsWith('swatch-') && c !== 'swatch-art'))")
    assert drawn == [f"swatch-{k}" for k in ("road", "house", "pigsty", "meadow", "shrine", "stocks", "fountain",
                                              "chapel", "nest")]


def test_the_tokens_are_drawn_with_their_printed_numbers(page: Page, server: Server) -> None:
    tiles_page(page, server)
    drawn = page.evaluate("""async () => {
      const T = await import('/static/tiles.js');
      const out = [];
      for (let kind = 1; kind <= 9; kind++) {
        const svg = T.el('svg');
        T.drawToken(svg, kind, 10 - kind);
        out.push([svg.querySelector('text').textContent, svg.querySelectorAll('*').length, svg.innerHTML]);
      }
      return out;
    }""")
    assert [number for number, _, _ in drawn] == [str(10 - k) for k in range(1, 10)]
    assert all(parts > 4 for _, parts, _ in drawn)
    assert len({html for _, _, html in drawn}) == 9


def test_rycerze_i_zamki_cards_are_drawn_as_cards(page: Page, server: Server) -> None:
    """The hand shows cards: a picture, the name and three strengths, each with its castle kind's mark (the shepherd
    blank); the tile on the table is drawn as a tile; the reveal shows the tile turned up."""
    page.goto(server.url)
    page.wait_for_selector("#knights-new")
    page.select_option("#k-players", "2")
    page.select_option("#k-seat-0", "person")
    page.select_option("#k-seat-1", "heuristic")
    page.click("#k-start")
    page.wait_for_url("**/#/knights/*")
    for _ in range(10):
        page.wait_for_selector("#k-next, .k-card, #k-show")
        if page.query_selector(".k-card"):
            break
        if page.query_selector("#k-event.k-ev-TileRevealed"):
            expect(page.locator("#k-event .k-event-art svg.k-tile-art")).to_have_count(1)
        page.click("#k-next, #k-show")
    cards = page.locator(".k-card")
    assert cards.count() == 8
    for i in range(cards.count()):
        card = cards.nth(i)
        expect(card.locator("svg.k-card-art")).to_have_count(1)
        name = card.get_attribute("data-card")
        if name == "shepherd":
            expect(card.locator(".k-str")).to_have_count(0)
            continue
        strengths = card.locator(".k-str")
        expect(strengths).to_have_count(3)
        assert strengths.evaluate_all("nodes => nodes.map(n => n.dataset.kind)") == ["stone", "brick", "wood"]
        expect(card.locator(".k-str svg.k-kind-mark")).to_have_count(3)
        values = card.locator(".k-str-value").all_inner_texts()
        assert all(v.isdigit() for v in values), values
    knight = page.locator(".k-card[data-card=knight]").first
    assert knight.locator(".k-str-value").all_inner_texts() == ["6", "3", "2"]  # the one printed card (K2)
    tile = page.locator("#k-tile svg.k-tile-art")
    expect(tile).to_have_count(1)
    kind = page.get_attribute("#k-tile", "class") or ""
    assert ("k-kind-drum" in kind) == (tile.locator(".drum").count() == 1)
    if "k-kind-drum" not in kind:
        expect(tile.locator(".castle")).to_have_count(1)
        assert tile.locator(".k-point").count() in (1, 2)
