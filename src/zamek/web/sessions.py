"""Castle game sessions and their storage: loading and replaying games, moves committed one transaction each, undo.

A :class:`LiveGame` is a game held in memory: its saved-game record (setup, seed, moves) and the
position those moves reach. Every change goes through :meth:`Sessions.commit`, which writes the
whole new move list in one transaction *before* the position in memory changes, so what a person
saw confirmed is on disk, and a restarted server replays each record to the same position.

Chance (the tile drawn, a token revealed) is decided by the server from the game's seed, by the one
seeding convention (``zamek.seeding``): a restarted server, or an undo, finds the same tiles again.
The computer's turns are played by :mod:`zamek.web.computer`; :attr:`Sessions.wake` tells it that a
game has changed (or was loaded) so that it may move.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from zamek import (
    LEVELS,
    Action,
    Draw,
    GameState,
    MalformedActionError,
    Phase,
    RecordError,
    Reveal,
    Setup,
    ZamekError,
    new_game,
    parse_action,
)
from zamek import record as records
from zamek.games.records import parse_moves
from zamek.report import describe_move
from zamek.seeding import SeededChance
from zamek.terms import LANGUAGES
from zamek.web.db import Repository, StoredGame, new_id, now

MAX_IMPORT_MOVES: Final = 5000
COMPUTER: Final = "computer"
HOTSEAT: Final = "hotseat"
log = logging.getLogger("zamek.web")


class ServiceError(Exception):
    """A request the service refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass
class MoveInfo:
    """A move as people read it: the action, who made it and its words in each language."""

    action: Action
    player: int | None
    words: dict[str, str]

    @property
    def text(self) -> str:
        return str(self.action)

    @property
    def chance(self) -> bool:
        return isinstance(self.action, (Draw, Reveal))


@dataclass
class LiveGame:
    """A game held in memory."""

    id: str
    mode: str
    level: str | None
    human: int | None
    seed: int
    setup: Setup
    created_at: datetime
    actions: list[Action]
    infos: list[MoveInfo]
    state: GameState
    revision: int
    lock: threading.RLock = field(default_factory=threading.RLock)
    pending: bool = False
    """The computer's worker has a job for this game (it is thinking)."""
    bot_error: str | None = None
    deleted: bool = False

    def record(self) -> dict[str, Any]:
        return records.make_record(self.setup, self.seed, self.actions, self.state)

    @property
    def thinking(self) -> bool:
        """The computer is about to move (a job is pending and nobody else is to act)."""
        return self.pending and not self.state.is_over() and not self.human_to_act()

    def human_to_act(self, state: GameState | None = None) -> bool:
        """Return whether a person (not the computer, not chance) is to decide in ``state`` (default: now)."""
        state = self.state if state is None else state
        if state.is_over() or state.is_chance():
            return False
        return self.mode != COMPUTER or state.current == self.human

    def computer_to_move(self) -> bool:
        """Return whether the computer's worker has something to do: its turn, or chance in its turn."""
        return self.mode == COMPUTER and not self.state.is_over() and not self.human_to_act()


def step(state: GameState, action: Action) -> MoveInfo:
    """Play ``action`` with every check and return it in words."""
    state.check(action)  # first: the words of an illegal move may not exist
    player: int | None = state.current
    if isinstance(action, Reveal):
        player = state.revealing_player()
    info = MoveInfo(action, player, {lang: describe_move(state, action, lang) for lang in LANGUAGES})
    state.apply(action)
    return info


def replay_moves(setup: Setup, actions: list[Action]) -> tuple[GameState, list[MoveInfo]]:
    """Replay moves with every check; raise a ZamekError naming the first bad one."""
    state = new_game(setup)
    infos = []
    for number, action in enumerate(actions, start=1):
        try:
            infos.append(step(state, action))
        except ZamekError as exc:
            raise RecordError(f"move {number} ({action}): {exc}") from None
    return state, infos


def chance_for(seed: int, state: GameState) -> Action:
    """The chance event due now in a game of ``seed`` (``zamek.seeding``): the same after a restart or an undo."""
    return SeededChance(seed, state.tiles).outcome(state)


def status_of(state: GameState) -> str:
    return "over" if state.is_over() else "playing"


class Sessions:
    """Every castle game of the app in memory and in the database: creation, moves, undo, import, deletion."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self._games: dict[str, LiveGame] = {}
        self._lock = threading.Lock()
        self.wake: Callable[[LiveGame], None] = lambda live: None
        """Called (holding the game's lock) when a game was loaded, created or moved: the computer may be to move."""

    # --------------------------------------------------------------- loading

    def get(self, game_id: str) -> LiveGame:
        """Return a game, replaying its record from the database when it is not in memory."""
        with self._lock:
            live = self._games.get(game_id)
            if live is None:
                stored = self.repo.get(game_id)
                if stored is None:
                    raise ServiceError(404, "not-found", f"there is no game {game_id!r}")
                live = self._load(stored)
                self._games[game_id] = live
        with live.lock:
            self.wake(live)
        return live

    def _load(self, stored: StoredGame) -> LiveGame:
        try:
            # A stored setup without a board was stored before board 2 (setup_from_json reads it as board 1).
            setup = records.setup_from_json(stored.setup)
            actions = parse_moves({"moves": stored.moves}, parse_action)
            state, infos = replay_moves(setup, actions)
        except ZamekError as exc:
            raise ServiceError(500, "corrupt", f"game {stored.id} cannot be replayed: {exc}") from None
        return LiveGame(
            stored.id, stored.mode, stored.level, stored.human, stored.seed, setup, stored.created_at, actions,
            infos, state, stored.revision,
        )

    def stored(self) -> list[StoredGame]:
        return self.repo.all()

    # -------------------------------------------------------------- creation

    def create(self, mode: str, level: str | None, seat: str, setup: Setup, seed: int | None = None) -> LiveGame:
        """Start a game: against the computer (``level``, the person's ``seat``) or for two people."""
        seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        human: int | None = None
        if mode == COMPUTER:
            if level not in LEVELS:
                raise ServiceError(422, "invalid", f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
            human = {"first": 0, "second": 1}.get(seat, random.Random(seed).randrange(2))
        else:
            level = None
        state = new_game(setup)
        live = LiveGame(new_id(), mode, level, human, seed, setup, now(), [], [], state, 0)
        new_state, actions, infos = self._advance_chance(live, state.copy())
        live.state, live.actions, live.infos = new_state, actions, infos
        self._add(live)
        with live.lock:
            self.wake(live)
        return live

    def import_record(self, raw: Any) -> LiveGame:
        """Store a saved game (checked by replaying it) as a new game for two people at one screen."""
        if isinstance(raw, dict) and isinstance(raw.get("moves"), list) and len(raw["moves"]) > MAX_IMPORT_MOVES:
            raise ServiceError(400, "invalid-record", f"moves: more than {MAX_IMPORT_MOVES} moves")
        try:
            setup, actions = records.read_record(raw)
            draws = sum(isinstance(a, Draw) for a in actions)
            if setup.draw_order is not None and draws > len(setup.draw_order):
                raise ServiceError(400, "invalid-record", f"setup.draw_order: {len(setup.draw_order)} tiles, "
                                                          f"but the moves draw {draws}")
            records.replay(raw)
            state, infos = replay_moves(setup, actions)
        except ZamekError as exc:
            raise ServiceError(400, "invalid-record", str(exc)) from None
        except (LookupError, TypeError, ValueError, AttributeError, RecursionError) as exc:
            # A record the engine's checks let through but cannot replay: refused, never a server error.
            log.warning("an imported record failed to replay", exc_info=exc)
            raise ServiceError(400, "invalid-record", f"the saved game cannot be replayed ({type(exc).__name__})"
                               ) from None
        seed = raw.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**62:
            seed = random.SystemRandom().randrange(2**31)
        live = LiveGame(new_id(), HOTSEAT, None, None, seed, setup, now(), actions, infos, state, 0)
        self._add(live)
        return live

    def _add(self, live: LiveGame) -> None:
        state = live.state
        self.repo.add(StoredGame(
            live.id, live.created_at, live.created_at, live.mode, live.level, live.human, live.seed,
            records.setup_to_json(live.setup), [str(a) for a in live.actions], status_of(state), list(state.scores),
            state.turn, live.revision,
        ))
        with self._lock:
            self._games[live.id] = live

    def delete(self, game_id: str) -> None:
        live = self.get(game_id)
        with live.lock:
            live.deleted = True
            self.repo.delete(game_id)
        with self._lock:
            self._games.pop(game_id, None)

    # ----------------------------------------------------------------- moves

    def act(self, game_id: str, text: str, revision: int | None = None) -> LiveGame:
        """Play a person's move (in notation); the engine's refusal becomes a 4xx error with its message."""
        live = self.get(game_id)
        with live.lock:
            self._check_revision(live, revision)
            action = self._parse(text)
            if isinstance(action, (Draw, Reveal)):
                raise ServiceError(409, "illegal", f"{action}: tiles and tokens are drawn by the game, not chosen")
            state = live.state
            if state.is_over():
                raise ServiceError(409, "illegal", "the game is over")
            if state.is_chance():
                if live.mode == HOTSEAT and state.phase is Phase.DRAW:
                    raise ServiceError(409, "illegal", f"{action}: draw a tile first")
                raise ServiceError(409, "not-your-turn", f"{action}: the computer is to move")
            if live.mode == COMPUTER and state.current != live.human:
                raise ServiceError(409, "not-your-turn", f"{action}: it is the computer's turn")
            new_state = state.copy()
            try:
                info = step(new_state, action)
            except ZamekError as exc:
                if isinstance(exc, MalformedActionError):
                    raise ServiceError(400, "malformed", str(exc)) from None
                raise ServiceError(409, "illegal", str(exc)) from None
            new_state, more, more_infos = self._advance_chance(live, new_state, len(live.actions) + 1)
            self.commit(live, new_state, [action, *more], [info, *more_infos])
            self.wake(live)
        return live

    def draw(self, game_id: str, revision: int | None = None) -> LiveGame:
        """Draw the next tile (two people at one screen: the next player asks for it)."""
        live = self.get(game_id)
        with live.lock:
            self._check_revision(live, revision)
            state = live.state
            if live.mode != HOTSEAT:
                raise ServiceError(409, "illegal", "tiles are drawn automatically in a game against the computer")
            if state.phase is not Phase.DRAW:
                raise ServiceError(409, "illegal", "no tile is to be drawn now")
            new_state = state.copy()
            actions: list[Action] = []
            infos: list[MoveInfo] = []
            while new_state.phase is Phase.DRAW:  # the engine puts out a tile that fits nowhere: draw again (Z8)
                action = chance_for(live.seed, new_state)
                infos.append(step(new_state, action))
                actions.append(action)
            self.commit(live, new_state, actions, infos)
        return live

    def undo(self, game_id: str, revision: int | None = None) -> LiveGame:
        """Take back the last move when nothing has happened since (no reply, no tile drawn, no token revealed)."""
        live = self.get(game_id)
        with live.lock:
            self._check_revision(live, revision)
            reason = self.undo_refusal(live)
            if reason is not None:
                raise ServiceError(409, "cannot-undo", reason)
            actions = live.actions[:-1]
            state, infos = replay_moves(live.setup, actions)
            self.commit(live, state, actions, infos, replace=True)
        return live

    @staticmethod
    def undo_refusal(live: LiveGame) -> str | None:
        """Return why the last move cannot be taken back now, or None when it can."""
        if not live.actions:
            return "there is no move to take back"
        info = live.infos[-1]
        if isinstance(info.action, Reveal):
            return "a token has been revealed since your move; it cannot be taken back"
        if isinstance(info.action, Draw):
            return "a tile has been drawn since the last move; it cannot be taken back"
        if live.mode == COMPUTER and info.player != live.human:
            return "the computer has replied; its move cannot be taken back"
        return None

    def _advance_chance(
        self, live: LiveGame, state: GameState, moves: int = 0
    ) -> tuple[GameState, list[Action], list[MoveInfo]]:
        """Apply the chance events that belong to a person's turn: token reveals, and their own draw."""
        actions: list[Action] = []
        infos: list[MoveInfo] = []
        while state.is_chance():
            if state.phase is Phase.DRAW:
                if live.mode == COMPUTER and state.current != live.human:
                    break  # the computer's draw starts its turn, in the worker
                if live.mode == HOTSEAT and (moves + len(actions)) > 0:
                    break  # the next player draws when they sit down (undo stays possible till then)
            action = chance_for(live.seed, state)
            infos.append(step(state, action))
            actions.append(action)
        return state, actions, infos

    @staticmethod
    def _parse(text: str) -> Action:
        try:
            return parse_action(text)
        except ZamekError as exc:
            raise ServiceError(400, "malformed", str(exc)) from None

    @staticmethod
    def _check_revision(live: LiveGame, revision: int | None) -> None:
        if revision is not None and revision != live.revision:
            raise ServiceError(
                409, "stale", "the game has changed since this page was drawn (another tab or the computer); reload"
            )

    def commit(
        self, live: LiveGame, state: GameState, actions: list[Action], infos: list[MoveInfo], replace: bool = False
    ) -> None:
        """Store the new move list in one transaction, then (only then) change the game in memory.

        The caller holds ``live.lock``. Raise ServiceError (404) when the game has been deleted meanwhile.
        """
        all_actions = list(actions) if replace else live.actions + list(actions)
        all_infos = list(infos) if replace else live.infos + list(infos)
        revision = live.revision + 1
        stored = self.repo.save_moves(
            live.id, [str(a) for a in all_actions], status_of(state), list(state.scores), state.turn, revision
        )
        if not stored:
            live.deleted = True
            raise ServiceError(404, "not-found", f"game {live.id} has been deleted")
        live.state, live.actions, live.infos, live.revision = state, all_actions, all_infos, revision
