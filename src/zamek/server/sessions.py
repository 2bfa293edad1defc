"""The match service: the matches of both games in memory and in the database — loading and replaying them,
creating them, moves committed one transaction each, undo — with joining, endings, aborts and rematches through
their modules (takebacks, :mod:`zamek.server.takeback`, commit through it too).

A :class:`LiveGame` (:mod:`zamek.server.live`) is a match held in memory: its record (setup, seed, moves) and the
position those moves reach. Every change goes through :meth:`Sessions.commit`, which writes the whole new move
list in one transaction *before* the position in memory changes, so what a person saw confirmed is on disk, and a
restarted server replays each record to the same position. What differs between the games (their moves, chance,
who is to act, undo, the computer's thinking) is asked of the match's kind (:mod:`zamek.server.games`).

The database is the truth and the matches in memory are a bounded cache of it: every request first asks the
database for the match's revision and brings its copy up to date when another process has changed it, and a
change is stored only on the revision it was made from (:meth:`Repository.save`), so that of two processes moving
at once one wins and the other answers 409 ``stale``.

Chance (a tile drawn, a token revealed, a card game's tile turned up) is decided by the server from the game's
seed, the same after a restart or an undo. A change that leaves the computer to move stores its turn as a job
(due after a pause), in the same transaction; :mod:`zamek.server.computer` plays it.

A fair start: no clock runs until every person has made a first move; until then any player may abort the game
(it ends with no result), and a game with a clock whose player to move has not made their first move in
:data:`FIRST_MOVE_SECONDS` is aborted by the server.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from zamek import MalformedActionError, Phase, Setup, ZamekError
from zamek.server import creating, endings, joining, ratings, rematch
from zamek.server.cache import KEPT_POSITIONS, RecentGames, ViewCache
from zamek.server.clock import Clock, ClockSettings
from zamek.server.db import Added, Repository
from zamek.server.errors import ServiceError, refusing_bad_records
from zamek.server.games import GameKind, MoveInfo
from zamek.server.games.castle import CASTLE, players_for
from zamek.server.games.kinds import kind_of
from zamek.server.importing import MAX_IMPORT_MOVES, check_draw_order, check_length, imported_game, read_import
from zamek.server.live import (
    COMPUTER,
    FRIEND,
    HOTSEAT,
    SEED_BITS,
    Created,
    LiveGame,
    chance_for,
    computer_of,
    players_of,
    step,
    wall_clock,
)
from zamek.server.players import Player
from zamek.server.rematch import replace_token
from zamek.server.seats import Seat, SeatPlayer, is_game_id, prove_seat, seats_for
from zamek.server.tables import Extras, StoredMatch, new_id, now

__all__ = [
    "CACHED_GAMES",
    "COMPUTER",
    "FIRST_MOVE_SECONDS",
    "FRIEND",
    "HOTSEAT",
    "KIND",
    "MAX_IMPORT_MOVES",
    "SEED_BITS",
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
    "step",
    "wall_clock",
]

log = logging.getLogger("zamek.server")

CACHED_GAMES: Final = 2000
"""The games a process keeps in memory (the latest used); any other is replayed from the database when asked."""
KIND: Final = CASTLE.name
FIRST_MOVE_SECONDS: Final = {"live": 60.0, "correspondence": 86400.0}
"""How long a player of a game with a clock has for their first move before the game is aborted (by clock kind)."""


def check_revision(live: LiveGame, revision: int | None) -> None:
    """Refuse a request sent from a page that shows another position than the game's (409 ``stale``)."""
    if revision is not None and not live.position_revision <= revision <= live.revision:
        raise ServiceError(409, "stale", "stale")


class Sessions:
    """Every match of the app in memory and in the database (see the module's doc)."""

    def __init__(self, repo: Repository, clock: Callable[[], float] = wall_clock, bot_delay: float = 0.8,
                 cached: int = CACHED_GAMES) -> None:
        self.repo = repo
        self.now = clock
        self.bot_delay = bot_delay
        self._games: RecentGames[LiveGame] = RecentGames(cached)
        self.views = ViewCache(min(cached, KEPT_POSITIONS))  # the parts of views their positions decide
        self.changed: Callable[[LiveGame, int | None], None] = lambda live, answered: None
        """Called (holding the game's lock) after every stored change, with the seat answered: the live events."""
        self.computer_due: Callable[[], None] = lambda: None
        """Called when a change has left a turn to the computer (its scheduler looks at the jobs again)."""

    # --------------------------------------------------------------- loading

    def get(self, game_id: str, kind: str | None = None) -> LiveGame:
        """Return a match as stored now (of the game ``kind``, when given): from memory when its copy there is
        current, else replayed (or brought up to date) from the database."""
        if not is_game_id(game_id):
            raise ServiceError(404, "not-found", "no-game", game=game_id)
        live = self._games.get(game_id)
        if live is not None:
            with live.lock:
                self._refresh(live)
        else:
            read = self.repo.snapshot(game_id)
            if read is None:
                raise ServiceError(404, "not-found", "no-game", game=game_id)
            live = self.keep(self._load(*read))
        if kind is not None and live.kind.name != kind:
            raise ServiceError(404, "not-found", "no-game", game=game_id)
        return live

    def keep(self, live: LiveGame) -> LiveGame:
        """Hold a match in memory (the latest used; the oldest is forgotten); another thread's copy, if it was
        quicker, wins."""
        return self._games.keep(live.id, live)

    def _refresh(self, live: LiveGame) -> None:
        """Bring a match in memory up to date with the database (the caller holds its lock)."""
        revision = self.repo.revision(live.id)
        if revision is None:
            self._forget(live)
            raise ServiceError(404, "not-found", "no-game", game=live.id)
        if revision != live.revision:
            self.reload(live)

    def reload(self, live: LiveGame) -> None:
        """Read a match again from the database: the moves another process added are played on from the copy in
        memory (a match whose moves were taken back is replayed)."""
        read = self.repo.snapshot(live.id)  # one transaction, not three: fewer round trips on PostgreSQL
        if read is None:
            self._forget(live)
            raise ServiceError(404, "not-found", "no-game", game=live.id)
        stored, extras, seats = read
        known = [str(a) for a in live.actions]
        if stored.moves[:len(known)] == known:
            state = live.state.copy()
            try:
                actions = [live.kind.parse(m) for m in stored.moves[len(known):]]
                infos = [live.kind.step(state, action) for action in actions]
            except ZamekError as exc:
                raise ServiceError(500, "corrupt", "cannot-replay", game=live.id, reason=exc) from None
            live.state, live.actions, live.infos = state, live.actions + actions, live.infos + infos
            self._read_extras(live, extras, seats)
        else:
            fresh = self._load(*read)
            live.state, live.actions, live.infos, live.seats = fresh.state, fresh.actions, fresh.infos, fresh.seats
            live.clock, live.ended, live.rematch, live.deadline_ms, live.takeback = (
                fresh.clock, fresh.ended, fresh.rematch, fresh.deadline_ms, fresh.takeback)
        live.revision = stored.revision
        live.bot_error = None

    def _read_extras(self, live: LiveGame, extras: Extras, seats: list[Seat]) -> None:
        live.seats = seats
        live.clock = Clock.from_json(extras.clock) if extras.clock else None
        live.ended, live.rematch, live.deadline_ms, live.takeback = (extras.ended, extras.rematch, extras.deadline_ms,
                                                                     extras.takeback)

    def _forget(self, live: LiveGame) -> None:
        live.deleted = True
        self._games.forget(live.id)
        self.views.forget(live.id)

    def _load(self, stored: StoredMatch, extras: Extras, seats: list[Seat]) -> LiveGame:
        try:
            kind = kind_of(stored.kind)
        except KeyError:
            raise ServiceError(500, "corrupt", "cannot-replay-unknown", game=stored.id, kind=stored.kind) from None
        try:
            setup = kind.setup_from_json(stored.setup)
            actions = [kind.parse(m) for m in stored.moves]
            state, infos = kind.replay(setup, actions)
        except ZamekError as exc:
            raise ServiceError(500, "corrupt", "cannot-replay", game=stored.id, reason=exc) from None
        players = stored.players if stored.players is not None else players_for(stored.mode, stored.level,
                                                                                 stored.human)
        live = LiveGame(stored.id, kind, stored.mode, list(players), stored.seed, setup, stored.created_at, actions,
                        infos, state, stored.revision, level=stored.level, human=stored.human,
                        agreed_hints=stored.hints, imported=stored.imported, rated=stored.rated, listed=stored.listed)
        try:
            self._read_extras(live, extras, seats)
        except (LookupError, TypeError, ValueError) as exc:
            log.error("game %s: its clock cannot be read", stored.id, exc_info=exc)
            raise ServiceError(500, "corrupt", "bad-clock", game=stored.id) from None
        return live

    def peek(self, game_id: str) -> LiveGame | None:
        """The match if it is in memory (never loads it)."""
        return self._games.peek(game_id)

    def in_memory(self) -> int:
        return len(self._games)

    # -------------------------------------------------------------- creation

    def create(self, mode: str, level: str | None, seat: str, setup: Setup, seed: int | None = None,
               clock: ClockSettings | None = None, name: str | None = None, friend: str | None = None,
               hints: bool = False, player: Player | None = None, rated: bool = False, listed: bool = False
               ) -> Created:
        return creating.create(self, mode, level, seat, setup, seed, clock, name, friend, hints, player, rated,
                               listed)

    def start(self, kind: GameKind, mode: str, players: list[str], seat_players: list[SeatPlayer], setup: Any,
               seed: int | None, clock: ClockSettings | None, names: list[str | None], *, level: str | None = None,
               human: int | None = None, hints: bool = False, bound: Mapping[int, str] | None = None,
               rated: bool = False, listed: bool = False) -> Created:
        seats, tokens, invite = seats_for(seat_players, now(), names, bound or {})
        live = self.new_match(kind, mode, players, setup, clock, seats, seed, level=level, human=human,
                              agreed_hints=hints, rated=rated, listed=listed)
        self._add(live)
        return Created(live, tokens, invite)

    def new_match(self, kind: GameKind, mode: str, players: list[str], setup: Any, clock: ClockSettings | None,
                  seats: list[Seat], seed: int | None = None, *, level: str | None = None, human: int | None = None,
                  agreed_hints: bool = False, rated: bool = False, listed: bool = False) -> LiveGame:
        """A new match in memory (not stored yet), its first chance decided (the first tile is drawn, or turned
        up, at once: nobody's move decides it)."""
        # 62 random bits: the tiles drawn so far must not tell the seed (and with it every tile to come).
        seed = seed if seed is not None else secrets.randbits(SEED_BITS)
        state = kind.new_state(setup)
        live = LiveGame(new_id(), kind, mode, players, seed, setup, now(), [], [], state, 0, seats,
                        Clock.new(clock, len(players)) if clock is not None else None, level=level, human=human,
                        agreed_hints=agreed_hints, rated=rated, listed=listed)
        live.state, live.actions, live.infos = self.advance_chance(live, state.copy())
        return live

    def import_record(self, raw: Any) -> Created:
        """Store a saved castle game (checked by replaying it) as a new game for two people at one screen (against
        the computer when its export says so)."""
        check_length(raw)
        with refusing_bad_records(log, "an imported record"):
            setup, actions = read_import(raw)
            state, infos = replay_moves(setup, actions)
        created = imported_game(raw, setup, actions, infos, state)
        self._add(created.live)
        return created

    def stored(self, live: LiveGame) -> StoredMatch:
        """A match as its row stores it."""
        state, kind = live.state, live.kind
        return StoredMatch(
            id=live.id, kind=kind.name, created_at=live.created_at, updated_at=live.created_at, mode=live.mode,
            level=live.level, human=live.human, players=live.players if kind is not CASTLE else None, seed=live.seed,
            setup=kind.setup_to_json(live.setup), moves=[str(a) for a in live.actions], listed=live.listed,
            status="over" if live.over else "playing", scores=kind.scores(state), turn=kind.turn(state),
            revision=live.revision, hints=live.agreed_hints, imported=live.imported, rated=live.rated,
        )

    def _add(self, live: LiveGame) -> None:
        self.repo.add(self.stored(live), live.seats, self.extras_of(live), self._job_due(live, live.state))
        self.keep(live)
        if live.computer_to_move():
            self.computer_due()

    def _job_due(self, live: LiveGame, state: Any) -> int | None:
        """When the computer is to play its turn in ``state`` (epoch ms, after the pause in which a person may
        still take their move back), or None when it has no turn."""
        if not live.computer_to_move(state):
            return None
        return round((self.now() + (self.bot_delay if live.kind.undo else 0.0)) * 1000)

    def delete(self, game_id: str, token: str | None, kind: str | None = None) -> None:
        """Delete a match; one a friend has joined belongs to both and is not deleted."""
        live = self.get(game_id, kind)
        with live.lock:
            prove_seat(live.seats, token)
            if live.friend_joined:
                raise ServiceError(409, "shared-game", "shared-game")
            self.repo.delete(game_id)
            self._forget(live)

    # --------------------------------------------- the seats, the end, rematches

    def join(self, game_id: str, invite: str, name: str | None, kind: str | None = None, key: str | None = None,
             player: Player | None = None, player_token: str | None = None) -> Created:
        return joining.join(self, game_id, invite, name, kind, key, player, player_token)

    def invite(self, game_id: str, token: str | None, kind: str | None = None) -> str:
        return joining.new_invitation(self, game_id, token, kind)

    def resign(self, game_id: str, token: str | None, revision: int | None = None, kind: str | None = None
               ) -> LiveGame:
        return endings.resign(self, game_id, token, revision, kind)

    def abort(self, game_id: str, token: str | None, revision: int | None = None, kind: str | None = None
              ) -> LiveGame:
        return endings.abort(self, game_id, token, revision, kind)

    def expire_clocks(self) -> list[str]:
        return endings.expire_clocks(self)

    def rematch(self, game_id: str, token: str | None, kind: str | None = None) -> Created:
        return rematch.rematch(self, game_id, token, kind)

    def prove(self, live: LiveGame, token: str | None) -> int:
        """The seat ``token`` holds (refused otherwise); its first use ends the invitation's right to give the
        seat again (a friend whose answer to joining was lost asks again with the same invitation until then)."""
        seat = prove_seat(live.seats, token)
        held = live.seats[seat]
        if held.invite_digest is not None and held.player == "person":
            self.repo.confirm_seat(live.id, seat)
            live.seats = [Seat(s.index, s.player, s.token_digest, None, s.name, s.joined_at) if s.index == seat
                          else s for s in live.seats]
        return seat

    def _acting_seat(self, live: LiveGame, token: str | None, revision: int | None) -> int:
        """The seat ``token`` holds, refused unless the game waits for that seat's decision on the revision the
        page shows."""
        seat = self.prove(live, token)
        self.check_revision(live, revision)  # before the turn: a page out of date is told so first
        if live.over:
            raise ServiceError(409, "game-over", "game-over")
        if live.waiting_for_friend:
            raise ServiceError(409, "waiting", "waiting-friends")
        to_act = live.seat_to_act()
        if to_act is None:
            raise ServiceError(409, "not-your-turn", "computer-to-move")
        if seat != to_act:
            raise ServiceError(409, "not-your-turn", "not-your-turn", mover=to_act + 1, seat=seat + 1)
        return seat

    # ----------------------------------------------------------------- moves

    def act(self, game_id: str, text: str, revision: int | None = None, token: str | None = None,
            kind: str | None = None, loaded: LiveGame | None = None) -> LiveGame:
        """Play a person's move (in notation; on ``loaded``, the match as the request just read it, if given)."""
        live = loaded if loaded is not None else self.get(game_id, kind)
        with live.lock:
            seat = self._acting_seat(live, token, revision)
            endings.check_clock(self, live)
            try:
                action = live.kind.parse(text)
            except ZamekError as exc:
                raise ServiceError.of(400, exc, "malformed-move") from None
            refusal = live.kind.refuse_person_action(live, live.state, action)
            if refusal is not None:
                raise refusal
            state = live.state.copy()
            try:
                info = live.kind.step(state, action)
            except ZamekError as exc:
                if isinstance(exc, MalformedActionError):
                    raise ServiceError.of(400, exc, "malformed-move") from None
                raise ServiceError.of(409, exc, "illegal-move") from None
            state, more, more_infos = self.advance_chance(live, state, len(live.actions) + 1)
            self.commit(live, state, [action, *more], [info, *more_infos], answered=seat)
        return live

    def draw(self, game_id: str, revision: int | None = None, token: str | None = None) -> LiveGame:
        """Draw the next tile (the castle game by two people at one screen: the next player asks for it)."""
        live = self.get(game_id)
        with live.lock:
            if live.kind is not CASTLE:
                raise ServiceError(409, "not-for-this-game", "castle-draw-only")
            self._acting_seat(live, token, revision)
            state = live.state
            if live.mode != HOTSEAT:
                raise ServiceError(409, "illegal-move", "draws-automatic")
            if state.phase is not Phase.DRAW:
                raise ServiceError(409, "illegal-move", "no-draw-now")
            new_state = state.copy()
            actions: list[Any] = []
            infos: list[MoveInfo] = []
            while new_state.phase is Phase.DRAW:  # the engine puts out a tile that fits nowhere: draw again (Z8)
                action = chance_for(live.seed, new_state)
                infos.append(step(new_state, action))
                actions.append(action)
            self.commit(live, new_state, actions, infos)
        return live

    def undo(self, game_id: str, revision: int | None = None, token: str | None = None,
             kind: str | None = None) -> LiveGame:
        """Take back the last move when nothing has happened since (no reply, no tile drawn, no token revealed)."""
        live = self.get(game_id, kind)
        with live.lock:
            seat = self.prove(live, token)
            self.check_revision(live, revision)
            reason = self.undo_refusal(live)
            if reason is not None:
                raise ServiceError(409, "cannot-undo", reason)
            if live.infos[-1].player != seat:
                raise ServiceError(403, "not-your-seat", "not-the-mover")
            endings.check_clock(self, live)
            actions = live.actions[:-1]
            state, infos = live.kind.replay(live.setup, actions)
            self.commit(live, state, actions, infos, replace=True)
        return live

    @staticmethod
    def undo_refusal(live: LiveGame) -> str | None:
        """Return why the last move cannot be taken back now (the code of its message, ``server.<code>``), or None
        when it can."""
        return live.kind.undo_refusal(live)

    def advance_chance(self, live: LiveGame, state: Any, moves: int = 0) -> tuple[Any, list[Any], list[MoveInfo]]:
        """Apply the chance events decided in a person's request (``moves``: the game's moves before them)."""
        actions: list[Any] = []
        infos: list[MoveInfo] = []
        while state.is_chance() and not state.is_over():
            if not live.kind.person_chance(live, state, moves + len(actions)):
                break
            action = live.kind.chance(live, state, moves + len(actions))
            infos.append(live.kind.step(state, action))
            actions.append(action)
        return state, actions, infos

    check_revision = staticmethod(check_revision)  # a page that shows another position than the game is stale

    def extras_of(self, live: LiveGame) -> Extras:
        return self._extras(live, live.state, takeback=live.takeback)

    def _extras(self, live: LiveGame, state: Any, clock: Clock | None = None, infos: list[MoveInfo] | None = None,
                takeback: dict[str, Any] | None = None) -> Extras:
        """What is stored beside the moves: the clock, the end, the rematch, the seat to move and when its time
        (or, before the game has started, its time for a first move) runs out, the takeback asked or declined."""
        clock = live.clock if clock is None else clock
        to_act = live.seat_to_act(state)
        over = live.ended is not None or state.is_over()
        deadline = None
        if clock is not None and not over:
            if clock.running is not None and clock.since is not None:
                deadline = round(clock.since * 1000) + clock.left_ms[clock.running]
            elif to_act is not None and live.everyone_seated and not live.started(
                    live.infos if infos is None else infos, state):
                # The time for a first move starts when the turn comes to the seat, and goes on through the
                # changes that leave it there (a question of the same turn, a page asking again for its seat).
                same_seat = live.deadline_ms is not None and live.seat_to_act() == to_act
                deadline = live.deadline_ms if same_seat else round(
                    (self.now() + FIRST_MOVE_SECONDS[clock.settings.kind]) * 1000)
        return Extras(clock.to_json() if clock else None, live.ended, live.rematch, to_act, deadline, takeback)

    def commit(self, live: LiveGame, state: Any, actions: list[Any], infos: list[MoveInfo], replace: bool = False,
               added: Added | None = None, seats: Sequence[tuple[Seat, Seat]] = (), taken_back: bool = False,
               answered: int | None = None) -> None:
        """Store the new move list (and the clock, the end, the rematch, the takeback asked, which only a change
        of no move keeps, the computer's next turn; and ``added``, a new match made by this change; ``seats``, seats
        it gives, as seen and as given, the latter already in ``live.seats``) in one transaction,
        on the revision the match in memory has, then (only then) change the match in memory; ``answered``: the seat
        whose request this is, answered with the match's view (:meth:`GameEvents.publish`).

        The caller holds ``live.lock``. Raise ServiceError 404 when the match has been deleted meanwhile, and 409
        ``stale`` when another process changed it first (the match in memory is then brought up to date).
        """
        all_actions = list(actions) if replace else live.actions + list(actions)
        all_infos = list(infos) if replace else live.infos + list(infos)
        clock = live.clock
        to_act = live.seat_to_act(state)
        if clock is not None and live.everyone_seated and (actions or replace or live.ended is not None):
            clock = Clock.from_json(clock.to_json())
            if live.ended is not None:
                clock.stop(self.now())
            elif taken_back:  # a takeback: the turn goes back, and no time with it
                clock.turn_back(to_act, self.now())
            elif live.started(all_infos, state):
                clock.run_for(to_act, self.now())
        takeback = live.takeback if not actions and not replace and live.ended is None else None  # of one position
        extras = self._extras(live, state, clock, all_infos, takeback)
        job_due = self._job_due(live, state)
        over = live.ended is not None or state.is_over()
        rated = ratings.end_writer(live, state, over, self.now(), self.repo.postgres)  # a rated game's result
        written = self.repo.save(
            live.id, live.revision, [str(a) for a in all_actions], "over" if over else "playing",
            live.kind.scores(state), live.kind.turn(state), extras, job_due, added, seats, rated, answered)
        if written == "gone":
            self._forget(live)
            raise ServiceError(404, "not-found", "deleted", game=live.id)
        if written == "stale":
            self.reload(live)
            raise ServiceError(409, "stale", "stale")
        live.state, live.actions, live.infos, live.revision = state, all_actions, all_infos, live.revision + 1
        live.clock, live.deadline_ms, live.takeback = clock, extras.deadline_ms, extras.takeback
        live.bot_error = None
        self.changed(live, answered)
        if job_due is not None:
            self.computer_due()


def replay_moves(setup: Setup, actions: list[Any]) -> tuple[Any, list[MoveInfo]]:
    """Replay a castle game's moves with every check; raise a ZamekError naming the first bad one."""
    return CASTLE.replay(setup, actions)
