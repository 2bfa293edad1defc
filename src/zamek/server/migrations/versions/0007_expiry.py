"""Expiry: when each match was made or last changed, by the server's clock (``matches.active_ms``, epoch
milliseconds), and an index that finds the unfinished matches left longest (:mod:`zamek.server.expiry`).

Every match stored before counts as active at the moment of this upgrade, not at its ``updated_at``: the versions
before kept every game for ever, so an upgrade removes none at once; each gets the whole time the limits give,
counted from the upgrade.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("active_ms", sa.BigInteger, nullable=False, server_default="0"))
        batch.create_index("ix_matches_status_active_ms", ["status", "active_ms"])
    matches = sa.table("matches", sa.column("active_ms", sa.BigInteger))
    op.execute(matches.update().values(active_ms=round(time.time() * 1000)))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_index("ix_matches_status_active_ms")
        batch.drop_column("active_ms")
