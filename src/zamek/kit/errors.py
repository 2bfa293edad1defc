"""The errors both games raise for bad input and bad data (a request, a record, a data file).

An input error holds no sentence: it carries a code (its message in the catalogue is ``error.<code>``), the
rule it enforces (Z7, F3, K4...) and the values the message names (the space, the tile, the feature). Its
``str()`` is the message in the base language, for logs and tracebacks; a person reads ``error.text(lang)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from zamek.i18n import BASE, Message


class ZamekError(ValueError):
    """Base class of the input errors of both games."""

    def __init__(self, code: str, /, rule: str | None = None, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.rule = rule
        self.params: dict[str, object] = params

    @property
    def message(self) -> Message:
        """The error as a message of the catalogue (``error.<code>``), the rule id among its values."""
        values: dict[str, object] = dict(self.params)
        if self.rule is not None:
            values["rule"] = self.rule
        return Message(f"error.{self.code}", values)

    def text(self, lang: str = BASE, edition: str | None = None) -> str:
        """Return the error in ``lang``, in the words of ``edition``."""
        return self.message.text(lang, edition)

    def to_json(self) -> dict[str, Any]:
        """Return ``{"code": ..., "rule": ..., "params": {...}}`` (values that are words as their keys)."""
        return {"code": self.code, "rule": self.rule, "params": Message(self.code, self.params).to_json()["params"]}

    def __str__(self) -> str:
        try:
            return self.text()
        except (KeyError, TypeError):  # a message missing from the catalogue: still say what went wrong
            return f"{self.code} ({self.rule}) {self.params}" if self.rule else f"{self.code} {self.params}"

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (type(self), self.code, self.rule, self.params)


def _rebuild(cls: type[ZamekError], code: str, rule: str | None, params: Mapping[str, object]) -> ZamekError:
    return cls(code, rule, **params)


class MalformedActionError(ZamekError):
    """The text or value is not an action at all."""


class IllegalActionError(ZamekError):
    """The action is well formed but the rules do not allow it now."""


class RecordError(ZamekError):
    """A saved game is corrupt or inconsistent."""


class SetupError(ZamekError):
    """A game's setup is not one the rules allow (a rule set, a board, a number of players, a tile order).

    It is a ValueError as every ZamekError is: callers that catch ValueError around a setup still do."""


class DataError(ValueError):
    """A data file (tiles, castle, cards) breaks the data model. For the developers of the data: in English."""
