"""Saved games of both games: the JSON header every record has, and its list of moves.

A record comes from a file or a request, so nothing in it is trusted: before anything reads its fields,
``check_header`` refuses the shapes that would break Python itself rather than the rules (lists or objects nested
deeper than a record ever is, whole numbers too long to print), so a corrupt record is always a RecordError.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar, overload

from zamek.kit.errors import RecordError, ZamekError

T = TypeVar("T")

MAX_DEPTH: Final = 16
"""The deepest nesting of lists and objects a record may have (a record uses 3: ``setup``, ``draw_order``, a tile)."""
INTEGER_LIMIT: Final = 2**63
"""A record's whole numbers (seed, board, player) fit in 64 bits, as the database and other readers hold them."""
FILE_DIGITS: Final = 4300
"""The longest whole number a file may spell out (Python's own limit on reading digits, fixed here)."""


def read_record_file(path: Path) -> Any:
    """The JSON a saved game's file holds; RecordError naming the file if it cannot be read or is not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"), parse_int=lambda digits: _file_integer(path, digits))
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError("record-unreadable", path=str(path), detail=str(exc)) from None
    except json.JSONDecodeError as exc:
        raise RecordError("record-not-json", path=str(path), detail=exc.msg, line=exc.lineno, column=exc.colno,
                          at=exc.pos) from None
    except RecursionError:
        raise RecordError("record-file-too-deep", path=str(path)) from None


def _file_integer(path: Path, digits: str) -> int:
    """A whole number of the file, refused before Python's own limit turns it into a bare ValueError."""
    if len(digits) > FILE_DIGITS:
        raise RecordError("record-file-number", path=str(path), digits=len(digits), most=FILE_DIGITS)
    return int(digits)


def check_values(raw: Any) -> None:
    """Raise RecordError where ``raw`` nests deeper than ``MAX_DEPTH`` or holds a whole number beyond 64 bits,
    naming the field (``setup.board``, ``moves[3]``). Walked without recursion, so no depth breaks it."""
    pending: list[tuple[Any, str, int]] = [(raw, "", 0)]
    while pending:
        value, field, depth = pending.pop()
        if isinstance(value, int) and not isinstance(value, bool):
            if not -INTEGER_LIMIT <= value < INTEGER_LIMIT:
                raise RecordError("record-number", field=field or "record", bits=64)
            continue
        if not isinstance(value, dict | list):
            continue
        if depth == MAX_DEPTH:
            raise RecordError("record-too-deep", field=field or "record", depth=MAX_DEPTH)
        for key, child in value.items() if isinstance(value, dict) else enumerate(value):
            name = f"{field}[{key}]" if isinstance(key, int) else f"{field}.{key}" if field else str(key)
            pending.append((child, name[:80], depth + 1))


def check_header(raw: Any, format_name: str, version: int) -> dict[str, Any]:
    """Return ``raw`` if it is a record object of ``format_name`` in a version 1..``version``; else raise."""
    if not isinstance(raw, dict):
        raise RecordError("record-not-object")
    check_values(raw)
    if raw.get("format") != format_name:
        raise RecordError("record-format", expected=repr(format_name), found=repr(raw.get("format"))[:80])
    found = raw.get("version")
    if not isinstance(found, int) or isinstance(found, bool) or not 1 <= found <= version:
        raise RecordError("record-version", found=repr(found)[:80], last=version)
    return raw


@overload
def whole_number(raw: dict[str, Any], field: str, default: int) -> int: ...
@overload
def whole_number(raw: dict[str, Any], field: str, default: None) -> int | None: ...
def whole_number(raw: dict[str, Any], field: str, default: int | None) -> int | None:
    """A setup's whole number (a bool or a float such as 1.0 is not one): ``default`` where it is missing; null
    only where the default is null."""
    value = raw.get(field, default)
    if (value is not None or default is not None) and (not isinstance(value, int) or isinstance(value, bool)):
        raise RecordError("record-setup-number", field=field)
    return value


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
