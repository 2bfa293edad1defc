"""The lobby's routes (issue 39 item 2): open challenges (``/api/challenges``), quick pairing (``/api/pairing``) and
the lobby's live events (``/api/lobby/events``); see :mod:`zamek.server.challenges`.

Every change is a player's (``X-Zamek-Player``: 401 without one); posting a challenge or asking for a pairing counts
against the ``challenges`` rate (:mod:`zamek.server.fairness`) of the address and of the player (429 with
``Retry-After``).
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response, StreamingResponse

from zamek.server import players
from zamek.server.challenges import HEARTBEAT_SECONDS, Lobby
from zamek.server.events import ALL_PLAYERS, KEEP_ALIVE_SECONDS, RESTART_RETRY_MS, GameEvents, sse
from zamek.server.players import Player
from zamek.server.routing import PlayerToken, event_stream
from zamek.server.schema_challenges import Challenges, ChallengeView, NewChallenge, Pairing, Seek, Started
from zamek.server.schemas import errors
from zamek.server.service import GameService
from zamek.server.throttle import Referee, client_key


async def lobby_stream(events: GameEvents, lobby: Lobby, player: Player | None) -> AsyncGenerator[str, None]:
    """The lobby's events: ``lobby`` when its challenges change (the page asks for the list again), ``started`` (a
    player's own stream) when a game is made from the player's challenge or pairing, ``restart`` when the server
    stops. A player's stream says every ``HEARTBEAT_SECONDS`` that the player's page is there."""
    since = lobby.now_ms()
    told: set[str] = set()
    touched = float("-inf")
    heard, _ = events.lobby_started(0)
    with events.lobby() as bell:
        yield "retry: 1000\n\n"
        while True:
            if player is not None and time.monotonic() - touched >= HEARTBEAT_SECONDS:
                await run_in_threadpool(lobby.touch, player)
                touched = time.monotonic()
            if bell.closed:
                yield sse("restart", {"retry": RESTART_RETRY_MS})
                return
            if not await bell.wait(min(KEEP_ALIVE_SECONDS, HEARTBEAT_SECONDS)):
                yield ": keep-alive\n\n"
                continue
            if bell.closed:
                continue
            yield sse("lobby", {})
            heard, whose = events.lobby_started(heard)
            if player is not None and (player.id in whose or ALL_PLAYERS in whose):  # else no game of theirs
                for started in await run_in_threadpool(lobby.started_for, player, since):
                    if started.challenge not in told:
                        told.add(started.challenge)
                        yield sse("started", started.model_dump())


def add_lobby_routes(app: FastAPI, service: GameService, referee: Referee) -> None:
    """Add the lobby's routes (see the module's doc)."""
    lobby = Lobby(service)

    def me(token: str | None) -> Player:
        player = players.authenticate(service.repo, token)
        assert player is not None  # required: refused otherwise
        return player

    def counted(request: Request, player: Player) -> None:
        referee.hit("challenges", client_key(request.scope))
        referee.hit("challenges", f"player:{player.id}")

    @app.post("/api/challenges", status_code=201, responses=errors(401, 409, 422, 429))
    def post_challenge(body: NewChallenge, request: Request, player: PlayerToken = None) -> ChallengeView:
        """Post an open challenge (game, rule set, clock, rated or casual, optionally a rating range), as the player of
        ``X-Zamek-Player``. It is listed while the poster's page is there (the lobby's events, or the poster's
        ``GET /api/challenges``, at least once a minute)."""
        poster = me(player)
        counted(request, poster)
        return lobby.post(poster, body)

    @app.get("/api/challenges", responses=errors(401, 422))
    def list_challenges(player: PlayerToken = None) -> Challenges:
        """The open challenges, the latest first. With ``X-Zamek-Player``: which are the player's (``mine``), the games
        made lately from the player's challenges and pairings (``started``), and the player's page counts as there."""
        asker = players.authenticate(service.repo, player, required=False)
        views, started = lobby.listed(asker)
        return Challenges(challenges=views, started=started)

    @app.post("/api/challenges/{challenge_id}/accept", status_code=201, responses=errors(401, 403, 409, 422))
    def accept_challenge(challenge_id: str, player: PlayerToken = None) -> Started:
        """Accept a challenge as the player of ``X-Zamek-Player``: both players are seated in a new game at once, each
        playing with their own player token (``Authorization: Bearer <player token>``). 409 ``challenge-gone`` when
        another player was quicker, or it was withdrawn or has expired; 403 ``out-of-range`` for a rating outside
        its range."""
        return lobby.accept(me(player), challenge_id)

    @app.delete("/api/challenges/{challenge_id}", status_code=204, responses=errors(401, 404, 422))
    def withdraw_challenge(challenge_id: str, player: PlayerToken = None) -> Response:
        """Withdraw one's open challenge (or one's waiting quick pairing, by its id)."""
        lobby.withdraw(me(player), challenge_id)
        return Response(status_code=204)

    @app.post("/api/pairing", status_code=201, response_model=Pairing,
              responses={202: {"model": Pairing}, **errors(401, 422, 429)})
    def play_now(body: Seek, request: Request, player: PlayerToken = None) -> Response:
        """Play now: pair with a player waiting for the same game, rule set, clock and rated or casual (the closest
        rating when several wait): 201 with the game ``started``; or wait for one: 202 ``waiting`` (the lobby's
        events say ``started`` when another player comes; ``DELETE /api/challenges/{id}`` stops waiting)."""
        asker = me(player)
        counted(request, asker)
        pairing = lobby.play_now(asker, body)
        return JSONResponse(pairing.model_dump(mode="json"), status_code=202 if pairing.waiting else 201)

    @app.get("/api/lobby/events", responses=errors(401, 422, 429), response_class=StreamingResponse)
    async def lobby_events(player: PlayerToken = None) -> StreamingResponse:
        """Server-Sent Events of the lobby: ``lobby`` when its challenges change, and (with ``X-Zamek-Player``)
        ``started`` with the game made from the player's challenge or pairing; the stream tells the server that the
        player's page is there (their challenges live on while it is open)."""
        asker = await run_in_threadpool(players.authenticate, service.repo, player, False)
        return await event_stream(lobby_stream(service.events, lobby, asker))
