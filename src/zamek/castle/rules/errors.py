"""The errors the castle game's core raises: those both games share, and its own."""

from __future__ import annotations

from zamek.kit.errors import (
    DataError,
    IllegalActionError,
    MalformedActionError,
    RecordError,
    SetupError,
    ZamekError,
)

__all__ = [
    "DataError",
    "IllegalActionError",
    "MalformedActionError",
    "PositionError",
    "RecordError",
    "SetupError",
    "ZamekError",
]


class PositionError(ZamekError):
    """A position's text is malformed, or the position it describes cannot arise in a game."""
