"""One table of matches for both games: the castle games (``games``) and the Rycerze i zamki games
(``knights_games``) become rows of ``matches``, told apart by their ``kind``.

Nothing is lost: every column is carried over (a card game's ``seats`` become its ``players``, its ``points`` its
``scores``, its ``round`` its ``turn``; its mode is 'table'); seats, clocks, endings, rematches, computer jobs and
analyses are keyed by the game's id, which does not change.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

STAMP = sa.DateTime(timezone=True)


def _games(meta: sa.MetaData) -> sa.Table:
    return sa.Table(
        "games", meta,
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
        sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def _knights(meta: sa.MetaData) -> sa.Table:
    return sa.Table(
        "knights_games", meta,
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
        sa.Column("revision", sa.Integer, nullable=False, server_default="0"),
    )


def _matches(meta: sa.MetaData) -> sa.Table:
    return sa.Table(
        "matches", meta,
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("created_at", STAMP, nullable=False),
        sa.Column("updated_at", STAMP, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("players", sa.JSON, nullable=True),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("human", sa.Integer, nullable=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("setup", sa.JSON, nullable=False),
        sa.Column("moves", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("scores", sa.JSON, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()),
    )


COLUMNS = ("id", "kind", "created_at", "updated_at", "mode", "players", "level", "human", "seed", "setup", "moves",
           "status", "scores", "turn", "revision", "hints")


def upgrade() -> None:
    meta = sa.MetaData()
    matches = _matches(meta)
    matches.create(op.get_bind())
    games, knights = _games(meta), _knights(meta)
    op.execute(matches.insert().from_select(COLUMNS, sa.select(
        games.c.id, sa.literal("castle"), games.c.created_at, games.c.updated_at, games.c.mode,
        sa.cast(sa.null(), sa.JSON), games.c.level, games.c.human, games.c.seed, games.c.setup, games.c.moves,
        games.c.status, games.c.scores, games.c.turn, games.c.revision, games.c.hints)))
    op.execute(matches.insert().from_select(COLUMNS, sa.select(
        knights.c.id, sa.literal("knights"), knights.c.created_at, knights.c.updated_at, sa.literal("table"),
        knights.c.seats, sa.cast(sa.null(), sa.String(16)), sa.cast(sa.null(), sa.Integer), knights.c.seed,
        knights.c.setup, knights.c.moves, knights.c.status, knights.c.points, knights.c.round, knights.c.revision,
        sa.false())))
    op.drop_table("games")
    op.drop_table("knights_games")


def downgrade() -> None:
    meta = sa.MetaData()
    matches, games, knights = _matches(meta), _games(meta), _knights(meta)
    bind = op.get_bind()
    games.create(bind)
    knights.create(bind)
    op.execute(games.insert().from_select(
        ("id", "created_at", "updated_at", "mode", "level", "human", "seed", "setup", "moves", "status", "scores",
         "turn", "revision", "hints"),
        sa.select(matches.c.id, matches.c.created_at, matches.c.updated_at, matches.c.mode, matches.c.level,
                  matches.c.human, matches.c.seed, matches.c.setup, matches.c.moves, matches.c.status,
                  matches.c.scores, matches.c.turn, matches.c.revision, matches.c.hints)
        .where(matches.c.kind == "castle")))
    op.execute(knights.insert().from_select(
        ("id", "created_at", "updated_at", "seats", "seed", "setup", "moves", "status", "points", "round",
         "revision"),
        sa.select(matches.c.id, matches.c.created_at, matches.c.updated_at, matches.c.players, matches.c.seed,
                  matches.c.setup, matches.c.moves, matches.c.status, matches.c.scores, matches.c.turn,
                  matches.c.revision)
        .where(matches.c.kind == "knights")))
    op.drop_table("matches")
