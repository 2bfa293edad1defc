"""The web app: ``create_app(config)`` builds it; handlers parse, call the game service and answer JSON.

Every answer is a model of :mod:`zamek.web.schemas` (Rycerze i zamki: :mod:`zamek.web.knights_schemas`),
declared as the route's return type, so ``/api/openapi.json`` describes each one; every ``/api/`` answer
carries the protocol's version in the ``Zamek-Api`` header. Every refusal is a 4xx JSON answer
``{"error": code, "message": text}`` (``ErrorAnswer``) whose text is the engine's own message (an illegal
move, a corrupt saved game), so the page can show it as it is.
"""

from __future__ import annotations

import html
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from zamek import BOARDS, CURRENT_BOARD, EDITIONS, LEVELS, Edition, Setup, rules_for
from zamek.terms import LANGUAGES
from zamek.web.guard import SECURITY_HEADERS, BodyLimit, HostCheck, SecurityHeaders
from zamek.web.knights import KnightsService, add_routes
from zamek.web.layout import Geometry, geometry
from zamek.web.schemas import (
    API_HEADER,
    API_VERSION,
    ErrorAnswer,
    GameLine,
    GameStatus,
    GameView,
    Meta,
    Move,
    NewGame,
    ReplayView,
    Revision,
    SavedGame,
    errors,
)
from zamek.web.service import GameService, ServiceError, WebConfig

STATIC: Final = Path(__file__).parent / "static"
MAX_IMPORT_BYTES: Final = 2_000_000
MAX_JSON_DEPTH: Final = 64
"""The deepest nesting of arrays and objects a saved game may have (a real one has 3)."""
log = logging.getLogger("zamek.web")
DESCRIPTION: Final = f"""The JSON protocol of the Zamek web app, version {API_VERSION} (every answer under `/api/`
says so in its `{API_HEADER}` header; game views and `/api/meta` in their `api` field). Places are named by
their space names (`e10`; start spaces by their id, `S5`), features by their id in the engine's feature view.
A refused request gets a 4xx answer `{{"error": code, "message": text}}`."""


def preferred_language(header: str | None) -> str:
    """Return 'pl' or 'en' from an Accept-Language header (English unless Polish comes first)."""
    best, best_q = "en", -1.0
    for part in (header or "").split(","):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        lang = tag.strip().lower()[:2]
        if lang in LANGUAGES and q > best_q:
            best, best_q = lang, q
    return best


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


def _lang(lang: str | None) -> str:
    return lang if lang in LANGUAGES else "en"


@lru_cache(maxsize=8)
def _geometry(sokol: bool, board: int) -> Geometry:
    return geometry(rules_for(Setup(sokol=sokol, board=board)))


def create_app(config: WebConfig | None = None) -> FastAPI:
    """Return the app for a configuration (database URL, the computer's pause, where the page's files are)."""
    config = config or WebConfig()
    service = GameService(config)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        service.resume()
        yield
        service.close()

    app = FastAPI(title="Zamek", version=str(API_VERSION), description=DESCRIPTION, lifespan=lifespan,
                  docs_url=None, openapi_url="/api/openapi.json", redoc_url=None)
    app.state.service = service
    # Outermost last: the security headers go on every answer, refusals of the guards included.
    app.add_middleware(BodyLimit, limit=config.max_body_bytes)
    app.add_middleware(HostCheck, allowed_hosts=config.allowed_hosts)
    app.add_middleware(SecurityHeaders)

    @app.middleware("http")
    async def _version(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        if request.url.path.startswith("/api/"):
            response.headers[API_HEADER] = str(API_VERSION)
        return response

    def refuse(status: int, code: str, message: str) -> JSONResponse:
        return JSONResponse(ErrorAnswer(error=code, message=message).model_dump(), status_code=status)

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return refuse(exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for error in exc.errors():
            where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
            message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
            parts.append(f"{where}: {message}" if where else message)
        return refuse(422, "invalid", "; ".join(parts) or "invalid request")

    @app.exception_handler(HTTPException)
    async def _http(_request: Request, exc: HTTPException) -> JSONResponse:
        return refuse(exc.status_code, "http", str(exc.detail))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        # Answered outside the other middleware (Starlette's ServerErrorMiddleware): the headers are set here.
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        answer = refuse(500, "internal", "the server failed to answer this request; the error is in its log")
        answer.headers.update({k.decode(): v.decode() for k, v in SECURITY_HEADERS})
        if request.url.path.startswith("/api/"):
            answer.headers[API_HEADER] = str(API_VERSION)
        return answer

    # ------------------------------------------------------------------ page

    static = config.static_dir or STATIC

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(static / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=static), name="static")

    @app.get("/api/docs", include_in_schema=False)
    def docs() -> Response:
        """The protocol's routes as a plain page (no scripts, nothing from another site); the models are in
        ``/api/openapi.json``."""
        return Response(docs_page(app.openapi()), media_type="text/html")

    # ------------------------------------------------------------------- api

    @app.get("/api/meta")
    def meta(request: Request) -> Meta:
        """The protocol's version, the choices for a new game and the language the browser prefers."""
        return Meta(levels=list(LEVELS), editions=[Edition(e) for e in EDITIONS], languages=list(LANGUAGES),
                    lang=preferred_language(request.headers.get("accept-language")))

    @app.get("/api/geometry", responses=errors(400, 422))
    def castle_geometry(sokol: bool = False, board: int = CURRENT_BOARD) -> Geometry:
        """The castle (wall, track, towers, gates, start spaces) and every tile's features.

        ``board`` is the castle's revision a game was played on (games saved before board 2 keep board 1).
        """
        if board not in BOARDS:
            raise ServiceError(400, "bad-board", f"board {board}: the castle has boards {', '.join(map(str, BOARDS))}")
        return _geometry(sokol, board)

    @app.get("/api/games")
    def list_games() -> list[GameLine]:
        """The lobby's list: every castle game, the latest changed first."""
        return service.lobby()

    @app.post("/api/games", status_code=201, responses=errors(422))
    def new_game(body: NewGame, lang: str = "en") -> GameView:
        """Start a game; the answer is its first position."""
        setup = Setup(edition=body.edition, sokol=body.sokol, gate_guard=body.gate_guard)
        live = service.create(body.mode, body.level, body.seat, setup, body.seed)
        return service.view(live.id, _lang(lang))

    @app.get("/api/games/{game_id}", responses=errors(404, 422))
    def get_game(game_id: str, lang: str = "en") -> GameView:
        """The position, with everything the page draws."""
        return service.view(game_id, _lang(lang))

    @app.get("/api/games/{game_id}/status", responses=errors(404, 422))
    def game_status(game_id: str) -> GameStatus:
        """Cheap to poll: the revision changes with every move."""
        return service.status(game_id)

    @app.post("/api/games/{game_id}/actions", responses=errors(400, 404, 409, 422))
    def play(game_id: str, body: Move, lang: str = "en") -> GameView:
        """A person's move, in the game's notation."""
        service.act(game_id, body.action, body.revision)
        return service.view(game_id, _lang(lang))

    @app.post("/api/games/{game_id}/draw", responses=errors(404, 409, 422))
    def draw(game_id: str, body: Revision | None = None, lang: str = "en") -> GameView:
        """Draw the next tile (two people at one screen)."""
        service.draw(game_id, body.revision if body else None)
        return service.view(game_id, _lang(lang))

    @app.post("/api/games/{game_id}/undo", responses=errors(404, 409, 422))
    def undo(game_id: str, body: Revision | None = None, lang: str = "en") -> GameView:
        """Take the last move back while nothing has happened since."""
        service.undo(game_id, body.revision if body else None)
        return service.view(game_id, _lang(lang))

    @app.delete("/api/games/{game_id}", status_code=204, responses=errors(404, 422))
    def delete_game(game_id: str) -> Response:
        service.delete(game_id)
        return Response(status_code=204)

    @app.get("/api/games/{game_id}/record", response_model_exclude_unset=True, responses=errors(404, 422))
    def export_record(game_id: str, response: Response) -> SavedGame:
        """The saved-game JSON (setup, seed, every move), as a file to download."""
        response.headers["Content-Disposition"] = f'attachment; filename="zamek-{game_id}.json"'
        return service.record(game_id)

    @app.get("/api/games/{game_id}/replay", responses=errors(400, 404, 422))
    def replay(game_id: str, move: int | None = None, lang: str = "en") -> ReplayView:
        """The position after ``move`` moves (default: all), with every move of the game in words."""
        return service.replay_view(game_id, move, _lang(lang))

    add_routes(app, KnightsService(service.repo, ServiceError), _lang)

    @app.post(
        "/api/import", status_code=201, responses=errors(400, 413, 422),
        openapi_extra={"requestBody": {"required": True, "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/SavedGame"}}}}},
    )
    async def import_game(request: Request, lang: str = "en") -> GameView:
        """Store a saved game sent as the request's JSON body; a corrupt one is refused with the reason."""
        body = await request.body()
        if len(body) > MAX_IMPORT_BYTES:
            raise ServiceError(413, "too-large", f"a saved game is at most {MAX_IMPORT_BYTES // 1000} kB")
        if json_depth(body) > MAX_JSON_DEPTH:
            raise ServiceError(400, "invalid-record", f"the file nests deeper than {MAX_JSON_DEPTH} levels")
        try:
            raw = json.loads(body)
        except (ValueError, RecursionError) as exc:  # JSONDecodeError, UnicodeDecodeError, a too long integer
            raise ServiceError(400, "invalid-record", f"the file is not valid JSON: {exc}") from None
        live = await run_in_threadpool(service.import_record, raw)
        return await run_in_threadpool(service.view, live.id, _lang(lang))

    return app
