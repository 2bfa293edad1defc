"""Hints and analyses: whether the players of a game against a friend agreed to hints, and the analyses of
finished games (computed once, kept).

Every game stored before has hints off (no one agreed to them); no game has an analysis yet.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "game_analyses",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("estimator", sa.String(64), nullable=False),
        sa.Column("moves", sa.Integer, nullable=False),
        sa.Column("analysis", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("game_analyses")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("hints")
