"""The commands of the web app: ``play`` (the local app, in your browser), ``serve`` (many players on one
shared database) and ``migrate`` (upgrade a database's schema). The web stack loads only when one of them runs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from zamek.cli.options import PORT, DatabaseURL, FiniteRange, Host, database_errors, fail
from zamek.cli.stored import expiry_options
from zamek.server.expiry import IDLE_DAYS, UNJOINED_HOURS
from zamek.server.fairness import fairness_from, fairness_options

Command = TypeVar("Command", bound=Callable[..., None])


def connection_options(command: Command) -> Command:
    """The options of the server's connections (zamek.server.connections), shared by ``play`` and ``serve``."""
    for option in reversed((
        click.option("--header-timeout", type=FiniteRange(0.1, 3600), default=10.0, show_default=True,
                     envvar="ZAMEK_HEADER_TIMEOUT", show_envvar=True,
                     help="Seconds a request's headers may take to come; then the connection is closed."),
        click.option("--body-timeout", type=FiniteRange(0.1, 3600), default=60.0, show_default=True,
                     envvar="ZAMEK_BODY_TIMEOUT", show_envvar=True,
                     help="Seconds a request's body may take to come after its headers; then the connection is "
                          "closed."),
        click.option("--max-connections", type=click.IntRange(1), default=None, envvar="ZAMEK_MAX_CONNECTIONS",
                     show_envvar=True,
                     help="The most connections a process holds (a new one closes the longest idle, else is "
                          "answered 503). Default: the open-file limit less 100."),
    )):
        command = option(command)
    return command


@click.command()
@click.option("--host", type=Host(), default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=PORT, default=8000, show_default=True, help="Port to listen on.")
@click.option("--db", "db_url", type=DatabaseURL(), default=None,
              help="SQLAlchemy database URL (default: a SQLite file in your user data directory).")
@click.option("--no-browser", is_flag=True, help="Do not open the page in a browser.")
@expiry_options(unjoined_hours=0.0, idle_days=0.0)  # your own games, on your own machine: kept unless you ask
@fairness_options
@connection_options
def play(host: str, port: int, db_url: str | None, no_browser: bool, expire_unjoined_hours: float,
         expire_idle_days: float, header_timeout: float, body_timeout: float, max_connections: int | None,
         **limits: Any) -> None:
    """Play in the browser: start the local web app and open it."""
    from zamek.server.server import serve  # the web stack loads only for this command
    from zamek.server.tables import default_db_url

    with database_errors(db_url or default_db_url()):
        serve(host, port, db_url, open_browser=not no_browser, expire_unjoined_hours=expire_unjoined_hours,
              expire_idle_days=expire_idle_days, fairness=fairness_from(limits), header_timeout=header_timeout,
              body_timeout=body_timeout, max_connections=max_connections)


@click.command(name="serve")
@click.option("--db", "db_url", type=DatabaseURL(), required=True, envvar="ZAMEK_DB", show_envvar=True,
              help="The database every worker shares, e.g. postgresql://zamek@localhost/zamek.")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True, envvar="ZAMEK_WORKERS",
              show_envvar=True, help="Web worker processes.")
@click.option("--host", type=Host(), default="127.0.0.1", show_default=True, envvar="ZAMEK_HOST", show_envvar=True,
              help="Address to listen on (the reverse proxy's).")
@click.option("--port", type=PORT, default=8000, show_default=True, envvar="ZAMEK_PORT", show_envvar=True,
              help="Port to listen on.")
@click.option("--computer-processes", type=click.IntRange(1, 64), default=1, show_default=True,
              envvar="ZAMEK_COMPUTER_PROCESSES", show_envvar=True,
              help="Processes each worker thinks out the computer's turns in.")
@click.option("--allowed-host", "allowed_hosts", multiple=True, envvar="ZAMEK_ALLOWED_HOSTS", show_envvar=True,
              help="A name the site is served as (its Host header), e.g. zamek.example.org; repeat for more (in the "
                   "environment: separated by spaces). The loopback names are always allowed (a local health "
                   "check or Prometheus). Default: this machine's names.")
@click.option("--forwarded-allow-ips", default="127.0.0.1", show_default=True, envvar="ZAMEK_FORWARDED_ALLOW_IPS",
              show_envvar=True,
              help="The reverse proxies whose X-Forwarded-For/-Proto headers are believed ('*': any).")
@click.option("--computer-delay", type=FiniteRange(0, 60), default=0.8, show_default=True,
              envvar="ZAMEK_COMPUTER_DELAY", show_envvar=True,
              help="Seconds the computer waits before replying (a person may take their move back meanwhile).")
@click.option("--computer-lease", type=FiniteRange(1, 3600), default=15.0, show_default=True,
              envvar="ZAMEK_COMPUTER_LEASE", show_envvar=True,
              help="Seconds a worker holds a computer's turn it took; if it dies, another takes the turn after this.")
@expiry_options(UNJOINED_HOURS, IDLE_DAYS)
@click.option("--metrics-allow-ips", default="127.0.0.1,::1", show_default=True, envvar="ZAMEK_METRICS_ALLOW_IPS",
              show_envvar=True, help="Addresses and networks (comma-separated) that may read /metrics, as the "
                                     "client's address after --forwarded-allow-ips ('*': any; '': nobody).")
@fairness_options
@connection_options
def serve_command(db_url: str, workers: int, host: str, port: int, computer_processes: int,
                  allowed_hosts: tuple[str, ...], forwarded_allow_ips: str, computer_delay: float,
                  computer_lease: float, expire_unjoined_hours: float, expire_idle_days: float,
                  metrics_allow_ips: str, header_timeout: float, body_timeout: float, max_connections: int | None,
                  **limits: Any) -> None:
    """Run the web app for many players: several worker processes on one shared database (PostgreSQL).

    The database's schema is upgraded first. Put it behind a reverse proxy that terminates TLS."""
    from zamek.server.server import serve_workers

    try:
        with database_errors(db_url):
            serve_workers(db_url=db_url, workers=workers, host=host, port=port, computer_processes=computer_processes,
                          allowed_hosts=allowed_hosts, forwarded_allow_ips=forwarded_allow_ips,
                          computer_delay=computer_delay, computer_lease=computer_lease,
                          expire_unjoined_hours=expire_unjoined_hours, expire_idle_days=expire_idle_days,
                          metrics_allow_ips=metrics_allow_ips.split(","), fairness=fairness_from(limits),
                          header_timeout=header_timeout, body_timeout=body_timeout, max_connections=max_connections)
    except ValueError as exc:  # a setting the server refuses (SQLite with several workers, a bad network)
        fail(str(exc))


@click.command(name="migrate")
@click.option("--db", "db_url", type=DatabaseURL(), required=True, envvar="ZAMEK_DB",
              help="The database to upgrade (or $ZAMEK_DB).")
def migrate_command(db_url: str) -> None:
    """Upgrade a database's schema to this version's (zamek serve and zamek play also do it when they start)."""
    from zamek.server.migrate import current, head, upgrade
    from zamek.server.tables import make_engine

    with database_errors(db_url, "upgrade"):
        engine = make_engine(db_url)
        try:
            before = current(engine)
            upgrade(engine)
            click.echo(f"schema {before or 'none'} -> {current(engine)} (this version's: {head()})")
        finally:
            engine.dispose()
