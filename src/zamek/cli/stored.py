"""The commands about the games a server stores (its database): ``games expired`` lists the unfinished games past the
limits of expiry (:mod:`zamek.server.expiry`) and, with ``--purge``, removes them, as the running server does every
minute. The limits' options are ``zamek serve``'s (and ``zamek play``'s), read from the same environment variables."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from zamek.cli.options import DatabaseURL, FiniteRange, database_reason, fail
from zamek.server.expiry import IDLE_DAYS, UNJOINED_HOURS

if TYPE_CHECKING:
    from zamek.server.db import Repository
    from zamek.server.tables import ExpiredMatch

F = TypeVar("F", bound=Callable[..., object])


def expiry_options(unjoined_hours: float, idle_days: float) -> Callable[[F], F]:
    """``--expire-unjoined-hours`` and ``--expire-idle-days`` (``$ZAMEK_EXPIRE_UNJOINED_HOURS``,
    ``$ZAMEK_EXPIRE_IDLE_DAYS``) with these defaults."""

    def add(command: F) -> F:
        command = click.option(
            "--expire-idle-days", type=FiniteRange(0, 36500), default=idle_days, show_default=True,
            envvar="ZAMEK_EXPIRE_IDLE_DAYS",
            help="Remove an unfinished game nobody has changed for this many days (0: never; finished games are "
                 "kept) (or $ZAMEK_EXPIRE_IDLE_DAYS).")(command)
        return click.option(
            "--expire-unjoined-hours", type=FiniteRange(0, 876000), default=unjoined_hours, show_default=True,
            envvar="ZAMEK_EXPIRE_UNJOINED_HOURS",
            help="Remove a game for friends that none of them joined this many hours after it was made (0: never) "
                 "(or $ZAMEK_EXPIRE_UNJOINED_HOURS).")(command)

    return add


@click.group(name="games")
def games_group() -> None:
    """The games a server stores (its database)."""


@games_group.command(name="expired")
@click.option("--db", "db_url", type=DatabaseURL(), required=True, envvar="ZAMEK_DB",
              help="The server's database (or $ZAMEK_DB).")
@expiry_options(UNJOINED_HOURS, IDLE_DAYS)
@click.option("--purge", is_flag=True, help="Remove the games listed (the running server also does, every minute).")
def expired_command(db_url: str, expire_unjoined_hours: float, expire_idle_days: float, purge: bool) -> None:
    """List the unfinished games past the limits of expiry (oldest first); remove them with --purge.

    A finished game is never listed: it is a record, kept. Each game is checked again as it is removed, so a game
    that a player moves in meanwhile stays."""
    from zamek.server.tables import ExpiryLimits

    limits = ExpiryLimits.of(expire_unjoined_hours, expire_idle_days)
    if limits.unjoined_ms is None and limits.idle_ms is None:
        click.echo("no limit is set (both are 0): no game expires")
        return
    with _database(db_url) as repo:
        moment = datetime.now(UTC)
        moment_ms = round(moment.timestamp() * 1000)
        found = repo.expired(moment_ms, limits)
        for match in found:
            click.echo(_line(match, moment))
        unjoined = sum(match.unjoined for match in found)
        click.echo(f"{len(found)} expired games: {unjoined} for friends nobody joined, {len(found) - unjoined} idle "
                   f"({_limits(expire_unjoined_hours, expire_idle_days)})")
        if purge:
            removed = 0
            while ids := repo.purge_expired(moment_ms, limits, wait=True):
                removed += len(ids)
            click.echo(f"removed {removed} games")


def _line(match: ExpiredMatch, moment: datetime) -> str:
    active = datetime.fromtimestamp(match.active_ms / 1000, UTC)
    hours = (moment - active).total_seconds() / 3600
    age = f"{hours / 24:.1f} days" if hours >= 48 else f"{hours:.1f} hours"
    reason = "unjoined" if match.unjoined else "idle"
    return f"{match.id}  {match.kind:<8} {match.mode:<9} {reason:<9} last active {active:%Y-%m-%d %H:%M} UTC ({age})"


def _limits(unjoined_hours: float, idle_days: float) -> str:
    unjoined = f"{unjoined_hours:g} hours" if unjoined_hours else "never"
    idle = f"{idle_days:g} days" if idle_days else "never"
    return f"limits: unjoined {unjoined}, idle {idle}"


@contextmanager
def _database(url: str) -> Iterator[Repository]:
    """The database at a URL, at this version's schema; every failure to reach or read it is a clear error (exit
    2), never a traceback."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from zamek.server.db import Repository
    from zamek.server.migrate import current, head
    from zamek.server.tables import driver_url

    try:
        parsed = make_url(driver_url(url))
    except ArgumentError:
        fail("not a database URL (e.g. postgresql://zamek@localhost/zamek or sqlite:////path/games.sqlite3)")
    shown = parsed.render_as_string(hide_password=True)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:") and \
            not Path(parsed.database).is_file():
        fail(f"no database at {parsed.database}")  # SQLite would make an empty one
    repo: Repository | None = None
    try:
        repo = Repository(url, migrate=False)
        schema = current(repo.engine)
        if schema != head():
            fail(f"the database {shown} has schema {schema or 'none'}, this version's is {head()}: "
                 "upgrade it first with zamek migrate")
        yield repo
    except (SQLAlchemyError, ImportError) as exc:  # ImportError: the URL names a driver that is not installed
        fail(f"cannot use the database {shown}: {database_reason(exc)}")
    finally:
        if repo is not None:
            repo.close()

