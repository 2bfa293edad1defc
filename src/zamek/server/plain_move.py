"""A plain move stored each database's cheapest way: the change made most, a person's or the computer's move that
changes nothing but the match's row, its extras and its computer's job (:meth:`zamek.server.db.Repository.save`
chooses; a move that does more, such as adding a job, giving a seat or rating a game, takes the ORM's transaction).
On PostgreSQL it is one statement and one round trip; on SQLite, one transaction of three statements on the
driver's own cursor, compiled once (SQLAlchemy's execution of a statement costs SQLite's work several times over).
"""

from __future__ import annotations

from typing import Any, Literal

from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from zamek.server.statements import CHANNEL, MOVE_AT_ONCE, REVISION, Prepared
from zamek.server.tables import Extras

SqliteMove = tuple[Prepared, list[Prepared]]
"""The statements of a move on SQLite, prepared: the revision's query, and the move's (:func:`stored_on_sqlite`)."""
Written = Literal["stored", "stale", "gone"]
"""What became of a change: stored; refused because the game changed meanwhile; refused because it is deleted."""


def move_parameters(game_id: str, expected: int, extras: Extras, values: dict[str, Any]) -> dict[str, Any]:
    """The parameters of a plain move's statements (:mod:`zamek.server.statements`): the match, the revision expected,
    the row's new values by their columns' names and the extras' after ``extras_`` (a field and a column may share a
    name)."""
    return {"match": game_id, "expected": expected, **values,
            **{f"extras_{name}": value for name, value in extras.__dict__.items()}}


def stored_at_once(engine: Engine, game_id: str, expected: int, extras: Extras, payload: str, **values: Any
                   ) -> Written:
    """A move that changes nothing but the match's row, its extras and its job, stored on PostgreSQL in one statement
    (:data:`~zamek.server.statements.MOVE_AT_ONCE`, its own transaction)."""
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        stored = connection.execute(MOVE_AT_ONCE, {
            **move_parameters(game_id, expected, extras, values), "channel": CHANNEL, "payload": payload}).first()
        if stored is not None:
            return "stored"
        return refused(connection.scalar(REVISION, {"match": game_id}))


def stored_on_sqlite(engine: Engine, statements: SqliteMove, game_id: str, expected: int, extras: Extras,
                     **values: Any) -> Written:
    """A move that changes nothing but the match's row, its extras and its job, stored on SQLite in one transaction of
    the statements of :func:`~zamek.server.statements.move_on_sqlite`, run on the driver's cursor (the caller holds
    the process's write lock)."""
    revision, (compare_and_set, *rest) = statements
    parameters = move_parameters(game_id, expected, extras, values)
    connection = engine.raw_connection()  # pooled: its checkin rolls back whatever was left open
    driver_error = engine.dialect.loaded_dbapi.Error
    running = compare_and_set
    try:
        cursor = connection.cursor()
        try:
            if cursor.execute(running.sql, running.parameters(parameters)).rowcount == 0:
                running = revision
                row = cursor.execute(running.sql, running.parameters(parameters)).fetchone()
                return refused(row[0] if row is not None else None)
            for running in rest:
                cursor.execute(running.sql, running.parameters(parameters))
            connection.commit()
            return "stored"
        finally:
            cursor.close()
    except driver_error as exc:  # as SQLAlchemy raises it (the computer's player retries a turn on these)
        raise DBAPIError.instance(running.sql, None, exc, driver_error, dialect=engine.dialect) from exc
    finally:
        connection.close()


def refused(revision: int | None) -> Written:
    """Why a compare-and-set did not take: the match's revision as stored now (None: there is no such match)."""
    return "gone" if revision is None else "stale"
