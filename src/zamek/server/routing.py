"""What the routes of both games share: the seat token and the language of a request, and the answer that streams
events."""

from __future__ import annotations

import re
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Annotated

from fastapi import Depends, Header, Request
from fastapi.responses import StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from zamek import i18n

_bearer = HTTPBearer(auto_error=False, description="a seat's token, from the answer that created or joined the game")


async def seat_token(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> str | None:
    """The seat token of a request's ``Authorization: Bearer`` header (None without one); ``async``: it only reads
    a header, so it takes no trip through the thread pool."""
    return credentials.credentials if credentials is not None else None


Token = Annotated[str | None, Depends(seat_token)]
"""A route's parameter for the request's seat token (the route decides whether it is needed)."""


PlayerToken = Annotated[str | None, Header(alias="X-Zamek-Player", description="a player's secret token, from the "
                                           "answer that created the player (zamek.server.players)")]
"""A route's parameter for the token of the player a request acts as (the route decides whether it is needed)."""


def preferred_language(header: str | None) -> str:
    """The language of an ``Accept-Language`` header there is a catalogue for, the one the browser likes best (by
    its ``q``; the base language when it likes none of them)."""
    known = i18n.languages()
    best, best_q = i18n.BASE, -1.0
    for part in (header or "").split(","):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        tag = tag.strip()
        lang = tag if tag in known else tag.lower().split("-")[0]
        if lang in known and q > best_q:
            best, best_q = lang, q
    return best


def chosen_language(asked: str | None, header: str | None) -> str:
    """The language of an answer: ``asked`` (``?lang=``) when there is a catalogue for it, else the browser's."""
    return asked if asked is not None and asked in i18n.languages() else preferred_language(header)


def request_language(request: Request, lang: str | None = None) -> str:
    """The language of a request's answer: ``lang`` when there is a catalogue for it, else the browser's
    (``Accept-Language``), else English."""
    return chosen_language(lang, request.headers.get("accept-language"))


Lang = Annotated[str, Depends(request_language)]
"""A route's parameter for the language of its answer (``?lang=``, else the browser's)."""


def last_event_id(request: Request) -> int | None:
    """The revision a resumed event stream last saw (its ``Last-Event-ID``), or None."""
    value = request.headers.get("last-event-id", "").strip()
    return int(value) if re.fullmatch(r"[0-9]{1,11}", value) else None  # ASCII digits only: "²".isdigit()


async def event_stream(body: AsyncGenerator[str, None]) -> StreamingResponse:
    """The answer streaming ``body``. Its first part is taken before the answer starts, so that a refusal on the way
    in (too many pages watching: 429) is answered as such, not as a stream broken after a 200."""
    first = await anext(body)

    async def parts() -> AsyncIterator[str]:
        try:
            yield first
            async for part in body:
                yield part
        finally:
            await body.aclose()

    return StreamingResponse(parts(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
