"""The game service: the façade the app's routes call, for the matches of both games.

It ties together the sessions and their storage (:mod:`zamek.server.sessions`: loading, replaying,
committing moves, undo), the computer's worker (:mod:`zamek.server.computer`) and the answers
(:mod:`zamek.server.views`, models of :mod:`zamek.server.schemas`). A view is built while holding the
game's lock, so that it shows one position and the metadata of that position.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from zamek import Setup, ZamekError
from zamek.castle import analysis as judging
from zamek.castle import record as records
from zamek.i18n import BASE, say
from zamek.server import creating, expiry, takeback
from zamek.server.advice import Advisor, analysis_view, distinct_hints, hint_move
from zamek.server.cache import Body
from zamek.server.clock import ClockSettings
from zamek.server.computer import ComputerPlayer
from zamek.server.db import Repository
from zamek.server.errors import SERVER_KEYS, ServiceError, refusing_bad_records
from zamek.server.events import GameEvents, LocalEvents
from zamek.server.fairness import UNLIMITED, Fairness
from zamek.server.games.castle import CASTLE
from zamek.server.games.knights import KNIGHTS, ComputerSeatError, knights_line, knights_view
from zamek.server.knights_schemas import KnightsLine, KnightsSavedGame, KnightsView, SeatedKnightsView
from zamek.server.live import PEOPLE
from zamek.server.players import Player
from zamek.server.schemas import (
    Adopted,
    AnalysisView,
    GameLine,
    GameStatus,
    GameView,
    Hints,
    ReplayView,
    SavedGame,
    SeatedView,
    SeatToken,
)
from zamek.server.seats import SeatPlayer, digest, prove_seat, seat_of, seats_for
from zamek.server.sessions import (
    COMPUTER,
    KIND,
    MAX_IMPORT_MOVES,
    Created,
    LiveGame,
    Sessions,
    players_of,
    replay_moves,
)
from zamek.server.tables import ExpiryLimits, default_db_url
from zamek.server.views import (
    castle_reader,
    clock_view,
    ended_view,
    game_body,
    game_line,
    game_status,
    game_view,
    public_setup,
    replay_view,
    seat_views,
)

__all__ = ["GameService", "ServiceError", "WebConfig"]

log = logging.getLogger("zamek.server")


@dataclass
class WebConfig:
    """Configuration of the web app."""

    db_url: str | None = None
    """Any SQLAlchemy URL; None uses a SQLite file in the user's data directory."""
    bot_delay: float = 0.8
    """Seconds the computer waits before replying (a person may undo meanwhile)."""
    bot_workers: int = 2
    """How many of the computer's turns this process thinks out at once."""
    bot_processes: bool = False
    """Think in a pool of ``bot_workers`` processes (a server: the web requests never wait for the computer's
    thinking) rather than threads (one small process, and the tests)."""
    bot_lease: float = 15.0
    """Seconds a process holds a computer's turn it claimed; another process takes it when this one died."""
    cached_games: int = 2000
    """The castle games a process keeps in memory."""
    static_dir: Path | None = None
    """Where the page's files are; None uses the package's ``server/static``."""
    max_body_bytes: int = 2_000_000
    """The largest request body taken; a larger one is refused with 413 before it is read."""
    header_timeout: float = 10.0
    """Seconds a request's headers may take to come (from the connection, or the request's first byte); then the
    connection is closed (:mod:`zamek.server.connections`)."""
    body_timeout: float = 60.0
    """Seconds a request's body may take to come, after its headers; then the connection is closed."""
    max_connections: int | None = None
    """The most connections a process holds (a new one closes the longest idle, else is answered 503); None: as many
    as the open-file limit leaves, less 100 files for the rest."""
    allowed_hosts: tuple[str, ...] = ("127.0.0.1", "localhost", "::1", "testserver")
    """The names the server is served as (its ``Host`` header; ``testserver`` is the test client's);
    any other is refused (DNS rebinding). ``zamek play --host H`` adds H and, for 0.0.0.0, this machine's
    addresses. ``"*"`` allows any."""
    metrics_allow_ips: tuple[str, ...] = ("127.0.0.1", "::1")
    """The addresses and networks that may read ``/metrics`` (``*``: any; none: nobody); see
    :mod:`zamek.server.metrics`."""
    clock: Callable[[], float] = time.time
    """What time it is (seconds since the epoch) for the game clocks; tests set it."""
    expire_unjoined_hours: float = expiry.UNJOINED_HOURS
    """A friend's game nobody has joined is removed this long after it was made (0: never; :mod:`.expiry`)."""
    expire_idle_days: float = expiry.IDLE_DAYS
    """An unfinished game left unchanged this long is removed (0: never); a finished one is kept."""
    purge_seconds: float = expiry.PURGE_SECONDS
    """How often the server removes the games past those limits."""
    fairness: Fairness = UNLIMITED
    """What each client may ask (:mod:`zamek.server.fairness`); this default limits only spectators' share of the
    live-event streams (``zamek serve`` and ``zamek play`` start from ``fairness.PUBLIC``)."""


def events_for(repo: Repository, fairness: Fairness = UNLIMITED) -> GameEvents:
    """Live updates for a database: across processes on PostgreSQL, within the one process on SQLite."""
    local = LocalEvents(fairness.spectators_per_client, fairness.seat_stream_reserve, fairness.seat_pages_per_client)
    if not repo.postgres:
        return local
    from zamek.server.pgevents import PgEvents  # psycopg is needed only here

    return PgEvents(repo.engine, repo.revision, local)


class GameService:
    """Every match of the app: creation, seats, moves, the computer's turns, undo, endings, import and export,
    views."""

    def __init__(self, config: WebConfig, events: GameEvents | None = None) -> None:
        self.config = config
        self.repo = Repository(config.db_url or default_db_url(), clock=config.clock)
        self.events: GameEvents = events if events is not None else events_for(self.repo, config.fairness)
        self.sessions = Sessions(self.repo, config.clock, config.bot_delay, config.cached_games)
        self.computer = ComputerPlayer(self.sessions, self.repo, config.bot_workers if config.bot_processes else 0,
                                       config.bot_workers, config.bot_lease, config.clock,
                                       config.fairness.computer_queue)
        self.sessions.computer_due = self.computer.poke
        self.advisor = Advisor(config.fairness.advice_slots)
        self.sessions.changed = lambda live, answered: self.events.publish(live.id, live.revision, answered)

    # ------------------------------------------------------------ life cycle

    def resume(self) -> None:
        """Start the work no request asks for: the computer's turns (from the database: nothing is loaded at start,
        a game is read when it is asked for or has something due)."""
        self.events.start()
        self.computer.start()

    def close(self) -> None:
        self.events.close()
        self.computer.close()
        self.advisor.close()
        self.repo.close()

    def expire_clocks(self) -> list[str]:
        return self.sessions.expire_clocks()

    def purge_expired(self) -> list[str]:
        """Remove the unfinished games past the configured limits (:mod:`zamek.server.expiry`); their ids."""
        limits = ExpiryLimits.of(self.config.expire_unjoined_hours, self.config.expire_idle_days)
        return expiry.purge(self.sessions, self.events, limits)

    # --------------------------------------------------------------- changes

    def get(self, game_id: str, kind: str | None = None, seen: int | None = None) -> LiveGame:
        """A match as stored now (:meth:`Sessions.get`). ``seen``: the revision a move's page shows; when the match in
        memory is at it and this process has heard of no later change, the database is not asked for the match's
        revision (a round trip every move): a change another process made meanwhile fails the move's
        compare-and-set, and the move is refused 409 ``stale``, as one from a page out of date is."""
        held = self.sessions.peek(game_id) if seen is not None else None
        if (held is not None and held.revision == seen and (kind is None or held.kind.name == kind)
                and (self.events.latest(game_id) or seen) <= seen and not self.events.is_gone(game_id)):
            return self.sessions.keep(held)  # the latest used
        return self.sessions.get(game_id, kind)

    def create(self, mode: str, level: str | None, seat: str, setup: Setup, seed: int | None = None,
               clock: ClockSettings | None = None, name: str | None = None, hints: bool = False,
               player: Player | None = None, rated: bool = False, listed: bool = False) -> Created:
        return self.sessions.create(mode, level, seat, setup, seed, clock, name, hints=hints, player=player,
                                    rated=rated, listed=listed)

    def create_knights(self, kinds: list[str], seed: int | None = None, clock: ClockSettings | None = None,
                       name: str | None = None, player: Player | None = None, rated: bool = False,
                       listed: bool = False) -> Created:
        # Straight to creating: Sessions is at test_layout's 400 lines, and its pass-through would add one.
        return creating.create_knights(self.sessions, kinds, seed, clock, name, player=player, rated=rated,
                                       listed=listed)

    def import_record(self, raw: Any) -> Created:
        return self.sessions.import_record(raw)

    def delete(self, game_id: str, token: str | None, kind: str | None = None) -> None:
        self.sessions.delete(game_id, token, kind)
        self.events.gone(game_id)

    def act(self, game_id: str, text: str, revision: int | None = None, token: str | None = None,
            kind: str | None = None, seat: int | None = None, loaded: LiveGame | None = None) -> LiveGame:
        """A person's move (:meth:`Sessions.act`); ``loaded``: the match as this request has just read it."""
        live = loaded if loaded is not None else self.get(game_id, kind)
        if seat is not None:  # the seat the page names must be the token's
            with live.lock:
                held = prove_seat(live.seats, token)
            if held != seat:
                raise ServiceError(403, "not-your-seat", "other-seat", held=held + 1, asked=seat + 1)
        return self.sessions.act(game_id, text, revision, token, kind, loaded=live)

    def draw(self, game_id: str, revision: int | None = None, token: str | None = None) -> LiveGame:
        return self.sessions.draw(game_id, revision, token)

    def undo(self, game_id: str, revision: int | None = None, token: str | None = None) -> LiveGame:
        return self.sessions.undo(game_id, revision, token)

    def join(self, game_id: str, invite: str, name: str | None, kind: str | None = None, key: str | None = None,
             player: Player | None = None, player_token: str | None = None) -> Created:
        return self.sessions.join(game_id, invite, name, kind, key, player, player_token)

    def invite(self, game_id: str, token: str | None) -> str:
        return self.sessions.invite(game_id, token)

    def resign(self, game_id: str, token: str | None, revision: int | None = None) -> LiveGame:
        return self.sessions.resign(game_id, token, revision)

    def abort(self, game_id: str, token: str | None, revision: int | None = None) -> LiveGame:
        return self.sessions.abort(game_id, token, revision)

    def rematch(self, game_id: str, token: str | None) -> Created:
        return self.sessions.rematch(game_id, token)

    def ask_takeback(self, game_id: str, token: str | None, revision: int | None = None) -> LiveGame:
        return takeback.ask(self.sessions, game_id, token, revision)

    def accept_takeback(self, game_id: str, token: str | None, revision: int | None = None) -> LiveGame:
        return takeback.accept(self.sessions, game_id, token, revision)

    def decline_takeback(self, game_id: str, token: str | None, revision: int | None = None) -> LiveGame:
        return takeback.decline(self.sessions, game_id, token, revision)

    def withdraw_takeback(self, game_id: str, token: str | None, revision: int | None = None) -> LiveGame:
        return takeback.withdraw(self.sessions, game_id, token, revision)

    # --------------------------------------------------------------- answers

    def view(self, game_id: str, lang: str, changed: LiveGame | None = None, token: str | None = None,
             seat: int | None = None, kind: str | None = None, *, used: bool = True) -> GameView | KnightsView:
        """The match as it stands, as the holder of ``token`` sees it (a castle game hides nothing but its seed: the
        same for everyone; a card game's seat sees its own hand); ``changed``: the match as this request has just
        changed and stored it (not asked of the database again); ``used``: the token is used by its holder (not
        given in this very answer)."""
        shown = self._view(game_id, lang, changed, token, seat, kind, used, False)
        assert not isinstance(shown, Body)
        return shown

    def view_body(self, game_id: str, lang: str, changed: LiveGame | None = None, token: str | None = None,
                  seat: int | None = None, kind: str | None = None) -> Body:
        """:meth:`view` as its answer's body; a castle game's is made once for every page that reads the same
        (:func:`zamek.server.views.game_body`)."""
        shown = self._view(game_id, lang, changed, token, seat, kind, True, True)
        return shown if isinstance(shown, Body) else Body(shown.model_dump_json().encode())

    def event_view(self, game_id: str, lang: str, revision: int, token: str | None) -> bytes | None:
        """The view a live event of ``revision`` carries to a page: :meth:`view_body` as the page's own read with
        ``token`` would answer (from memory when the game is there at that revision or later); None where that read
        would be refused (the token no longer holds its seat, the game is gone)."""
        live = self.sessions.peek(game_id)
        try:
            if live is not None and live.revision < revision:
                with live.lock:  # another process's change, told by its notification: no need to ask the revision
                    if live.revision < revision and not live.deleted:
                        self.sessions.reload(live)
            return self.view_body(game_id, lang, live if live is not None and live.revision >= revision else None,
                                  token=token).json
        except ServiceError:
            return None

    def _view(self, game_id: str, lang: str, changed: LiveGame | None, token: str | None, seat: int | None,
              kind: str | None, used: bool, body: bool) -> GameView | KnightsView | Body:
        live = changed if changed is not None else self.get(game_id, kind)
        connected = self.events.connected(game_id)
        watching = self.events.watching(game_id)
        with live.lock:
            self._bot_error(live)
            clock, ended = clock_view(live, self.sessions.now()), ended_view(live)
            if live.kind is KNIGHTS:
                shown = self._knights_seat(live, token, seat, used)
                try:
                    return knights_view(live, shown, lang, connected, clock=clock, ended=ended, watching=watching)
                except ComputerSeatError as exc:
                    raise ServiceError(403, "not-a-person", "computer-seat", seat=exc.seat + 1) from None
            refusal = self.sessions.undo_refusal(live)
            words = say(f"{SERVER_KEYS}{refusal}", lang, live.setup.edition) if refusal is not None else None
            seats, reader, asked = seat_views(live, connected), castle_reader(live, token), takeback.takeback_view(live)
            if body:
                return game_body(live, lang, self.sessions.views, can_undo=refusal is None, undo_refusal=words,
                                 thinking=live.thinking, seats=seats, clock=clock, ended=ended, watching=watching,
                                 reader=reader, takeback=asked)
            return game_view(live, live.state, live.infos, lang, can_undo=refusal is None, undo_refusal=words,
                             thinking=live.thinking, seats=seats, clock=clock, ended=ended, watching=watching,
                             reader=reader, takeback=asked)

    def _knights_seat(self, live: LiveGame, token: str | None, asked: int | None, used: bool) -> int | None:
        """The seat whose view a request may have: the token's (``asked`` must be it); None without a token."""
        if asked is not None and not 0 <= asked < len(live.players):
            raise ServiceError(400, "bad-seat", "no-seat", seat=asked, players=len(live.players))
        if asked is not None and live.is_computer(asked):
            raise ServiceError(403, "not-a-person", "computer-seat", seat=asked + 1)
        if token is None and asked is None:
            return None
        seat = self.sessions.prove(live, token) if used else prove_seat(live.seats, token)
        if asked is not None and asked != seat:
            raise ServiceError(403, "not-your-seat", "other-seat", held=seat + 1, asked=asked + 1)
        return seat

    def seated_view(self, created: Created, lang: str, seated: bool = False) -> SeatedView | SeatedKnightsView:
        """The match with the secrets of the request that made or joined it. A card game's is the public view for
        its creator (a screen that may hold several seats: each asks for its own), and the seat's own view for a
        player who has taken one (``seated``)."""
        tokens = [SeatToken(seat=s, token=t) for s, t in sorted(created.tokens.items())]
        live = created.live
        if live.kind is KNIGHTS:
            token = next(iter(created.tokens.values())) if seated and len(created.tokens) == 1 else None
            shown = self.view(live.id, lang, live, token, used=False)
            return SeatedKnightsView(**dict(shown), tokens=tokens, invite=created.invite)
        token = next(iter(created.tokens.values())) if len(created.tokens) == 1 else None
        view = self.view(live.id, lang, live, token, used=False)
        return SeatedView(**dict(view), tokens=tokens, invite=created.invite)

    def seat_of(self, game_id: str, token: str | None) -> int | None:
        live = self.get(game_id)
        with live.lock:
            return seat_of(live.seats, token)

    def replay_view(self, game_id: str, move: int | None, lang: str, token: str | None = None) -> ReplayView:
        """The game after ``move`` moves (default: all), with the list of every move in words (as the seat of
        ``token`` reads them)."""
        live = self.castle(game_id)
        with live.lock:  # the moves and the metadata of one moment
            snapshot = replace(live, actions=list(live.actions), infos=list(live.infos))
            reader = castle_reader(live, token)
        total = len(snapshot.actions)
        upto = total if move is None else move
        if not 0 <= upto <= total:
            raise ServiceError(400, "invalid", "no-position", moves=total, move=upto)
        state, _ = replay_moves(snapshot.setup, snapshot.actions[:upto])
        return replay_view(snapshot, state, snapshot.infos, upto, lang, ended_view(snapshot), reader)

    def castle(self, game_id: str) -> LiveGame:
        """A castle game (what only the castle game has: replays in words, hints, analyses)."""
        live = self.get(game_id)
        if live.kind is not CASTLE:
            raise ServiceError(409, "not-for-this-game", "castle-only")
        return live

    def status(self, game_id: str, lang: str = BASE) -> GameStatus:
        live = self.get(game_id)
        with live.lock:
            self._bot_error(live)
            return game_status(live, lang)

    def _bot_error(self, live: LiveGame) -> None:
        """Whether the computer failed to play its turn (in whichever process took it)."""
        live.bot_error = self.repo.job_error(live.id) if live.computer_to_move() else None

    def lobby(self, tokens: list[str], offset: int = 0, limit: int = 50
              ) -> tuple[list[GameLine], list[KnightsLine], bool]:
        """One page of the matches these tokens hold seats of, the latest changed first: its castle games, its card
        games, and whether more follow."""
        every = self.repo.held(digest(t) for t in tokens)
        page, more = self.repo.page_of(every, offset, limit)
        held = {game_id: every[game_id] for game_id in page}
        games = self.repo.by_id(held)
        extras = self.repo.extras_of(g.id for g in games)
        names = self.repo.names_of(g.id for g in games)
        castle = [game_line(g, sorted(held[g.id]), extras.get(g.id), names.get(g.id, [])) for g in games
                  if g.kind == KIND]
        knights = [knights_line(g, sorted(held[g.id]), extras.get(g.id), self.repo.seats(g.id)) for g in games
                   if g.kind == KNIGHTS.name]
        return castle, knights, more

    def adopt(self) -> list[Adopted]:
        """Seats for the matches stored before matches had seats: each person's seat gets a token."""
        adopted = []
        for stored in self.repo.unseated(KIND) + self.repo.unseated(KNIGHTS.name):
            if stored.kind == KIND:
                players: list[SeatPlayer] = ["person", "person"]
                if stored.mode == COMPUTER and stored.human in (0, 1):
                    players[1 - stored.human] = "computer"
            else:
                players = ["person" if k in PEOPLE else "computer" for k in stored.players or []]
            seats, tokens, _ = seats_for(players, stored.created_at)
            if not self.repo.add_seats(stored.id, seats):
                continue
            live = self.sessions.peek(stored.id)
            if live is not None:
                with live.lock:
                    live.seats = seats
            adopted += [Adopted(kind=stored.kind, id=stored.id, seat=s, token=t)  # type: ignore[arg-type]
                        for s, t in tokens.items()]
        return adopted

    # ---------------------------------------------------- hints and analysis

    def hints(self, game_id: str, token: str | None, lang: str, count: int = 3) -> Hints:
        """The best moves for the seat to move, asked with that seat's token, in a game that allows hints."""
        live = self.castle(game_id)
        with live.lock:
            seat = prove_seat(live.seats, token)
            if live.rated:
                raise ServiceError(403, "hints-off", "rated-no-hints")
            if not live.hints_allowed:
                raise ServiceError(403, "hints-off", "hints-off")
            if live.over:
                raise ServiceError(409, "game-over", "game-over")
            if live.waiting_for_friend:
                raise ServiceError(409, "waiting", "waiting-friend")
            to_act = live.state.current
            if not live.human_to_act() or seat != to_act:
                raise ServiceError(409, "not-your-turn", "hints-mover")
            state, revision, reader = live.state.copy(), live.revision, castle_reader(live, token)
            position = live.position_revision
        # Judged outside the game's lock: its other requests need not wait for the judging. Every move is judged
        # anyway: the best ones that are different moves (a symmetric tile turned is one move) are kept.
        found = distinct_hints(state, judging.hints(state, judging.ALL_MOVES), count)
        return Hints(revision=revision, position=position, player=to_act,
                     hints=[hint_move(state, h, lang, reader) for h in found])

    def analysis(self, game_id: str, lang: str) -> AnalysisView:
        """A finished game's analysis: computed once and stored with the game (again when the estimate changed)."""
        live = self.castle(game_id)
        with live.lock:
            if not live.over:
                raise ServiceError(409, "in-progress", "analysis-after-end")
            raw, setup, actions = live.record(), live.setup, list(live.actions)
        estimator = judging.estimator_name()
        stored = self.repo.analyses.get(game_id)
        if (stored is not None and stored.estimator == estimator and stored.moves == len(actions)
                and stored.analysis.get("format") == judging.FORMAT
                and stored.analysis.get("version") == judging.VERSION):
            data = stored.analysis  # else one of another estimate or another version of the format: made again
        else:
            try:
                data = self.advisor.analyse(raw)
            except ZamekError as exc:
                raise ServiceError(500, "corrupt", "cannot-replay", game=game_id, reason=exc) from None
            self.repo.analyses.save(game_id, str(data["estimator"]), len(actions), data)
        return analysis_view(data, setup, actions, lang, game_id)

    def analyse_record(self, raw: Any, lang: str) -> AnalysisView:
        """The analysis of a saved game sent by the caller (not stored): only of a finished game."""
        if isinstance(raw, dict) and isinstance(raw.get("moves"), list) and len(raw["moves"]) > MAX_IMPORT_MOVES:
            raise ServiceError(400, "invalid-record", "too-many-moves", limit=MAX_IMPORT_MOVES)
        with refusing_bad_records(log, "a record sent for analysis"):
            setup, actions = records.read_record(raw)
            if not records.replay(raw).is_over():
                raise ServiceError(400, "invalid-record", "record-not-over")
            data = self.advisor.analyse(raw)
            return analysis_view(data, setup, actions, lang)

    def record(self, game_id: str, kind: str | None = None) -> SavedGame | KnightsSavedGame:
        live = self.get(game_id, kind)
        with live.lock:
            if live.kind is KNIGHTS:
                if not live.over:
                    raise ServiceError(409, "in-progress", "record-after-end")
                return KnightsSavedGame.model_validate(live.record())
            raw = live.record()
            players = players_of(live)
            if players is not None:
                raw["players"] = players
            over = live.over
            raw["setup"] = public_setup(live.setup, over)
            if not over:
                raw["seed"] = None  # Z22: the seed would tell every tile and token to come; given at the end
            return SavedGame.model_validate(raw)
