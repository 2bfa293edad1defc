"""The game service: the façade the app's routes call for castle games.

It ties together the sessions and their storage (:mod:`zamek.web.sessions`: loading, replaying,
committing moves, undo), the computer's worker (:mod:`zamek.web.computer`) and the answers
(:mod:`zamek.web.views`, models of :mod:`zamek.web.schemas`). A view is built while holding the
game's lock, so that it shows one position and the metadata of that position.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from zamek import Setup
from zamek.web.computer import ComputerPlayer
from zamek.web.db import Repository, default_db_url
from zamek.web.schemas import GameLine, GameStatus, GameView, ReplayView, SavedGame
from zamek.web.sessions import COMPUTER, LiveGame, ServiceError, Sessions, replay_moves
from zamek.web.views import game_line, game_status, game_view, public_setup, replay_view

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


class GameService:
    """Every castle game of the app: creation, moves, the computer's turns, undo, import and export, views."""

    def __init__(self, config: WebConfig) -> None:
        self.config = config
        self.repo = Repository(config.db_url or default_db_url())
        self.sessions = Sessions(self.repo)
        self.computer = ComputerPlayer(self.sessions.commit, config.bot_delay, config.bot_workers)
        self.sessions.wake = self.computer.schedule

    # ------------------------------------------------------------ life cycle

    def resume(self) -> None:
        """Load every game in progress against the computer and let the computer go on where it is to move."""
        for stored in self.sessions.stored():
            if stored.status != "over" and stored.mode == COMPUTER:
                try:
                    self.sessions.get(stored.id)
                except ServiceError as exc:
                    log.warning("game %s cannot be resumed: %s", stored.id, exc.message)

    def close(self) -> None:
        self.computer.close()
        self.repo.close()

    # --------------------------------------------------------------- changes

    def get(self, game_id: str) -> LiveGame:
        return self.sessions.get(game_id)

    def create(self, mode: str, level: str | None, seat: str, setup: Setup, seed: int | None = None) -> LiveGame:
        return self.sessions.create(mode, level, seat, setup, seed)

    def import_record(self, raw: Any) -> LiveGame:
        return self.sessions.import_record(raw)

    def delete(self, game_id: str) -> None:
        self.sessions.delete(game_id)

    def act(self, game_id: str, text: str, revision: int | None = None) -> LiveGame:
        return self.sessions.act(game_id, text, revision)

    def draw(self, game_id: str, revision: int | None = None) -> LiveGame:
        return self.sessions.draw(game_id, revision)

    def undo(self, game_id: str, revision: int | None = None) -> LiveGame:
        return self.sessions.undo(game_id, revision)

    # --------------------------------------------------------------- answers

    def view(self, game_id: str, lang: str) -> GameView:
        """The game as it stands."""
        live = self.get(game_id)
        with live.lock:
            refusal = self.sessions.undo_refusal(live)
            return game_view(live, live.state, live.infos, lang, can_undo=refusal is None, undo_refusal=refusal,
                             thinking=live.thinking)

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
        return replay_view(snapshot, state, snapshot.infos, upto, lang)

    def status(self, game_id: str) -> GameStatus:
        live = self.get(game_id)
        with live.lock:
            return game_status(live)

    def lobby(self) -> list[GameLine]:
        return [game_line(g) for g in self.sessions.stored()]

    def record(self, game_id: str) -> SavedGame:
        live = self.get(game_id)
        with live.lock:
            raw = live.record()
            over = live.state.is_over()
            raw["setup"] = public_setup(live.setup, over)
            if not over:
                raw["seed"] = None  # Z22: the seed would tell every tile and token to come; given at the end
            return SavedGame.model_validate(raw)
