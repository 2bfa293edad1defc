"""What the routes of both games share: the seat token of a request, and the answer that streams events."""

from __future__ import annotations

import re
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from fastapi.responses import StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

_bearer = HTTPBearer(auto_error=False, description="a seat's token, from the answer that created or joined the game")


async def seat_token(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> str | None:
    """The seat token of a request's ``Authorization: Bearer`` header (None without one); ``async``: it only reads
    a header, so it takes no trip through the thread pool."""
    return credentials.credentials if credentials is not None else None


Token = Annotated[str | None, Depends(seat_token)]
"""A route's parameter for the request's seat token (the route decides whether it is needed)."""


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
