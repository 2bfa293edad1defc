"""The games database's tables and the values read from them (SQLAlchemy 2.x), and how to reach a database.

The schema is kept by Alembic migrations (:mod:`zamek.server.migrate`); the store that reads and writes these
tables is :class:`zamek.server.db.Repository`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from platformdirs import user_data_dir
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    Index,
    Integer,
    String,
    create_engine,
    event,
    false,
)
from sqlalchemy.engine import Engine, Row
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.pool import StaticPool

from zamek.server.seats import Seat, new_game_id


def default_db_url() -> str:
    """Return the SQLite file in the user's data directory (created when missing)."""
    folder = Path(user_data_dir("zamek", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'games.sqlite3'}"


class Base(DeclarativeBase):
    pass


GAME_KINDS: Final = ("castle", "knights")
"""The games a match is of: the castle game, and Rycerze i zamki."""


class MatchRow(Base):
    """A stored match of either game (``kind``): its record (setup, seed, moves) and what the lobby shows of it.

    ``moves`` holds every secret choice of a card game: the server never sends it while the game is on.
    """

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    """'castle' or 'knights'."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    mode: Mapped[str] = mapped_column(String(16))
    """The castle game: 'computer' (a person against a computer player), 'hotseat' (two people at one screen) or
    'friend'; the card game: 'table' (its seats say who plays)."""
    players: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    """Each seat's player where the seats say it (the card game: 'person', 'friend' or a computer player)."""
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    human: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The person's player index against the computer."""
    seed: Mapped[int] = mapped_column(BigInteger)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    moves: Mapped[list[str]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    """'playing' or 'over'."""
    scores: Mapped[list[int]] = mapped_column(JSON)
    turn: Mapped[int] = mapped_column(Integer)
    """The castle game's turn; the card game's round."""
    revision: Mapped[int] = mapped_column(Integer)
    """Counts the changes, so that a stale request or a computer move computed on an old position is refused."""
    hints: Mapped[bool] = mapped_column(Boolean, server_default=false(), default=False)
    """A game against a friend whose players agreed to hints (the creator asked, the friend joined knowing it)."""
    imported: Mapped[bool] = mapped_column(Boolean, server_default=false(), default=False)
    """A castle game made from a saved game's record (the lobby marks it: it may repeat the game it came from)."""
    rated: Mapped[bool] = mapped_column(Boolean, server_default=false(), default=False)
    """A game between two players with identities that counts for their ratings (:mod:`zamek.server.ratings`)."""
    active_ms: Mapped[int] = mapped_column(BigInteger, server_default="0")
    """When the match was made or last changed, by the server's clock (epoch milliseconds, as the game clocks'
    deadlines): a match left unfinished long after it is removed (:mod:`zamek.server.expiry`)."""
    listed: Mapped[bool] = mapped_column(Boolean, server_default=false(), default=False)
    """Its creator listed it among the live games anyone may watch (``GET /api/live``); a game by link is not."""

    __table_args__ = (Index("ix_matches_status_active_ms", "status", "active_ms"),
                      Index("ix_matches_listed_status_active_ms", "listed", "status", "active_ms"))


@dataclass
class StoredMatch:
    """A match row as a plain value (safe to use outside a database session)."""

    id: str
    kind: str
    created_at: datetime
    updated_at: datetime
    mode: str
    seed: int
    setup: dict[str, Any]
    moves: list[str]
    status: str
    scores: list[int]
    turn: int
    revision: int
    level: str | None = None
    human: int | None = None
    players: list[str] | None = None
    hints: bool = False
    imported: bool = False
    rated: bool = False
    listed: bool = False

    @classmethod
    def of(cls, row: MatchRow | Row[Any]) -> StoredMatch:
        """From the ORM's row or a plain query's (of every column of ``matches``)."""
        return cls(
            id=row.id, kind=row.kind, created_at=row.created_at, updated_at=row.updated_at, mode=row.mode,
            seed=row.seed, setup=dict(row.setup), moves=list(row.moves), status=row.status, scores=list(row.scores),
            turn=row.turn, revision=row.revision, level=row.level, human=row.human,
            players=list(row.players) if row.players is not None else None, hints=bool(row.hints),
            imported=bool(row.imported), rated=bool(row.rated), listed=bool(row.listed),
        )


def now() -> datetime:
    return datetime.now(UTC)


def new_id() -> str:
    return new_game_id()


class SeatRow(Base):
    """A seat of a match: see :mod:`zamek.server.seats`."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(String(16))
    token_digest: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    invite_digest: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str | None] = mapped_column(String(48), nullable=True)
    joined_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    def value(self) -> Seat:
        return seat_value(self)

    @classmethod
    def of(cls, game_id: str, seat: Seat) -> SeatRow:
        return cls(game_id=game_id, seat=seat.index, player=seat.player, token_digest=seat.token_digest,
                   invite_digest=seat.invite_digest, name=seat.name, joined_at=seat.joined_at)


def seat_value(row: SeatRow | Row[Any]) -> Seat:
    """A seat from the ORM's row or a plain query's (of every column of ``seats``)."""
    player = row.player if row.player in ("person", "computer", "open") else "computer"
    return Seat(row.seat, player, row.token_digest, row.invite_digest, row.name, row.joined_at)  # type: ignore[arg-type]


class ExtrasRow(Base):
    """What a game has beyond its moves: its clock, how it ended when not by its rules (a resignation, a time
    out), and its rematch."""

    __tablename__ = "game_extras"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    ended: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat the game waits for (for the lobby's "your move")."""
    deadline_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)
    """When the time of the seat to move runs out (epoch milliseconds; None: no clock runs)."""
    takeback: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """A castle game with a friend: the takeback asked or declined on this position (:mod:`zamek.server.takeback`);
    every move clears it."""


@dataclass
class Extras:
    clock: dict[str, Any] | None = None
    ended: dict[str, Any] | None = None
    rematch: str | None = None
    to_move: int | None = None
    deadline_ms: int | None = None
    takeback: dict[str, Any] | None = None


class ComputerJobRow(Base):
    """A match waiting for the computer's turn: due at ``due_ms`` (after the pause in which a person may
    still take their move back), played on ``revision`` only. A process claims it for a lease; a process that
    dies leaves its lease to run out, and another takes the job."""

    __tablename__ = "computer_jobs"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    revision: Mapped[int] = mapped_column(Integer)
    due_ms: Mapped[int] = mapped_column(BigInteger, index=True)
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed_until_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, server_default="0")
    error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    """Why the computer cannot play this game (a bug): the job waits for no one until the game changes."""


class AnalysisRow(Base):
    """A finished castle game's analysis (``zamek.castle.analysis``), computed once and kept: ``estimator`` names the
    estimate it was made with (another one makes it stale), ``moves`` how many moves of the game it covers."""

    __tablename__ = "game_analyses"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    estimator: Mapped[str] = mapped_column(String(64))
    moves: Mapped[int] = mapped_column(Integer)
    analysis: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class StoredAnalysis:
    """A stored analysis as a plain value."""

    game_id: str
    estimator: str
    moves: int
    analysis: dict[str, Any]
    created_at: datetime


class PlayerRow(Base):
    """A player's identity (issue 39): a name, unique whatever its letters' case, and the digest of the player's
    secret token (:mod:`zamek.server.players`). A seat of a player holds that same digest as its token's."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(20))
    name_key: Mapped[str] = mapped_column(String(20), unique=True)
    """The name in lower case: two names differing only by case are one."""
    token_digest: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayerRatingRow(Base):
    """A player's Glicko-2 rating for one game (``castle``, ``knights``) and one clock kind (``live``,
    ``correspondence``) (:mod:`zamek.server.ratings`)."""

    __tablename__ = "player_ratings"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    clock: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingHistoryRow(Base):
    """A rating after one rated game (the player page's chart)."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    game: Mapped[str] = mapped_column(String(16))
    clock: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[str] = mapped_column(String(32))
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatedResultRow(Base):
    """How a rated game ended, stored once in the transaction of its end (its id is the key: a game never counts
    twice): seat 0's score (1, 0.5, 0; None: aborted, no result) and the player who let their clock run out, if one
    did (:mod:`zamek.server.ratings`)."""

    __tablename__ = "rated_results"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    clock: Mapped[str] = mapped_column(String(16))
    player0: Mapped[str] = mapped_column(String(32), index=True)
    player1: Mapped[str] = mapped_column(String(32), index=True)
    score0: Mapped[float | None] = mapped_column(Float, nullable=True)
    abandoned_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class ExpiryLimits:
    """How long an unfinished match is kept (milliseconds; None: for ever): a friend's game nobody has joined, and any
    match left unchanged (:mod:`zamek.server.expiry`)."""

    unjoined_ms: int | None = None
    idle_ms: int | None = None

    @classmethod
    def of(cls, unjoined_hours: float, idle_days: float) -> ExpiryLimits:
        """The limits an operator sets (0: never)."""
        return cls(round(unjoined_hours * 3_600_000) if unjoined_hours > 0 else None,
                   round(idle_days * 86_400_000) if idle_days > 0 else None)


@dataclass(frozen=True)
class ExpiredMatch:
    """A match past a limit of :class:`ExpiryLimits`: ``unjoined`` (its friends never came) or idle."""

    id: str
    kind: str
    mode: str
    active_ms: int
    unjoined: bool


@dataclass(frozen=True)
class Job:
    """A computer's turn to play: the game, the revision it is due on, and how many times it was tried."""

    game_id: str
    revision: int
    attempts: int


def driver_url(url: str) -> str:
    """A PostgreSQL URL names the driver the project installs (psycopg 3), whichever way the operator wrote it."""
    for prefix in ("postgresql://", "postgres://", "postgresql+psycopg2://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def in_memory(url: str) -> bool:
    """Whether ``url`` is an in-memory SQLite database: one connection, shared by the threads (nothing on disk)."""
    return url in ("sqlite://", "sqlite:///:memory:")


def make_engine(url: str) -> Engine:
    """Return an engine; SQLite gets a connection usable from the server's threads and a busy timeout."""
    if not url.startswith("sqlite"):
        return _ping_when_idle(create_engine(driver_url(url), pool_size=10, max_overflow=20))
    memory = in_memory(url)
    options: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
    if memory:
        options["poolclass"] = StaticPool
    engine = create_engine(url, **options)

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()

    return engine


PING_AFTER_IDLE_SECONDS: Final = 1.0
"""A pooled connection of a database server idle this long is asked whether it is alive before it is lent."""
_RETURNED: Final = "zamek.returned"


def _ping_when_idle(engine: Engine) -> Engine:
    """A database server restarted under a running app: a pooled connection found dead when it is lent is replaced,
    not used. Only one that has been idle past :data:`PING_AFTER_IDLE_SECONDS` is asked (a round trip); SQLAlchemy's
    ``pool_pre_ping`` asks at every loan, two or three round trips a move, a thirtieth of a worker's CPU under load
    (results/server). A connection that dies while in use (used again within the second) fails its statement once,
    and SQLAlchemy then drops every connection pooled before it."""

    @event.listens_for(engine, "checkin")
    def _returned(_dbapi_connection: Any, record: Any) -> None:
        record.info[_RETURNED] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _lent(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        returned = record.info.get(_RETURNED)
        if returned is None or time.monotonic() - returned < PING_AFTER_IDLE_SECONDS:
            return  # new, or used a moment ago
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as exc:
            raise DisconnectionError(str(exc)) from exc  # the pool lends a new connection instead

    return engine


class ChallengeRow(Base):
    """An open challenge of the lobby, or a player waiting for a quick pairing (``kind``), and what became of it
    (:mod:`zamek.server.challenges`)."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    """'challenge' (anyone accepts it) or 'pairing' (the server pairs two players waiting for the same game)."""
    poster: Mapped[str] = mapped_column(String(32))
    """The player who posted it (their id)."""
    game: Mapped[str] = mapped_column(String(16))
    rules: Mapped[str | None] = mapped_column(String(100), nullable=True)
    """The castle game's rule set (None: Rycerze i zamki)."""
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean)
    min_rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    max_rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    pairing_key: Mapped[str] = mapped_column(String(200))
    """Game, rule set, clock and rated in one text: two pairings of one key are paired."""
    status: Mapped[str] = mapped_column(String(16))
    """'open', 'taken' (a game was made: ``game_id``, with ``taker``) or 'withdrawn'."""
    taker: Mapped[str | None] = mapped_column(String(32), nullable=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen_ms: Mapped[int] = mapped_column(BigInteger)
    """When its poster's page last said it is there (epoch ms): unseen for a minute, it is gone."""
    changed_ms: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (Index("ix_challenges_status_kind_key", "status", "kind", "pairing_key"),
                      Index("ix_challenges_poster_status", "poster", "status"))
