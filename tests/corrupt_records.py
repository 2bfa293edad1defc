"""Saved games spoilt in the ways that once broke the readers instead of the rules (issue 40): each is a record
of a real game of either kind with one thing wrong, as data (``corrupt_records``) and as the text of a file
(``corrupt_files``: what JSON itself can hold but Python cannot read as it is, a 5,000-digit whole number or
nesting 100,000 deep). Shared by the record readers' tests and the command line's."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from typing import Any, Final

from zamek.castle import record as castle_records
from zamek.castle.runner import play_game
from zamek.knights import record as knights_records
from zamek.knights.rules.engine import KnightsSetup
from zamek.knights.runner import play_game as play_knights_game

DEEP: Final = 100_000
DIGITS: Final = 5_000


@cache
def castle_record() -> dict[str, Any]:
    """The record of a random castle game (seed 1)."""
    game = play_game(1)
    return castle_records.make_record(game.setup, game.seed, game.actions, game.state)


@cache
def knights_record() -> dict[str, Any]:
    """The record of a random game of Rycerze i zamki (seed 1, three players)."""
    game = play_knights_game(1, ["random"] * 3, KnightsSetup(players=3))
    return knights_records.make_record(game.setup, game.seed, game.actions, game.state)


def _nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def _drawn(record: dict[str, Any]) -> list[str]:
    return [move.removeprefix("draw:") for move in record["moves"] if move.startswith("draw:")]


Change = Callable[[dict[str, Any]], None]

COMMON: Final[dict[str, Change]] = {
    "nested 100,000 deep": lambda r: r.__setitem__("seed", _nested(DEEP)),
    "5,000-digit seed": lambda r: r.__setitem__("seed", 10**DIGITS),
    "5,000-digit version": lambda r: r.__setitem__("version", -(10**DIGITS)),
    "5,000-digit score": lambda r: r.__setitem__("result", {"scores": [10**DIGITS, 0], "points": [10**DIGITS]}),
    "version 1.0": lambda r: r.__setitem__("version", 1.0),
    "setup a list": lambda r: r.__setitem__("setup", [1]),
    "moves not text": lambda r: r.__setitem__("moves", [None, 1]),
}
CASTLE: Final[dict[str, Change]] = {
    "draw_order shorter than the draws": lambda r: r["setup"].__setitem__("draw_order", _drawn(r)[:5]),
    "draw_order naming a tile twice": lambda r: r["setup"].__setitem__("draw_order", [_drawn(r)[0]] * 60),
    "first_player 1.0": lambda r: r["setup"].__setitem__("first_player", 1.0),
    "first_player true": lambda r: r["setup"].__setitem__("first_player", True),
    "board 2.0": lambda r: r["setup"].__setitem__("board", 2.0),
    "board of 5,000 digits": lambda r: r["setup"].__setitem__("board", 10**DIGITS),
}
KNIGHTS: Final[dict[str, Change]] = {
    "sword 1.0": lambda r: r["setup"].__setitem__("sword", 1.0),
    "players null": lambda r: r["setup"].__setitem__("players", None),
    "players of 5,000 digits": lambda r: r["setup"].__setitem__("players", 10**DIGITS),
    "tile_order too short": lambda r: r["setup"].__setitem__("tile_order", ["x"]),
}


def corrupt_records(game: str) -> dict[str, dict[str, Any]]:
    """Each spoilt record of ``game`` ("castle" or "knights"), by what is wrong with it."""
    base, own = (castle_record(), CASTLE) if game == "castle" else (knights_record(), KNIGHTS)
    spoilt = {}
    for name, change in {**COMMON, **own}.items():
        record = copy.deepcopy(base)
        change(record)
        spoilt[name] = record
    return spoilt


def corrupt_files(game: str) -> dict[str, bytes]:
    """The text of each spoilt file of ``game``: JSON that Python's reader cannot take as it is, then every
    spoilt record written out (what JSON can hold of it)."""
    base = castle_record() if game == "castle" else knights_record()
    head = f'{{"format": "{base["format"]}", "version": {base["version"]}, '
    files = {
        "a file nested 100,000 deep": head + '"seed": ' + "[" * DEEP + "]" * DEEP + "}",
        "a file with a 5,000-digit whole number": head + '"seed": ' + "9" * DIGITS + "}",
        "a file that is not JSON": "{not json",
        "an empty file": "",
    }
    spoilt = {name: text.encode() for name, text in files.items()}
    spoilt["a file of bytes that are not UTF-8"] = b"\xff\xfe{"
    for name, record in corrupt_records(game).items():
        if name != "nested 100,000 deep" and "5,000" not in name:  # JSON cannot write these: the files above
            spoilt[f"a record with {name}"] = json.dumps(record).encode()
    return spoilt
