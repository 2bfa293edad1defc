"""The web app's refusal: an exception that the app answers as ``{"error": code, "message": text}``."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from zamek.castle.rules.errors import ZamekError


class ServiceError(Exception):
    """A request the service refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def reloaded(exc: BaseException) -> bool:
    """Whether a refused commit brought the match in memory up to date from the database (it was stale): what the
    request had changed in memory is then the database's, not to be put back."""
    return isinstance(exc, ServiceError) and exc.code == "stale"


@contextmanager
def refusing_bad_records(log: logging.Logger, what: str) -> Iterator[None]:
    """Answer a saved game sent by a caller that does not replay with 400 ``invalid-record``, never a server
    error: the engine's own refusal says what is wrong; anything else its checks let through is logged as
    ``what`` failed to replay."""
    try:
        yield
    except ZamekError as exc:
        raise ServiceError(400, "invalid-record", str(exc)) from None
    except (LookupError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        log.warning("%s failed to replay", what, exc_info=exc)
        raise ServiceError(400, "invalid-record", f"the saved game cannot be replayed ({type(exc).__name__})"
                           ) from None
