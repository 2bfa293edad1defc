"""The app's guards, as pure ASGI middleware: they see every request before FastAPI reads it.

* :class:`BodyLimit` refuses a request body over a limit with 413 ``{"error": "too-large", ...}``: at once
  when its ``Content-Length`` says so, else when the streamed bytes (a chunked upload) pass the limit; the
  body is counted as it arrives, never buffered here. (A body the app answers without reading is cut by the
  server's connection, :mod:`zamek.server.connections`, once it passes the limit.)
* :class:`HostCheck` refuses a ``Host`` that is not one the server is served as (400 ``bad-host``: DNS
  rebinding), and a state-changing request (POST, PUT, PATCH, DELETE) whose ``Origin`` is another origin
  (403 ``bad-origin``: cross-site request forgery).
* :class:`SecurityHeaders` adds the Content-Security-Policy and friends to every answer.

Every refusal is the API's error format (``ErrorAnswer``: the kind, the message's code and values, and the message
in the request's language).
"""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any, Final
from urllib.parse import parse_qs, urlsplit

from starlette.requests import ClientDisconnect

from zamek.server.errors import ServiceError
from zamek.server.routing import chosen_language

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
UNSAFE_METHODS: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})


async def send_error(scope: Scope, send: Send, refusal: ServiceError) -> None:
    """Answer with the API's error format, in the request's language (``?lang=``, else ``Accept-Language``)."""
    query = parse_qs(bytes(scope.get("query_string", b"")).decode("latin-1")).get("lang")
    lang = chosen_language(query[0] if query else None, header(scope, b"accept-language"))
    body = json.dumps(refusal.answer(lang), ensure_ascii=False).encode()
    await send({"type": "http.response.start", "status": refusal.status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]})
    await send({"type": "http.response.body", "body": body})


def header(scope: Scope, name: bytes) -> str | None:
    """The first value of a request header (``name`` in lower case), or None."""
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class _TooLarge(Exception):
    pass


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, without reading (or keeping) more than that."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    def refusal(self) -> ServiceError:
        return ServiceError(413, "too-large", "request-too-large", kb=self.limit // 1000)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = header(scope, b"content-length")
        if declared is not None:
            try:
                too_large = int(declared) > self.limit
            except ValueError:
                await send_error(scope, send, ServiceError(400, "bad-request", "bad-length"))
                return
            if too_large:
                await send_error(scope, send, self.refusal())
                return
        received = 0
        started = False
        refused = False
        left = False

        async def counting_receive() -> Message:
            nonlocal received, refused, left
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            left = left or message["type"] == "http.disconnect"
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    refused = True
                    if not started:
                        await send_error(scope, send, self.refusal())
                    # The app sees a client that went away: it stops reading and its answer is dropped.
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused:
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, guarded_send)
        except ClientDisconnect:
            if not (refused or left):
                raise
            # The client went (or was cut: its body came too slowly) while its body was read: nobody to answer.
        except Exception:
            if not refused:
                raise


def split_host(value: str) -> str:
    """The host name of a ``Host`` header or an origin's network location, without the port, in lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        return value.split(":", 1)[0]
    return value


def normal_host(host: str) -> str:
    host = host.strip().lower().removeprefix("[").removesuffix("]")
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return host


class HostCheck:
    """Refuse a foreign ``Host`` (400 ``bad-host``) and a cross-origin state-changing request (403 ``bad-origin``)."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str]) -> None:
        self.app = app
        self.allowed = frozenset(normal_host(h) for h in allowed_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = header(scope, b"host")
        if host is None or ("*" not in self.allowed and normal_host(split_host(host)) not in self.allowed):
            refusal = ServiceError(400, "bad-host", "bad-host", host=host) if host else ServiceError(
                400, "bad-host", "no-host")
            await send_error(scope, send, refusal)
            return
        origin = header(scope, b"origin")
        if origin is not None and scope.get("method", "GET").upper() in UNSAFE_METHODS:
            parts = urlsplit(origin)
            if parts.scheme not in ("http", "https") or parts.netloc.lower() != host.strip().lower():
                await send_error(scope, send, ServiceError(403, "bad-origin", "bad-origin", origin=origin))
                return
        await self.app(scope, receive, send)


class SecurityHeaders:
    """Add the Content-Security-Policy, ``nosniff``, ``no-referrer`` and ``DENY`` framing to every answer, and
    ``api_headers`` to every answer under ``/api/`` (streams included: this middleware never buffers)."""

    def __init__(self, app: ASGIApp, api_headers: tuple[tuple[bytes, bytes], ...] = ()) -> None:
        self.app = app
        self.api_headers = api_headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = SECURITY_HEADERS
        if str(scope.get("path", "")).startswith("/api/"):
            headers = (*headers, *self.api_headers)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {bytes(k).lower() for k, _ in message.get("headers", ())}
                extra = [(k, v) for k, v in headers if k not in present]
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)


def local_addresses() -> list[str]:
    """This machine's own IP addresses, from its host name (best effort, nothing is sent anywhere)."""
    found: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.append(str(info[4][0]))
    except OSError:
        pass
    seen: dict[str, None] = {}
    for address in found:
        address = normal_host(address.split("%", 1)[0])
        if address not in ("0.0.0.0", "::"):
            seen[address] = None
    return list(seen)
