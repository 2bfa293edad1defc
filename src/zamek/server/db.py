"""The games database: one row per match of either game (SQLAlchemy 2.x; SQLite, or PostgreSQL for a server).

A game is stored as its saved-game record, i.e. setup + seed + the list of moves, plus metadata
(who plays, the computer's level, status, scores). Every change is one transaction, so a server
killed in the middle of a request loses nothing that was committed, and half a change is never
stored.

The database is the truth, shared by every process of a server: a change is stored only on the revision
it was made from (a compare-and-set: ``UPDATE … WHERE id = :id AND revision = :expected``), so of two
processes changing a game at once exactly one succeeds and the other learns that it is stale. The
computer's turns wait in ``computer_jobs`` (claimed by one process at a time, for a lease), the game
clocks' deadlines in ``game_extras.deadline_ms``. On PostgreSQL every change also sends a notification
(``NOTIFY zamek``) in its transaction, for the live events of the other processes. The schema is kept by
Alembic migrations (:mod:`zamek.server.migrate`).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import (
    ColumnElement,
    String,
    and_,
    bindparam,
    delete,
    exists,
    false,
    func,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Connection, Row, make_url
from sqlalchemy.orm import Session

from zamek.server.analyses import AnalysisStore
from zamek.server.plain_move import SqliteMove, Written, refused, stored_at_once, stored_on_sqlite
from zamek.server.seats import Seat
from zamek.server.statements import (
    ADD_JOB,
    CHANNEL,
    CLAIM_JOB,
    DROP_JOB,
    EXTRAS,
    MATCH,
    NEVER,
    NOTIFY,
    REVISION,
    SET_EXTRAS,
    SET_IF_AT,
    SNAPSHOT,
    WAITING_JOBS,
    Prepared,
    move_on_sqlite,
)
from zamek.server.tables import (
    AnalysisRow,
    ComputerJobRow,
    ExpiredMatch,
    ExpiryLimits,
    Extras,
    ExtrasRow,
    Job,
    MatchRow,
    SeatRow,
    StoredMatch,
    driver_url,
    in_memory,
    make_engine,
    now,
    seat_value,
)

PURGE_LOCK: Final = 0x5A414D4550  # "ZAMEP"
"""The PostgreSQL advisory lock of a purge of expired matches: one process purges at a time."""


@dataclass(frozen=True)
class Added:
    """A new match stored in the transaction of another change (a rematch, with the change to the game it follows):
    both are stored, or neither."""

    match: StoredMatch
    seats: Sequence[Seat] = ()
    extras: Extras | None = None
    job_due_ms: int | None = None


def _changed(game_id: str, revision: int, answered: int | None) -> str:
    """The notification of a change (:mod:`zamek.server.pgevents`)."""
    return f"c {game_id} {revision}" + ("" if answered is None else f" {answered}")


def describe_url(url: str) -> str:
    """The database's URL without its password (for messages)."""
    return make_url(driver_url(url)).render_as_string(hide_password=True)


class _SeatChanged(Exception):
    """A seat is no longer as the process storing a change saw it: the change is stale (rolled back)."""


def _give_seat(session: Session, game_id: str, seen: Seat, seat: Seat) -> None:
    """Store a seat as it becomes, only if it is still as this process saw it (else the change is stale)."""
    result = session.execute(
        update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat.index,
                              SeatRow.player == seen.player,
                              SeatRow.token_digest.is_not_distinct_from(seen.token_digest),
                              SeatRow.invite_digest.is_not_distinct_from(seen.invite_digest))
        .values(player=seat.player, token_digest=seat.token_digest, invite_digest=seat.invite_digest,
                name=seat.name, joined_at=seat.joined_at))
    if not getattr(result, "rowcount", 0):
        raise _SeatChanged


class Repository:
    """Load and store games; each method is one transaction."""

    def __init__(self, url: str, migrate: bool = True, clock: Callable[[], float] = time.time) -> None:
        self.engine = make_engine(url)
        self.clock = clock
        """The server's time (seconds since the epoch), as the game clocks read it: when a match was last active."""
        self.postgres = self.engine.dialect.name == "postgresql"
        if migrate:
            from zamek.server.migrate import upgrade  # loads Alembic: only when asked for

            upgrade(self.engine)
        # SQLite takes one writer at a time and makes the others sleep in growing steps (up to 100 ms): the
        # server's threads queue for it here instead, each waking as soon as the one before has committed.
        self._write_lock: AbstractContextManager[Any] = (
            threading.RLock() if url.startswith("sqlite") else contextlib.nullcontext())
        # An in-memory SQLite database is one connection shared by the threads: a read that ended in the middle of a
        # write would roll back the write's first statements (a connection lent back is rolled back). Reads wait too.
        self._read_lock = self._write_lock if in_memory(url) else contextlib.nullcontext()
        self.analyses = AnalysisStore(self.engine, self._writing)
        dialect = self.engine.dialect
        self._sqlite_move: SqliteMove | None = (
            (Prepared.of(REVISION, dialect), [Prepared.of(s, dialect) for s in move_on_sqlite()])
            if dialect.name == "sqlite" else None)

    @contextlib.contextmanager
    def _writing(self) -> Iterator[Session]:
        """A write transaction (committed when the block ends, rolled back on an error)."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            yield session

    def transaction(self) -> AbstractContextManager[Session]:
        """A write transaction for the other stores of this database (players and ratings)."""
        return self._writing()

    describe = staticmethod(describe_url)

    def _notify(self, session: Session, payload: str) -> None:
        """Tell the other processes of a change, when it commits (PostgreSQL; SQLite serves one process)."""
        if self.postgres:  # on the session's connection: the ORM's execute costs more than the statement (every move)
            session.connection().execute(NOTIFY, {"channel": CHANNEL, "payload": payload})

    def close(self) -> None:
        self.engine.dispose()

    def add(self, game: StoredMatch, seats: Sequence[Seat] = (), extras: Extras | None = None,
            job_due_ms: int | None = None) -> None:
        with self._writing() as session:
            self._insert(session, Added(game, seats, extras, job_due_ms))

    def add_in(self, session: Session, added: Added) -> None:
        """Store a new match in a transaction of another store (``transaction()``: the lobby's challenges)."""
        self._insert(session, added)

    def _insert(self, session: Session, added: Added) -> None:
        game = added.match
        session.add(MatchRow(**game.__dict__, active_ms=round(self.clock() * 1000)))
        self._add_seats(session, game.id, added.seats, added.extras)
        if added.job_due_ms is not None:
            session.add(ComputerJobRow(game_id=game.id, revision=game.revision, due_ms=added.job_due_ms, attempts=0))

    @staticmethod
    def _add_seats(session: Session, game_id: str, seats: Sequence[Seat], extras: Extras | None) -> None:
        session.add_all([SeatRow.of(game_id, seat) for seat in seats])
        if extras is not None:
            session.add(ExtrasRow(game_id=game_id, **extras.__dict__))

    @contextlib.contextmanager
    def _reading(self) -> Iterator[Connection]:
        """A connection for one read statement: on PostgreSQL without a transaction (``BEGIN`` and ``ROLLBACK`` are
        two more round trips; SQLite's in-memory database shares its one connection between threads)."""
        with self._read_lock, self.engine.connect() as connection:
            yield connection.execution_options(isolation_level="AUTOCOMMIT") if self.postgres else connection

    def get(self, game_id: str) -> StoredMatch | None:
        with self._reading() as connection:
            row = connection.execute(MATCH, {"match": game_id}).first()
            return StoredMatch.of(row) if row is not None else None

    def all(self, kind: str | None = None) -> list[StoredMatch]:
        """Every match (of one game's ``kind``), the latest changed first (for tools and tests: the server never lists
        them all)."""
        query = select(MatchRow).order_by(MatchRow.updated_at.desc())
        if kind is not None:
            query = query.where(MatchRow.kind == kind)
        with Session(self.engine) as session:
            return [StoredMatch.of(r) for r in session.scalars(query)]

    def snapshot(self, game_id: str) -> tuple[StoredMatch, Extras, list[Seat]] | None:
        """A match with its extras and its seats, read in one statement (None: there is no such match)."""
        with self._reading() as connection:
            rows = connection.execute(SNAPSHOT, {"match": game_id}).all()
        if not rows:
            return None
        first = rows[0]
        extras = Extras() if first._mapping[EXTRAS.c.game_id] is None else _extras(first)
        return StoredMatch.of(first), extras, [seat_value(r) for r in rows if r.seat is not None]

    def revision(self, game_id: str) -> int | None:
        """A match's revision as stored (None: there is no such match): is a copy in memory still current?"""
        with self._reading() as connection:  # every request asks: a plain query, without an ORM session
            revision: int | None = connection.scalar(REVISION, {"match": game_id})
            return revision

    def save(
        self, game_id: str, expected: int, moves: list[str], status: str, scores: list[int], turn: int,
        extras: Extras | None = None, job_due_ms: int | None = None, added: Added | None = None,
        seats: Sequence[tuple[Seat, Seat]] = (), also: Callable[[Session], None] | None = None,
        answered: int | None = None) -> Written:
        """Store a match's new move list (and its extras, the computer's next turn: due at ``job_due_ms``, or
        none; and ``added``, a match this change makes) in one transaction, only if the stored match is still at
        revision ``expected``; it then has revision ``expected + 1``. ``seats`` are the seats this change gives (a
        friend joining), each as this process saw it and as it becomes: stored only if the seat is still as seen
        (another process may have issued a new invitation, or the seat's token may have been used). ``also``
        writes more in the same transaction (a rated game's result); ``answered``, the seat whose request it is
        (told to the other processes' streams, :mod:`zamek.server.pgevents`). A refused change stores nothing."""
        revision = expected + 1
        row = {"moves": list(moves), "status": status, "scores": list(scores), "turn": turn, "revision": revision,
               "updated_at": now(), "active_ms": round(self.clock() * 1000)}  # the row's new values (MOVE_COLUMNS)
        if extras is not None and job_due_ms is None and not seats and added is None and also is None:
            # A plain move, the change made most, is stored each database's cheapest way.
            if self.postgres:
                return stored_at_once(self.engine, game_id, expected, extras, _changed(game_id, revision, answered),
                                     **row)
            if self._sqlite_move is not None:
                with self._write_lock:
                    return stored_on_sqlite(self.engine, self._sqlite_move, game_id, expected, extras, **row)
        try:
            with self._writing() as session:
                refused = self._compare_and_set(session, game_id, expected, extras, **row)
                if refused is not None:
                    return refused
                session.connection().execute(DROP_JOB, {"match": game_id})
                if job_due_ms is not None:
                    session.connection().execute(ADD_JOB, {"game_id": game_id, "revision": revision,
                                                            "due_ms": job_due_ms, "attempts": 0})
                for seen, seat in seats:
                    _give_seat(session, game_id, seen, seat)
                if added is not None:
                    self._insert(session, added)
                if also is not None:
                    also(session)
                self._notify(session, _changed(game_id, revision, answered))
                return "stored"
        except _SeatChanged:
            return "stale"  # the whole transaction is rolled back

    def _compare_and_set(self, session: Session, game_id: str, expected: int, extras: Extras | None,
                         **values: Any) -> Written | None:
        """Change a game's row to ``values`` only if it is still at revision ``expected`` (and then its extras); None
        when it was changed, else why not."""
        result = session.connection().execute(SET_IF_AT, {"match": game_id, "expected": expected, **values})
        if not getattr(result, "rowcount", 0):
            return refused(session.connection().scalar(REVISION, {"match": game_id}))
        if extras is not None:
            self._save_extras(session, game_id, extras)
        return None

    def delete(self, game_id: str) -> bool:
        with self._writing() as session:
            result = session.execute(delete(MatchRow).where(MatchRow.id == game_id))
            self._delete_seats(session, game_id)
            session.execute(delete(AnalysisRow).where(AnalysisRow.game_id == game_id))
            session.execute(delete(ComputerJobRow).where(ComputerJobRow.game_id == game_id))
            self._notify(session, f"g {game_id}")
            return bool(getattr(result, "rowcount", 0))

    @staticmethod
    def _delete_seats(session: Session, game_id: str) -> None:
        session.execute(delete(SeatRow).where(SeatRow.game_id == game_id))
        session.execute(delete(ExtrasRow).where(ExtrasRow.game_id == game_id))

    @staticmethod
    def _save_extras(session: Session, game_id: str, extras: Extras) -> None:
        # One UPDATE, not a SELECT and an ORM flush: this is every move's.
        done = session.connection().execute(SET_EXTRAS, {"match": game_id, **extras.__dict__})
        if not getattr(done, "rowcount", 0):
            session.add(ExtrasRow(game_id=game_id, **extras.__dict__))

    # --------------------------------------------------------------- expiry

    def expired(self, moment_ms: int, limits: ExpiryLimits, limit: int | None = None) -> list[ExpiredMatch]:
        """The matches past ``limits`` at ``moment_ms`` (see :func:`_expired`), the longest left first."""
        expired = _expired(moment_ms, limits)
        if expired is None:
            return []
        query = (select(MatchRow.id, MatchRow.kind, MatchRow.mode, MatchRow.active_ms, _unjoined(moment_ms, limits))
                 .where(expired).order_by(MatchRow.active_ms, MatchRow.id).limit(limit))
        with Session(self.engine) as session:
            return [ExpiredMatch(game_id, kind, mode, active_ms, bool(unjoined))
                    for game_id, kind, mode, active_ms, unjoined in session.execute(query)]

    def purge_expired(self, moment_ms: int, limits: ExpiryLimits, batch: int = 500, wait: bool = False
                      ) -> list[str]:
        """Remove up to ``batch`` matches past ``limits``, and all they have, in one transaction; their ids. Each is
        checked again as it is removed (:mod:`zamek.server.expiry`); on PostgreSQL one process purges at a time (the
        others find nothing to do, or with ``wait`` wait for it), and a match whose row a change holds is skipped."""
        expired = _expired(moment_ms, limits)
        if expired is None:
            return []
        with self._writing() as session:
            if self.postgres and wait:
                session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PURGE_LOCK})
            elif self.postgres and not session.scalar(text("SELECT pg_try_advisory_xact_lock(:key)"),
                                                      {"key": PURGE_LOCK}):
                return []
            chosen = select(MatchRow.id).where(expired).order_by(MatchRow.active_ms).limit(batch)
            if self.postgres:
                chosen = chosen.with_for_update(skip_locked=True)
            ids = list(session.scalars(delete(MatchRow).where(MatchRow.id.in_(chosen.scalar_subquery()), expired)
                                       .returning(MatchRow.id)))
            if ids:
                session.execute(delete(SeatRow).where(SeatRow.game_id.in_(ids)))
                session.execute(delete(ExtrasRow).where(ExtrasRow.game_id.in_(ids)))
                session.execute(delete(ComputerJobRow).where(ComputerJobRow.game_id.in_(ids)))
                session.execute(delete(AnalysisRow).where(AnalysisRow.game_id.in_(ids)))
                if self.postgres:  # the other processes end the games' live events, as for a deleted game
                    session.execute(text("SELECT pg_notify(:channel, 'g ' || id) FROM unnest(:ids) AS id")
                                    .bindparams(bindparam("ids", type_=ARRAY(String()))),
                                    {"channel": CHANNEL, "ids": ids})
            return ids

    # ----------------------------------------------------- the computer's turns

    def claim_jobs(self, worker: str, moment_ms: int, lease_ms: int, limit: int,
                   games: Sequence[str] | None = None) -> list[Job]:
        """Claim up to ``limit`` computer turns that are due and claimed by no live process (of ``games`` only, when
        given), for ``lease_ms``. On PostgreSQL two processes never claim the same job (``FOR UPDATE SKIP
        LOCKED``); SQLite has one writer."""
        with self._writing() as session:
            query = (select(ComputerJobRow.game_id, ComputerJobRow.revision, ComputerJobRow.attempts)
                     .where(ComputerJobRow.due_ms <= moment_ms,
                            or_(ComputerJobRow.claimed_until_ms.is_(None),
                                ComputerJobRow.claimed_until_ms < moment_ms))
                     .order_by(ComputerJobRow.due_ms).limit(limit))
            if games is not None:
                query = query.where(ComputerJobRow.game_id.in_(games))
            if self.postgres:
                query = query.with_for_update(skip_locked=True)
            connection = session.connection()  # plain rows and one UPDATE each: no ORM objects to flush
            jobs = [Job(game_id, revision, attempts + 1) for game_id, revision, attempts in connection.execute(query)]
            for job in jobs:
                connection.execute(CLAIM_JOB, {"match": job.game_id, "claimed_by": worker,
                                                "claimed_until_ms": moment_ms + lease_ms, "attempts": job.attempts})
            return jobs

    def waiting_jobs(self, moment_ms: int, limit: int) -> list[tuple[str, int]]:
        """The first ``limit`` computer turns claimed by no live process, due or not yet, the earliest due first:
        (game, due time in epoch ms)."""
        with self.engine.connect() as connection:  # asked ten times a second: a plain query, built once
            rows = connection.execute(WAITING_JOBS, {"moment": moment_ms, "limit": limit})
            return [(game_id, due) for game_id, due in rows]

    def next_job_due(self) -> int | None:
        """When the next unclaimed computer turn is due (epoch ms), or None."""
        with Session(self.engine) as session:
            return session.scalar(select(func.min(ComputerJobRow.due_ms)).where(ComputerJobRow.due_ms < NEVER))

    def retry_job(self, job: Job, due_ms: int) -> None:
        """A claimed turn could not be played now (a failed write): try again at ``due_ms``."""
        with self._writing() as session:
            session.execute(update(ComputerJobRow)
                            .where(ComputerJobRow.game_id == job.game_id, ComputerJobRow.revision == job.revision)
                            .values(due_ms=due_ms, claimed_by=None, claimed_until_ms=None))

    def fail_job(self, job: Job, error: str) -> None:
        """The computer cannot play this position (a bug): no process tries again until the game changes."""
        with self._writing() as session:
            session.execute(update(ComputerJobRow)
                            .where(ComputerJobRow.game_id == job.game_id, ComputerJobRow.revision == job.revision)
                            .values(due_ms=NEVER, claimed_by=None, claimed_until_ms=None, error=error[:500]))
            self._notify(session, f"c {job.game_id} {job.revision}")

    def drop_job(self, job: Job) -> None:
        """The game has no computer's turn to play on this revision (it changed, or was never the computer's)."""
        with self._writing() as session:
            session.execute(delete(ComputerJobRow).where(ComputerJobRow.game_id == job.game_id,
                                                         ComputerJobRow.revision == job.revision))

    def job_error(self, game_id: str) -> str | None:
        with Session(self.engine) as session:
            return session.scalar(select(ComputerJobRow.error).where(ComputerJobRow.game_id == game_id))

    def jobs_waiting(self) -> int:
        with Session(self.engine) as session:
            return session.scalar(select(func.count()).select_from(ComputerJobRow)) or 0

    def out_of_time(self, moment_ms: int, limit: int = 100) -> list[str]:
        """The games whose player to move has run out of time at ``moment_ms``."""
        with Session(self.engine) as session:
            rows = session.scalars(select(ExtrasRow.game_id).where(ExtrasRow.deadline_ms <= moment_ms)
                                   .order_by(ExtrasRow.deadline_ms).limit(limit))
            return list(rows)

    # ----------------------------------------------------------------- seats

    def seats(self, game_id: str) -> list[Seat]:
        with Session(self.engine) as session:
            rows = session.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat))
            return [r.value() for r in rows]

    def names_of(self, ids: Iterable[str]) -> dict[str, list[str | None]]:
        """The names people chose for the seats of these games, by game id and seat."""
        found: dict[str, list[str | None]] = {}
        with Session(self.engine) as session:
            rows = session.execute(select(SeatRow.game_id, SeatRow.seat, SeatRow.name)
                                   .where(SeatRow.game_id.in_(list(ids))).order_by(SeatRow.seat))
            for game_id, seat, name in rows:
                names = found.setdefault(game_id, [])
                names.extend([None] * (seat + 1 - len(names)))
                names[seat] = name
        return found

    def extras_of(self, ids: Iterable[str]) -> dict[str, Extras]:
        with Session(self.engine) as session:
            rows = session.scalars(select(ExtrasRow).where(ExtrasRow.game_id.in_(list(ids))))
            return {r.game_id: _extras(r) for r in rows}

    def take_seat(self, game_id: str, seat: Seat) -> bool:
        """Store a friend taking an open seat, only if it is still open (two friends at once: one gets it)."""
        with self._writing() as session:
            result = session.execute(
                update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat.index,
                                      SeatRow.player == "open")
                .values(player=seat.player, token_digest=seat.token_digest, invite_digest=seat.invite_digest,
                        name=seat.name, joined_at=seat.joined_at))
            return bool(getattr(result, "rowcount", 0))

    def confirm_seat(self, game_id: str, seat: int) -> None:
        """A seat's token has been used: its invitation no longer gives it again."""
        with self._writing() as session:
            session.execute(update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                            .values(invite_digest=None))

    def set_invite(self, game_id: str, invite_digest: str) -> list[int]:
        """A new invitation for a match's seats open to an invitation (the old code no longer opens them; a
        rematch's seats, kept for known players, have none); the seats it opens."""
        waiting = (SeatRow.game_id == game_id, SeatRow.player == "open", SeatRow.invite_digest.is_not(None))
        with self._writing() as session:
            seats = list(session.scalars(select(SeatRow.seat).where(*waiting)))
            session.execute(update(SeatRow).where(*waiting).values(invite_digest=invite_digest))
            return seats

    def set_token(self, game_id: str, seat: int, token_digest: str) -> None:
        with self._writing() as session:
            session.execute(update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                            .values(token_digest=token_digest))

    def held(self, token_digests: Iterable[str]) -> dict[str, list[int]]:
        """The games (by id) that the tokens with these digests hold seats of, with those seats."""
        wanted = sorted(set(token_digests))
        found: dict[str, list[int]] = {}
        with Session(self.engine) as session:
            for start in range(0, len(wanted), 500):
                rows = session.execute(select(SeatRow.game_id, SeatRow.seat)
                                       .where(SeatRow.token_digest.in_(wanted[start:start + 500])))
                for game_id, seat in rows:
                    found.setdefault(game_id, []).append(seat)
        return found

    def unseated(self, kind: str) -> list[StoredMatch]:
        """A game's matches stored before matches had seats (none of their seats is in the seats table)."""
        with Session(self.engine) as session:
            rows = session.scalars(select(MatchRow).where(MatchRow.kind == kind,
                                                          MatchRow.id.not_in(select(SeatRow.game_id))))
            return [StoredMatch.of(r) for r in rows]

    def add_seats(self, game_id: str, seats: Sequence[Seat]) -> bool:
        """Give seats to a game that has none yet; False when another request did meanwhile."""
        with self._writing() as session:
            if session.scalars(select(SeatRow.seat).where(SeatRow.game_id == game_id)).first() is not None:
                return False
            self._add_seats(session, game_id, seats, None)
            self._notify(session, f"s {game_id}")
            return True

    def page_of(self, ids: Iterable[str], offset: int, limit: int) -> tuple[list[str], bool]:
        """One page of these matches, the latest changed first; and whether more follow."""
        wanted = list(ids)
        found: list[tuple[datetime, str]] = []
        with Session(self.engine) as session:
            for start in range(0, len(wanted), 500):
                part = wanted[start:start + 500]
                found += list(session.execute(select(MatchRow.updated_at, MatchRow.id).where(MatchRow.id.in_(part))))
        found.sort(key=lambda row: (_aware(row[0]), row[1]), reverse=True)
        return [game_id for _, game_id in found[offset:offset + limit]], len(found) > offset + limit

    def by_id(self, ids: Iterable[str], kind: str | None = None) -> list[StoredMatch]:
        """These matches (of one game's ``kind``), the latest changed first."""
        query = select(MatchRow).where(MatchRow.id.in_(list(ids))).order_by(MatchRow.updated_at.desc())
        if kind is not None:
            query = query.where(MatchRow.kind == kind)
        with Session(self.engine) as session:
            return [StoredMatch.of(r) for r in session.scalars(query)]


def _unjoined(moment_ms: int, limits: ExpiryLimits) -> ColumnElement[bool]:
    """A match made for friends, none of whom has come (it waits for a seat and nothing has changed since it was
    made), for longer than ``limits.unjoined_ms``."""
    if limits.unjoined_ms is None:
        return false()
    open_seat = exists().where(SeatRow.game_id == MatchRow.id, SeatRow.player == "open")
    return and_(MatchRow.revision == 0, open_seat, MatchRow.active_ms < moment_ms - limits.unjoined_ms)


def _expired(moment_ms: int, limits: ExpiryLimits) -> ColumnElement[bool] | None:
    """Which matches are past ``limits`` at ``moment_ms`` (None: no limit is set): unfinished (a finished one is a
    record, kept), no clock running (its player has time left: the clock ends the game), and either made for friends
    who never came (``limits.unjoined_ms``) or unchanged for ``limits.idle_ms``."""
    waiting = []
    if limits.idle_ms is not None:
        waiting.append(MatchRow.active_ms < moment_ms - limits.idle_ms)
    if limits.unjoined_ms is not None:
        waiting.append(_unjoined(moment_ms, limits))
    if not waiting:
        return None
    clock_runs = exists().where(ExtrasRow.game_id == MatchRow.id, ExtrasRow.deadline_ms.is_not(None))
    return and_(MatchRow.status == "playing", ~clock_runs, or_(*waiting))


def _extras(row: ExtrasRow | Row[Any]) -> Extras:
    return Extras(row.clock, row.ended, row.rematch, row.to_move, row.deadline_ms, row.takeback)


def _aware(moment: datetime) -> datetime:
    """SQLite gives back times without their zone (they were stored in UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


