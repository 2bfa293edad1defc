"""Game sessions of the web app: load and replay, apply a move and commit it, the computer's worker, undo.

A :class:`LiveGame` is a game held in memory: its saved-game record (setup, seed, moves) and the
position those moves reach. Every change goes through :meth:`GameService._commit`, which writes the
whole new move list in one transaction *before* the position in memory changes, so what a person
saw confirmed is on disk, and a restarted server replays each record to the same position.

Chance (the tile drawn, a token revealed) is decided by the server from the game's seed, by the one
seeding convention (``zamek.seeding``): a restarted server, or an undo, finds the same tiles again.

The computer thinks in a worker thread, off the request path: it works on a copy of the position
and commits its whole turn at once, and only if nothing changed meanwhile (an undo in the moment
before it replies cancels its move). It starts after a short pause (``bot_delay``) so that a person
can still take their last move back.
"""

from __future__ import annotations

import logging
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from zamek import record as records
from zamek.bots.levels import LEVELS, make_bot
from zamek.core.actions import Action, Decline, Draw, Follower, Piece, Place, Reveal, UseToken, parse_action
from zamek.core.editions import edition_of
from zamek.core.errors import MalformedActionError, RecordError, ZamekError
from zamek.core.geometry import rotate_segment
from zamek.core.setup import ROLES, Phase, Setup
from zamek.core.state import GameState
from zamek.core.tiles import FeatureKind
from zamek.core.tokens import TokenKind, printed_number
from zamek.datafiles import new_game
from zamek.report import describe_move, item_line, player_name
from zamek.seeding import SeededChance, player_move_rng
from zamek.terms import LANGUAGES, counted, term, token_name
from zamek.web.db import Repository, StoredGame, default_db_url, new_id, now

log = logging.getLogger("zamek.web")

API_VERSION: Final = 1
MAX_IMPORT_MOVES: Final = 5000
COMPUTER: Final = "computer"
HOTSEAT: Final = "hotseat"


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


class ServiceError(Exception):
    """A request the service refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass
class MoveInfo:
    """A move as people read it: who made it and its words in each language."""

    text: str
    player: int | None
    chance: bool
    words: dict[str, str]


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

    def human_to_act(self) -> bool:
        """Return whether a person (not the computer, not chance) is to decide now."""
        state = self.state
        if state.is_over() or state.is_chance():
            return False
        return self.mode != COMPUTER or state.current == self.human


def step(state: GameState, action: Action) -> MoveInfo:
    """Play ``action`` with every check and return it in words."""
    state.check(action)  # first: the words of an illegal move may not exist
    player: int | None = state.current
    if isinstance(action, Reveal) and state.pending_reveals:
        player = state.pending_reveals[0]
    info = MoveInfo(
        str(action), player, isinstance(action, (Draw, Reveal)),
        {lang: describe_move(state, action, lang) for lang in LANGUAGES},
    )
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


class GameService:
    """Every game of the app: creation, moves, the computer's turns, undo, import and export."""

    def __init__(self, config: WebConfig) -> None:
        self.config = config
        self.repo = Repository(config.db_url or default_db_url())
        self._games: dict[str, LiveGame] = {}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._executor = ThreadPoolExecutor(max_workers=max(1, config.bot_workers), thread_name_prefix="zamek-bot")

    # ------------------------------------------------------------ life cycle

    def resume(self) -> None:
        """Load every game in progress against the computer and let the computer go on where it is to move."""
        for stored in self.repo.all():
            if stored.status != "over" and stored.mode == COMPUTER:
                try:
                    self.get(stored.id)
                except ServiceError as exc:
                    log.warning("game %s cannot be resumed: %s", stored.id, exc.message)

    def close(self) -> None:
        self._stopping.set()
        self._executor.shutdown(wait=True, cancel_futures=True)
        self.repo.close()

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
            self._schedule(live)
        return live

    def _load(self, stored: StoredGame) -> LiveGame:
        try:
            setup, actions = records.read_record(
                {"format": records.FORMAT, "version": records.VERSION, "setup": stored.setup, "moves": stored.moves}
            )
            state, infos = replay_moves(setup, actions)
        except ZamekError as exc:
            raise ServiceError(500, "corrupt", f"game {stored.id} cannot be replayed: {exc}") from None
        return LiveGame(
            stored.id, stored.mode, stored.level, stored.human, stored.seed, setup, stored.created_at, actions,
            infos, state, stored.revision,
        )

    def all_games(self) -> list[StoredGame]:
        return self.repo.all()

    # -------------------------------------------------------------- creation

    def create(
        self, mode: str, level: str | None, seat: str, setup: Setup, seed: int | None = None
    ) -> LiveGame:
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
        self.repo.add(StoredGame(
            live.id, live.created_at, live.created_at, mode, level, human, seed, records.setup_to_json(setup),
            [str(a) for a in actions], self._status(new_state), list(new_state.scores), new_state.turn, 0,
        ))
        with self._lock:
            self._games[live.id] = live
        with live.lock:
            self._schedule(live)
        return live

    def import_record(self, raw: Any) -> LiveGame:
        """Store a saved game (checked by replaying it) as a new game for two people at one screen."""
        if isinstance(raw, dict) and isinstance(raw.get("moves"), list) and len(raw["moves"]) > MAX_IMPORT_MOVES:
            raise ServiceError(400, "invalid-record", f"moves: more than {MAX_IMPORT_MOVES} moves")
        try:
            records.replay(raw)
            setup, actions = records.read_record(raw)
            state, infos = replay_moves(setup, actions)
        except ZamekError as exc:
            raise ServiceError(400, "invalid-record", str(exc)) from None
        seed = raw.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**62:
            seed = random.SystemRandom().randrange(2**31)
        live = LiveGame(new_id(), HOTSEAT, None, None, seed, setup, now(), actions, infos, state, 0)
        self.repo.add(StoredGame(
            live.id, live.created_at, live.created_at, HOTSEAT, None, None, seed, records.setup_to_json(setup),
            [str(a) for a in actions], self._status(state), list(state.scores), state.turn, 0,
        ))
        with self._lock:
            self._games[live.id] = live
        return live

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
            actions, infos = [action], [info]
            new_state, more, more_infos = self._advance_chance(live, new_state, len(live.actions) + 1)
            self._commit(live, new_state, actions + more, infos + more_infos)
            self._schedule(live)
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
            while new_state.phase is Phase.DRAW:  # a tile that fits nowhere is discarded; draw again (Z8)
                action = chance_for(live.seed, new_state)
                infos.append(step(new_state, action))
                actions.append(action)
            self._commit(live, new_state, actions, infos)
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
            self._commit(live, state, actions, infos, replace=True)
        return live

    def undo_refusal(self, live: LiveGame) -> str | None:
        """Return why the last move cannot be taken back now, or None when it can."""
        if not live.actions:
            return "there is no move to take back"
        info = live.infos[-1]
        if info.chance:
            if info.text.startswith("reveal"):
                return "a token has been revealed since your move; it cannot be taken back"
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

    def _parse(self, text: str) -> Action:
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

    @staticmethod
    def _status(state: GameState) -> str:
        return "over" if state.is_over() else "playing"

    def _commit(
        self, live: LiveGame, state: GameState, actions: list[Action], infos: list[MoveInfo], replace: bool = False
    ) -> None:
        """Store the new move list in one transaction, then (only then) change the game in memory."""
        all_actions = list(actions) if replace else live.actions + list(actions)
        all_infos = list(infos) if replace else live.infos + list(infos)
        revision = live.revision + 1
        stored = self.repo.save_moves(
            live.id, [str(a) for a in all_actions], self._status(state), list(state.scores), state.turn, revision
        )
        if not stored:
            live.deleted = True
            raise ServiceError(404, "not-found", f"game {live.id} has been deleted")
        live.state, live.actions, live.infos, live.revision = state, all_actions, all_infos, revision

    # ------------------------------------------------------------ computer

    def _schedule(self, live: LiveGame, delay: float | None = None) -> None:
        """Give the computer its turn in the worker when it is to move (caller holds ``live.lock``)."""
        if live.mode != COMPUTER or live.pending or live.deleted or live.bot_error or self._stopping.is_set():
            return
        if live.state.is_over() or live.human_to_act():
            return
        live.pending = True
        self._executor.submit(self._bot_turn, live, self.config.bot_delay if delay is None else delay)

    def _bot_turn(self, live: LiveGame, delay: float) -> None:
        try:
            if delay > 0 and self._stopping.wait(delay):
                return
            with live.lock:
                revision = live.revision
                state = live.state.copy()
                moves = len(live.actions)
            assert live.level is not None
            bot = make_bot(live.level)
            actions: list[Action] = []
            infos: list[MoveInfo] = []
            while not state.is_over() and (state.is_chance() or state.current != live.human):
                if self._stopping.is_set():
                    return
                n = moves + len(actions)
                if state.is_chance():
                    action: Action = chance_for(live.seed, state)
                else:
                    action = bot.choose(state, player_move_rng(live.seed, state.current, n))
                infos.append(step(state, action))
                actions.append(action)
            with live.lock:
                if live.revision != revision or live.deleted or not actions:
                    return  # the position changed while the computer thought (an undo): think again
                self._commit(live, state, actions, infos)
        except ServiceError:
            pass
        except Exception as exc:  # a bug must not kill the worker silently
            log.exception("computer player failed in game %s", live.id)
            live.bot_error = f"the computer player failed: {exc}"
        finally:
            with live.lock:
                live.pending = False
                self._schedule(live)

    # ----------------------------------------------------------------- views

    def replay_view(self, game_id: str, move: int | None, lang: str) -> dict[str, Any]:
        """Return the game after ``move`` moves (default: all), with the list of every move in words."""
        live = self.get(game_id)
        with live.lock:
            actions = list(live.actions)
            infos = list(live.infos)
            base = self.summary(live)
        total = len(actions)
        upto = total if move is None else move
        if not 0 <= upto <= total:
            raise ServiceError(400, "invalid", f"the game has {total} moves; there is no position after move {move}")
        state, _ = replay_moves(live.setup, actions[:upto])
        view = game_view(live, state, infos[:upto], lang)
        view.update(base)
        view["thinking"] = False
        view["can_undo"] = False
        view["choices"] = []
        view["replay"] = {
            "move": upto,
            "total": total,
            "moves": [
                {"n": i + 1, "text": info.text, "words": info.words.get(lang, info.text), "player": info.player,
                 "chance": info.chance}
                for i, info in enumerate(infos)
            ],
        }
        return view

    def view(self, game_id: str, lang: str) -> dict[str, Any]:
        live = self.get(game_id)
        with live.lock:
            view = game_view(live, live.state, live.infos, lang)
            view.update(self.summary(live))
            refusal = self.undo_refusal(live)
            view["can_undo"] = refusal is None
            view["undo_refusal"] = refusal
        return view

    @staticmethod
    def summary(live: LiveGame) -> dict[str, Any]:
        return {
            "api": API_VERSION,
            "id": live.id,
            "mode": live.mode,
            "level": live.level,
            "human": live.human,
            "seed": live.seed,
            "revision": live.revision,
            "thinking": live.thinking,
            "bot_error": live.bot_error,
            "moves_count": len(live.actions),
        }


def stored_summary(game: StoredGame) -> dict[str, Any]:
    """Return a game's line in the lobby's list."""
    setup = records.setup_from_json(game.setup)
    return {
        "id": game.id,
        "mode": game.mode,
        "level": game.level,
        "human": game.human,
        "rules": setup.name,
        "edition": setup.edition,
        "sokol": setup.sokol,
        "gate_guard": setup.gate_guard,
        "status": game.status,
        "scores": game.scores,
        "turn": game.turn,
        "moves": len(game.moves),
        "created_at": game.created_at.isoformat(),
        "updated_at": game.updated_at.isoformat(),
    }


# ------------------------------------------------------------------ views


def cells_of(mask: int) -> list[int]:
    """Return the cells in a bit mask of castle cells."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


def terms_for(lang: str, edition: str, sokol: bool) -> dict[str, str]:
    """Return the words the page shows for features, figures and extras (from zamek.terms)."""
    keys = ["road", "house", "pigsty", "meadow", "shrine", "shrines", "stocks", "fountain", "family-house",
            "herald", "squire", "farmer", "monk", "follower", "special-token", "score-marker", "tiles", "points",
            "total", "breakdown", "final-scoring", "shared-victory", "unfinished"]
    if sokol:
        keys += ["chapel", "preacher", "prince", "falconer", "nest", "nests", "gate"]
    words = {key: term(key, lang, edition) for key in keys}
    words["player-1"] = player_name(0, lang)
    words["player-2"] = player_name(1, lang)
    return words


def _feature_label(kind: FeatureKind, piece: Piece, lang: str, edition: str) -> str:
    role = term(ROLES[kind], lang, edition)
    figure = role if piece is Piece.FOLLOWER else f"{term(piece.key, lang, edition)} ({role})"
    return f"{figure} — {term(kind.key, lang, edition)}"


def _choices(state: GameState, lang: str, edition: str) -> list[dict[str, Any]]:
    """Return the person's options now, each with its words and the cells it concerns."""
    phase = state.phase
    options: list[dict[str, Any]] = []
    if phase is Phase.FOLLOWER:
        cell, tile_index, rotation = state.placements[-1]
        tile = state.tiles.tiles[tile_index]
        for action in state.legal_actions():
            if isinstance(action, Follower):
                feature = tile.features[action.feature]
                kind = feature.kind
                region = state.feature_at(cell, action.feature)
                sides = sorted({rotate_segment(s, rotation) // 3 for s in feature.segments})
                options.append({
                    "action": str(action), "type": "figure", "feature": action.feature, "piece": action.piece.key,
                    "sides": sides,
                    "kind": kind.key, "role": ROLES[kind], "label": _feature_label(kind, action.piece, lang, edition),
                    "cells": cells_of(region.cells), "region_tiles": region.tiles,
                })
            else:
                options.append({"action": str(action), "type": "pass"})
    elif phase is Phase.ORDER:
        for k, choice in enumerate(state.order_choices()):
            options.append({
                "action": f"order:{k}", "type": "order", "kind": choice.kind.key,
                "label": f"{term(choice.kind.key, lang, edition)}: {counted(choice.tiles, 'tiles', lang, edition)}",
                "cells": cells_of(choice.cells),
            })
    elif phase is Phase.DOUBLE:
        scored = state.feature_being_scored()
        assert scored is not None  # a x2 decision is about the feature scored next
        words = f"{term(scored.kind.key, lang, edition)}: {counted(scored.tiles, 'tiles', lang, edition)}"
        for action in state.legal_actions():
            entry: dict[str, Any] = {"action": str(action), "cells": cells_of(scored.cells), "feature": words}
            if isinstance(action, UseToken):
                entry.update(type="use", label=token_name(action.kind, lang, edition))
            else:
                entry.update(type="decline")
            options.append(entry)
    elif phase is Phase.EXTRA_TURN:
        for action in state.legal_actions():
            if isinstance(action, UseToken):
                options.append({"action": str(action), "type": "use",
                                "label": token_name(action.kind, lang, edition)})
            elif isinstance(action, Decline):
                options.append({"action": str(action), "type": "decline"})
    return options


def game_view(live: LiveGame, state: GameState, infos: list[MoveInfo], lang: str) -> dict[str, Any]:
    """Return everything the page draws for one position."""
    lang = lang if lang in LANGUAGES else "en"
    setup = state.setup
    edition = setup.edition
    castle = state.castle
    tiles = state.tiles.tiles
    place_players = [i.player for i in infos if not i.chance and "/" in i.text]
    placements = []
    for order, (cell, tile_index, rotation) in enumerate(state.placements):
        x, y = castle.xy(cell)
        player = place_players[order] if order < len(place_players) else None
        placements.append({"cell": cell, "x": x, "y": y, "tile": tiles[tile_index].id, "rotation": rotation,
                           "player": player, "order": order})
    followers = []
    for f in state.followers:
        x, y = castle.xy(f.cell)
        kind = state.feature(f.node).kind
        followers.append({"player": f.player, "cell": f.cell, "x": x, "y": y, "feature": f.feature,
                          "piece": f.piece.key, "kind": kind.key, "role": ROLES[kind]})
    drawn = None
    if state.drawn >= 0 and state.phase is not Phase.OVER:
        options = [[a.x, a.y, a.rotation] for a in state.legal_actions() if isinstance(a, Place)]
        drawn = {"id": tiles[state.drawn].id, "options": options if state.phase is Phase.PLACE else []}
    same_turn = edition_of(edition).tokens_usable_same_turn
    players = []
    for p in (0, 1):
        players.append({
            "score": state.scores[p],
            "supply": state.supply[p],
            "princes": state.princes[p],
            "falconers": state.falconers[p],
            "family_size": state.family_size[p],
            "family_cells": cells_of(state.family_cells[p]),
            "nests": state.nests[p],
            "on_gate": state.on_gate[p],
            "tokens": [
                {"kind": t.kind, "number": printed_number(TokenKind(t.kind), edition),
                 "name": token_name(t.kind, lang, edition), "turn": t.turn_taken,
                 "usable": same_turn or t.turn_taken < state.turn}
                for t in state.tokens[p]
            ],
        })
    log_lines = [
        {"turn": item.turn, "player": item.player, "points": item.points, "reason": item.reason,
         "line": item_line(item, lang, edition), "cells": cells_of(item.cells), "final": item.final}
        for item in state.log
    ]
    result = state.result()
    recent = [{"words": i.words.get(lang, i.text), "player": i.player, "chance": i.chance, "text": i.text}
              for i in infos[-8:]]
    scoring = None
    scored = state.feature_being_scored()
    if state.phase in (Phase.ORDER, Phase.DOUBLE) and scored is not None:
        scoring = cells_of(scored.cells)
    return {
        "rules": setup.name,
        "setup": records.setup_to_json(setup),
        "edition": edition,
        "sokol": setup.sokol,
        "board": setup.board,
        "gate_guard": setup.gate_guard,
        "lang": lang,
        "phase": state.phase.name.lower(),
        "current": state.current,
        "turn": state.turn,
        "over": state.is_over(),
        "result": {"scores": list(result.scores), "winners": list(result.winners)} if result else None,
        "players": players,
        "towers": list(state.tower_token),
        "placements": placements,
        "followers": followers,
        "drawn": drawn,
        "choices": [] if state.is_chance() or state.is_over() else _choices(state, lang, edition),
        "scoring_cells": scoring,
        "log": log_lines,
        "remaining": sorted(tiles[t].id for t in state.remaining),
        "discarded": [tiles[t].id for t in state.discarded],
        "recent": recent,
        "human_to_act": (not state.is_over() and not state.is_chance()
                         and (live.mode != COMPUTER or state.current == live.human)),
        "terms": terms_for(lang, edition, setup.sokol),
        "prompt_words": _prompt_words(state, lang, edition),
    }


def _prompt_words(state: GameState, lang: str, edition: str) -> dict[str, str]:
    """Return the names the page's prompts need for this position."""
    words: dict[str, str] = {"current": player_name(state.current, lang)}
    if state.drawn >= 0:
        words["tile"] = state.tiles.tiles[state.drawn].id
    return words
