"""The routes of a match, for both games: ``/api/games`` and everything under ``/api/games/{game_id}``.

One protocol serves the castle game and Rycerze i zamki: a new match names its ``game``; a view, a move, the live
events, a resignation, an abort, a rematch, an invitation, the record and the status are asked the same way of
either (a card game's view is the token's seat's, or the public one). What only one game has answers 409
``not-for-this-game`` for the other (the castle game's draw at one screen, undo, takebacks, replays in words,
hints).

Every route answers in the language of the request (``?lang=``, else the browser's ``Accept-Language``). The routes
of protocol 3 under ``/api/knights``, aliases of these in protocol 4, are gone in protocol 5.

Each client's new matches, joins and games with the computer are counted against its limits (:mod:`zamek.server.
throttle`: 429 with ``Retry-After``), and so are its games waiting for the computer's reply.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import Depends, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel

from zamek import Setup
from zamek.server import players
from zamek.server.cache import Body
from zamek.server.events import stream
from zamek.server.games.knights import KNIGHTS
from zamek.server.knights_schemas import KnightsSavedGame, KnightsView, SeatedKnightsView
from zamek.server.live import PEOPLE, Created, LiveGame
from zamek.server.routing import Lang, PlayerToken, Token, event_stream, last_event_id
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
from zamek.server.throttle import Referee, client_key

View = GameView | KnightsView
Seated = SeatedView | SeatedKnightsView


def answer(model: BaseModel, status: int = 200) -> Response:
    """A view the service built as a model, sent as it is. FastAPI would validate a union of two large models
    again on the way out, trying each member; under load that cost made moves wait in a queue (results/loadtest)."""
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


def sent(request: Request, body: Body) -> Response:
    """A view the service made as its answer's body (kept for the next page that reads the same), packed as the
    client takes it."""
    content, headers = body.packed(request.headers.get("accept-encoding", ""))
    return Response(content, media_type="application/json", headers=headers)


def add_match_routes(app: FastAPI, service: GameService, referee: Referee | None = None) -> None:
    """Add the routes of a match (see the module's doc; ``referee``: each client's limits, none without it)."""
    referee = referee or Referee(service.config.fairness)
    computer = service.computer
    creating = [Depends(referee.limit("create"))]

    def has_computer(game: LiveGame) -> bool:
        return any(game.is_computer(seat) for seat in range(len(game.players)))

    def with_computer(client: str, live: LiveGame | Created) -> None:
        """Note whose game it is, for the computer's fair shares (a game of people only needs none)."""
        game = live.live if isinstance(live, Created) else live
        if has_computer(game):
            computer.note(game.id, client, game.computer_to_move())

    def create(body: NewGame, lang: str, client: str, player_token: str | None) -> SeatedView | SeatedKnightsView:
        knights = body.game == KNIGHTS.name
        player = players.authenticate(service.repo, player_token, required=False)
        if any(k not in PEOPLE for k in body.seats or ()) if knights else body.mode == "computer":
            referee.hit("computer", client)
            computer.make_room(client)
        if knights:
            created = service.create_knights(list(body.seats or []), body.seed, body.clock, body.name, player,
                                             body.rated, body.listed)
        else:
            setup = Setup.parse(body.rule_set())
            created = service.create(body.mode, body.level, body.seat, setup, body.seed, body.clock, body.name,
                                     body.hints, player, body.rated, body.listed)
        players.give_player_seats(created, player, player_token)
        with_computer(client, created)
        return service.seated_view(created, lang)

    @app.post("/api/games", status_code=201, responses=errors(401, 422, 429), response_model=Seated,
              dependencies=creating)
    def new_game(body: NewGame, lang: Lang, request: Request, player: PlayerToken = None) -> Response:
        """Start a match (``game``: 'castle' or 'knights'); the answer is its first position with the tokens of the
        creator's seats and, when seats wait for friends, the invitation code of the link to send. With a player's
        ``X-Zamek-Player`` header the creator's seat is that player's (its token is the player's)."""
        return answer(create(body, lang, client_key(request.scope), player), 201)

    @app.get("/api/games/{game_id}", responses=errors(400, 401, 403, 404, 422), response_model=View)
    def get_game(game_id: str, request: Request, token: Token, lang: Lang, seat: int | None = None) -> Response:
        """The match as it stands, with everything the page draws (anyone who knows the id may watch it). A card
        game's view is that of the seat the token holds (``seat``, when given, must be it); without a token, the
        public one."""
        return sent(request, service.view_body(game_id, lang, token=token, seat=seat))

    @app.get("/api/games/{game_id}/status", responses=errors(404, 422))
    def game_status(game_id: str, lang: Lang) -> GameStatus:
        """Cheap to poll: the revision changes with every move."""
        return service.status(game_id, lang)

    async def events(game_id: str, request: Request, token: str | None, kind: str | None, lang: str,
                     view: bool) -> StreamingResponse:
        live = await run_in_threadpool(service.get, game_id, kind)
        seat = seat_of(live.seats, token)
        if token is not None and seat is None:
            raise ServiceError(403, "not-your-seat", "not-a-seat")
        if seat is not None:
            await run_in_threadpool(_prove, live, token)

        async def view_of(revision: int) -> bytes | None:
            return await run_in_threadpool(service.event_view, game_id, lang, revision, token)

        return await event_stream(stream(service.events, game_id, seat, live.revision, last_event_id(request),
                                         client=client_key(request.scope), view=view_of if view else None))

    def _prove(live: object, token: str | None) -> None:
        with live.lock:  # type: ignore[attr-defined]
            service.sessions.prove(live, token)  # type: ignore[arg-type]

    @app.get("/api/games/{game_id}/events", responses=errors(403, 404, 422, 429), response_class=StreamingResponse)
    async def game_events(game_id: str, request: Request, token: Token, lang: Lang, view: bool = False
                          ) -> StreamingResponse:
        """Server-Sent Events: ``change`` (its id the revision; a stream resumes after ``Last-Event-ID``),
        ``presence`` (the seats with a page open, and how many watch) and ``gone``. With a seat's token the page
        counts as that seat's player being connected; without one, as a spectator. With ``view``, the latest
        ``change`` of each burst carries the match as the token reads it (``GET /api/games/{id}`` in ``lang``), so
        that the page need not read it."""
        return await events(game_id, request, token, None, lang, view)

    def acted(game_id: str, body: Move, token: str | None, lang: str, kind: str | None, client: str) -> Body:
        loaded = service.get(game_id, kind, body.revision)  # read once: the move is played on it
        if has_computer(loaded):
            computer.make_room(client)  # the move would leave one more of the client's games to the computer
        live = service.act(game_id, body.action, body.revision, token, kind, body.seat, loaded=loaded)
        with_computer(client, live)
        return service.view_body(game_id, lang, live, token=token, seat=body.seat)

    @app.post("/api/games/{game_id}/actions", responses=errors(400, 401, 403, 404, 409, 422, 429), response_model=View)
    def play(game_id: str, request: Request, body: Move, token: Token, lang: Lang) -> Response:
        """A person's move, in the game's notation, by the seat to move (the token's); the answer is the match as
        that seat sees it."""
        return sent(request, acted(game_id, body, token, lang, None, client_key(request.scope)))

    @app.post("/api/games/{game_id}/draw", responses=errors(401, 403, 404, 409, 422), response_model=View)
    def draw(game_id: str, token: Token, lang: Lang, body: Revision | None = None) -> Response:
        """Draw the next tile (the castle game by two people at one screen), by the seat to move."""
        live = service.draw(game_id, body.revision if body else None, token)
        return answer(service.view(game_id, lang, live))

    @app.post("/api/games/{game_id}/undo", responses=errors(401, 403, 404, 409, 422), response_model=View)
    def undo(game_id: str, token: Token, lang: Lang, body: Revision | None = None) -> Response:
        """Take the last move back while nothing has happened since, by the seat that made it (a game that allows
        it: the castle game)."""
        live = service.undo(game_id, body.revision if body else None, token)
        return answer(service.view(game_id, lang, live, token=token))

    @app.post("/api/games/{game_id}/takeback", responses=errors(401, 403, 404, 409, 422), response_model=View)
    def ask_takeback(game_id: str, token: Token, lang: Lang, body: Revision | None = None) -> Response:
        """A castle game with a friend: ask to take your last turn back (and the other player's reply, if they have
        moved; ``GameView.takeback``); the other player accepts or declines. One request at a time, one a position."""
        return seat_changed(service.ask_takeback, game_id, token, lang, body)

    @app.post("/api/games/{game_id}/takeback/accept", responses=errors(401, 403, 404, 409, 422), response_model=View)
    def accept_takeback(game_id: str, token: Token, lang: Lang, body: Revision | None = None) -> Response:
        """Accept the other player's request: the game goes back to where their last turn began."""
        return seat_changed(service.accept_takeback, game_id, token, lang, body)

    @app.post("/api/games/{game_id}/takeback/decline", responses=errors(401, 403, 404, 409, 422), response_model=View)
    def decline_takeback(game_id: str, token: Token, lang: Lang, body: Revision | None = None) -> Response:
        """Decline the other player's request: they may ask again after the next move."""
        return seat_changed(service.decline_takeback, game_id, token, lang, body)

    @app.post("/api/games/{game_id}/takeback/withdraw", responses=errors(401, 403, 404, 409, 422), response_model=View)
    def withdraw_takeback(game_id: str, token: Token, lang: Lang, body: Revision | None = None) -> Response:
        """Withdraw your own request before it is answered: you may ask again after the next move."""
        return seat_changed(service.withdraw_takeback, game_id, token, lang, body)

    def seat_changed(change: Callable[[str, str | None, int | None], LiveGame], game_id: str, token: str | None,
                     lang: str, body: Revision | None) -> Response:
        """A change a seat asks (``change(game_id, token, revision)``, on the revision its page shows), answered
        with the match as that seat sees it."""
        live = change(game_id, token, body.revision if body else None)
        return answer(service.view(game_id, lang, live, token=token))

    def joined(game_id: str, body: Join, lang: str, kind: str | None, player_token: str | None
               ) -> SeatedView | SeatedKnightsView:
        player = players.authenticate(service.repo, player_token, required=False)
        return service.seated_view(service.join(game_id, body.invite, body.name, kind, body.key, player,
                                                player_token), lang, seated=True)

    @app.post("/api/games/{game_id}/join", status_code=201, responses=errors(401, 403, 404, 409, 422, 429),
              response_model=Seated, dependencies=[Depends(referee.limit("join"))])
    def join(game_id: str, body: Join, lang: Lang, player: PlayerToken = None) -> Response:
        """Take a free seat with the invitation code of the link; the answer has the seat's token. Asked again with
        the same code (an answer lost on the way), it gives the same seat a new token, until that token is used.
        With a player's ``X-Zamek-Player`` header the seat is that player's (its token is the player's); a rated
        game takes only a player."""
        return answer(joined(game_id, body, lang, None, player), 201)

    @app.post("/api/games/{game_id}/invite", responses=errors(401, 403, 404, 409, 422))
    def invite(game_id: str, token: Token) -> Invitation:
        """A new invitation code for the seats still open, asked by a player; the old code stops working."""
        return Invitation(invite=service.invite(game_id, token))

    @app.post("/api/games/{game_id}/resign", responses=errors(401, 403, 404, 409, 422), response_model=View)
    def resign(game_id: str, token: Token, lang: Lang, body: Revision | None = None) -> Response:
        """Resign: the other players win."""
        return seat_changed(service.resign, game_id, token, lang, body)

    @app.post("/api/games/{game_id}/abort", responses=errors(401, 403, 404, 409, 422), response_model=View)
    def abort(game_id: str, token: Token, lang: Lang, body: Revision | None = None) -> Response:
        """Abort a match before every person has made a first move: it ends with no result (409 ``started``
        after)."""
        return seat_changed(service.abort, game_id, token, lang, body)

    @app.post("/api/games/{game_id}/rematch", status_code=201, responses=errors(401, 403, 404, 409, 422, 429),
              response_model=Seated, dependencies=creating)
    def rematch(game_id: str, token: Token, lang: Lang, request: Request) -> Response:
        """A finished match with friends: offer a rematch (the seats moved round by one: of two, swapped), or take
        your seat in the one offered. The answer is the new match with your seat's token."""
        created = service.rematch(game_id, token)
        with_computer(client_key(request.scope), created)
        return answer(service.seated_view(created, lang, seated=True), 201)

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
        record = service.record(game_id)  # first: only the id of a game found (A-Z a-z 0-9 _ -) goes into a header
        prefix = "zamek-knights" if isinstance(record, KnightsSavedGame) else "zamek"
        response.headers["Content-Disposition"] = f'attachment; filename="{prefix}-{game_id}.json"'
        return record

    @app.get("/api/games/{game_id}/replay", responses=errors(400, 404, 409, 422))
    def replay(game_id: str, token: Token, lang: Lang, move: int | None = None) -> ReplayView:
        """The position after ``move`` moves (default: all), with every move of the game in words (the castle
        game; as the seat of the token, if one is sent, reads them: its own moves are "you")."""
        return service.replay_view(game_id, move, lang, token)
