"""The schema of the versions before migrations (games, Rycerze i zamki, seats, extras).

Those versions made their tables when they started, so a database of theirs may lack the tables added later:
each table is made here only when it is missing.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

STAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if "games" not in present:
        op.create_table(
            "games",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("created_at", STAMP, nullable=False),
            sa.Column("updated_at", STAMP, nullable=False),
            sa.Column("mode", sa.String(16), nullable=False),
            sa.Column("level", sa.String(16), nullable=True),
            sa.Column("human", sa.Integer, nullable=True),
            sa.Column("seed", sa.BigInteger, nullable=False),
            sa.Column("setup", sa.JSON, nullable=False),
            sa.Column("moves", sa.JSON, nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("scores", sa.JSON, nullable=False),
            sa.Column("turn", sa.Integer, nullable=False),
            sa.Column("revision", sa.Integer, nullable=False),
        )
    if "knights_games" not in present:
        op.create_table(
            "knights_games",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("created_at", STAMP, nullable=False),
            sa.Column("updated_at", STAMP, nullable=False),
            sa.Column("seats", sa.JSON, nullable=False),
            sa.Column("seed", sa.BigInteger, nullable=False),
            sa.Column("setup", sa.JSON, nullable=False),
            sa.Column("moves", sa.JSON, nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("points", sa.JSON, nullable=False),
            sa.Column("round", sa.Integer, nullable=False),
        )
    if "seats" not in present:
        op.create_table(
            "seats",
            sa.Column("game_id", sa.String(32), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("player", sa.String(16), nullable=False),
            sa.Column("token_digest", sa.String(64), nullable=True),
            sa.Column("invite_digest", sa.String(64), nullable=True),
            sa.Column("name", sa.String(48), nullable=True),
            sa.Column("joined_at", STAMP, nullable=True),
        )
        op.create_index("ix_seats_token_digest", "seats", ["token_digest"])
    if "game_extras" not in present:
        op.create_table(
            "game_extras",
            sa.Column("game_id", sa.String(32), primary_key=True),
            sa.Column("clock", sa.JSON, nullable=True),
            sa.Column("ended", sa.JSON, nullable=True),
            sa.Column("rematch", sa.String(32), nullable=True),
            sa.Column("to_move", sa.Integer, nullable=True),
        )


def downgrade() -> None:
    for table in ("game_extras", "seats", "knights_games", "games"):
        op.drop_table(table)
