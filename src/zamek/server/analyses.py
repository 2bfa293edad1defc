"""The castle games' stored analyses (``analyses``): at most one a game, replaced when it is made again (by a newer
estimator, or for more moves); deleted with its game (:mod:`zamek.server.db`)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy import delete
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from zamek.server.tables import AnalysisRow, MatchRow, StoredAnalysis, now


class AnalysisStore:
    """Read and store analyses; ``writing`` is the database's write transaction (:class:`~zamek.server.db.Repository`
    queues SQLite's writers)."""

    def __init__(self, engine: Engine, writing: Callable[[], AbstractContextManager[Session]]) -> None:
        self.engine = engine
        self._writing = writing

    def get(self, game_id: str) -> StoredAnalysis | None:
        """The analysis stored for a castle game, or None."""
        with Session(self.engine) as session:
            row = session.get(AnalysisRow, game_id)
            if row is None:
                return None
            return StoredAnalysis(row.game_id, row.estimator, row.moves, dict(row.analysis), row.created_at)

    def save(self, game_id: str, estimator: str, moves: int, analysis: dict[str, Any]) -> None:
        """Store (or replace) a game's analysis. Two processes storing one at once: the later one's stays. A game
        deleted while it was analysed gets none (nothing would ever delete it)."""
        try:
            with self._writing() as session:
                if session.get(MatchRow, game_id) is None:
                    return
                session.execute(delete(AnalysisRow).where(AnalysisRow.game_id == game_id))
                session.add(AnalysisRow(game_id=game_id, estimator=estimator, moves=moves, analysis=analysis,
                                        created_at=now()))
        except IntegrityError:
            pass  # another process stored the same game's analysis meanwhile (PostgreSQL): that one stays
