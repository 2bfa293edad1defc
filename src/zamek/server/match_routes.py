"""The routes of a match, for both games: ``/api/games`` and everything under ``/api/games/{game_id}``.

One protocol serves the castle game and Rycerze i zamki: a new match names its ``game``; a view, a move, the live
events, a resignation, an abort, a rematch, an invitation, the record and the status are asked the same way of
either (a card game's view is the token's seat's, or the public one). What only one game has answers 409
``not-for-this-game`` for the other (the castle game's draw at one screen, undo, replays in words, hints).

The routes of protocol 3 under ``/api/knights`` stay, for this version only, as aliases of these (deprecated in the
OpenAPI description); they find card games only.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel

from zamek import Setup
from zamek.knights.rules.cards import ARMY, Card
from zamek.server.events import stream
from zamek.server.games.knights import KNIGHTS, SEAT_KINDS
from zamek.server.knights_schemas import (
    KnightsMeta,
    KnightsMove,
    KnightsSavedGame,
    KnightsView,
    NewKnightsGame,
    SeatedKnightsView,
)
from zamek.server.routing import Token, event_stream, last_event_id
from zamek.server.schemas import (
    GameStatus,
    GameView,
    Invitation,
    Join,
    Move,
    NewGame,
    ReplayView,
    Revision,
    SavedGame,
    SeatedView,
    errors,
)
from zamek.server.seats import seat_of
from zamek.server.service import GameService, ServiceError

KNIGHTS_ALIAS = {"deprecated": True, "tags": ["protocol 3: Rycerze i zamki"]}
View = GameView | KnightsView
Seated = SeatedView | SeatedKnightsView


def answer(model: BaseModel, status: int = 200) -> Response:
    """A view the service built as a model, sent as it is. FastAPI would validate a union of two large models
    again on the way out, trying each member; under load that cost made moves wait in a queue (results/loadtest)."""
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


def add_match_routes(app: FastAPI, service: GameService, lang_of: Callable[[str], str]) -> None:
    """Add the routes of a match (see the module's doc)."""

    def create(body: NewGame, lang: str) -> SeatedView | SeatedKnightsView:
        if body.game == KNIGHTS.name:
            created = service.create_knights(list(body.seats or []), body.seed, body.clock, body.name)
        else:
            setup = Setup.parse(body.rule_set())
            created = service.create(body.mode, body.level, body.seat, setup, body.seed, body.clock, body.name,
                                     body.hints)
        return service.seated_view(created, lang_of(lang))

    @app.post("/api/games", status_code=201, responses=errors(422), response_model=Seated)
    def new_game(body: NewGame, lang: str = "en") -> Response:
        """Start a match (``game``: 'castle' or 'knights'); the answer is its first position with the tokens of the
        creator's seats and, when seats wait for friends, the invitation code of the link to send."""
        return answer(create(body, lang), 201)

    @app.get("/api/games/{game_id}", responses=errors(400, 401, 403, 404, 422), response_model=View)
    def get_game(game_id: str, token: Token, seat: int | None = None, lang: str = "en") -> Response:
        """The match as it stands, with everything the page draws (anyone who knows the id may watch it). A card
        game's view is that of the seat the token holds (``seat``, when given, must be it); without a token, the
        public one."""
        return answer(service.view(game_id, lang_of(lang), token=token, seat=seat))

    @app.get("/api/games/{game_id}/status", responses=errors(404, 422))
    def game_status(game_id: str) -> GameStatus:
        """Cheap to poll: the revision changes with every move."""
        return service.status(game_id)

    async def events(game_id: str, request: Request, token: str | None, kind: str | None) -> StreamingResponse:
        live = await run_in_threadpool(service.get, game_id, kind)
        seat = seat_of(live.seats, token)
        if token is not None and seat is None:
            raise ServiceError(403, "not-your-seat", "this token holds no seat of this game")
        if seat is not None:
            await run_in_threadpool(_prove, live, token)
        return await event_stream(stream(service.events, game_id, seat, live.revision, last_event_id(request)))

    def _prove(live: object, token: str | None) -> None:
        with live.lock:  # type: ignore[attr-defined]
            service.sessions.prove(live, token)  # type: ignore[arg-type]

    @app.get("/api/games/{game_id}/events", responses=errors(403, 404, 422, 429), response_class=StreamingResponse)
    async def game_events(game_id: str, request: Request, token: Token) -> StreamingResponse:
        """Server-Sent Events: ``change`` (its id the revision; a stream resumes after ``Last-Event-ID``),
        ``presence`` (the seats with a page open, and how many watch) and ``gone``. With a seat's token the page
        counts as that seat's player being connected; without one, as a spectator."""
        return await events(game_id, request, token, None)

    def acted(game_id: str, body: Move, token: str | None, lang: str, kind: str | None) -> GameView | KnightsView:
        live = service.act(game_id, body.action, body.revision, token, kind, body.seat)
        return service.view(game_id, lang_of(lang), live, token=token, seat=body.seat)

    @app.post("/api/games/{game_id}/actions", responses=errors(400, 401, 403, 404, 409, 422), response_model=View)
    def play(game_id: str, body: Move, token: Token, lang: str = "en") -> Response:
        """A person's move, in the game's notation, by the seat to move (the token's); the answer is the match as
        that seat sees it."""
        return answer(acted(game_id, body, token, lang, None))

    @app.post("/api/games/{game_id}/draw", responses=errors(401, 403, 404, 409, 422), response_model=View)
    def draw(game_id: str, token: Token, body: Revision | None = None, lang: str = "en") -> Response:
        """Draw the next tile (the castle game by two people at one screen), by the seat to move."""
        live = service.draw(game_id, body.revision if body else None, token)
        return answer(service.view(game_id, lang_of(lang), live))

    @app.post("/api/games/{game_id}/undo", responses=errors(401, 403, 404, 409, 422), response_model=View)
    def undo(game_id: str, token: Token, body: Revision | None = None, lang: str = "en") -> Response:
        """Take the last move back while nothing has happened since, by the seat that made it (a game that allows
        it: the castle game)."""
        live = service.undo(game_id, body.revision if body else None, token)
        return answer(service.view(game_id, lang_of(lang), live, token=token))

    def joined(game_id: str, body: Join, lang: str, kind: str | None) -> SeatedView | SeatedKnightsView:
        return service.seated_view(service.join(game_id, body.invite, body.name, kind, body.key), lang_of(lang),
                                   seated=True)

    @app.post("/api/games/{game_id}/join", status_code=201, responses=errors(403, 404, 409, 422), response_model=Seated)
    def join(game_id: str, body: Join, lang: str = "en") -> Response:
        """Take a free seat with the invitation code of the link; the answer has the seat's token. Asked again with
        the same code (an answer lost on the way), it gives the same seat a new token, until that token is used."""
        return answer(joined(game_id, body, lang, None), 201)

    @app.post("/api/games/{game_id}/invite", responses=errors(401, 403, 404, 409, 422))
    def invite(game_id: str, token: Token) -> Invitation:
        """A new invitation code for the seats still open, asked by a player; the old code stops working."""
        return Invitation(invite=service.invite(game_id, token))

    @app.post("/api/games/{game_id}/resign", responses=errors(401, 403, 404, 409, 422), response_model=View)
    def resign(game_id: str, token: Token, body: Revision | None = None, lang: str = "en") -> Response:
        """Resign: the other players win."""
        live = service.resign(game_id, token, body.revision if body else None)
        return answer(service.view(game_id, lang_of(lang), live, token=token))

    @app.post("/api/games/{game_id}/abort", responses=errors(401, 403, 404, 409, 422), response_model=View)
    def abort(game_id: str, token: Token, body: Revision | None = None, lang: str = "en") -> Response:
        """Abort a match before every person has made a first move: it ends with no result (409 ``started``
        after)."""
        live = service.abort(game_id, token, body.revision if body else None)
        return answer(service.view(game_id, lang_of(lang), live, token=token))

    @app.post("/api/games/{game_id}/rematch", status_code=201, responses=errors(401, 403, 404, 409, 422),
              response_model=Seated)
    def rematch(game_id: str, token: Token, lang: str = "en") -> Response:
        """A finished match with friends: offer a rematch (the seats moved round by one: of two, swapped), or take
        your seat in the one offered. The answer is the new match with your seat's token."""
        return answer(service.seated_view(service.rematch(game_id, token), lang_of(lang), seated=True), 201)

    def deleted(game_id: str, token: str | None, kind: str | None) -> Response:
        service.delete(game_id, token, kind)
        return Response(status_code=204)

    @app.delete("/api/games/{game_id}", status_code=204, responses=errors(401, 403, 404, 409, 422))
    def delete_game(game_id: str, token: Token) -> Response:
        """Delete a match (one of its seats' token); one a friend has joined stays."""
        return deleted(game_id, token, None)

    @app.get("/api/games/{game_id}/record", response_model_exclude_unset=True, responses=errors(404, 409, 422))
    def export_record(game_id: str, response: Response) -> SavedGame | KnightsSavedGame:
        """The saved-game JSON (setup, every move; the seed once the game is over), as a file to download. A card
        game's record holds every secret choice: it is given once the game is over."""
        record = service.record(game_id)
        prefix = "zamek-knights" if isinstance(record, KnightsSavedGame) else "zamek"
        response.headers["Content-Disposition"] = f'attachment; filename="{prefix}-{game_id}.json"'
        return record

    @app.get("/api/games/{game_id}/replay", responses=errors(400, 404, 409, 422))
    def replay(game_id: str, move: int | None = None, lang: str = "en") -> ReplayView:
        """The position after ``move`` moves (default: all), with every move of the game in words (the castle
        game)."""
        return service.replay_view(game_id, move, lang_of(lang))

    # ------------------------------------------- protocol 3: /api/knights

    @app.get("/api/knights/meta", **KNIGHTS_ALIAS)  # type: ignore[arg-type]
    def knights_meta() -> KnightsMeta:
        """The players a seat may have, the number of players and the cards (``/api/meta`` in protocol 4)."""
        return KnightsMeta(seat_kinds=list(SEAT_KINDS), min_players=2, max_players=4,
                           cards=[c.key for c in ARMY] + [Card.SHEPHERD.key])

    @app.post("/api/knights", status_code=201, responses=errors(400, 422), **KNIGHTS_ALIAS)  # type: ignore[arg-type]
    def new_knights(body: NewKnightsGame, lang: str = "en") -> SeatedKnightsView:
        """``POST /api/games {"game": "knights", …}``."""
        created = service.create_knights(list(body.seats), body.seed, None, body.name)
        view = service.seated_view(created, lang_of(lang))
        assert isinstance(view, SeatedKnightsView)
        return view

    @app.get("/api/knights/{game_id}", responses=errors(400, 401, 403, 404, 409, 422),
             **KNIGHTS_ALIAS)  # type: ignore[arg-type]
    def get_knights(game_id: str, token: Token, seat: int | None = None, lang: str = "en") -> KnightsView:
        view = service.view(game_id, lang_of(lang), token=token, seat=seat, kind=KNIGHTS.name)
        assert isinstance(view, KnightsView)
        return view

    @app.get("/api/knights/{game_id}/events", responses=errors(403, 404, 422, 429), response_class=StreamingResponse,
             **KNIGHTS_ALIAS)  # type: ignore[arg-type]
    async def knights_events(game_id: str, request: Request, token: Token) -> StreamingResponse:
        return await events(game_id, request, token, KNIGHTS.name)

    @app.post("/api/knights/{game_id}/actions", responses=errors(400, 401, 403, 404, 409, 422),
              **KNIGHTS_ALIAS)  # type: ignore[arg-type]
    def knights_act(game_id: str, body: KnightsMove, token: Token, lang: str = "en") -> KnightsView:
        move = Move(action=body.action, revision=body.revision, seat=body.seat)
        view = acted(game_id, move, token, lang, KNIGHTS.name)
        assert isinstance(view, KnightsView)
        return view

    @app.post("/api/knights/{game_id}/join", status_code=201, responses=errors(403, 404, 409, 422),
              **KNIGHTS_ALIAS)  # type: ignore[arg-type]
    def knights_join(game_id: str, body: Join, lang: str = "en") -> SeatedKnightsView:
        view = joined(game_id, body, lang, KNIGHTS.name)
        assert isinstance(view, SeatedKnightsView)
        return view

    @app.get("/api/knights/{game_id}/record", responses=errors(404, 409, 422), **KNIGHTS_ALIAS)  # type: ignore[arg-type]
    def knights_record(game_id: str) -> KnightsSavedGame:
        record = service.record(game_id, KNIGHTS.name)
        assert isinstance(record, KnightsSavedGame)
        return record

    @app.delete("/api/knights/{game_id}", status_code=204, responses=errors(401, 403, 404, 409, 422),
                **KNIGHTS_ALIAS)  # type: ignore[arg-type]
    def delete_knights(game_id: str, token: Token) -> Response:
        return deleted(game_id, token, KNIGHTS.name)
