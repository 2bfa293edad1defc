"""The games database: one row per game (SQLAlchemy 2.x, SQLite by default).

A game is stored as its saved-game record, i.e. setup + seed + the list of moves, plus metadata
(who plays, the computer's level, status, scores). Every change is one transaction, so a server
killed in the middle of a request loses nothing that was committed, and half a change is never
stored.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir
from sqlalchemy import JSON, DateTime, Integer, String, create_engine, delete, event, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.pool import StaticPool


def default_db_url() -> str:
    """Return the SQLite file in the user's data directory (created when missing)."""
    folder = Path(user_data_dir("zamek", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'games.sqlite3'}"


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """A stored game."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    mode: Mapped[str] = mapped_column(String(16))
    """'computer' (one person against a computer player) or 'hotseat' (two people at one screen)."""
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    human: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The person's player index against the computer."""
    seed: Mapped[int] = mapped_column(Integer)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    moves: Mapped[list[str]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    """'playing' or 'over'."""
    scores: Mapped[list[int]] = mapped_column(JSON)
    turn: Mapped[int] = mapped_column(Integer)
    revision: Mapped[int] = mapped_column(Integer)
    """Counts the changes, so that a stale request or a computer move computed on an old position is refused."""


class KnightsRow(Base):
    """A stored game of Rycerze i zamki (its own table: castle games are untouched).

    ``seats`` names each seat's player: 'person' or a computer player ('random', 'heuristic', 'mc').
    ``moves`` holds every secret choice: the server never sends it while the game is on.
    """

    __tablename__ = "knights_games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seats: Mapped[list[str]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(Integer)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    moves: Mapped[list[str]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    points: Mapped[list[int]] = mapped_column(JSON)
    round: Mapped[int] = mapped_column(Integer)


@dataclass
class StoredKnights:
    """A Rycerze i zamki row as a plain value."""

    id: str
    created_at: datetime
    updated_at: datetime
    seats: list[str]
    seed: int
    setup: dict[str, Any]
    moves: list[str]
    status: str
    points: list[int]
    round: int

    @classmethod
    def of(cls, row: KnightsRow) -> StoredKnights:
        return cls(
            row.id, row.created_at, row.updated_at, list(row.seats), row.seed, dict(row.setup), list(row.moves),
            row.status, list(row.points), row.round,
        )


@dataclass
class StoredGame:
    """A game row as a plain value (safe to use outside a database session)."""

    id: str
    created_at: datetime
    updated_at: datetime
    mode: str
    level: str | None
    human: int | None
    seed: int
    setup: dict[str, Any]
    moves: list[str]
    status: str
    scores: list[int]
    turn: int
    revision: int

    @classmethod
    def of(cls, row: GameRow) -> StoredGame:
        return cls(
            row.id, row.created_at, row.updated_at, row.mode, row.level, row.human, row.seed, dict(row.setup),
            list(row.moves), row.status, list(row.scores), row.turn, row.revision,
        )


def now() -> datetime:
    return datetime.now(UTC)


def new_id() -> str:
    return uuid.uuid4().hex[:12]


class Repository:
    """Load and store games; each method is one transaction."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        Base.metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def add(self, game: StoredGame) -> None:
        with Session(self.engine) as session, session.begin():
            session.add(GameRow(**game.__dict__))

    def get(self, game_id: str) -> StoredGame | None:
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            return StoredGame.of(row) if row is not None else None

    def all(self) -> list[StoredGame]:
        with Session(self.engine) as session:
            rows = session.scalars(select(GameRow).order_by(GameRow.updated_at.desc()))
            return [StoredGame.of(r) for r in rows]

    def save_moves(
        self, game_id: str, moves: list[str], status: str, scores: list[int], turn: int, revision: int
    ) -> bool:
        """Store a game's new move list; return False when the game is gone (deleted meanwhile)."""
        with Session(self.engine) as session, session.begin():
            row = session.get(GameRow, game_id)
            if row is None:
                return False
            row.moves = list(moves)
            row.status = status
            row.scores = list(scores)
            row.turn = turn
            row.revision = revision
            row.updated_at = now()
            return True

    def delete(self, game_id: str) -> bool:
        with Session(self.engine) as session, session.begin():
            result = session.execute(delete(GameRow).where(GameRow.id == game_id))
            return bool(getattr(result, "rowcount", 0))

    # ------------------------------------------------------- Rycerze i zamki

    def add_knights(self, game: StoredKnights) -> None:
        with Session(self.engine) as session, session.begin():
            session.add(KnightsRow(**game.__dict__))

    def get_knights(self, game_id: str) -> StoredKnights | None:
        with Session(self.engine) as session:
            row = session.get(KnightsRow, game_id)
            return StoredKnights.of(row) if row is not None else None

    def all_knights(self) -> list[StoredKnights]:
        with Session(self.engine) as session:
            rows = session.scalars(select(KnightsRow).order_by(KnightsRow.updated_at.desc()))
            return [StoredKnights.of(r) for r in rows]

    def save_knights(self, game_id: str, moves: list[str], status: str, points: list[int], round: int) -> bool:
        """Store a game's new move list; return False when the game is gone."""
        with Session(self.engine) as session, session.begin():
            row = session.get(KnightsRow, game_id)
            if row is None:
                return False
            row.moves = list(moves)
            row.status = status
            row.points = list(points)
            row.round = round
            row.updated_at = now()
            return True

    def delete_knights(self, game_id: str) -> bool:
        with Session(self.engine) as session, session.begin():
            result = session.execute(delete(KnightsRow).where(KnightsRow.id == game_id))
            return bool(getattr(result, "rowcount", 0))


def make_engine(url: str) -> Engine:
    """Return an engine; SQLite gets a connection usable from the server's threads and a busy timeout."""
    if not url.startswith("sqlite"):
        return create_engine(url)
    memory = url in ("sqlite://", "sqlite:///:memory:")
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
