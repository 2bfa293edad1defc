"""The routes of players (issue 39): identities (``/api/players``), a player's games on every device
(``/api/players/me/games``), a player's public page (``/api/players/{name}``) and the leaderboard
(``/api/leaderboard``). See :mod:`zamek.server.players` and :mod:`zamek.server.ratings`.

New identities are counted against each client's ``players`` rate (:mod:`zamek.server.throttle`: 429 with
``Retry-After``).
"""

from __future__ import annotations

from collections import defaultdict

from fastapi import Depends, FastAPI
from fastapi.concurrency import run_in_threadpool
from sqlalchemy.orm import Session

from zamek.server import players, ratings
from zamek.server.errors import ServiceError
from zamek.server.players import Player
from zamek.server.routing import PlayerToken
from zamek.server.schema_base import errors
from zamek.server.schema_players import (
    HistoryPointView,
    Leaderboard,
    LeaderLine,
    MyGame,
    MyGames,
    NewPlayer,
    OpponentRecord,
    PlayerCreated,
    PlayerGame,
    PlayerMe,
    PlayerPage,
    RatingView,
)
from zamek.server.service import GameService
from zamek.server.throttle import Referee


def add_player_routes(app: FastAPI, service: GameService, referee: Referee) -> None:
    """Add the players' routes (see the module's doc)."""
    repo = service.repo

    def me(token: str | None) -> Player:
        player = players.authenticate(repo, token)
        assert player is not None
        return player

    @app.post("/api/players", status_code=201, responses=errors(409, 422, 429),
              dependencies=[Depends(referee.limit("players"))])
    def new_player(body: NewPlayer) -> PlayerCreated:
        """Create a player: its name, and its secret token, given this once (the server keeps only its digest). Send
        the token as ``X-Zamek-Player`` to act as the player."""
        player, token = players.create(repo, body.name)
        return PlayerCreated(name=player.name, token=token)

    @app.get("/api/players/me", responses=errors(401, 422))
    def who_am_i(player: PlayerToken = None) -> PlayerMe:
        """The player of the ``X-Zamek-Player`` token."""
        found = me(player)
        return PlayerMe(name=found.name, abandons=ratings.abandons(repo, found.id))

    @app.patch("/api/players/me", responses=errors(401, 409, 422))
    def rename(body: NewPlayer, player: PlayerToken = None) -> PlayerMe:
        """Change the player's name (the games already played keep the seats' names they had)."""
        found = players.rename(repo, me(player), body.name)
        return PlayerMe(name=found.name, abandons=ratings.abandons(repo, found.id))

    @app.get("/api/players/me/games", responses=errors(401, 422))
    def my_games(player: PlayerToken = None) -> MyGames:
        """Every game the player holds a seat of, the latest changed first, with the seat's token (the player's
        own): a second device plays them with it."""
        found = me(player)
        assert player is not None
        held = players.seats_of(repo, found)
        games = repo.by_id(held)
        return MyGames(games=[MyGame(id=g.id, kind=g.kind, seat=seat, token=player, status=g.status,  # type: ignore[arg-type]
                                     rated=g.rated, updated_at=g.updated_at)
                              for g in games for seat in held[g.id]])

    @app.get("/api/players/{name}", responses=errors(404, 422))
    async def player_page(name: str) -> PlayerPage:
        """A player's public page: their ratings with their history, their rated games (in progress: watch them;
        over: replay them) and their results against each opponent. Casual games stay private."""
        return await run_in_threadpool(_page, name)

    def _page(name: str) -> PlayerPage:
        found = players.by_name(repo, name)
        history = ratings.history_of(repo, found.id)
        rating_views = [RatingView(game=r.game, clock=r.clock, rating=round(r.rating, 1), rd=round(r.rd, 1),  # type: ignore[arg-type]
                                   games=r.games, provisional=ratings.provisional(r.rd),
                                   history=[HistoryPointView(game_id=h.game_id, rating=round(h.rating, 1),
                                                             rd=round(h.rd, 1), at=h.at)
                                            for h in history if (h.game, h.clock) == (r.game, r.clock)])
                        for r in ratings.ratings_of(repo, found.id)]
        games = _rated_games(found)
        return PlayerPage(name=found.name, abandons=ratings.abandons(repo, found.id), ratings=rating_views,
                          games=games, opponents=_opponents(found))

    def _rated_games(player: Player) -> list[PlayerGame]:
        held = players.seats_of(repo, player)
        games = [g for g in repo.by_id(held) if g.rated]
        results = {r.game_id: r for r in ratings.results_of(repo, player.id)}
        extras = repo.extras_of(g.id for g in games)
        with Session(repo.engine) as session:
            seated = players.players_seated(session, [g.id for g in games])
        names = players.names_of(repo, set(seated.values()))
        lines = []
        for game in games:
            seat = held[game.id][0]
            other = seated.get((game.id, 1 - seat))
            result = results.get(game.id)
            score = None
            if result is not None and result.score0 is not None:
                score = result.score0 if seat == 0 else 1 - result.score0
            clock = extras[game.id].clock if game.id in extras else None
            lines.append(PlayerGame(id=game.id, kind=game.kind, seat=seat, status=game.status,  # type: ignore[arg-type]
                                    opponent=names.get(other) if other else None, score=score,
                                    clock=ratings.clock_kind(clock.get("settings") if clock else None),
                                    updated_at=game.updated_at))
        return lines

    def _opponents(player: Player) -> list[OpponentRecord]:
        record: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        for result in ratings.results_of(repo, player.id):
            if result.score0 is None:
                continue
            seat = result.players.index(player.id)
            score = result.score0 if seat == 0 else 1 - result.score0
            record[result.players[1 - seat]][0 if score == 1 else 1 if score == 0.5 else 2] += 1
        names = players.names_of(repo, set(record))
        return sorted((OpponentRecord(name=names[o], wins=w, draws=d, losses=lost)
                       for o, (w, d, lost) in record.items() if o in names), key=lambda r: r.name.lower())

    @app.get("/api/leaderboard", responses=errors(422))
    def leaderboard(game: str = "castle", clock: str = "live") -> Leaderboard:
        """The ratings of a game (``castle``, ``knights``) and clock kind (``live``, ``correspondence``): the
        established ones first, each part by rating; the computer levels as reference points, at their ladder
        ratings (*medium* at 1500)."""
        if game not in ratings.GAMES:
            raise ServiceError(422, "invalid", "unknown-game", game=game)
        if clock not in ratings.CLOCKS:
            raise ServiceError(422, "invalid", "unknown-clock", clock=clock)
        lines = ratings.leaderboard(repo, game, clock)
        names = players.names_of(repo, {line.player_id for line in lines})
        shown = [LeaderLine(name=names[line.player_id], rating=round(line.rating, 1), rd=round(line.rd, 1),
                            games=line.games, provisional=ratings.provisional(line.rd),
                            abandons=ratings.abandons(repo, line.player_id))
                 for line in lines if line.player_id in names]
        levels = sorted(ratings.COMPUTER_REFERENCE.get(game, {}).items(), key=lambda item: -item[1])
        return Leaderboard(game=game, clock=clock, players=shown,  # type: ignore[arg-type]
                           computer=[LeaderLine(level=level, rating=rating) for level, rating in levels])
