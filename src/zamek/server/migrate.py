"""The database's schema across versions of the program: Alembic migrations, run when the app starts.

A new, empty database gets the current tables at once (and is stamped as up to date); a database made by an
earlier version is upgraded by the migrations in ``zamek/server/migrations/versions``, whatever version it was
made by (one made before migrations existed is taken as the baseline, ``0001``). On PostgreSQL the upgrade
holds an advisory lock, so that processes starting together upgrade once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect, text
from sqlalchemy.engine import Engine

from zamek.server.tables import Base

MIGRATIONS: Final = Path(__file__).parent / "migrations"
LOCK_KEY: Final = 0x5A414D454B  # "ZAMEK": the advisory lock of an upgrade
OUR_TABLES: Final = frozenset(Base.metadata.tables)


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for this package's migrations (no ini file), on ``connection``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest schema revision this program knows."""
    revision = ScriptDirectory.from_config(config()).get_current_head()
    assert revision is not None
    return revision


def current(engine: Engine) -> str | None:
    """The schema revision the database is at (None: never migrated)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Bring the database's schema up to date (see the module's doc)."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
        context = MigrationContext.configure(connection)
        if context.get_current_revision() == head():
            return
        cfg = config(connection)
        if context.get_current_revision() is None and not OUR_TABLES & set(inspect(connection).get_table_names()):
            Base.metadata.create_all(connection)
            command.stamp(cfg, "head")
        else:
            command.upgrade(cfg, "head")
