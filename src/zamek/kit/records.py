"""Saved games of both games: the JSON header every record has, and its list of moves."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from zamek.kit.errors import RecordError, ZamekError

T = TypeVar("T")


def read_record_file(path: Path) -> Any:
    """The JSON a saved game's file holds; RecordError naming the file if it cannot be read or is not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError("record-unreadable", path=str(path), detail=str(exc)) from None
    except json.JSONDecodeError as exc:
        raise RecordError("record-not-json", path=str(path), detail=exc.msg, line=exc.lineno, column=exc.colno,
                          at=exc.pos) from None


def check_header(raw: Any, format_name: str, version: int) -> dict[str, Any]:
    """Return ``raw`` if it is a record object of ``format_name`` in a version 1..``version``; else raise."""
    if not isinstance(raw, dict):
        raise RecordError("record-not-object")
    if raw.get("format") != format_name:
        raise RecordError("record-format", expected=repr(format_name), found=repr(raw.get("format")))
    found = raw.get("version")
    if not isinstance(found, int) or isinstance(found, bool) or not 1 <= found <= version:
        raise RecordError("record-version", found=repr(found), last=version)
    return raw


def parse_moves(raw: dict[str, Any], parse: Callable[[str], T]) -> list[T]:
    """Parse a record's ``moves`` with ``parse``; raise RecordError naming the first bad move."""
    moves = raw.get("moves")
    if not isinstance(moves, list):
        raise RecordError("record-moves-not-list")
    actions = []
    for number, text in enumerate(moves, start=1):
        try:
            actions.append(parse(text))
        except ZamekError as exc:
            raise RecordError("record-move-unreadable", number=number, reason=exc) from None
    return actions
