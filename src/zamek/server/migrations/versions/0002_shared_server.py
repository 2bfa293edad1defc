"""A server of many processes on one database: revisions of Rycerze i zamki games (their compare-and-set), the
clocks' deadlines, and the computer's turns waiting in a table.

The data of the games already stored is carried over: a Rycerze i zamki game's revision is its choices and
tiles plus the friends who took a seat; a running clock's deadline is when the time of the seat to move runs
out; every castle game against the computer that is still on gets a job due now (a process finds whether the
computer is to move, and drops the job when it is not).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import time
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _deadline_ms(clock: dict[str, Any] | None, ended: dict[str, Any] | None) -> int | None:
    if not clock or ended or clock.get("running") is None or clock.get("since") is None:
        return None
    return round(float(clock["since"]) * 1000) + int(clock["left_ms"][clock["running"]])


def upgrade() -> None:
    op.create_table(
        "computer_jobs",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("due_ms", sa.BigInteger, nullable=False),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("claimed_until_ms", sa.BigInteger, nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("error", sa.String(500), nullable=True),
    )
    op.create_index("ix_computer_jobs_due_ms", "computer_jobs", ["due_ms"])
    with op.batch_alter_table("game_extras") as batch:
        batch.add_column(sa.Column("deadline_ms", sa.BigInteger, nullable=True))
        batch.create_index("ix_game_extras_deadline_ms", ["deadline_ms"])
    with op.batch_alter_table("knights_games") as batch:
        batch.add_column(sa.Column("revision", sa.Integer, nullable=False, server_default="0"))

    bind = op.get_bind()
    meta = sa.MetaData()
    games = sa.Table("games", meta, sa.Column("id", sa.String), sa.Column("mode", sa.String),
                     sa.Column("status", sa.String), sa.Column("revision", sa.Integer))
    knights = sa.Table("knights_games", meta, sa.Column("id", sa.String), sa.Column("seats", sa.JSON),
                       sa.Column("moves", sa.JSON), sa.Column("revision", sa.Integer))
    seats = sa.Table("seats", meta, sa.Column("game_id", sa.String), sa.Column("seat", sa.Integer),
                     sa.Column("player", sa.String))
    extras = sa.Table("game_extras", meta, sa.Column("game_id", sa.String), sa.Column("clock", sa.JSON),
                      sa.Column("ended", sa.JSON), sa.Column("deadline_ms", sa.BigInteger))
    jobs = sa.Table("computer_jobs", meta, sa.Column("game_id", sa.String), sa.Column("revision", sa.Integer),
                    sa.Column("due_ms", sa.BigInteger), sa.Column("attempts", sa.Integer))

    now_ms = round(time.time() * 1000)
    waiting = bind.execute(sa.select(games.c.id, games.c.revision)
                           .where(games.c.mode == "computer", games.c.status != "over")).all()
    if waiting:
        bind.execute(jobs.insert(), [{"game_id": g, "revision": r, "due_ms": now_ms, "attempts": 0}
                                     for g, r in waiting])
    for game_id, clock, ended in bind.execute(sa.select(extras.c.game_id, extras.c.clock, extras.c.ended)).all():
        deadline = _deadline_ms(clock, ended)
        if deadline is not None:
            bind.execute(extras.update().where(extras.c.game_id == game_id).values(deadline_ms=deadline))
    taken = {(g, s) for g, s, p in bind.execute(sa.select(seats.c.game_id, seats.c.seat, seats.c.player)).all()
             if p == "person"}
    for game_id, kinds, moves in bind.execute(sa.select(knights.c.id, knights.c.seats, knights.c.moves)).all():
        joined = sum(1 for index, kind in enumerate(kinds) if kind == "friend" and (game_id, index) in taken)
        bind.execute(knights.update().where(knights.c.id == game_id).values(revision=len(moves) + joined))


def downgrade() -> None:
    with op.batch_alter_table("knights_games") as batch:
        batch.drop_column("revision")
    with op.batch_alter_table("game_extras") as batch:
        batch.drop_index("ix_game_extras_deadline_ms")
        batch.drop_column("deadline_ms")
    op.drop_index("ix_computer_jobs_due_ms", "computer_jobs")
    op.drop_table("computer_jobs")
