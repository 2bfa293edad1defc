"""The web app: ``create_app(config)`` builds it; handlers parse, call the game service and answer JSON.

Every answer is a model of :mod:`zamek.server.schemas` (Rycerze i zamki: :mod:`zamek.server.knights_schemas`),
declared as the route's return type, so ``/api/openapi.json`` describes each one; every ``/api/`` answer
carries the protocol's version in the ``Zamek-Api`` header. Every refusal is a 4xx JSON answer (``ErrorAnswer``)
``{"error": kind, "code": code, "rule": rule, "params": {...}, "message": text}``: the kind of refusal, the message's
code in the catalogue (``server.<code>``, or an engine's ``error.<code>``), the rule it enforces and its values, and
the message said in the request's language (``?lang=``, else the browser's) and the words of the game's edition.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import html
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from fastapi import Depends, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware

from zamek import BOARDS, CURRENT_BOARD, EDITIONS, Edition, Setup, ZamekError, i18n, rules_for
from zamek.castle.bots.levels import OFFERED_LEVELS
from zamek.castle.rules.rates import RATES
from zamek.castle.rules.rulesets import EDITION_OPTIONS, OPTIONS, RULE_SETS
from zamek.castle.rules.tokens import TokenKind, printed_number
from zamek.knights.rules.cards import Card, CastleKind, load_cards
from zamek.server.cache import COMPRESS_FROM_BYTES as COMPRESS_FROM_BYTES  # named here too, as before
from zamek.server.connections import lifespan_state
from zamek.server.errors import ServiceError, invalid_request
from zamek.server.expiry import keep_purging
from zamek.server.guard import SECURITY_HEADERS, BodyLimit, HostCheck, SecurityHeaders
from zamek.server.knights_schemas import LobbyGames
from zamek.server.layout import Geometry, geometry
from zamek.server.lobby_routes import add_lobby_routes
from zamek.server.match_routes import add_match_routes
from zamek.server.metrics import add_health_and_metrics
from zamek.server.player_routes import add_player_routes
from zamek.server.routing import Lang, Token, chosen_language, preferred_language
from zamek.server.schemas import (
    API_HEADER,
    API_VERSION,
    Adopted,
    AnalysisView,
    ErrorAnswer,
    Hints,
    LanguageView,
    Lobby,
    Meta,
    RatesView,
    RuleOptionView,
    SeatedView,
    Words,
    errors,
)
from zamek.server.service import GameService, WebConfig
from zamek.server.talk import add_talk_routes
from zamek.server.throttle import Referee, Throttled, client_key
from zamek.server.watchlist import add_watch_routes

STATIC: Final = Path(__file__).parent / "static"
MAX_IMPORT_BYTES: Final = 2_000_000
MAX_JSON_DEPTH: Final = 64
"""The deepest nesting of arrays and objects a saved game may have (a real one has 3)."""
log = logging.getLogger("zamek.server")
CLOCK_CHECK_SECONDS: Final = 0.25
"""How often the server looks for a player out of time."""
LOOPBACK: Final = frozenset({"127.0.0.1", "::1", "localhost"})
DESCRIPTION: Final = f"""The JSON protocol of the Zamek web app, version {API_VERSION} (every answer under `/api/`
says so in its `{API_HEADER}` header; game views and `/api/meta` in their `api` field). Places are named by
their space names (`e10`; start spaces by their id, `S5`), features by their id in the engine's feature view.
A request that changes a game proves its seat: `Authorization: Bearer <token>`, the token given when the game
was created or joined (a player's seat: the player's token, `X-Zamek-Player`, from `POST /api/players`). A refused
request gets a 4xx answer `{{"error": kind, "code": code, "rule": rule,
"params": {{...}}, "message": text}}`, its text in the request's language (`?lang=`, else `Accept-Language`)."""

__all__ = ["create_app", "preferred_language"]


CARDS: Final = load_cards()
"""The card game's strength table (its knight's row is printed on the cards, K2)."""


@functools.lru_cache(maxsize=32)
def _words_json(words: i18n.Catalogue) -> tuple[bytes, str]:
    """A catalogue as ``/api/words`` sends it, and its ETag (made once for each catalogue read: a catalogue read
    again after ``i18n.reset()`` is another)."""
    body = json.dumps(words.export(), ensure_ascii=False, sort_keys=True).encode()
    return body, f'W/"{hashlib.sha256(body).hexdigest()[:16]}"'  # weak: the same words, gzipped or not


def json_depth(text: bytes) -> int:
    """The deepest nesting of arrays and objects in a JSON text (strings skipped), in one linear pass."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in text:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


def parse_record(body: bytes) -> Any:
    """A saved game sent as a request's body, parsed; refused when too large, too deep or not JSON."""
    if len(body) > MAX_IMPORT_BYTES:
        raise ServiceError(413, "too-large", "record-too-large", kb=MAX_IMPORT_BYTES // 1000)
    if json_depth(body) > MAX_JSON_DEPTH:
        raise ServiceError(400, "invalid-record", "too-deep", levels=MAX_JSON_DEPTH)
    try:
        return json.loads(body)
    except json.JSONDecodeError as exc:
        raise ServiceError(400, "invalid-record", "not-json-at", line=exc.lineno, column=exc.colno) from None
    except (ValueError, RecursionError):  # UnicodeDecodeError, a too long integer
        raise ServiceError(400, "invalid-record", "not-json") from None


def docs_page(spec: dict[str, Any]) -> str:
    """The API's routes in HTML, built from its OpenAPI description on the server."""
    rows = []
    for path, operations in spec.get("paths", {}).items():
        for method, operation in operations.items():
            doc = operation.get("description") or operation.get("summary") or ""
            rows.append(f"<tr><td><code>{html.escape(method.upper())}</code></td><td><code>{html.escape(path)}"
                        f"</code></td><td>{html.escape(doc)}</td></tr>")
    title = html.escape(f"{spec.get('info', {}).get('title', 'Zamek')} API {spec.get('info', {}).get('version', '')}")
    return (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title></head><body>"
            f"<h1>{title}</h1><p>{html.escape(DESCRIPTION)}</p><p>Every model: "
            f"<a href=\"/api/openapi.json\">/api/openapi.json</a></p>"
            f"<table><tr><th>Method</th><th>Path</th><th>What</th></tr>{''.join(rows)}</table></body></html>")


@lru_cache(maxsize=16)
def _geometry(setup: Setup) -> Geometry:
    return geometry(rules_for(setup))


def create_app(config: WebConfig | None = None) -> FastAPI:
    """Return the app for a configuration (database URL, the computer's pause, where the page's files are)."""
    config = config or WebConfig()
    service = GameService(config)

    async def watch_clocks() -> None:
        while True:
            await asyncio.sleep(CLOCK_CHECK_SECONDS)
            try:
                await run_in_threadpool(service.expire_clocks)
            except Exception:  # a failure must not stop the clocks of every other game
                log.exception("checking the clocks failed")

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[dict[str, Any]]:
        service.resume()
        clocks = asyncio.create_task(watch_clocks())
        purging = asyncio.create_task(keep_purging(service.purge_expired, config.purge_seconds))
        # For the server's connections (zamek.server.connections): their limits, and the streams to end when it stops.
        yield lifespan_state(config.header_timeout, config.body_timeout, config.max_connections, config.max_body_bytes,
                             service.events.end_streams)
        clocks.cancel()
        purging.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await clocks
        with contextlib.suppress(asyncio.CancelledError):
            await purging
        service.close()

    app = FastAPI(title="Zamek", version=str(API_VERSION), description=DESCRIPTION, lifespan=lifespan,
                  docs_url=None, openapi_url="/api/openapi.json", redoc_url=None)
    app.state.service = service
    # Each client's limits (zamek.server.fairness): its new matches, joins, imports, hints and analyses.
    referee = Referee(config.fairness)
    # Outermost last: the security headers go on every answer, refusals of the guards included.
    app.add_middleware(BodyLimit, limit=config.max_body_bytes)
    app.add_middleware(HostCheck, allowed_hosts=config.allowed_hosts)
    app.add_middleware(SecurityHeaders, api_headers=((API_HEADER.lower().encode(), str(API_VERSION).encode()),))
    # Outermost: the page's scripts, the catalogue and the larger views travel gzipped to a browser that accepts it
    # (a game view of 39 kB is 4 kB); answers under COMPRESS_FROM_BYTES and the live events (text/event-stream, left
    # out by Starlette) go as they are.
    app.add_middleware(GZipMiddleware, minimum_size=COMPRESS_FROM_BYTES)
    # /healthz, /metrics, and the count of every request (outermost: add other middleware above this line, or what it
    # refuses goes uncounted).
    add_health_and_metrics(app, service, config.metrics_allow_ips)

    def language_of(request: Request) -> str:
        return chosen_language(request.query_params.get("lang"), request.headers.get("accept-language"))

    def edition_of(request: Request) -> str | None:
        """The edition of the game a request is about (its words: a "road" of 2020 is a "path" of 2003), if it is
        in memory (a refusal never loads a game)."""
        game_id = request.path_params.get("game_id")
        live = service.sessions.peek(game_id) if isinstance(game_id, str) else None
        edition = getattr(live.setup, "edition", None) if live is not None else None
        return str(edition) if edition is not None else None

    def refuse(request: Request, refusal: ServiceError) -> JSONResponse:
        answer = refusal.answer(language_of(request), edition_of(request))
        headers = {"Retry-After": str(refusal.retry_after)} if isinstance(refusal, Throttled) else None
        return JSONResponse(jsonable_encoder(ErrorAnswer.model_validate(answer).model_dump()),
                            status_code=refusal.status, headers=headers)

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError) -> JSONResponse:
        return refuse(request, exc)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return refuse(request, invalid_request(exc.errors()))

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> JSONResponse:
        if exc.status_code == 404:
            return refuse(request, ServiceError(404, "http", "not-found", status=404))
        if exc.status_code == 405:
            return refuse(request, ServiceError(405, "http", "method", status=405))
        return refuse(request, ServiceError(exc.status_code, "http", "http", status=exc.status_code))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        # Answered outside the other middleware (Starlette's ServerErrorMiddleware): the headers are set here.
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        answer = refuse(request, ServiceError(500, "internal", "internal"))
        answer.headers.update({k.decode(): v.decode() for k, v in SECURITY_HEADERS})
        if request.url.path.startswith("/api/"):
            answer.headers[API_HEADER] = str(API_VERSION)
        return answer

    # ------------------------------------------------------------------ page

    static = config.static_dir or STATIC

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(static / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=static), name="static")

    @app.api_route("/api/docs", methods=["GET", "HEAD"], include_in_schema=False)
    def docs() -> Response:
        """The protocol's routes as a plain page (no scripts, nothing from another site); the models are in
        ``/api/openapi.json``."""
        return Response(docs_page(app.openapi()), media_type="text/html")

    # ------------------------------------------------------------------- api

    @app.get("/api/meta")
    def meta(request: Request) -> Meta:
        """The protocol's version, the choices for a new game and the languages (the one the browser prefers)."""
        languages = [LanguageView(code=code, name=i18n.catalogue(code).name) for code in i18n.languages()]
        return Meta(levels=list(OFFERED_LEVELS), editions=[Edition(e) for e in EDITIONS], languages=languages,
                    lang=preferred_language(request.headers.get("accept-language")), rule_sets=list(RULE_SETS),
                    edition_options=[RuleOptionView.of(o) for o in EDITION_OPTIONS],
                    options=[RuleOptionView.of(o) for o in OPTIONS], rates=RatesView.of(RATES),
                    token_numbers={edition: {str(int(kind)): printed_number(kind, edition) for kind in TokenKind}
                                   for edition in EDITIONS},
                    knight_strengths={kind.key: CARDS.of(Card.KNIGHT, kind) for kind in CastleKind})

    @app.get("/api/words", response_model=Words, responses=errors(422))
    def words(request: Request, lang: str | None = None) -> Response:
        """The catalogue of words of a language (``lang``, else the browser's), every key in it or in English:
        ``{"lang", "name", "plural_rules", "messages": {key: message}}`` (zamek.i18n). Cached by the browser
        and revalidated with its ETag."""
        body, etag = _words_json(i18n.catalogue(chosen_language(lang, request.headers.get("accept-language"))))
        headers = {"ETag": etag, "Cache-Control": "no-cache", "Vary": "Accept-Language"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    @app.get("/api/geometry", responses=errors(400, 422))
    def castle_geometry(rules: str | None = None, sokol: bool = False, board: int = CURRENT_BOARD) -> Geometry:
        """The castle (wall, track, towers, gates, start spaces) and every tile's features.

        ``rules`` is a game's rule set (its view's ``rules``; without it, ``sokol`` says whether the Sokół expansion
        is played); ``board`` the castle's revision a game was played on (games saved before board 2 keep board 1).
        """
        if board not in BOARDS:
            raise ServiceError(400, "bad-board", "bad-board", board=board, boards=list(BOARDS))
        if rules is None:
            return _geometry(replace(Setup(board=board), sokol=sokol))
        try:
            setup = Setup.parse(rules, board=board)
        except ZamekError as exc:
            raise ServiceError(422, "invalid", "bad-rules", reason=exc) from None
        except ValueError:
            raise ServiceError(422, "invalid", "bad-rules-name", rules=rules) from None
        return _geometry(setup)

    @app.post("/api/lobby", responses=errors(422))
    def lobby(body: Lobby) -> LobbyGames:
        """The games of the seat tokens this browser holds (castle and Rycerze i zamki), the latest changed first, a
        page at a time; no other game is ever listed."""
        castle, knights, more = service.lobby(body.tokens, body.offset, body.limit)
        return LobbyGames(castle=castle, knights=knights, more=more)

    legacy_left = True
    """Games stored before seats may still be in the database (the page asks at every visit to the lobby)."""

    @app.post("/api/adopt")
    def adopt(request: Request) -> list[Adopted]:
        """Seats for the games stored before games had seats, for a browser on this machine (once: later calls
        find none). From another machine the answer is empty."""
        forwarded = any(h in request.headers for h in ("forwarded", "x-forwarded-for", "x-real-ip"))
        host = request.headers.get("host", "").rsplit(":", 1)[0].strip("[]")
        if request.client is None or request.client.host not in LOOPBACK or forwarded or host not in LOOPBACK:
            return []  # behind a reverse proxy every visitor looks local: those requests are not from here
        nonlocal legacy_left
        if not legacy_left:  # every game made since has seats: once adopted, none is left to look for
            return []
        adopted = service.adopt()
        legacy_left = False
        return adopted

    add_match_routes(app, service, referee)
    add_player_routes(app, service, referee)  # issue 39: identities, ratings, player pages, the leaderboard
    add_watch_routes(app, service)  # issue 39: the live games to watch
    add_talk_routes(app, service)  # issue 39: a word at the table
    add_lobby_routes(app, service, referee)  # issue 39: open challenges and quick pairing

    # Hints and analyses are the costliest answers: each client has a rate of them, and a number at once.
    @app.get("/api/games/{game_id}/hints", responses=errors(401, 403, 404, 409, 422, 429),
             dependencies=[Depends(referee.limit("hints"))])
    async def game_hints(game_id: str, token: Token, lang: Lang, request: Request) -> Hints:
        """The three best moves for the seat to move (its token), each with the mover's expected final lead: in
        games against the computer, at one screen, and against a friend when both agreed to hints."""
        return await referee.advised(client_key(request.scope), service.hints, game_id, token, lang)

    @app.get("/api/games/{game_id}/analysis", responses=errors(404, 409, 422, 429),
             dependencies=[Depends(referee.limit("analysis"))])
    async def game_analysis(game_id: str, lang: Lang, request: Request) -> AnalysisView:
        """A finished game's analysis: every decision judged against the best move by the expected final lead,
        flagged (inaccuracy, mistake, blunder), with each player's summary. Computed once and stored."""
        return await referee.advised(client_key(request.scope), service.analysis, game_id, lang)

    @app.post(
        "/api/analysis", responses=errors(400, 413, 422, 429), dependencies=[Depends(referee.limit("analysis"))],
        openapi_extra={"requestBody": {"required": True, "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/SavedGame"}}}}},
    )
    async def analyse_record(request: Request, lang: Lang) -> AnalysisView:
        """The analysis of a finished saved game sent as the request's JSON body (nothing is stored)."""
        raw = parse_record(await request.body())
        return await referee.advised(client_key(request.scope), service.analyse_record, raw, lang)

    @app.post(
        "/api/import", status_code=201, responses=errors(400, 413, 422, 429),
        dependencies=[Depends(referee.limit("imports"))],
        openapi_extra={"requestBody": {"required": True, "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/SavedGame"}}}}},
    )
    async def import_game(request: Request, lang: Lang) -> SeatedView:
        """Store a saved game sent as the request's JSON body; a corrupt one is refused with the reason."""
        raw = parse_record(await request.body())
        created = await run_in_threadpool(service.import_record, raw)
        view = await run_in_threadpool(service.seated_view, created, lang)
        assert isinstance(view, SeatedView)  # a saved castle game
        return view

    return app
