"""Players (issue 39): identities (a name and the digest of a secret token), their Glicko-2 ratings per game and
clock kind with each rating's history, the results of rated games, and which matches are rated.

Every match stored before is casual.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(20), nullable=False, unique=True),
        sa.Column("token_digest", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "player_ratings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("clock", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), nullable=False, index=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("clock", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rated_results",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("clock", sa.String(16), nullable=False),
        sa.Column("player0", sa.String(32), nullable=False, index=True),
        sa.Column("player1", sa.String(32), nullable=False, index=True),
        sa.Column("score0", sa.Float, nullable=True),
        sa.Column("abandoned_by", sa.String(32), nullable=True),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rated_results")
    op.drop_table("rating_history")
    op.drop_table("player_ratings")
    op.drop_table("players")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("rated")
