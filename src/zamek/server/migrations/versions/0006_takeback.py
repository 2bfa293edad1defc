"""Takebacks in castle games with a friend: the request asked (or declined) on a game's position, kept beside its
moves so that every process of a server, and a restarted one, sees it.

Every game stored before has none.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_extras") as batch:
        batch.add_column(sa.Column("takeback", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_extras") as batch:
        batch.drop_column("takeback")
