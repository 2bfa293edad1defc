"""The statements of a move and of a match read again, built once: a statement made anew for every request is
built, coerced and keyed for SQLAlchemy's cache each time (a good part of a move's CPU time). They go to the tables,
not through the ORM (:mod:`zamek.server.db` runs them)."""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from typing import Any, Final, cast

from sqlalchemy import Select, Table, bindparam, delete, func, insert, or_, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert

from zamek.server.tables import ComputerJobRow, Extras, ExtrasRow, MatchRow, SeatRow

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
SET_IF_AT = update(MATCHES).where(MATCHES.c.id == bindparam("match"), MATCHES.c.revision == bindparam("expected"))
"""A compare-and-set of a match's row: its new values come as the parameters named after its columns."""
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

MOVE_COLUMNS: Final = ("moves", "status", "scores", "turn", "revision", "updated_at", "active_ms")
"""The columns of a match's row that a move changes."""


def move_in_one_statement() -> Select[Any]:
    """A move stored on PostgreSQL in one statement, one round trip (its own transaction): the compare-and-set of the
    match's row, its extras written (or added), the computer's job dropped and the notification sent, each only when
    the row was at the expected revision; it returns the match's id then, else no row. A move took six round trips
    (the transaction's, each statement's), a fifth of a worker's CPU under load (results/server). The parameters:
    ``match``, ``expected``, the row's new values by their columns' names, the extras' by theirs after ``extras_``,
    ``channel`` and ``payload``."""
    moved = (update(MATCHES)
             .where(MATCHES.c.id == bindparam("match"), MATCHES.c.revision == bindparam("expected"))
             .values({name: bindparam(name, type_=MATCHES.c[name].type) for name in MOVE_COLUMNS})
             .returning(MATCHES.c.id).cte("moved"))
    fields = [f.name for f in dataclass_fields(Extras)]
    new_extras = select(moved.c.id, *(bindparam(f"extras_{f}", type_=EXTRAS.c[f].type) for f in fields))
    upsert = pg_insert(EXTRAS).from_select(["game_id", *fields], new_extras)
    extras = upsert.on_conflict_do_update(index_elements=[EXTRAS.c.game_id],
                                          set_={f: upsert.excluded[f] for f in fields}).cte("extras")
    dropped = delete(JOBS).where(JOBS.c.game_id.in_(select(moved.c.id))).cte("dropped")
    notified = func.pg_notify(bindparam("channel"), bindparam("payload"))
    return select(moved.c.id, notified).add_cte(extras, dropped)


MOVE_AT_ONCE: Final = move_in_one_statement()
