"""The feel of the game screen, in a real browser: motion (and its absence when the system asks for less), sounds,
the figure menu and ghost figures that never overlap, the keyboard on the board, what a feature is worth, the order
question, the phone layout and the lobby that updates itself.

The browser, the server and the page are the fixtures of tests/browser/conftest.py.
"""

from __future__ import annotations

import json
import random
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import APIResponse, Browser, BrowserContext, FilePayload, Locator, Page, Route, expect

from tests.browser.pages import READY, choose_language, click_and_wait, play_step, revision, start_game
from tests.live_server import Server

Json = dict[str, Any]

# Every animation the page starts through the Web Animations API, with the node it moves.
ANIMATION_SPY = """
window.__motions = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  window.__motions.push({ kind: this.dataset.motion || null, space: this.dataset.space || null,
    part: this.dataset.part ?? null, player: this.dataset.player ?? null,
    frames: frames.map((f) => f.transform || null) });
  return animate.call(this, frames, options);
};
"""

# Every tone the page makes (an oscillator each).
SOUND_SPY = """
window.__tones = 0;
const Context = window.AudioContext;
const create = Context.prototype.createOscillator;
Context.prototype.createOscillator = function () { window.__tones += 1; return create.call(this); };
"""


def api_view(server: Server, game_id: str) -> Json:
    with urllib.request.urlopen(f"{server.url}api/games/{game_id}") as answer:
        view: Json = json.load(answer)
        return view


def computer_moved(page: Page) -> None:
    """Wait until the page has the computer's reply (and offers the person something to do)."""
    page.wait_for_function(READY, timeout=30_000)


def until_placing(page: Page) -> None:
    """Play on until the person has a tile to place."""
    for _ in range(20):
        computer_moved(page)
        if page.query_selector(".legal.now"):
            return
        play_step(page)
    raise AssertionError("no tile to place")


def slow_motion(page: Page) -> None:
    """Play every animation of the page 20 times slower (Chrome's own switch): a motion is still running when the
    test looks at it."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.05})


# ---------------------------------------------------------------------------------------------- motion


def test_the_computers_tile_slides_in_its_figure_drops_and_the_markers_go_along_the_track(
        page: Page, server: Server) -> None:
    page.add_init_script(ANIMATION_SPY)
    slow_motion(page)
    game = start_game(page, server.url)
    seen: set[str] = set()
    running: set[str] = set()
    for _ in range(80):
        play_step(page)
        computer_moved(page)
        # What is moving right now, on the board itself.
        now = page.evaluate("""[...document.querySelectorAll('#board [data-motion]')]
            .filter((n) => n.getAnimations().some((a) => a.playState === 'running'))
            .map((n) => n.dataset.motion)""")
        running |= set(now)
        seen |= {m["kind"] for m in page.evaluate("window.__motions")}
        if {"tile", "figure", "marker"} <= seen and {"tile", "marker"} <= running:
            break
    assert {"tile", "figure", "marker"} <= seen, seen
    assert {"tile", "marker"} <= running, running
    motions: list[Json] = page.evaluate("window.__motions")
    view = api_view(server, game)
    computer = 1 - view["human"]
    placed_by = {p["space"]: p["player"] for p in view["placements"]}
    # Only the computer's tiles and figures move: the person's own placement does not slide in.
    tiles = [m for m in motions if m["kind"] == "tile"]
    assert tiles and all(placed_by[m["space"]] == computer for m in tiles), tiles
    figures = [m for m in motions if m["kind"] == "figure"]
    assert all(placed_by[m["space"]] == computer for m in figures), figures
    # A marker starts where the score was and steps along the track spaces to where it is now.
    for marker in (m for m in motions if m["kind"] == "marker"):
        frames = marker["frames"]
        assert len(frames) >= 2 and frames[-1] == "translate(0.000px, 0.000px)", frames
        assert frames[0] != frames[-1]
        assert len(set(frames)) == len(frames), "one keyframe a track space"


def test_nothing_moves_when_the_system_asks_for_less_motion(page: Page, server: Server) -> None:
    page.emulate_media(reduced_motion="reduce")
    page.add_init_script(ANIMATION_SPY)
    game = start_game(page, server.url)
    for _ in range(40):
        still = page.evaluate("document.getElementById('board').getAnimations({ subtree: true }).length")
        assert still == 0, "the highlighted spaces do not pulse either"
        play_step(page)
        computer_moved(page)
        assert page.evaluate("document.getElementById('board').getAnimations({ subtree: true }).length") == 0
        view = api_view(server, game)
        if sum(p["score"] for p in view["players"]) > 0 and len(view["placements"]) >= 6:
            break
    assert sum(p["score"] for p in view["players"]) > 0, "something was scored"
    assert page.evaluate("window.__motions") == []


def test_sounds_are_off_until_turned_on(page: Page, server: Server) -> None:
    page.add_init_script(SOUND_SPY)
    start_game(page, server.url)
    expect(page.locator("#sound")).not_to_be_checked()
    for _ in range(6):
        play_step(page)
    computer_moved(page)
    assert page.evaluate("window.__tones") == 0, "silent by default"
    page.check("#sound")
    assert page.evaluate("localStorage.getItem('zamek-sound')") == "on"
    after_check = page.evaluate("window.__tones")
    moves = api_view(server, page.url.rsplit("/", 1)[-1])["moves_count"]
    for _ in range(6):
        play_step(page)
    computer_moved(page)
    assert api_view(server, page.url.rsplit("/", 1)[-1])["moves_count"] > moves
    assert page.evaluate("window.__tones") > after_check, "the computer's moves sound"
    page.reload()
    page.wait_for_selector(".legal.now, .choice-button")
    expect(page.locator("#sound")).to_be_checked()  # kept in this browser


# ---------------------------------------------------------------------------------------- figures


GHOSTS_OF_EVERY_TILE = """async () => {
  const { Board } = await import('/static/board.js');
  const overlaps = [];
  let drawn = 0;
  for (const sokol of [false, true]) {
    const geo = await (await fetch(`/api/geometry?sokol=${sokol}`)).json();
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('width', '1100');
    svg.setAttribute('height', '1100');
    document.body.append(svg);
    const board = new Board(svg, geo);
    const space = geo.spaces[Math.floor(geo.spaces.length / 2)].name;
    for (const tile of geo.tiles) {
      for (const rotation of [0, 1]) {
        const view = {
          id: 'x', towers: [], hidden_tokens: [],
          placements: [{ space, tile: tile.id, rotation, player: 0, features: [] }],
          figures: [], players: [{ score: 0 }, { score: 0 }], current: 0, drawn: null, scoring: null, terms: {},
          features: [], mode: 'hotseat',
        };
        const figureChoices = tile.features.map((f, part) => (
          { part, kind: f.kind, label: f.kind, action: `follower:${part}` }));
        board.render(view, { figureChoices });
        const boxes = [...svg.querySelectorAll('.figure.ghost')].map((g) => g.getBoundingClientRect());
        drawn += boxes.length;
        for (let i = 0; i < boxes.length; i++) {
          for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i], b = boxes[j];
            const meet = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
            if (meet) overlaps.push(`${tile.id}/${rotation}: ${i}, ${j}`);
          }
        }
        const tileBox = board.screenRect(space);
        for (const b of boxes) {
          const off = b.left < tileBox.left - 0.5 || b.right > tileBox.right + 0.5
            || b.top < tileBox.top - 0.5 || b.bottom > tileBox.bottom + 0.5;
          if (off) overlaps.push(`${tile.id}/${rotation}: off the tile`);
        }
      }
    }
    svg.remove();
  }
  return { overlaps, drawn };
}"""


def test_ghost_figures_never_overlap_on_any_tile(page: Page, server: Server) -> None:
    """Every tile of both tile sets, every feature offered at once: the ghost figures' boxes do not intersect and
    stay on the tile."""
    page.goto(server.url)
    page.wait_for_selector("#new-game")
    found = page.evaluate(GHOSTS_OF_EVERY_TILE)
    assert found["drawn"] > 300
    assert found["overlaps"] == [], found["overlaps"][:10]


def ghost_boxes_intersect(page: Page) -> bool:
    boxes = page.locator(".layer-highlight .figure.ghost").evaluate_all(
        "nodes => nodes.map((n) => { const r = n.getBoundingClientRect(); "
        "return [r.left, r.top, r.right, r.bottom]; })")
    return any(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
               for i, a in enumerate(boxes) for b in boxes[i + 1:])


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context: BrowserContext = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                                  is_mobile=True, bypass_csp=True, locale="en-GB")
    context.add_init_script("localStorage.getItem('zamek-auto-pass') || localStorage.setItem('zamek-auto-pass', 'off')")
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert not errors, errors


def test_on_a_phone_the_figure_menu_names_each_feature_in_large_buttons(phone: Page, server: Server) -> None:
    game = start_game(phone, server.url)
    phone.locator(".legal.now").first.tap()
    menu = phone.locator("#figure-menu")
    expect(menu).to_be_visible()  # by itself after the placement, on a touch screen
    view = api_view(server, game)
    figures = [c for c in view["choices"] if c["type"] == "figure"]
    entries = menu.locator(".menu-entry:not(.pass):not(.piece)")
    assert entries.count() == len({c["part"] for c in figures})
    for label in entries.all_inner_texts():
        assert any(label.startswith(c["label"]) for c in figures), label  # the edition's own words
    expect(menu.locator(".menu-entry.pass")).to_have_text("No figure (pass)")
    for target in menu.locator("button").all():
        box = target.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, box
    # Pointing at an entry outlines its feature on the board and shades its spaces.
    first = entries.first
    part = first.get_attribute("data-part")
    first.focus()
    expect(phone.locator(".feature-outline.on")).to_have_count(1)
    expect(phone.locator(".layer-highlight .cells.hover rect").first).to_be_attached()
    assert not ghost_boxes_intersect(phone)
    action = first.get_attribute("data-action")
    before = revision(phone)
    first.tap()
    phone.wait_for_function(f"document.body.dataset.revision !== '{before}'")
    expect(menu).to_have_count(0)
    with urllib.request.urlopen(f"{server.url}api/games/{game}/replay") as answer:
        moves = json.load(answer)["replay"]["moves"]
    assert action == f"follower:{part}"
    assert [m["text"] for m in moves if m["player"] == view["human"] and m["kind"] == "figure"] == [action]


def test_on_a_phone_the_figure_menu_opens_when_the_live_event_beats_the_moves_answer(
        phone: Page, server: Server) -> None:
    """The game's live event may bring the position after a placement before the placement's own answer comes back
    (a loaded machine, a slow network): the figure menu opens all the same, once that answer is in."""
    start_game(phone, server.url)
    held: list[tuple[Route, APIResponse]] = []
    phone.route("**/actions*", lambda route: held.append((route, route.fetch())))  # the move is made, its answer held
    before = revision(phone)
    shown_space(phone).tap()
    phone.wait_for_function(f"document.body.dataset.revision !== '{before}'")  # brought by the live event
    assert phone.evaluate("document.body.dataset.phase") == "follower"
    assert len(held) == 1, "the placement's answer is still held"
    route, answer = held.pop()
    route.fulfill(response=answer)
    phone.unroute("**/actions*")
    menu = phone.locator("#figure-menu")
    expect(menu).to_be_visible()
    expect(phone.locator("#figure-menu .menu-entry:not(.pass)").first).to_be_focused()
    # And it takes the answer.
    after = revision(phone)
    menu.locator(".menu-entry.pass").tap()
    phone.wait_for_function(f"document.body.dataset.revision !== '{after}'")
    expect(menu).to_have_count(0)


def test_at_one_screen_the_next_tile_is_drawn_when_the_live_event_beats_the_moves_answer(
        phone: Page, server: Server) -> None:
    """Two people at one touch screen: the next player's tile is drawn by itself, also when the live event brought the
    position before the answer to the move that led to it (the page then holds that move's answer for a while)."""
    start_game(phone, server.url, hotseat=True)
    shown_space(phone).tap()
    menu = phone.locator("#figure-menu")
    expect(menu).to_be_visible()
    held: list[tuple[Route, APIResponse]] = []
    phone.route("**/actions*", lambda route: held.append((route, route.fetch())))
    before = revision(phone)
    menu.locator(".menu-entry.pass").tap()
    phone.wait_for_function(f"document.body.dataset.revision !== '{before}'")  # brought by the live event
    assert phone.evaluate("document.body.dataset.phase") == "draw"
    phone.wait_for_timeout(1000)  # longer than the page waits before it draws
    assert len(held) == 1, "the answer to 'No figure' is still held"
    route, answer = held.pop()
    route.fulfill(response=answer)
    phone.unroute("**/actions*")
    phone.wait_for_function("document.body.dataset.phase === 'place'", timeout=10_000)
    expect(phone.locator(".legal.now").first).to_be_attached()


def test_at_one_screen_the_spaces_to_place_on_come_when_the_live_event_beats_the_draws_answer(
        page: Page, server: Server) -> None:
    """The live event may bring the drawn tile before the draw's own answer: the page offers no place for it while
    that answer is on its way, and the spaces where it fits once the answer is in (the same position)."""
    start_game(page, server.url, hotseat=True)
    click_and_wait(page, ".legal.now")
    click_and_wait(page, ".choice-button.pass")
    held: list[tuple[Route, APIResponse]] = []
    page.route("**/draw*", lambda route: held.append((route, route.fetch())))
    page.click("#draw")
    page.wait_for_function("document.body.dataset.phase === 'place'")  # brought by the live event
    assert len(held) == 1, "the draw's answer is still held"
    expect(page.locator(".legal.now")).to_have_count(0)
    route, answer = held.pop()
    route.fulfill(response=answer)
    page.unroute("**/draw*")
    expect(page.locator(".legal.now").first).to_be_visible()
    click_and_wait(page, ".legal.now")  # and they take the tile


def test_the_spaces_to_place_on_come_when_the_computers_reply_beats_the_answer_to_ones_move(
        page: Page, server: Server) -> None:
    """The computer's reply may come (by the live event) before the answer to the person's own move: the page shows
    the spaces where the next tile fits once that answer is in, overtaken as it is."""
    start_game(page, server.url)
    click_and_wait(page, ".legal.now")
    held: list[tuple[Route, APIResponse]] = []
    page.route("**/actions*", lambda route: held.append((route, route.fetch())))
    page.click(".choice-button.pass")
    page.wait_for_function("document.body.dataset.phase === 'place' && !document.querySelector('#thinking')",
                           timeout=30_000)  # the computer's reply, brought by the live event
    assert len(held) == 1, "the answer to 'No figure' is still held"
    route, answer = held.pop()
    route.fulfill(response=answer)
    page.unroute("**/actions*")
    expect(page.locator(".legal.now").first).to_be_visible()
    click_and_wait(page, ".legal.now")  # and they take the tile


# The points of a half-pixel grid over `area` (client pixels) where the tile placed on `space` is drawn: in the fill
# or the stroke of one of its shapes, whatever the pointer does over them.
DRAWN_IN = """([space, area]) => {
  const wrap = document.querySelector(`.layer-tiles .placed-wrap[data-space='${space}']`);
  const shapes = [...wrap.querySelectorAll('*')].filter((n) => n instanceof SVGGeometryElement).map((n) => {
    const s = getComputedStyle(n);
    return { n, shown: s.display !== 'none' && s.visibility === 'visible', fill: s.fill !== 'none',
      stroke: s.stroke !== 'none' && parseFloat(s.strokeWidth) > 0, inverse: n.getScreenCTM().inverse() };
  }).filter((s) => s.shown && (s.fill || s.stroke));
  const drawn = [];
  for (let y = area.top + 0.25; y < area.bottom; y += 0.5) {
    for (let x = area.left + 0.25; x < area.right; x += 0.5) {
      const hit = shapes.find((s) => {
        const at = new DOMPoint(x, y).matrixTransform(s.inverse);
        return (s.fill && s.n.isPointInFill(at)) || (s.stroke && s.n.isPointInStroke(at));
      });
      if (hit) drawn.push(`${x},${y}: ${hit.n.tagName} ${hit.n.getAttribute('class') || ''}`);
    }
  }
  return drawn;
}"""


def test_a_click_on_the_tile_just_placed_opens_the_menu_in_polish(page: Page, server: Server) -> None:
    page.goto(server.url)
    choose_language(page, "pl")
    start_game(page, server.url)
    click_and_wait(page, ".legal.now")
    expect(page.locator("#figure-menu")).to_have_count(0)  # a mouse has the ghost figures and the list beside
    page.locator(".figure-menu-hit").click(position={"x": 2, "y": 2})
    menu = page.locator("#figure-menu")
    expect(menu).to_be_visible()
    expect(menu.locator("strong")).to_have_text("Postaw figurę na…")
    expect(menu.locator(".menu-entry.pass")).to_have_text("Bez figury (pas)")
    labels = menu.locator(".menu-entry:not(.pass):not(.piece)").all_inner_texts()
    assert labels and all(re.search(r"herold|giermek|rolnik|mnich", label) for label in labels), labels
    # Beside the tile, not over it: nothing of the tile as drawn lies under the menu. Playwright's box of an SVG group
    # (Chrome's rough box of its strokes) may reach a few pixels past what is drawn, and past the page's own measure
    # of the tile: where the menu meets that box, each point of the meeting is tested against the tile's shapes.
    placed = api_view(server, page.evaluate("location.hash").split("/")[2])["placements"][-1]["space"]
    tile = page.locator(f".layer-tiles .placed-wrap[data-space='{placed}']").bounding_box()
    box = menu.bounding_box()
    assert tile is not None and box is not None
    meeting = {"left": max(box["x"], tile["x"]), "right": min(box["x"] + box["width"], tile["x"] + tile["width"]),
               "top": max(box["y"], tile["y"]), "bottom": min(box["y"] + box["height"], tile["y"] + tile["height"])}
    if meeting["left"] < meeting["right"] and meeting["top"] < meeting["bottom"]:
        covered = page.evaluate(DRAWN_IN, [placed, meeting])
        assert covered == [], (f"the menu {box} covers the tile {tile} at", covered[:10])
    page.keyboard.press("Escape")
    expect(menu).to_have_count(0)


# --------------------------------------------------------------------------------------- keyboard


def test_arrow_keys_go_between_the_highlighted_spaces_and_enter_places(page: Page, server: Server) -> None:
    start_game(page, server.url)
    for _ in range(6):  # a few tiles down: more spaces to go between
        play_step(page)
    until_placing(page)
    spaces: list[Json] = page.locator(".legal").evaluate_all(
        "nodes => nodes.map((n) => ({ space: n.dataset.space, x: +n.getAttribute('x'), y: +n.getAttribute('y'), "
        "label: n.getAttribute('aria-label') }))")
    # Each space says what lies beside it, in words; not only its name.
    for s in spaces:
        assert not re.fullmatch(r"[a-j]\d+", s["label"]) and len(s["label"]) > 20, s["label"]
        assert re.search(r"north|east|south|west", s["label"]), s["label"]
        assert re.search(r"road|house|pigsty|meadow|wall|start space", s["label"]), s["label"]
    assert any("start space" in s["label"] or "house" in s["label"] or "road" in s["label"] for s in spaces)
    rotation = page.locator("#turn .small").inner_text()
    start = page.locator(".legal.now").first
    start.focus()
    at = {s["space"]: s for s in spaces}
    here = start.get_attribute("data-space")
    moved = 0
    for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
        now = page.evaluate("document.activeElement.dataset.space || null")
        assert now is not None and now in at, "the focus stays on a highlighted space"
        if now != here:
            moved += 1
            dx = at[now]["x"] - at[here]["x"]
            dy = at[now]["y"] - at[here]["y"]
            assert {"ArrowRight": dx > 0, "ArrowLeft": dx < 0, "ArrowDown": dy > 0, "ArrowUp": dy < 0}[key], key
        here = now
    assert moved >= 1
    assert page.locator("#turn .small").inner_text() == rotation, "the arrows on the board do not turn the tile"
    # R turns the tile and the focus stays on the same space.
    page.keyboard.press("r")
    assert page.evaluate("document.activeElement.dataset.space") == here
    page.keyboard.press("Shift+R")
    while page.evaluate("document.activeElement.classList.contains('other')"):
        page.keyboard.press("Enter")  # a faint space: Enter turns the tile to fit, the focus stays
    before = revision(page)
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.body.dataset.revision !== '{before}'")
    placed = api_view(server, page.url.rsplit("/", 1)[-1])
    assert placed["placements"][-1]["space"] == here
    assert page.evaluate("document.activeElement.classList.contains('choice-button')"), "on to the figure question"


# -------------------------------------------------------------------------------- what things are worth


# A point inside the outline of a building (a house, a pigsty) of a placed tile where the pointer meets that building
# itself and not a road, a figure or anything else drawn over it, in the page's pixels; null when there is none.
BUILDING_POINT = """(path) => {
  const box = path.getBBox();
  for (let i = 0; i < 400; i++) {
    const x = box.x + box.width * ((i % 20) + 0.5) / 20;
    const y = box.y + box.height * (Math.floor(i / 20) + 0.5) / 20;
    if (!path.isPointInFill(new DOMPoint(x, y))) continue;
    const p = new DOMPoint(x, y).matrixTransform(path.getScreenCTM());
    if (document.elementFromPoint(p.x, p.y) === path) return [p.x, p.y];
  }
  return null;
}"""


def pointable_buildings(page: Page, view: Json) -> list[tuple[str, list[float]]]:
    """The buildings of the placed tiles that can be pointed at: each one's kind and a point on it."""
    found: list[tuple[str, list[float]]] = []
    for placement in view["placements"]:
        tile_features = [next(f for f in view["features"] if f["id"] == fid) for fid in placement["features"]]
        building = next((i for i, f in enumerate(tile_features) if f["kind"] in ("house", "pigsty")), None)
        if building is None:
            continue
        shape = page.locator(f".placed-wrap[data-space='{placement['space']}'] [data-feature='{building}']").first
        assert shape.bounding_box() is not None
        point = shape.evaluate(BUILDING_POINT)
        if point is not None:
            found.append((tile_features[building]["kind"], point))
    return found


def test_pointing_at_a_feature_says_its_tiles_its_owner_and_its_points(page: Page, server: Server) -> None:
    page.emulate_media(reduced_motion="reduce")  # the computer's tile and figure stand still where they are pointed at
    game = start_game(page, server.url)
    figure = None
    buildings: list[tuple[str, list[float]]] = []
    # On until the computer has a figure and a building of a placed tile can be pointed at (a short game may have
    # neither yet).
    for _ in range(60):
        play_step(page)
        computer_moved(page)
        view = api_view(server, game)
        # A figure of the computer's, on a tile placed before this turn (the person's placement may hide nothing).
        figure = next((f for f in view["figures"] if f["player"] != view["human"]), None)
        if figure is not None and page.query_selector(".legal.now"):
            buildings = pointable_buildings(page, view)
            if buildings:
                break
    assert figure is not None, "the computer put no figure"
    assert buildings, "no building of a placed tile to point at in 60 moves"
    info = next(f for f in view["features"] if f["id"] == figure["feature"])
    assert info["owner"] == figure["player"] and sum(info["figures"]) >= 1
    page.locator(f".figure-wrap[data-space='{figure['space']}'][data-part='{figure['part']}']").hover()
    tip = page.locator("#feature-tip")
    expect(tip).to_be_visible()
    words = view["terms"][info["kind"]]
    text = tip.inner_text()
    assert text.startswith(words.capitalize()), text
    assert re.search(rf"\b{info['tiles']} tiles?\b", text), text
    assert "Held by Computer (beginner)" in text, text
    assert re.search(rf"\b{info['points']} points?\b", text), text
    if info["kind"] == "meadow":
        assert "At the end of the game" in text
    elif info["complete"]:
        assert "Complete" in text
    else:
        assert "Completed now" in text
    # Its spaces are shaded on the board while it is pointed at, and the tip goes with the pointer.
    shaded = page.locator(".layer-highlight .cells.hover rect")
    expect(shaded).to_have_count(len(set(info["spaces"])))
    page.mouse.move(0, 0)
    expect(tip).to_be_hidden()
    expect(page.locator(".layer-highlight .cells.hover")).to_have_count(0)
    # A building of a tile, pointed at through whatever is drawn on it, is told from the meadow around it.
    for kind, point in buildings:
        page.mouse.move(point[0], point[1])
        expect(tip).to_be_visible()
        name = view["terms"][kind]
        assert tip.inner_text().startswith(name.capitalize()), tip.inner_text()


def order_record() -> Json:
    """A saved game of random play that stops where the player to move chooses the order of two scorings whose
    markers end differently: on a wall tower with a token, or not (Z15, Z16)."""
    from zamek.castle.data import loader as datafiles
    from zamek.castle.record import make_record
    from zamek.castle.rules.actions import Action
    from zamek.castle.rules.setup import Phase, Setup
    from zamek.castle.runner import random_policy, sample_chance
    from zamek.server.views import order_outcome

    for seed in range(1, 400):
        rng = random.Random(seed)
        state = datafiles.new_game(Setup())
        actions: list[Action] = []
        while not state.is_over() and state.phase is not Phase.ORDER:
            action: Action = sample_chance(state, rng) if state.is_chance() else random_policy(state, rng)
            state.apply(action)
            actions.append(action)
        if state.phase is Phase.ORDER:
            towers = [order_outcome(state, f)["tower"] for f in state.order_choices()]
            if len(set(towers)) > 1:
                record: Json = make_record(Setup(), seed, actions)
                return record
    raise AssertionError("no game reached an order question")


def test_the_order_question_says_where_each_choice_leads(page: Page, server: Server) -> None:
    page.goto(server.url)
    record: FilePayload = {"name": "order.json", "mimeType": "application/json",
                           "buffer": json.dumps(order_record()).encode()}
    page.set_input_files("#import-file", files=[record])
    page.click(".import button[type=submit]")
    page.wait_for_function("document.body.dataset.phase === 'order'")
    view = api_view(server, page.url.rsplit("/", 1)[-1])
    with urllib.request.urlopen(f"{server.url}api/geometry?sokol=false&board={view['board']}") as answer:
        towers = {t["index"]: "·".join(map(str, t["track"])) for t in json.load(answer)["wall"]["towers"]}
    buttons = page.locator("#turn .choice-button")
    expect(buttons).to_have_count(len(view["choices"]))
    texts = buttons.all_inner_texts()
    for choice, text in zip(view["choices"], texts, strict=True):
        assert text.startswith(choice["label"]), text
        # The points, where the marker ends, and the token that movement takes (or that it takes none).
        assert f"+{choice['points']} → {choice['marker'] % 100}" in text, text
        if choice["tower"] is not None:
            assert f"takes the special token on wall tower {towers[choice['tower']]}" in text, text
        else:
            assert "no token" in text, text
    assert len(set(t.split(" — ", 1)[1] for t in texts)) == len(texts), "each choice says what differs"
    # In Polish, in the edition's words.
    choose_language(page, "pl")
    expect(page.locator("#turn")).to_contain_text("Ukończono kilka obszarów")
    polish = page.locator("#turn .choice-button").all_inner_texts()
    assert any("zdobywa: żeton specjalny z baszty" in text for text in polish), polish
    assert any("bez żetonu" in text for text in polish), polish


# ------------------------------------------------------------------------------------------ lobby


def test_the_lobby_follows_the_games_without_a_reload(page: Page, server: Server) -> None:
    page.goto(server.url)
    expect(page.locator(".game-list")).to_have_count(0)
    page.evaluate("window.__same = true")  # gone if the page were loaded again
    other = page.context.new_page()  # another tab of the same browser: it holds the same seats
    game = start_game(other, server.url)
    item = page.locator(f".game-list[data-status=playing] .game-item[data-id='{game}']")
    expect(item).to_be_visible(timeout=10_000)
    turn = item.inner_text()
    for _ in range(4):
        play_step(other)
    computer_moved(other)
    expect(item).not_to_have_text(turn, timeout=10_000)  # the turn and the scores go on
    expect(item.locator(".badge.your-move")).to_be_visible(timeout=10_000)
    other.on("dialog", lambda dialog: dialog.accept())
    other.click("#resign")
    finished = page.locator(f".game-list[data-status=over] .game-item[data-id='{game}']")
    expect(finished).to_be_visible(timeout=10_000)
    expect(finished.locator(".outcome")).to_have_text("The computer wins. (resigned)")
    assert page.evaluate("window.__same === true")
    # Away from the lobby, it asks no more.
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if request.url.endswith("/api/lobby") else None)
    page.goto(f"{server.url}#/replay/{game}/")
    page.wait_for_selector("#replay-slider")
    page.wait_for_timeout(4000)
    assert asked == []
    other.close()


# ---------------------------------------------------------------------------------------- a phone


PHONE_LAYOUT = """() => {
  const box = (n) => n.getBoundingClientRect();
  const shown = (n) => { const r = box(n); const s = getComputedStyle(n);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.pointerEvents !== 'none'; };
  const board = document.getElementById('board');
  const frame = box(board);
  // A target on the board counts where the board shows it (a zoomed board shows part of the castle).
  const onScreen = (n) => { if (!board.contains(n)) return true; const r = box(n);
    const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    return x > frame.left && x < frame.right && y > frame.top && y < frame.bottom; };
  const targets = [...document.querySelectorAll('button, a, input, select, summary, textarea, [role=button], label')]
    .filter(shown).filter(onScreen).filter((n) => !(n.tagName === 'INPUT' && n.closest('label')))
    .filter((n) => !(n.tagName === 'LABEL' && !n.querySelector('input')));
  const small = targets.filter((n) => box(n).width < 44 || box(n).height < 44)
    .map((n) => `${n.tagName}#${n.id}.${n.getAttribute('class')} ${box(n).width}x${box(n).height}`);
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const overlaps = [];
  // The page's blocks: the header, the board, each panel beside it.
  const blocks = [document.querySelector('header.top'), document.querySelector('.board-wrap'),
    ...document.querySelectorAll('.side > *')].filter(shown);
  blocks.forEach((a, i) => blocks.slice(i + 1).forEach((b) => meet(box(a), box(b))
    && overlaps.push(`${a.id || a.className} / ${b.id || b.className}`)));
  // The buttons of the prompt and of the figure menu.
  const buttons = [...document.querySelectorAll('#turn button, #turn .button, #turn label, #figure-menu button')]
    .filter(shown);
  buttons.forEach((a, i) => buttons.slice(i + 1).forEach((b) => !a.contains(b) && !b.contains(a) && meet(box(a), box(b))
    && overlaps.push(`${a.textContent.trim()} / ${b.textContent.trim()}`)));
  const turn = document.getElementById('turn');
  const menu = document.getElementById('figure-menu');
  return { small, overlaps, sideways: document.documentElement.scrollWidth - window.innerWidth,
    below: box(turn).top >= box(document.querySelector('.board-wrap')).bottom,
    menuBelow: !menu || box(menu).top >= frame.bottom - 0.5,
    menu: menu ? [menu.className, JSON.stringify(box(menu)), JSON.stringify(frame)] : null };
}"""


def shown_space(phone: Page) -> Locator:
    """A highlighted space where the tile fits, among those the (zoomed) board shows."""
    space = phone.evaluate("""() => {
      const frame = document.getElementById('board').getBoundingClientRect();
      const shown = [...document.querySelectorAll('.legal.now')].find((n) => { const r = n.getBoundingClientRect();
        const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
        return x > frame.left && x < frame.right && y > frame.top && y < frame.bottom; });
      return shown ? shown.dataset.space : null;
    }""")
    assert space is not None, "the board shows a space where the tile fits"
    return phone.locator(f".legal.now[data-space='{space}']")


def check_phone_layout(phone: Page, where: str) -> None:
    found = phone.evaluate(PHONE_LAYOUT)
    assert found["small"] == [], (where, found["small"])
    assert found["overlaps"] == [], (where, found["overlaps"])
    assert found["sideways"] <= 0, (where, "the page scrolls sideways")
    assert found["below"], (where, "the prompt sits below the board")
    assert found["menuBelow"], (where, "the figure menu sits below the board, not over it", found["menu"])


def test_a_phone_plays_with_large_targets_and_nothing_overlapping(phone: Page, server: Server) -> None:
    game = start_game(phone, server.url)
    check_phone_layout(phone, "lobby → the first tile")
    board = phone.locator("#board")
    # The board shows a part of the castle, its spaces large enough for a finger.
    whole = phone.evaluate("document.getElementById('board').viewBox.baseVal.width")
    space = phone.locator(".legal.now").first.bounding_box()
    assert space is not None and space["width"] >= 44 and space["height"] >= 44
    # A finger moves the castle under it; a drag places nothing.
    frame = board.bounding_box()
    assert frame is not None
    before = phone.evaluate("document.getElementById('board').getAttribute('viewBox')")
    rev = revision(phone)
    phone.mouse.move(frame["x"] + frame["width"] * 0.3, frame["y"] + frame["height"] * 0.5)
    phone.mouse.down()
    phone.mouse.move(frame["x"] + frame["width"] * 0.6, frame["y"] + frame["height"] * 0.3, steps=8)
    phone.mouse.up()
    assert phone.evaluate("document.getElementById('board').getAttribute('viewBox')") != before
    phone.wait_for_timeout(300)
    assert revision(phone) == rev
    # The whole castle at a tap, and back.
    phone.locator("#zoom").tap()
    assert phone.evaluate("document.getElementById('board').viewBox.baseVal.width") > whole
    phone.locator("#zoom").tap()
    assert phone.evaluate("document.getElementById('board').viewBox.baseVal.width") == pytest.approx(whole, abs=0.01)
    for _ in range(12):
        computer_moved(phone)
        if phone.query_selector("#game-over"):
            break
        if phone.query_selector(".legal.now"):
            check_phone_layout(phone, "a tile to place")
            shown_space(phone).tap()
            phone.wait_for_function("document.body.dataset.phase !== 'place'")
            continue
        if phone.query_selector("#figure-menu"):
            check_phone_layout(phone, "the figure menu")
            entry = phone.locator("#figure-menu .menu-entry").first
            before = revision(phone)
            entry.tap()
            phone.wait_for_function(f"document.body.dataset.revision !== '{before}'")
            continue
        play_step(phone)
    view = api_view(server, game)
    assert sum(1 for p in view["placements"] if p["player"] == view["human"]) >= 4


def test_a_long_list_of_games_is_shown_a_page_at_a_time(page: Page, server: Server) -> None:
    """A browser that holds many games lists the latest 30 and shows more on request (the server pages the lobby)."""
    held: dict[str, Any] = {}
    for _ in range(33):
        request = urllib.request.Request(f"{server.url}api/games", data=json.dumps({"mode": "hotseat"}).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(request) as answer:
            created = json.load(answer)
        held[created["id"]] = {"kind": "castle", "tokens": {str(t["seat"]): t["token"] for t in created["tokens"]}}
    page.goto(server.url)
    page.evaluate("seats => localStorage.setItem('zamek-seats', JSON.stringify(seats))", held)
    page.reload()
    items = page.locator("#games .game-item")
    expect(items).to_have_count(30)
    newest = items.first.get_attribute("data-id")
    page.click("#more-games")
    expect(items).to_have_count(33)
    expect(page.locator("#more-games")).to_have_count(0)  # nothing more to show
    assert items.first.get_attribute("data-id") == newest
    assert sorted(items.evaluate_all("nodes => nodes.map((n) => n.dataset.id)")) == sorted(held)


ENGLISH_WORDS = re.compile(r"\b(the|You|Computer|Place|tile|tiles|score|Undo|Replay|Export|figure|turn|Sounds|Resign|"
                           r"Draw|moves|points|wins|Game over|Rules|Games|player|meadow|road|house|pigsty)\b")


# The revision shown when the page is about to give the turn's answer by itself ("No figure" when it is the only one),
# else null.
ANSWERED_BY_THE_PAGE = """() => {
  const answers = [...document.querySelectorAll('#turn .choice-button')];
  const only = document.body.dataset.phase === 'follower' && answers.length === 1 && answers[0].matches('.pass');
  return only ? document.body.dataset.revision : null;
}"""


def test_a_whole_game_on_a_polish_phone_no_overlap_no_english_no_extra_tap(browser: Browser,
                                                                            server: Server) -> None:
    """The issue's check, as a player makes it: a whole game against the computer on a 390×844 touch screen in
    Polish: the layout holds at every kind of step, no English word is on the screen, and the player taps no more
    than the decisions the game asked of them (the page gives the answers that are no choice)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  locale="pl-PL", bypass_csp=True)
    phone = context.new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda exc: errors.append(str(exc)))
    game = start_game(phone, server.url)
    taps = 0
    by_the_page = 0
    english: set[str] = set()
    checked: set[str] = set()
    for _ in range(400):
        computer_moved(phone)
        english.update(ENGLISH_WORDS.findall(phone.locator("body").inner_text()))
        if phone.query_selector("#game-over"):
            break
        if phone.query_selector(".legal.now"):
            if "place" not in checked:
                check_phone_layout(phone, "a tile to place")
                checked.add("place")
            before = revision(phone)
            shown_space(phone).tap()
            taps += 1
            phone.wait_for_function(f"document.body.dataset.revision !== '{before}' || "
                                    "document.body.dataset.phase !== 'place'")
            continue
        if phone.evaluate("document.body.dataset.phase") == "follower":
            # "No figure" as the only answer is the page's to give, a moment after it shows it: no tap, the game
            # goes on by itself.
            waiting = phone.evaluate(ANSWERED_BY_THE_PAGE)
            if waiting is not None:
                phone.wait_for_function(f"document.body.dataset.revision !== '{waiting}'", timeout=10_000)
                by_the_page += 1
                continue
            # Else the page offers the tile's features by itself, in the menu (once the placement's own answer is
            # in, where the live event brought the position first).
            expect(phone.locator("#figure-menu")).to_be_visible(timeout=10_000)
            if "menu" not in checked:
                check_phone_layout(phone, "the figure menu")
                checked.add("menu")
            entry = phone.locator("#figure-menu .menu-entry").last
        else:
            entry = phone.locator("#turn .choice-button").first  # a question of the scoring, the player's
        before = revision(phone)
        entry.tap()
        taps += 1
        phone.wait_for_function(f"document.body.dataset.revision !== '{before}'")
    view = api_view(server, game)
    assert view["over"], "the game was played to its end"
    assert not english, f"English on the Polish screen: {sorted(english)}"
    with urllib.request.urlopen(f"{server.url}api/games/{game}/replay") as answer:
        moves = json.load(answer)["replay"]["moves"]
    decisions = sum(1 for m in moves if m["player"] == view["human"] and not m["chance"])
    assert 0 < taps <= decisions, (taps, decisions)
    print(f"a whole game on a Polish phone: {taps} taps for {decisions} decisions "
          f"({by_the_page} answers seen given by the page)")
    context.close()
    assert not errors, errors
