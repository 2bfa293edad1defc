"""Saved games of Rycerze i zamki: a JSON record of setup, seed and every action and tile drawn.

The record is plain data (a dict); reading and writing files is the caller's job. ``replay``
re-applies every entry with full checks, so a corrupt or inconsistent record raises
:class:`RecordError` naming the first bad entry. A record holds every secret choice: it is
the whole game, for after the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from zamek.kit.errors import RecordError, ZamekError
from zamek.kit.records import check_header, parse_moves, whole_number
from zamek.knights.rules.actions import Action, parse_action
from zamek.knights.rules.engine import KnightsSetup, KnightsState

FORMAT: Final = "zamek-knights-game"
VERSION: Final = 1
_SETUP_FIELDS: Final = {"players", "youngest", "sword", "tile_order"}


def setup_to_json(setup: KnightsSetup) -> dict[str, Any]:
    return {
        "players": setup.players,
        "youngest": setup.youngest_seat,
        "sword": setup.first_sword,
        "tile_order": list(setup.tile_order) if setup.tile_order is not None else None,
    }


def setup_from_json(raw: Any) -> KnightsSetup:
    """Read a setup; missing fields take their defaults."""
    if raw is None:
        return KnightsSetup()
    if not isinstance(raw, dict):
        raise RecordError("record-setup-not-object")
    unknown = set(raw) - _SETUP_FIELDS
    if unknown:
        raise RecordError("record-setup-fields", count=len(unknown), fields=[repr(f) for f in sorted(unknown)])
    players, youngest, sword = whole_number(raw, "players", 3), whole_number(raw, "youngest", None), \
        whole_number(raw, "sword", None)
    order = raw.get("tile_order")
    if order is not None and not (isinstance(order, list) and all(isinstance(t, str) for t in order)):
        raise RecordError("record-tile-order", field="tile_order")
    try:
        return KnightsSetup(players, youngest, sword, tuple(order) if order is not None else None)
    except ValueError as exc:
        raise RecordError("record-setup", reason=exc if isinstance(exc, ZamekError) else str(exc)) from None


def make_record(
    setup: KnightsSetup, seed: int | None, actions: Sequence[Action], state: KnightsState | None = None
) -> dict[str, Any]:
    """Return the JSON-ready record of a game (with its result when ``state`` is finished)."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "setup": setup_to_json(setup),
        "seed": seed,
        "moves": [str(a) for a in actions],
    }
    if state is not None and (result := state.result()) is not None:
        record["result"] = {"points": list(result.points), "ranking": list(result.ranking)}
    return record


def read_record(raw: Any) -> tuple[KnightsSetup, list[Action]]:
    """Check a record's header and parse its moves; raise RecordError naming the first bad entry."""
    record = check_header(raw, FORMAT, VERSION)
    setup = setup_from_json(record.get("setup"))
    return setup, parse_moves(record, parse_action)


def replay(raw: Any, upto: int | None = None) -> KnightsState:
    """Replay a record with full checks, up to move ``upto`` (all by default); verify a stated result."""
    setup, actions = read_record(raw)
    state = KnightsState.new(setup)
    limit = len(actions) if upto is None else upto
    if not 0 <= limit <= len(actions):
        raise RecordError("record-no-move", moves=len(actions), upto=limit)
    for number, action in enumerate(actions[:limit], start=1):
        try:
            state.play(action)
        except ZamekError as exc:
            raise RecordError("record-move", number=number, action=str(action), reason=exc) from None
    if upto is None and (claimed := raw.get("result")) is not None:
        result = state.result()
        if result is None:
            raise RecordError("record-unfinished")
        found = {"points": list(result.points), "ranking": list(result.ranking)}
        if not isinstance(claimed, dict) or any(claimed.get(k) != v for k, v in found.items()):
            raise RecordError("record-result", claimed=str(claimed), found=str(found))
    return state
