"""Alembic's environment: the migrations run on the connection :mod:`zamek.server.migrate` gives them."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from zamek.server.tables import Base, driver_url

connection = context.config.attributes.get("connection")
if connection is None:  # run by the ``alembic`` command itself: the database is named by -x db=URL
    url = context.get_x_argument(as_dictionary=True).get("db", "sqlite://")
    connection = create_engine(driver_url(url)).connect()
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
