"""Regenerate the manual's screenshots, docs/screenshots/*.png, with the current code.

Makes ten pictures, each in the window size the manual's pictures have:

* ``figure.png``  (1280x860) a Sokół game against the computer (beginner), turn 10 or later: the person has
  placed a tile and is offered a figure for each of two features or more (a Sokół figure among them), or none;
* ``game.png``    (1280x860) the same game in mid-game (turn 45 or later): the tile to place, turned, and
  the highlighted spaces where it fits;
* ``phone.png``   (390x844, a phone) the same position in a phone-sized window;
* ``over.png``    (1280x860) the same game finished: the final scoring, the totals and the score chart;
* ``replay.png``  (1280x860) its replay, stopped at a move late in the game;
* ``double.png``  (1280x860) a game for two people at one screen (The Castle 2003 + Sokół) where a player
  is asked whether to use a x2 wall tile on the feature being scored;
* ``knights.png`` (1280x860) Rycerze i zamki against the heuristic computer player: the table and the
  person's hand in round 3 or later;
* ``lobby.png``   (1280x860) the lobby, listing the games above and one more in progress;
* ``invite.png``  (1280x860) a new game against a friend (live clock 10+5) on its creator's page, Ala's:
  the invitation link to send;
* ``online.png``  (1280x860) the same game some turns later, the friend Ola having joined: Ala's page, her
  tile to place, both names, both players connected (Ola's page is open in another browser context) and
  the clocks.

The script starts the web app itself (uvicorn on 127.0.0.1, port 8000 or else a free one, a fresh SQLite
database in a temporary folder, the computer replying without a pause) and drives Debian's Chromium headless
with Playwright, as tests/browser/test_web_browser.py does. The moves are made through the JSON API with the seats'
tokens (``Authorization: Bearer``); each browser context gets the tokens of the games it shows in its
localStorage (``zamek-seats``), as the page would have kept them, so that it plays those seats and its
lobby lists those games. Every game has a fixed seed and the person's moves come from a computer player
seeded by the game and the move number, so every run plays the same games; the seed of the x2-token game
is the first one (from ``DOUBLE_FIRST_SEED``) whose game reaches such a question late in the game, found
by playing games in memory exactly as the server would. The server's clock is a fixed fake one, so the
lobby shows the same dates on every run; so is the game clocks' time (it moves only when the script says:
a few seconds a move), and so is the page's own clock in online.png (paused). Game ids, seat tokens and
invitation codes come from a seeded generator, so the invitation link is the same on every run too. The
page may fetch nothing but the local server: any other request is refused.

Usage::

    .venv/bin/python tools/screenshots.py [--out DIR]
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import secrets
import socket
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import uvicorn

from tools.extra import needs_extra

try:
    from playwright.sync_api import Browser, BrowserContext, Page, Route, ViewportSize, sync_playwright
except ImportError:
    raise needs_extra("playwright") from None

import zamek.server.db
import zamek.server.importing
import zamek.server.joining
import zamek.server.rematch
import zamek.server.seats
import zamek.server.sessions
import zamek.server.tables
from zamek.castle import record as records
from zamek.castle.bots.levels import make_bot
from zamek.castle.data import loader as datafiles
from zamek.castle.rules.actions import Action
from zamek.castle.rules.board import CURRENT_BOARD
from zamek.castle.rules.setup import Phase
from zamek.castle.rules.state import GameState
from zamek.server.app import create_app
from zamek.server.service import WebConfig
from zamek.server.sessions import chance_for

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}

MAIN_SEED = 7
"""The Sokół game against the beginner (figure, game, phone, over, replay), chosen because its final scoring
is short enough for the end screen to show the chart too (when written: 9 lines, the person won 110 to 63)."""
PERSON_LEVEL = "easy"
"""The computer player that makes the person's moves (both players' in the games for two people)."""
FIGURE_TURN = 10
MIDDLE_TURN = 45
REPLAY_FRACTION = 0.87
"""replay.png stops at this share of the game's moves."""
DOUBLE_EDITION = "castle2003"
DOUBLE_FIRST_SEED = 1
DOUBLE_TURN = 60
"""double.png: the first game from DOUBLE_FIRST_SEED on with an x2-token question at this turn or later."""
LOBBY_SEED = 11
LOBBY_TURN = 12
"""One more game in progress for the lobby: The Castle 2003 against the computer (easy), at this turn."""
KNIGHTS_SEED = 5
KNIGHTS_ROUND = 3
FRIEND_SEED = 3
FRIEND_TURN = 8
"""invite.png and online.png: a game against a friend (Zamek + Sokół, live 10+5), shown at this turn or later
when its creator (the first player) has a tile to place."""
HOST_NAME, FRIEND_NAME = "Ala", "Ola"
FRIEND_CLOCK = {"kind": "live", "minutes": 10, "increment": 5}
THINK_SECONDS = (3, 25)
"""Each move of a game takes this many whole seconds of the game clocks' time (drawn per move)."""
CLOCK_START = datetime(2026, 5, 1, 18, 0, tzinfo=UTC)
PORT = 8000
"""The server's port when free (``zamek play``'s), so that the invitation link is the same on every run."""
SEATS_KEY = "zamek-seats"
"""Where the page keeps the seats' tokens (static/api.js)."""

View = dict[str, Any]
Tokens = dict[int, str]


# ------------------------------------------------------------------ server


class FakeClock:
    """The server's clock: a fixed start, one second later on every reading (so times differ and sort)."""

    def __init__(self, start: datetime) -> None:
        self._next = start
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        with self._lock:
            now, self._next = self._next, self._next + timedelta(seconds=1)
            return now


class GameTime:
    """The game clocks' time (epoch seconds): it stands still but when the script moves it on."""

    def __init__(self, start: datetime) -> None:
        self.now = start.timestamp()

    def __call__(self) -> float:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += seconds


class FakeSecrets:
    """Game ids, seat tokens and invitation codes as the server makes them (URL-safe base64), from a seeded
    generator, so that every run has the same ones (the invitation link in invite.png)."""

    def __init__(self, seed: str) -> None:
        self._rng = random.Random(seed)
        self._lock = threading.Lock()

    def make(self, size: int) -> str:
        with self._lock:
            return base64.urlsafe_b64encode(self._rng.randbytes(size)).rstrip(b"=").decode()

    def secret(self) -> str:
        return self.make(zamek.server.seats.TOKEN_BYTES)

    def game_id(self) -> str:
        return self.make(16)


GAME_TIME = GameTime(CLOCK_START)


def free_port(preferred: int) -> int:
    """``preferred`` when it is free (the invitation link in invite.png shows the port), else any free port."""
    for port in (preferred, 0):
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: a closed run's port is free
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            chosen: int = s.getsockname()[1]
            return chosen
    raise RuntimeError("no free port")


@contextmanager
def running_server(db: Path) -> Iterator[str]:
    """Run the app on 127.0.0.1 in a thread; yield its address; stop it afterwards."""
    clock = FakeClock(CLOCK_START)
    # each looks ``now`` up in itself
    for module in (zamek.server.db, zamek.server.sessions, zamek.server.importing, zamek.server.joining,
                   zamek.server.rematch):
        module.now = clock  # type: ignore[attr-defined]
    fake = FakeSecrets("screenshots")
    zamek.server.tables.new_game_id = fake.game_id  # type: ignore[attr-defined]  # tables.new_id looks it up in tables
    # each looks ``new_secret`` up in itself
    for module in (zamek.server.seats, zamek.server.joining, zamek.server.rematch):
        module.new_secret = fake.secret  # type: ignore[attr-defined]
    app = create_app(WebConfig(db_url=f"sqlite:///{db}", bot_delay=0.0, clock=GAME_TIME))
    port = free_port(PORT)
    if port != PORT:
        print(f"port {PORT} is taken: the invitation link in invite.png shows port {port}")
    # The pages hold live event streams open: a graceful shutdown would wait for them for ever.
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > end or not thread.is_alive():
            raise RuntimeError("the web app did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


class Api:
    """The app's JSON API, at the local server only."""

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"  # the seat acting (protocol 3)
        request = urllib.request.Request(f"{self.base}{path}", data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:  # say the server's reason
            raise RuntimeError(f"{method} {path}: {exc.code} {exc.read().decode(errors='replace')}") from None

    def get(self, path: str, token: str | None = None) -> Any:
        return self.call("GET", path, token=token)

    def post(self, path: str, body: Any = None, token: str | None = None) -> Any:
        return self.call("POST", path, body if body is not None else {}, token)


# ------------------------------------------------------------------- games


SEEDS: dict[str, int] = {}
"""The seed each game was started with, by game id."""
TOKENS: dict[str, Tokens] = {}
"""The token of each person's seat, by game id (the creator's, and a friend's once joined)."""


def seat_tokens(view: View) -> Tokens:
    """The tokens a creating or joining answer gives, by seat."""
    return {int(t["seat"]): str(t["token"]) for t in view["tokens"]}


def person_action(state: GameState, seed: int, moves: int) -> Action:
    """The person's move: the PERSON_LEVEL player's choice, seeded by the game and the number of moves."""
    return make_bot(PERSON_LEVEL).choose(state, random.Random(f"screenshots:{seed}:{moves}"))


def play_until(api: Api, game_id: str, done: Callable[[View], bool], what: str) -> View:
    """Make the people's moves (and draw for two at one screen) until ``done(view)`` holds while a person is to
    act; every move as the seat to move, with its token."""
    while True:
        view: View = api.get(f"/api/games/{game_id}")
        if view["bot_error"]:
            raise RuntimeError(view["bot_error"])
        if view["thinking"] or not (view["human_to_act"] or view["over"] or view["phase"] == "draw"):
            time.sleep(0.02)  # the computer is about to move, or moving
            continue
        if done(view):
            return view
        if view["over"]:
            raise RuntimeError(f"game {game_id} (seed {SEEDS[game_id]}) ended without {what}")
        token = TOKENS[game_id][view["current"]]
        if view["mode"] == "hotseat" and view["phase"] == "draw":
            api.post(f"/api/games/{game_id}/draw", {"revision": view["revision"]}, token)
            continue
        raw = api.get(f"/api/games/{game_id}/record")
        moves = len(raw["moves"])
        action = person_action(records.replay(raw), SEEDS[game_id], moves)
        GAME_TIME.wait(random.Random(f"screenshots-think:{SEEDS[game_id]}:{moves}").randint(*THINK_SECONDS))
        api.post(f"/api/games/{game_id}/actions", {"action": str(action), "revision": view["revision"]}, token)


def figure_offered(view: View) -> bool:
    """The person is offered figures for two features or more, a Sokół figure (prince, falconer) among them."""
    figures = [c for c in view["choices"] if c.get("type") == "figure"]
    sokol = any(c["piece"] in ("prince", "falconer") for c in figures)
    return (view["phase"] == "follower" and view["turn"] >= FIGURE_TURN
            and len({c["part"] for c in figures}) >= 2 and sokol)


def tile_to_place(view: View) -> bool:
    return bool(view["phase"] == "place" and view["turn"] >= MIDDLE_TURN)


def double_question(view: View) -> bool:
    return bool(view["phase"] == "double" and view["turn"] >= DOUBLE_TURN)


def host_to_place(view: View) -> bool:
    return bool(view["phase"] == "place" and view["turn"] >= FRIEND_TURN and view["current"] == 0)


def find_double_seed() -> int:
    """Return the first seed whose game for two people asks about an x2 token at DOUBLE_TURN or later.

    The games are played in memory as the server plays them: chance from the game's seed (the server's
    ``chance_for``), both players' moves from :func:`person_action`.
    """
    # The setup the server makes for this game (read as a saved game's setup, which names the edition).
    setup = records.setup_from_json({"edition": DOUBLE_EDITION, "expansions": ["sokol"], "board": CURRENT_BOARD})
    for seed in range(DOUBLE_FIRST_SEED, DOUBLE_FIRST_SEED + 500):
        state = datafiles.new_game(setup)
        moves = 0
        while not state.is_over():
            if state.phase is Phase.DOUBLE and state.turn >= DOUBLE_TURN:
                return seed
            if state.is_chance():
                state.apply(chance_for(seed, state))
            else:
                state.apply(person_action(state, seed, moves))
            moves += 1
    raise RuntimeError("no game reached an x2-token question; lower DOUBLE_TURN")


def new_game(api: Api, seed: int, *, mode: str = "computer", level: str = "beginner", edition: str = "zamek",
             sokol: bool = True, **more: Any) -> View:
    """Start a castle game (the creator in the first seat); keep its seed and tokens; return the answer."""
    body = {"mode": mode, "level": level, "seat": "first", "edition": edition, "sokol": sokol, "seed": seed, **more}
    if mode == "friend":
        # A game against a friend takes no chosen seed: the server draws one, here the one chosen for it.
        del body["seed"]
        zamek.server.sessions.secrets = SimpleNamespace(  # type: ignore[assignment,attr-defined]
            randbits=lambda _bits: seed, randbelow=secrets.randbelow)
    view: View = api.post("/api/games", body)
    zamek.server.sessions.secrets = secrets  # type: ignore[attr-defined]
    SEEDS[str(view["id"])] = seed  # the server tells a game's seed only at its end (Z22)
    TOKENS[str(view["id"])] = seat_tokens(view)
    return view


def knights_game(api: Api) -> str:
    """A Rycerze i zamki game, the person against the heuristic player, played to round KNIGHTS_ROUND's choice."""
    created: View = api.post("/api/games", {"game": "knights", "seats": ["person", "heuristic"],
                                          "seed": KNIGHTS_SEED})
    game_id = str(created["id"])
    TOKENS[game_id] = seat_tokens(created)
    token = TOKENS[game_id][0]
    view: View = api.get(f"/api/games/{game_id}", token)  # the person's view: the hand, the legal choices
    while not (view["phase"] == "choose" and view["round"] >= KNIGHTS_ROUND and view["person_to_act"] == 0):
        if view["over"]:
            raise RuntimeError(f"the Rycerze i zamki game (seed {KNIGHTS_SEED}) ended before round {KNIGHTS_ROUND}")
        if not view["legal"]:  # the computer's turn: it plays in the server's own time
            time.sleep(0.1)
            view = api.get(f"/api/games/{game_id}", token)
            continue
        rng = random.Random(f"screenshots-knights:{KNIGHTS_SEED}:{view['revision']}")
        action = rng.choice(view["legal"])
        view = api.post(f"/api/games/{game_id}/actions", {"action": action, "revision": view["revision"]}, token)
    return game_id


# ----------------------------------------------------------------- browser

READY = """() => !document.querySelector('#thinking') && !!(document.querySelector('#game-over')
  || document.querySelector('.legal.now') || document.querySelector('.choice-button')
  || document.querySelector('#replay-position') || document.querySelector('#draw'))"""

# Puts a game's seats into the page's localStorage before the page's scripts run (on the server's pages only).
HOLD = """([key, origin, id, entry]) => {
  if (location.origin !== origin) return;
  const all = JSON.parse(localStorage.getItem(key) || "{}");
  all[id] = entry;
  localStorage.setItem(key, JSON.stringify(all));
}"""


class Camera:
    """A browser window on the local server that takes the pictures; it holds the seats given to it."""

    def __init__(self, browser: Browser, base: str, out: Path, viewport: ViewportSize, phone: bool = False) -> None:
        self.base = base
        self.out = out
        self.errors: list[str] = []
        self.context: BrowserContext = browser.new_context(
            viewport=viewport, locale="en-GB", timezone_id="UTC", device_scale_factor=1,
            is_mobile=phone, has_touch=phone,
        )
        self.context.route("**/*", self._only_local)
        self.page: Page = self.context.new_page()
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def _only_local(self, route: Route) -> None:
        if route.request.url.startswith(self.base):
            route.continue_()
        else:
            self.errors.append(f"refused a request to {route.request.url}")
            route.abort()

    def hold(self, game_id: str, kind: str = "castle", seats: list[int] | None = None, invite: str | None = None
             ) -> None:
        """Give this browser the tokens of a game's seats (default: all known), as the page keeps them."""
        tokens = {str(s): t for s, t in TOKENS[game_id].items() if seats is None or s in seats}
        entry: dict[str, Any] = {"kind": kind, "tokens": tokens}
        if invite is not None:
            entry["invite"] = invite
        origin = self.base.rstrip("/")
        self.context.add_init_script(f"({HOLD})({json.dumps([SEATS_KEY, origin, game_id, entry])})")

    def open(self, where: str, ready: str) -> Page:
        """Load the page afresh at ``#/where`` and wait until ``ready`` (a selector) and the page are settled."""
        page = self.page
        page.goto("about:blank")
        page.goto(f"{self.base}#/{where}")
        page.wait_for_selector(ready)
        # Not "networkidle": a game's page keeps its live event stream open.
        page.wait_for_load_state("load")
        page.evaluate("document.fonts.ready.then(() => true)")
        return page

    def game(self, game_id: str, ready: str) -> Page:
        page = self.open(f"game/{game_id}", ready)
        page.wait_for_function(READY, timeout=30_000)
        return page

    def shot(self, name: str) -> None:
        if self.errors:
            raise RuntimeError(f"the page reported errors before {name}: {self.errors}")
        path = self.out / name
        # The highlighted spaces pulse: hold every animation still, so that each run takes the same picture
        # (``style`` is applied by Playwright itself: the page's CSP refuses inline style tags).
        self.page.screenshot(path=str(path), animations="disabled", caret="hide",
                             style="*, *::before, *::after { animation: none !important; }")
        print(f"  {path}")

    def close(self) -> None:
        self.context.close()


def scroll_to(page: Page, selector: str, margin: int = 8) -> None:
    """Scroll the window so that the element's top is ``margin`` pixels below the window's top."""
    page.evaluate(
        "([s, m]) => window.scrollTo(0, document.querySelector(s).getBoundingClientRect().top + window.scrollY - m)",
        [selector, margin],
    )


# -------------------------------------------------------------------- main


def friend_pictures(api: Api, browser: Browser, base: str, out: Path) -> None:
    """invite.png and online.png: Ala's game against her friend Ola, before and after Ola joins."""
    created = new_game(api, FRIEND_SEED, mode="friend", clock=FRIEND_CLOCK, name=HOST_NAME)
    game_id = str(created["id"])
    host = Camera(browser, base, out, DESKTOP)  # its own browser, so that the lobby of lobby.png stays as it was
    host.hold(game_id, invite=created["invite"])
    # The page's clock stands still (its game clocks tick from it), so that every run shows the same times.
    host.context.clock.install(time=CLOCK_START)
    host.context.clock.pause_at(CLOCK_START + timedelta(seconds=1))
    host.open(f"game/{game_id}", "#invite-link")
    host.shot("invite.png")

    GAME_TIME.wait(95)  # Ola opens the link a while later
    joined: View = api.post(f"/api/games/{game_id}/join", {"invite": created["invite"], "name": FRIEND_NAME})
    TOKENS[game_id].update(seat_tokens(joined))
    play_until(api, game_id, host_to_place, f"a tile for {HOST_NAME} to place at turn {FRIEND_TURN} or later")
    GAME_TIME.wait(7)  # Ala has been looking at her tile for a while

    friend = Camera(browser, base, out, DESKTOP)  # Ola's page, open elsewhere: she shows as connected
    friend.hold(game_id, seats=[1])
    friend.open(f"game/{game_id}", "#their-turn")
    page = host.game(game_id, ".legal.now")
    page.wait_for_function("() => document.querySelectorAll('#seats .presence.on').length === 1")
    host.context.clock.run_for(500)  # the clocks' own tick (every 250 ms) marks the running clock
    host.shot("online.png")
    friend.close()
    host.close()


def make_pictures(out: Path) -> None:
    double_seed = find_double_seed()
    print(f"x2-token game: seed {double_seed}")
    with tempfile.TemporaryDirectory(prefix="zamek-screenshots-") as tmp, \
            running_server(Path(tmp) / "games.sqlite3") as base, sync_playwright() as playwright:
        api = Api(base)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        desk = Camera(browser, base, out, DESKTOP)
        phone = Camera(browser, base, out, PHONE, phone=True)

        main = str(new_game(api, MAIN_SEED)["id"])
        desk.hold(main)
        phone.hold(main)
        play_until(api, main, figure_offered, f"a figure choice at turn {FIGURE_TURN} or later")
        desk.game(main, ".choice-button.pass")
        desk.shot("figure.png")

        play_until(api, main, tile_to_place, f"a tile to place at turn {MIDDLE_TURN} or later")
        desk.game(main, ".legal.now")
        desk.shot("game.png")
        phone.game(main, ".legal.now")
        phone.shot("phone.png")

        play_until(api, main, lambda v: bool(v["over"]), "its end")
        page = desk.game(main, "#chart svg")
        scroll_to(page, "#game-over")
        desk.shot("over.png")

        total = len(api.get(f"/api/games/{main}/record")["moves"])
        desk.open(f"replay/{main}/{round(total * REPLAY_FRACTION)}", "#replay-position")
        desk.shot("replay.png")

        double = str(new_game(api, double_seed, mode="hotseat", edition=DOUBLE_EDITION)["id"])
        desk.hold(double)
        play_until(api, double, double_question, f"an x2-token question at turn {DOUBLE_TURN} or later")
        desk.game(double, ".choice-button")
        desk.shot("double.png")

        other = str(new_game(api, LOBBY_SEED, level="easy", edition="castle2003", sokol=False)["id"])
        desk.hold(other)
        play_until(api, other, lambda v: v["phase"] == "place" and v["turn"] >= LOBBY_TURN, f"turn {LOBBY_TURN}")

        knights = knights_game(api)
        desk.hold(knights, kind="knights")
        page = desk.open(f"knights/{knights}", "#k-stage")
        if page.query_selector("#k-skip"):  # the reveals so far, step by step: skip them
            page.click("#k-skip")
        page.wait_for_selector("#k-hand")
        desk.shot("knights.png")

        page = desk.open("", ".game-list[data-status=over] .game-item")
        page.wait_for_selector("#knights-games .game-item")
        page.check("#new-game input[name=sokol]")  # as a person choosing a game with Sokół would
        desk.shot("lobby.png")

        friend_pictures(api, browser, base, out)

        desk.close()
        phone.close()
        browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=OUT, help=f"where the pictures go (default: {OUT})")
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    make_pictures(out)
    print(f"done in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
