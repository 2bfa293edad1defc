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
        raise RecordError(f"cannot read {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not valid JSON: {exc}") from None


def check_header(raw: Any, format_name: str, version: int) -> dict[str, Any]:
    """Return ``raw`` if it is a record object of ``format_name`` in a version 1..``version``; else raise."""
    if not isinstance(raw, dict):
        raise RecordError("a saved game must be a JSON object")
    if raw.get("format") != format_name:
        raise RecordError(f"format: expected {format_name!r}, found {raw.get('format')!r}")
    found = raw.get("version")
    if not isinstance(found, int) or isinstance(found, bool) or not 1 <= found <= version:
        raise RecordError(f"version: {found!r} is not a version this program reads (1 to {version})")
    return raw


def parse_moves(raw: dict[str, Any], parse: Callable[[str], T]) -> list[T]:
    """Parse a record's ``moves`` with ``parse``; raise RecordError naming the first bad move."""
    moves = raw.get("moves")
    if not isinstance(moves, list):
        raise RecordError("moves: must be a list")
    actions = []
    for number, text in enumerate(moves, start=1):
        try:
            actions.append(parse(text))
        except ZamekError as exc:
            raise RecordError(f"move {number}: {exc}") from None
    return actions
