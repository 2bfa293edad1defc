"""The errors both games raise for bad input and bad data (a request, a record, a data file)."""

from __future__ import annotations


class ZamekError(ValueError):
    """Base class of the input errors of both games."""


class MalformedActionError(ZamekError):
    """The text or value is not an action at all."""


class IllegalActionError(ZamekError):
    """The action is well formed but the rules do not allow it now."""


class RecordError(ZamekError):
    """A saved game is corrupt or inconsistent."""


class DataError(ValueError):
    """A data file (tiles, castle, cards) breaks the data model."""
