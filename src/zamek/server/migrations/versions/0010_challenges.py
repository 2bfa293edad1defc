"""The lobby's open challenges and quick pairings (issue 39 item 2): ``challenges``, one row each, open until a player
accepts it (or is paired with it), its poster withdraws it, or its poster's page stops telling the server it is
still there (``seen_ms``).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("poster", sa.String(32), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("rules", sa.String(100), nullable=True),
        sa.Column("clock", sa.JSON, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("min_rating", sa.Float, nullable=True),
        sa.Column("max_rating", sa.Float, nullable=True),
        sa.Column("pairing_key", sa.String(200), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("taker", sa.String(32), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_ms", sa.BigInteger, nullable=False),
        sa.Column("changed_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_challenges_status_kind_key", "challenges", ["status", "kind", "pairing_key"])
    op.create_index("ix_challenges_poster_status", "challenges", ["poster", "status"])


def downgrade() -> None:
    op.drop_index("ix_challenges_poster_status", "challenges")
    op.drop_index("ix_challenges_status_kind_key", "challenges")
    op.drop_table("challenges")
