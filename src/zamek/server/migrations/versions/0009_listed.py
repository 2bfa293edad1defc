"""The watch list: ``matches.listed``, a match its creator listed among the live games anyone may watch
(``GET /api/live``), and an index that finds the listed matches being played, the latest active first.

Every match stored before is unlisted: games with friends by link were private, and stay so.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.create_index("ix_matches_listed_status_active_ms", ["listed", "status", "active_ms"])


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_index("ix_matches_listed_status_active_ms")
        batch.drop_column("listed")
