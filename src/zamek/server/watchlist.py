"""The watch list: the live games anyone may watch (``GET /api/live``).

A game is listed only when its creator asked for it (``NewGame.listed``, a box of the new game's form; a rematch of a
listed game is listed too): a game with a friend by link stays private, its id never shown to strangers. It is listed
while it is played with every seat taken, the most highly rated first (the higher of its seated players' ratings
for that game and clock kind, :mod:`zamek.server.ratings`), and the latest active first among those alike (a game
of players without ratings comes after every rated one; of the ``MAX_LISTED`` latest active). A line holds only what
its spectators see: names, scores, turn, clock kind, how many watch; never a token or an invitation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from fastapi import FastAPI, Query
from fastapi.concurrency import run_in_threadpool
from sqlalchemy import and_, exists, or_, select
from sqlalchemy.orm import Session

from zamek.castle import record as records
from zamek.server.db import Repository
from zamek.server.events import GameEvents
from zamek.server.live import PEOPLE
from zamek.server.players import players_seated
from zamek.server.ratings import clock_kind
from zamek.server.schema_watch import LiveGames, LiveLine
from zamek.server.schemas import errors
from zamek.server.service import GameService
from zamek.server.tables import Extras, MatchRow, PlayerRatingRow, SeatRow, StoredMatch

MAX_LISTED: Final = 100
"""The most games one answer lists."""

Ratings = Callable[[Sequence[StoredMatch]], dict[str, float]]
"""The higher of its players' ratings, by game id, for the games that have rated players."""


def no_ratings(_games: Sequence[StoredMatch]) -> dict[str, float]:
    return {}


def seated_ratings(repo: Repository) -> Ratings:
    """The ratings of the players seated in games (:mod:`zamek.server.ratings`: by game and clock kind)."""

    def higher(games: Sequence[StoredMatch]) -> dict[str, float]:
        ids = [g.id for g in games]
        clocks = {game_id: clock_kind(e.clock) for game_id, e in repo.extras_of(ids).items()}
        with Session(repo.engine) as session:
            seated = players_seated(session, ids)
            rows = session.scalars(select(PlayerRatingRow).where(PlayerRatingRow.player_id.in_(set(seated.values()))))
            rating = {(r.player_id, r.game, r.clock): r.rating for r in rows}
        kinds = {g.id: g.kind for g in games}
        best: dict[str, float] = {}
        for (game_id, _seat), player in seated.items():
            found = rating.get((player, kinds[game_id], clocks.get(game_id, clock_kind(None))))
            if found is not None:
                best[game_id] = max(found, best.get(game_id, found))
        return best

    return higher


def listed_live(repo: Repository, limit: int) -> list[StoredMatch]:
    """The listed matches being played with every seat taken (none open, none a rematch's seat its player has not
    taken yet), the latest active first."""
    waiting = exists().where(SeatRow.game_id == MatchRow.id,
                             or_(SeatRow.player == "open",
                                 and_(SeatRow.player == "person", SeatRow.token_digest.is_(None))))
    query = (select(MatchRow).where(MatchRow.listed.is_(True), MatchRow.status == "playing", ~waiting)
             .order_by(MatchRow.active_ms.desc(), MatchRow.id).limit(limit))
    with Session(repo.engine) as session:
        return [StoredMatch.of(r) for r in session.scalars(query)]


def live_line(game: StoredMatch, names: Sequence[str | None], extras: Extras | None, watching: int,
              rating: float | None) -> LiveLine:
    """What a spectator sees of a listed game without opening it."""
    castle = game.kind == "castle"
    clock = extras.clock if extras is not None and isinstance(extras.clock, dict) else None
    settings = clock.get("settings") if clock is not None else None
    kind = settings.get("kind") if isinstance(settings, dict) else None
    seats = len(game.scores)
    return LiveLine(
        id=game.id, game="castle" if castle else "knights",
        rules=records.setup_from_json(game.setup).name if castle else None,
        names=[names[s] if s < len(names) else None for s in range(seats)],
        computer=[not castle and game.players is not None and game.players[s] not in PEOPLE for s in range(seats)],
        scores=list(game.scores), turn=game.turn, clock=kind if kind in ("live", "correspondence") else None,
        watching=watching, rating=rating, updated_at=game.updated_at)


def live_games(service: GameService, events: GameEvents, limit: int, ratings: Ratings = no_ratings) -> LiveGames:
    """The listed games being played (see the module's doc), ``limit`` at most."""
    games = listed_live(service.repo, MAX_LISTED)
    rated = ratings(games)
    games.sort(key=lambda g: -rated.get(g.id, float("-inf")))  # stable: the latest active first among equals
    games = games[:limit]
    names = service.repo.names_of(g.id for g in games)
    extras = service.repo.extras_of(g.id for g in games)
    return LiveGames(games=[live_line(g, names.get(g.id, []), extras.get(g.id), events.watching(g.id),
                                      rated.get(g.id)) for g in games])


def add_watch_routes(app: FastAPI, service: GameService, ratings: Ratings | None = None) -> None:
    """Add ``GET /api/live`` (``ratings``: the players' ratings that order it; default the seated players')."""
    ratings = ratings or seated_ratings(service.repo)

    @app.get("/api/live", responses=errors(422))
    async def live(limit: int = Query(default=30, ge=1, le=MAX_LISTED)) -> LiveGames:
        """The live games anyone may watch: those their creators listed, being played with every seat taken, the
        most highly rated first (without ratings: the latest active first). Only what a spectator sees; open one
        with ``GET /api/games/{id}`` and its events without a token."""
        return await run_in_threadpool(live_games, service, service.events, limit, ratings)
