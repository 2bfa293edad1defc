"""The statements of a move and of a match read again, built once: a statement made anew for every request is
built, coerced and keyed for SQLAlchemy's cache each time (a good part of a move's CPU time). They go to the tables,
not through the ORM (:mod:`zamek.server.db` and :mod:`zamek.server.plain_move` run them)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from typing import Any, Final, cast

from sqlalchemy import ClauseElement, Select, Table, bindparam, delete, func, insert, or_, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.compiler import SQLCompiler

from zamek.server.tables import ComputerJobRow, Extras, ExtrasRow, MatchRow, SeatRow

CHANNEL: Final = "zamek"
"""The PostgreSQL notification channel of game changes (payloads: see :mod:`zamek.server.pgevents`)."""
NEVER: Final = 2**62
"""A due time that never comes (a job that failed for good)."""

MATCHES = cast(Table, MatchRow.__table__)
EXTRAS = cast(Table, ExtrasRow.__table__)
REVISION = select(MATCHES.c.revision).where(MATCHES.c.id == bindparam("match"))
MATCH = select(MATCHES).where(MATCHES.c.id == bindparam("match"))
SEATS = cast(Table, SeatRow.__table__)
SNAPSHOT = (select(MATCHES, EXTRAS, SEATS)
            .select_from(MATCHES.outerjoin(EXTRAS, EXTRAS.c.game_id == MATCHES.c.id)
                         .outerjoin(SEATS, SEATS.c.game_id == MATCHES.c.id))
            .where(MATCHES.c.id == bindparam("match")).order_by(SEATS.c.seat))
"""A match read whole, with its extras and its seats, in one statement (a row a seat; a worker reads a match again
after each move made through another): one round trip, and one snapshot without a transaction around it."""
MOVE_COLUMNS: Final = ("moves", "status", "scores", "turn", "revision", "updated_at", "active_ms")
"""The columns of a match's row that a move changes."""
SET_IF_AT = (update(MATCHES)
             .where(MATCHES.c.id == bindparam("match"), MATCHES.c.revision == bindparam("expected"))
             .values({name: bindparam(name, type_=MATCHES.c[name].type) for name in MOVE_COLUMNS}))
"""A compare-and-set of a match's row (every way of storing a move runs it): its new values come as the parameters
named after its :data:`MOVE_COLUMNS`."""
SET_EXTRAS = update(EXTRAS).where(EXTRAS.c.game_id == bindparam("match"))
NOTIFY = text("SELECT pg_notify(:channel, :payload)")
JOBS = cast(Table, ComputerJobRow.__table__)
DROP_JOB = delete(JOBS).where(JOBS.c.game_id == bindparam("match"))
ADD_JOB = insert(JOBS)
CLAIM_JOB = update(JOBS).where(JOBS.c.game_id == bindparam("match"))
WAITING_JOBS = (select(JOBS.c.game_id, JOBS.c.due_ms)
                .where(JOBS.c.due_ms < NEVER,
                       or_(JOBS.c.claimed_until_ms.is_(None), JOBS.c.claimed_until_ms < bindparam("moment")))
                .order_by(JOBS.c.due_ms).limit(bindparam("limit")))


def _new_extras() -> dict[str, Any]:
    """The extras' new values in a plain move's statements: each field as its column, from its parameter named
    ``extras_`` and the field (a field and a match's column may share a name)."""
    return {f.name: bindparam(f"extras_{f.name}", type_=EXTRAS.c[f.name].type) for f in dataclass_fields(Extras)}


def move_in_one_statement() -> Select[Any]:
    """A move stored on PostgreSQL in one statement, one round trip (its own transaction): the compare-and-set of the
    match's row, its extras written (or added), the computer's job dropped and the notification sent, each only when
    the row was at the expected revision; it returns the match's id then, else no row. A move took six round trips
    (the transaction's, each statement's), a fifth of a worker's CPU under load (results/server). The parameters:
    ``match``, ``expected``, the row's new values by their columns' names, the extras' by theirs after ``extras_``,
    ``channel`` and ``payload``."""
    moved = SET_IF_AT.returning(MATCHES.c.id).cte("moved")
    new_extras = _new_extras()
    fields = list(new_extras)
    upsert = pg_insert(EXTRAS).from_select(["game_id", *fields], select(moved.c.id, *new_extras.values()))
    extras = upsert.on_conflict_do_update(index_elements=[EXTRAS.c.game_id],
                                          set_={f: upsert.excluded[f] for f in fields}).cte("extras")
    dropped = delete(JOBS).where(JOBS.c.game_id.in_(select(moved.c.id))).cte("dropped")
    notified = func.pg_notify(bindparam("channel"), bindparam("payload"))
    return select(moved.c.id, notified).add_cte(extras, dropped)


MOVE_AT_ONCE: Final = move_in_one_statement()


def move_on_sqlite() -> tuple[ClauseElement, ClauseElement, ClauseElement]:
    """A move stored on SQLite: the compare-and-set of the match's row, its extras written (or added) and the
    computer's job dropped, three statements of one transaction (SQLite has no statements that change several
    tables). Parameters as :func:`move_in_one_statement`'s."""
    new_extras = _new_extras()
    upsert = sqlite_insert(EXTRAS).values({"game_id": bindparam("match"), **new_extras})
    extras = upsert.on_conflict_do_update(index_elements=[EXTRAS.c.game_id],
                                          set_={f: upsert.excluded[f] for f in new_extras})
    return SET_IF_AT, extras, DROP_JOB


@dataclass(frozen=True)
class Prepared:
    """A statement compiled once for a database's dialect (one with positional parameters, as SQLite's), to run on
    its driver's own cursor: SQLAlchemy's execution of a statement (its cache's key, its context, its result) costs
    SQLite's work several times over, and a move makes three (results/server). The values go through the columns'
    own conversions (JSON, dates), as SQLAlchemy would write them."""

    sql: str
    names: tuple[str, ...]
    conversions: tuple[Callable[[Any], Any] | None, ...]

    @classmethod
    def of(cls, statement: ClauseElement, dialect: Dialect) -> Prepared:
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect))
        if not dialect.positional or compiled.positiontup is None:
            raise ValueError(f"{dialect.name} does not take positional parameters")
        names = tuple(compiled.positiontup)
        return cls(compiled.string, names,
                   tuple(compiled.binds[n].type.dialect_impl(dialect).bind_processor(dialect) for n in names))

    def parameters(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        """The statement's parameters, in order, from ``values`` by their names."""
        return tuple(values[name] if convert is None else convert(values[name])
                     for name, convert in zip(self.names, self.conversions, strict=True))
