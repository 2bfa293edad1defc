"""The game service: the façade the app's routes call for castle games.

It ties together the sessions and their storage (:mod:`zamek.web.sessions`: loading, replaying,
committing moves, undo), the computer's worker (:mod:`zamek.web.computer`) and the answers
(:mod:`zamek.web.views`, models of :mod:`zamek.web.schemas`). A view is built while holding the
game's lock, so that it shows one position and the metadata of that position.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from zamek import Setup
from zamek.web.clock import ClockSettings
from zamek.web.computer import ComputerPlayer
from zamek.web.db import Repository, default_db_url
from zamek.web.errors import ServiceError
from zamek.web.events import GameEvents, LocalEvents
from zamek.web.schemas import Adopted, GameLine, GameStatus, GameView, ReplayView, SavedGame, SeatedView, SeatToken
from zamek.web.seats import SeatPlayer, digest, seat_of, seats_for
from zamek.web.sessions import COMPUTER, FRIEND, Created, LiveGame, Sessions, players_of, replay_moves
from zamek.web.views import (
    clock_view,
    ended_view,
    game_line,
    game_status,
    game_view,
    public_setup,
    replay_view,
    seat_views,
)
from zamek.web.words import in_language

__all__ = ["GameService", "ServiceError", "WebConfig"]

log = logging.getLogger("zamek.web")


@dataclass
class WebConfig:
    """Configuration of the web app."""

    db_url: str | None = None
    """Any SQLAlchemy URL; None uses a SQLite file in the user's data directory."""
    bot_delay: float = 0.8
    """Seconds the computer waits before replying (a person may undo meanwhile)."""
    bot_workers: int = 2
    static_dir: Path | None = None
    """Where the page's files are; None uses the package's ``web/static``."""
    max_body_bytes: int = 2_000_000
    """The largest request body taken; a larger one is refused with 413 before it is read."""
    allowed_hosts: tuple[str, ...] = ("127.0.0.1", "localhost", "::1", "testserver")
    """The names the server is served as (its ``Host`` header; ``testserver`` is the test client's);
    any other is refused (DNS rebinding). ``zamek play --host H`` adds H and, for 0.0.0.0, this machine's
    addresses. ``"*"`` allows any."""
    clock: Callable[[], float] = time.time
    """What time it is (seconds since the epoch) for the game clocks; tests set it."""


class GameService:
    """Every castle game of the app: creation, seats, moves, the computer's turns, undo, import and export, views."""

    def __init__(self, config: WebConfig, events: GameEvents | None = None) -> None:
        self.config = config
        self.repo = Repository(config.db_url or default_db_url())
        self.events: GameEvents = events or LocalEvents()
        self.sessions = Sessions(self.repo, config.clock)
        self.computer = ComputerPlayer(self.sessions.commit, config.bot_delay, config.bot_workers)
        self.sessions.wake = self.computer.schedule
        self.sessions.changed = lambda live: self.events.publish(live.id, live.revision)

    # ------------------------------------------------------------ life cycle

    def resume(self) -> None:
        """Load every game in progress where the server has something to do: the computer to move, a clock to
        watch."""
        for stored in self.sessions.stored():
            if stored.status != "over" and stored.mode in (COMPUTER, FRIEND):
                try:
                    self.sessions.get(stored.id)
                except ServiceError as exc:
                    log.warning("game %s cannot be resumed: %s", stored.id, exc.message)

    def close(self) -> None:
        self.events.close()
        self.computer.close()
        self.repo.close()

    def expire_clocks(self) -> list[str]:
        return self.sessions.expire_clocks()

    # --------------------------------------------------------------- changes

    def get(self, game_id: str) -> LiveGame:
        return self.sessions.get(game_id)

    def create(self, mode: str, level: str | None, seat: str, setup: Setup, seed: int | None = None,
               clock: ClockSettings | None = None, name: str | None = None) -> Created:
        return self.sessions.create(mode, level, seat, setup, seed, clock, name)

    def import_record(self, raw: Any) -> Created:
        return self.sessions.import_record(raw)

    def delete(self, game_id: str, token: str | None) -> None:
        self.sessions.delete(game_id, token)
        self.events.gone(game_id)

    def act(self, game_id: str, text: str, revision: int | None = None, token: str | None = None) -> LiveGame:
        return self.sessions.act(game_id, text, revision, token)

    def draw(self, game_id: str, revision: int | None = None, token: str | None = None) -> LiveGame:
        return self.sessions.draw(game_id, revision, token)

    def undo(self, game_id: str, revision: int | None = None, token: str | None = None) -> LiveGame:
        return self.sessions.undo(game_id, revision, token)

    def join(self, game_id: str, invite: str, name: str | None) -> Created:
        return self.sessions.join(game_id, invite, name)

    def resign(self, game_id: str, token: str | None, revision: int | None = None) -> LiveGame:
        return self.sessions.resign(game_id, token, revision)

    def rematch(self, game_id: str, token: str | None) -> Created:
        return self.sessions.rematch(game_id, token)

    # --------------------------------------------------------------- answers

    def view(self, game_id: str, lang: str) -> GameView:
        """The game as it stands (the same for everyone: a castle game hides nothing but its seed)."""
        live = self.get(game_id)
        connected = self.events.connected(game_id)
        with live.lock:
            refusal = self.sessions.undo_refusal(live)
            words = in_language("cannot-undo", refusal, lang) if refusal is not None else None
            return game_view(live, live.state, live.infos, lang, can_undo=refusal is None, undo_refusal=words,
                             thinking=live.thinking, seats=seat_views(live, connected),
                             clock=clock_view(live, self.sessions.now()), ended=ended_view(live))

    def seated_view(self, created: Created, lang: str) -> SeatedView:
        """The game with the secrets of the request that made or joined it."""
        view = self.view(created.live.id, lang)
        tokens = [SeatToken(seat=s, token=t) for s, t in sorted(created.tokens.items())]
        return SeatedView(**dict(view), tokens=tokens, invite=created.invite)

    def seat_of(self, game_id: str, token: str | None) -> int | None:
        live = self.get(game_id)
        with live.lock:
            return seat_of(live.seats, token)

    def replay_view(self, game_id: str, move: int | None, lang: str) -> ReplayView:
        """The game after ``move`` moves (default: all), with the list of every move in words."""
        live = self.get(game_id)
        with live.lock:  # the moves and the metadata of one moment
            snapshot = replace(live, actions=list(live.actions), infos=list(live.infos))
        total = len(snapshot.actions)
        upto = total if move is None else move
        if not 0 <= upto <= total:
            raise ServiceError(400, "invalid", f"the game has {total} moves; there is no position after move {move}")
        state, _ = replay_moves(snapshot.setup, snapshot.actions[:upto])
        return replay_view(snapshot, state, snapshot.infos, upto, lang, ended_view(snapshot))

    def status(self, game_id: str) -> GameStatus:
        live = self.get(game_id)
        with live.lock:
            return game_status(live)

    def lobby(self, tokens: list[str]) -> tuple[list[GameLine], dict[str, list[int]]]:
        """The castle games these tokens hold seats of (and, for the caller, every game id they hold)."""
        held = self.repo.held(digest(t) for t in tokens)
        games, _ = self.repo.games_by_id(held)
        extras = self.repo.extras_of(g.id for g in games)
        names = self.repo.names_of(g.id for g in games)
        lines = [game_line(g, sorted(held[g.id]), extras.get(g.id), names.get(g.id, [])) for g in games]
        return lines, held

    def adopt(self) -> list[Adopted]:
        """Seats for the castle games stored before games had seats: each person's seat gets a token."""
        adopted = []
        games = self.repo.unseated_games()
        for stored in games:
            players: list[SeatPlayer] = ["person", "person"]
            if stored.mode == COMPUTER and stored.human in (0, 1):
                players[1 - stored.human] = "computer"
            seats, tokens, _ = seats_for(players, stored.created_at)
            if not self.repo.add_seats(stored.id, seats):
                continue
            live = self.sessions.peek(stored.id)
            if live is not None:
                with live.lock:
                    live.seats = seats
            adopted += [Adopted(kind="castle", id=stored.id, seat=s, token=t) for s, t in tokens.items()]
        return adopted

    def record(self, game_id: str) -> SavedGame:
        live = self.get(game_id)
        with live.lock:
            raw = live.record()
            players = players_of(live)
            if players is not None:
                raw["players"] = players
            over = live.over
            raw["setup"] = public_setup(live.setup, over)
            if not over:
                raw["seed"] = None  # Z22: the seed would tell every tile and token to come; given at the end
            return SavedGame.model_validate(raw)
