"""The web app's refusal: an exception that the app answers as ``{"error": code, "message": text}``."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the service refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
