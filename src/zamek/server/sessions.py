"""Castle game sessions and their storage: the games in memory, loading and replaying them, creating games, moves
committed one transaction each, undo.

A :class:`LiveGame` (:mod:`zamek.server.live`) is a game held in memory: its saved-game record (setup, seed, moves)
and the position those moves reach. Every change goes through :meth:`Sessions.commit`, which writes the whole new
move list in one transaction *before* the position in memory changes, so what a person saw confirmed is on disk,
and a restarted server replays each record to the same position.

The database is the truth and the games in memory are a bounded cache of it: every request first asks the
database for the game's revision and brings its copy up to date when another process has changed it, and a
change is stored only on the revision it was made from (:meth:`Repository.save_moves`), so that of two
processes moving at once one wins and the other answers 409 ``stale``.

Chance (the tile drawn, a token revealed) is decided by the server from the game's seed, by the one
seeding convention (``zamek.castle.seeding``): a restarted server, or an undo, finds the same tiles again.
A change that leaves the computer to move stores its turn as a job (due after a pause), in the same
transaction; :mod:`zamek.server.computer` plays it.

The other concerns of a game have their own modules, each given the sessions: joining a friend's game
(:mod:`zamek.server.joining`), resignations and clocks running out (:mod:`zamek.server.endings`), rematches
(:mod:`zamek.server.rematch`) and the checks of an imported saved game (:mod:`zamek.server.importing`).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any, Final

from zamek import (
    Action,
    Draw,
    GameState,
    MalformedActionError,
    Phase,
    Reveal,
    Setup,
    ZamekError,
    new_game,
    parse_action,
)
from zamek.castle import record as records
from zamek.castle.bots.levels import OFFERED_LEVELS
from zamek.kit.records import parse_moves
from zamek.server import endings, joining, rematch
from zamek.server.cache import RecentGames
from zamek.server.clock import Clock, ClockSettings
from zamek.server.db import Repository
from zamek.server.errors import ServiceError, refusing_bad_records
from zamek.server.importing import MAX_IMPORT_MOVES, check_draw_order, check_length, imported_game, read_import
from zamek.server.live import (
    COMPUTER,
    FRIEND,
    HOTSEAT,
    SEED_BITS,
    Created,
    LiveGame,
    MoveInfo,
    chance_for,
    computer_of,
    players_of,
    replay_moves,
    status_of,
    step,
    wall_clock,
)
from zamek.server.rematch import replace_token
from zamek.server.seats import SeatPlayer, clean_name, prove_seat, seats_for
from zamek.server.tables import Extras, StoredMatch, new_id, now

__all__ = [
    "CACHED_GAMES",
    "COMPUTER",
    "FRIEND",
    "HOTSEAT",
    "KIND",
    "MAX_IMPORT_MOVES",
    "SEED_BITS",
    "STALE",
    "Created",
    "LiveGame",
    "MoveInfo",
    "Sessions",
    "chance_for",
    "check_draw_order",
    "computer_of",
    "players_of",
    "replace_token",
    "replay_moves",
    "status_of",
    "step",
    "wall_clock",
]

log = logging.getLogger("zamek.server")

CACHED_GAMES: Final = 2000
"""The games a process keeps in memory (the latest used); any other is replayed from the database when asked."""
KIND: Final = "castle"
"""The kind of the matches these sessions hold."""
STALE: Final = ("the game has changed since this page was drawn (another tab, the computer or your opponent); it has "
                "been brought up to date")


class Sessions:
    """Every castle game of the app in memory and in the database: loading, creation, moves, undo, deletion; the
    joining, endings, rematches and imports through their modules."""

    def __init__(self, repo: Repository, clock: Callable[[], float] = wall_clock, bot_delay: float = 0.8,
                 cached: int = CACHED_GAMES) -> None:
        self.repo = repo
        self.now = clock
        self.bot_delay = bot_delay
        self._games: RecentGames[LiveGame] = RecentGames(cached)
        self.changed: Callable[[LiveGame], None] = lambda live: None
        """Called (holding the game's lock) after every stored change: the live events."""
        self.computer_due: Callable[[], None] = lambda: None
        """Called when a change has left a turn to the computer (its scheduler looks at the jobs again)."""

    # --------------------------------------------------------------- loading

    def get(self, game_id: str) -> LiveGame:
        """Return a game as stored now: from memory when its copy there is current, else replayed (or brought up to
        date) from the database."""
        live = self._games.get(game_id)
        if live is not None:
            with live.lock:
                self._refresh(live)
            return live
        stored = self.repo.get(game_id)
        if stored is None or stored.kind != KIND:
            raise ServiceError(404, "not-found", f"there is no game {game_id!r}")
        return self._keep(self._load(stored))

    def _keep(self, live: LiveGame) -> LiveGame:
        """Hold a game in memory (the latest used; the oldest is forgotten); another thread's copy, if it was
        quicker, wins."""
        return self._games.keep(live.id, live)

    def _refresh(self, live: LiveGame) -> None:
        """Bring a game in memory up to date with the database (the caller holds its lock)."""
        revision = self.repo.revision(live.id)
        if revision is None:
            self._forget(live)
            raise ServiceError(404, "not-found", f"there is no game {live.id!r}")
        if revision != live.revision:
            self._reload(live)

    def _reload(self, live: LiveGame) -> None:
        """Read a game again from the database: the moves another process added are played on from the copy in
        memory (a game whose moves were taken back is replayed)."""
        stored = self.repo.get(live.id)
        if stored is None:
            self._forget(live)
            raise ServiceError(404, "not-found", f"there is no game {live.id!r}")
        known = [str(a) for a in live.actions]
        if stored.moves[:len(known)] == known:
            state = live.state.copy()
            try:
                actions = parse_moves({"moves": stored.moves[len(known):]}, parse_action)
                infos = [step(state, action) for action in actions]
            except ZamekError as exc:
                raise ServiceError(500, "corrupt", f"game {live.id} cannot be replayed: {exc}") from None
            live.state, live.actions, live.infos = state, live.actions + actions, live.infos + infos
            extras = self.repo.extras(live.id)
            live.seats = self.repo.seats(live.id)
            live.clock = Clock.from_json(extras.clock) if extras.clock else None
            live.ended, live.rematch = extras.ended, extras.rematch
        else:
            fresh = self._load(stored)
            live.state, live.actions, live.infos, live.seats = fresh.state, fresh.actions, fresh.infos, fresh.seats
            live.clock, live.ended, live.rematch = fresh.clock, fresh.ended, fresh.rematch
        live.revision = stored.revision
        live.bot_error = None

    def _forget(self, live: LiveGame) -> None:
        live.deleted = True
        self._games.forget(live.id)

    def _load(self, stored: StoredMatch) -> LiveGame:
        try:
            # A stored setup without a board was stored before board 2 (setup_from_json reads it as board 1).
            setup = records.setup_from_json(stored.setup)
            actions = parse_moves({"moves": stored.moves}, parse_action)
            state, infos = replay_moves(setup, actions)
            extras = self.repo.extras(stored.id)
            clock = Clock.from_json(extras.clock) if extras.clock else None
        except ZamekError as exc:
            raise ServiceError(500, "corrupt", f"game {stored.id} cannot be replayed: {exc}") from None
        except (LookupError, TypeError, ValueError) as exc:
            raise ServiceError(500, "corrupt", f"game {stored.id}: its clock cannot be read ({exc})") from None
        return LiveGame(
            stored.id, stored.mode, stored.level, stored.human, stored.seed, setup, stored.created_at, actions,
            infos, state, stored.revision, self.repo.seats(stored.id), clock, extras.ended, extras.rematch,
            agreed_hints=stored.hints,
        )

    def peek(self, game_id: str) -> LiveGame | None:
        """The game if it is in memory (never loads it)."""
        return self._games.peek(game_id)

    def in_memory(self) -> int:
        return len(self._games)

    # -------------------------------------------------------------- creation

    def create(self, mode: str, level: str | None, seat: str, setup: Setup, seed: int | None = None,
               clock: ClockSettings | None = None, name: str | None = None, friend: str | None = None,
               hints: bool = False) -> Created:
        """Start a game: against the computer (``level``, the person's ``seat``), for two people at one screen, or
        against a friend who opens the invitation (``seat`` is the creator's; ``hints``: both may ask for hints)."""
        # 62 random bits: the tiles drawn so far must not tell the seed (and with it every tile to come).
        seed = seed if seed is not None else secrets.randbits(SEED_BITS)
        human: int | None = None
        mine = {"first": 0, "second": 1}.get(seat, secrets.randbelow(2))
        players: list[SeatPlayer] = ["person", "person"]
        if mode == COMPUTER:
            if level not in OFFERED_LEVELS:
                raise ServiceError(422, "invalid", f"unknown level {level!r}; choose from {', '.join(OFFERED_LEVELS)}")
            human = mine
            players[1 - mine] = "computer"
        else:
            level = None
        if mode == FRIEND:
            players[1 - mine] = "open"
        elif clock is not None:
            raise ServiceError(422, "invalid", "clocks are for games against a friend")
        names: list[str | None] = [None, None]
        names[mine] = clean_name(name)
        if mode == FRIEND:
            names[1 - mine] = clean_name(friend)  # a rematch's seat waits for a known player
        seats, tokens, invite = seats_for(players, now(), names)
        state = new_game(setup)
        live = LiveGame(new_id(), mode, level, human, seed, setup, now(), [], [], state, 0, seats,
                        Clock.new(clock) if clock is not None else None, agreed_hints=hints and mode == FRIEND)
        new_state, actions, infos = self._advance_chance(live, state.copy())
        live.state, live.actions, live.infos = new_state, actions, infos
        self._add(live)
        return Created(live, tokens, invite)

    def import_record(self, raw: Any) -> Created:
        """Store a saved game (checked by replaying it) as a new game for two people at one screen (against the
        computer when its export says so)."""
        check_length(raw)
        with refusing_bad_records(log, "an imported record"):
            setup, actions = read_import(raw)
            state, infos = replay_moves(setup, actions)
        created = imported_game(raw, setup, actions, infos, state)
        self._add(created.live)
        return created

    def _add(self, live: LiveGame) -> None:
        state = live.state
        self.repo.add(StoredMatch(
            id=live.id, kind=KIND, created_at=live.created_at, updated_at=live.created_at, mode=live.mode,
            level=live.level, human=live.human, seed=live.seed, setup=records.setup_to_json(live.setup),
            moves=[str(a) for a in live.actions], status=status_of(state), scores=list(state.scores), turn=state.turn,
            revision=live.revision, hints=live.agreed_hints,
        ), live.seats, live.extras(), self._job_due(live, state))
        self._keep(live)
        if live.computer_to_move():
            self.computer_due()

    def _job_due(self, live: LiveGame, state: GameState) -> int | None:
        """When the computer is to play its turn in ``state`` (epoch ms, after the pause in which a person may
        still take their move back), or None when it has no turn."""
        if not live.computer_to_move(state):
            return None
        return round((self.now() + self.bot_delay) * 1000)

    def delete(self, game_id: str, token: str | None) -> None:
        """Delete a game; a game against a friend who has joined belongs to both and is not deleted."""
        live = self.get(game_id)
        with live.lock:
            prove_seat(live.seats, token)
            if live.mode == FRIEND and not live.waiting_for_friend:
                raise ServiceError(409, "shared-game", "this game belongs to both players: it stays on the server "
                                                       "(remove it from your list instead)")
            self.repo.delete(game_id)
            self._forget(live)

    # --------------------------------------------- the seats, the end, rematches

    def join(self, game_id: str, invite: str, name: str | None) -> Created:
        return joining.join(self, game_id, invite, name)

    def resign(self, game_id: str, token: str | None, revision: int | None = None) -> LiveGame:
        return endings.resign(self, game_id, token, revision)

    def expire_clocks(self) -> list[str]:
        return endings.expire_clocks(self)

    def rematch(self, game_id: str, token: str | None) -> Created:
        return rematch.rematch(self, game_id, token)

    def _acting_seat(self, live: LiveGame, token: str | None, revision: int | None) -> int:
        """The seat ``token`` holds, refused unless the game waits for that seat's decision on the revision the
        page shows."""
        seat = prove_seat(live.seats, token)
        self.check_revision(live, revision)  # before the turn: a page out of date is told so first
        if live.over:
            raise ServiceError(409, "illegal", "the game is over")
        if live.waiting_for_friend:
            raise ServiceError(409, "waiting", "the game starts when your friend has opened the invitation")
        to_act = live.state.current
        if live.state.is_chance() and not (live.mode == HOTSEAT and live.state.phase is Phase.DRAW):
            return seat  # the computer's turn: refused below with its own message
        if seat != to_act:
            raise ServiceError(409, "not-your-turn", f"player {to_act + 1} is to move, not player {seat + 1}")
        return seat


    # ----------------------------------------------------------------- moves

    def act(self, game_id: str, text: str, revision: int | None = None, token: str | None = None) -> LiveGame:
        """Play a person's move (in notation); the engine's refusal becomes a 4xx error with its message."""
        live = self.get(game_id)
        with live.lock:
            self._acting_seat(live, token, revision)
            endings.check_clock(self, live)
            action = self._parse(text)
            if isinstance(action, (Draw, Reveal)):
                raise ServiceError(409, "illegal", f"{action}: tiles and tokens are drawn by the game, not chosen")
            state = live.state
            if state.is_chance():
                if live.mode == HOTSEAT and state.phase is Phase.DRAW:
                    raise ServiceError(409, "illegal", f"{action}: draw a tile first")
                raise ServiceError(409, "not-your-turn", f"{action}: the computer is to move")
            new_state = state.copy()
            try:
                info = step(new_state, action)
            except ZamekError as exc:
                if isinstance(exc, MalformedActionError):
                    raise ServiceError(400, "malformed", str(exc)) from None
                raise ServiceError(409, "illegal", str(exc)) from None
            new_state, more, more_infos = self._advance_chance(live, new_state, len(live.actions) + 1)
            self.commit(live, new_state, [action, *more], [info, *more_infos])
        return live

    def draw(self, game_id: str, revision: int | None = None, token: str | None = None) -> LiveGame:
        """Draw the next tile (two people at one screen: the next player asks for it)."""
        live = self.get(game_id)
        with live.lock:
            self._acting_seat(live, token, revision)
            state = live.state
            if live.mode != HOTSEAT:
                raise ServiceError(409, "illegal", "tiles are drawn automatically in this game")
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

    def undo(self, game_id: str, revision: int | None = None, token: str | None = None) -> LiveGame:
        """Take back the last move when nothing has happened since (no reply, no tile drawn, no token revealed)."""
        live = self.get(game_id)
        with live.lock:
            seat = prove_seat(live.seats, token)
            self.check_revision(live, revision)
            reason = self.undo_refusal(live)
            if reason is not None:
                raise ServiceError(409, "cannot-undo", reason)
            if live.infos[-1].player != seat:
                raise ServiceError(403, "not-your-seat", "only the player who made a move may take it back")
            endings.check_clock(self, live)
            actions = live.actions[:-1]
            state, infos = replay_moves(live.setup, actions)
            self.commit(live, state, actions, infos, replace=True)
        return live

    @staticmethod
    def undo_refusal(live: LiveGame) -> str | None:
        """Return why the last move cannot be taken back now, or None when it can."""
        if live.over:  # its final scoring is known (and its seed published): no second try
            return "the game is over"
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
    def check_revision(live: LiveGame, revision: int | None) -> None:
        if revision is not None and revision != live.revision:
            raise ServiceError(409, "stale", STALE)

    def commit(
        self, live: LiveGame, state: GameState, actions: list[Action], infos: list[MoveInfo], replace: bool = False
    ) -> None:
        """Store the new move list (and the clock, the end, the rematch, the computer's next turn) in one
        transaction, on the revision the game in memory has, then (only then) change the game in memory.

        The caller holds ``live.lock``. Raise ServiceError 404 when the game has been deleted meanwhile, and 409
        ``stale`` when another process changed it first (the game in memory is then brought up to date).
        """
        all_actions = list(actions) if replace else live.actions + list(actions)
        all_infos = list(infos) if replace else live.infos + list(infos)
        clock = live.clock
        to_act = live.seat_to_act(state)
        over = live.ended is not None or state.is_over()
        if clock is not None and live.everyone_seated and (actions or replace):
            clock = Clock.from_json(clock.to_json())
            clock.run_for(to_act, self.now())
        deadline = None
        if clock is not None and clock.running is not None and clock.since is not None and not over:
            deadline = round(clock.since * 1000) + clock.left_ms[clock.running]
        extras = Extras(clock.to_json() if clock else None, live.ended, live.rematch, to_act, deadline)
        job_due = self._job_due(live, state)
        written = self.repo.save(
            live.id, live.revision, [str(a) for a in all_actions], "over" if over else "playing",
            list(state.scores), state.turn, extras, job_due,
        )
        if written == "gone":
            self._forget(live)
            raise ServiceError(404, "not-found", f"game {live.id} has been deleted")
        if written == "stale":
            self._reload(live)
            raise ServiceError(409, "stale", STALE)
        live.state, live.actions, live.infos, live.revision = state, all_actions, all_infos, live.revision + 1
        live.clock = clock
        live.bot_error = None
        self.changed(live)
        if job_due is not None:
            self.computer_due()
