"""The web app: ``create_app(config)`` builds it; handlers parse, call the game service and answer JSON.

Every refusal is a 4xx JSON answer ``{"error": code, "message": text}`` whose text is the engine's
own message (an illegal move, a corrupt saved game), so the page can show it as it is.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
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

from zamek.bots.levels import LEVELS
from zamek.core.board import BOARDS, CURRENT_BOARD
from zamek.core.editions import EDITIONS, edition_of
from zamek.core.setup import Setup
from zamek.datafiles import rules_for
from zamek.terms import LANGUAGES
from zamek.web.knights import KnightsService, add_routes
from zamek.web.layout import geometry
from zamek.web.schemas import Move, NewGame, Revision
from zamek.web.service import API_VERSION, GameService, ServiceError, WebConfig, stored_summary

STATIC: Final = Path(__file__).parent / "static"
MAX_IMPORT_BYTES: Final = 2_000_000


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


def _lang(lang: str | None) -> str:
    return lang if lang in LANGUAGES else "en"


@lru_cache(maxsize=8)
def _geometry(sokol: bool, board: int) -> dict[str, Any]:
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

    app = FastAPI(title="Zamek", version=str(API_VERSION), lifespan=lifespan, docs_url="/api/docs",
                  openapi_url="/api/openapi.json", redoc_url=None)
    app.state.service = service

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse({"error": exc.code, "message": exc.message}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for error in exc.errors():
            where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
            message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
            parts.append(f"{where}: {message}" if where else message)
        return JSONResponse({"error": "invalid", "message": "; ".join(parts) or "invalid request"}, status_code=422)

    @app.exception_handler(HTTPException)
    async def _http(_request: Request, exc: HTTPException) -> JSONResponse:
        return JSONResponse({"error": "http", "message": str(exc.detail)}, status_code=exc.status_code)

    # ------------------------------------------------------------------ page

    static = config.static_dir or STATIC

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(static / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=static), name="static")

    # ------------------------------------------------------------------- api

    @app.get("/api/meta")
    def meta(request: Request) -> dict[str, Any]:
        """The app's version, the choices for a new game and the language the browser prefers."""
        return {
            "api": API_VERSION,
            "levels": list(LEVELS),
            "editions": list(EDITIONS),
            "languages": list(LANGUAGES),
            "lang": preferred_language(request.headers.get("accept-language")),
        }

    @app.get("/api/geometry")
    def castle_geometry(sokol: bool = False, board: int = CURRENT_BOARD) -> dict[str, Any]:
        """The castle (wall, track, towers, gates, start spaces) and every tile's features.

        ``board`` is the castle's revision a game was played on (games saved before board 2 keep board 1).
        """
        if board not in BOARDS:
            raise ServiceError(400, "bad-board", f"board {board}: the castle has boards {', '.join(map(str, BOARDS))}")
        return _geometry(sokol, board)

    @app.get("/api/games")
    def list_games() -> list[dict[str, Any]]:
        return [stored_summary(g) for g in service.all_games()]

    @app.post("/api/games", status_code=201)
    def new_game(body: NewGame, lang: str = "en") -> dict[str, Any]:
        setup = Setup(edition=edition_of(body.edition), sokol=body.sokol, gate_guard=body.gate_guard)
        live = service.create(body.mode, body.level, body.seat, setup, body.seed)
        return service.view(live.id, _lang(lang))

    @app.get("/api/games/{game_id}")
    def get_game(game_id: str, lang: str = "en") -> dict[str, Any]:
        return service.view(game_id, _lang(lang))

    @app.get("/api/games/{game_id}/status")
    def game_status(game_id: str) -> dict[str, Any]:
        """Cheap to poll: the revision changes with every move."""
        live = service.get(game_id)
        return {"revision": live.revision, "thinking": live.thinking, "bot_error": live.bot_error,
                "over": live.state.is_over()}

    @app.post("/api/games/{game_id}/actions")
    def play(game_id: str, body: Move, lang: str = "en") -> dict[str, Any]:
        service.act(game_id, body.action, body.revision)
        return service.view(game_id, _lang(lang))

    @app.post("/api/games/{game_id}/draw")
    def draw(game_id: str, body: Revision | None = None, lang: str = "en") -> dict[str, Any]:
        service.draw(game_id, body.revision if body else None)
        return service.view(game_id, _lang(lang))

    @app.post("/api/games/{game_id}/undo")
    def undo(game_id: str, body: Revision | None = None, lang: str = "en") -> dict[str, Any]:
        service.undo(game_id, body.revision if body else None)
        return service.view(game_id, _lang(lang))

    @app.delete("/api/games/{game_id}", status_code=204)
    def delete_game(game_id: str) -> Response:
        service.delete(game_id)
        return Response(status_code=204)

    @app.get("/api/games/{game_id}/record")
    def export_record(game_id: str) -> JSONResponse:
        """The saved-game JSON (setup, seed, every move), as a file to download."""
        live = service.get(game_id)
        with live.lock:
            record = live.record()
        return JSONResponse(record, headers={"Content-Disposition": f'attachment; filename="zamek-{game_id}.json"'})

    @app.get("/api/games/{game_id}/replay")
    def replay(game_id: str, move: int | None = None, lang: str = "en") -> dict[str, Any]:
        return service.replay_view(game_id, move, _lang(lang))

    add_routes(app, KnightsService(service.repo, ServiceError), _lang)

    @app.post("/api/import", status_code=201)
    async def import_game(request: Request, lang: str = "en") -> dict[str, Any]:
        """Store a saved game sent as the request's JSON body; a corrupt one is refused with the reason."""
        body = await request.body()
        if len(body) > MAX_IMPORT_BYTES:
            raise ServiceError(413, "too-large", f"a saved game is at most {MAX_IMPORT_BYTES // 1000} kB")
        try:
            raw = json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ServiceError(400, "invalid-record", f"the file is not valid JSON: {exc}") from None
        live = await run_in_threadpool(service.import_record, raw)
        return await run_in_threadpool(service.view, live.id, _lang(lang))

    return app
