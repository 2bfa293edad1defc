"""Errors the engine raises for bad input."""

from __future__ import annotations


class ZamekError(ValueError):
    """Base class of the engine's input errors."""


class MalformedActionError(ZamekError):
    """The text or value is not an action at all."""


class IllegalActionError(ZamekError):
    """The action is well formed but the rules do not allow it now."""


class RecordError(ZamekError):
    """A saved game is corrupt or inconsistent."""


class PositionError(ZamekError):
    """A position's text is malformed, or the position it describes cannot arise in a game."""


class DataError(ValueError):
    """A data file (tiles, castle, cards) breaks the data model."""
