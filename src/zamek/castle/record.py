"""Saved games: a JSON record of setup, seed and every action and chance outcome.

The record is plain data (a dict); reading and writing files is the caller's job.
``replay`` re-applies every entry with full checks, so a corrupt or inconsistent
record raises :class:`RecordError` naming the first bad entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from zamek.castle.data.loader import new_game
from zamek.castle.rules.actions import Action, Draw, parse_action
from zamek.castle.rules.editions import Edition, edition_of
from zamek.castle.rules.errors import RecordError, ZamekError
from zamek.castle.rules.rulesets import OPTIONS
from zamek.castle.rules.setup import Setup
from zamek.castle.rules.state import GameState
from zamek.kit.records import check_header, parse_moves, whole_number

FORMAT: Final = "zamek-game"
VERSION: Final = 3
"""Version 3: the seed follows the one seeding convention (``zamek.castle.seeding``). Version 2 named the board
(the castle's revision) in the setup; version 1 records, without it, were played on board 1 and replay
there. A record's moves hold every draw and reveal, so every version replays without its seed."""


def setup_to_json(setup: Setup) -> dict[str, Any]:
    """A setup as a record holds it: its rule set spelt out (the edition, then the registry's keys of its
    expansions and of its variants: ``Setup.name`` joins the three), then what the rule set leaves open."""
    options = setup.options
    return {
        "edition": setup.edition,
        "expansions": [entry.key for entry in OPTIONS if entry.kind == "expansion" and entry.key in options],
        "variants": [entry.key for entry in OPTIONS if entry.kind == "variant" and entry.key in options],
        "first_player": setup.first_player,
        "draw_order": list(setup.draw_order) if setup.draw_order is not None else None,
        "board": setup.board,
    }


def setup_from_json(raw: Any, version: int | None = None) -> Setup:
    """Read a setup; a missing setup is the default game.

    The board: a version 1 record was played on board 1; later versions name theirs. A stored setup with
    no record version (the web app's database) and no board predates board 2.
    """
    if raw is None:
        return Setup(board=1) if version == 1 else Setup()
    if not isinstance(raw, dict):
        raise RecordError("record-setup-not-object")
    try:
        draw_order = raw.get("draw_order")
        if draw_order is not None and not (
            isinstance(draw_order, list) and all(isinstance(t, str) for t in draw_order)
        ):
            raise RecordError("record-tile-order", field="draw_order")
        expansions = raw.get("expansions", [])
        variants = raw.get("variants", [])
        if not all(isinstance(keys, list) and all(isinstance(k, str) for k in keys) for keys in (expansions, variants)):
            raise RecordError("record-option-lists")
        unknown = set(raw) - {"edition", "expansions", "variants", "first_player", "draw_order", "board"}
        if unknown:
            raise RecordError("record-setup-fields", count=len(unknown), fields=[repr(f) for f in sorted(unknown)])
        if version == 1 and raw.get("board", 1) != 1:
            raise RecordError("record-board-v1")
        if version is not None and version >= 2 and "board" not in raw:
            raise RecordError("record-board-missing")
        kinds = {entry.key: entry.kind for entry in OPTIONS}
        for field, kind, keys in (("expansions", "expansion", expansions), ("variants", "variant", variants)):
            if wrong := [key for key in keys if kinds.get(key) != kind]:
                raise RecordError("record-unknown-options", field=field, count=len(wrong),
                                  names=[repr(key) for key in wrong])
            if twice := sorted({key for key in keys if keys.count(key) > 1}):
                raise RecordError("record-options-twice", field=field, names=[repr(key) for key in twice])
        name = "+".join([edition_of(str(raw.get("edition", Edition.ZAMEK))).value, *expansions, *variants])
        return Setup.parse(name, first_player=whole_number(raw, "first_player", 0),
                           draw_order=tuple(draw_order) if draw_order is not None else None,
                           board=whole_number(raw, "board", 1))
    except RecordError:
        raise
    except ValueError as exc:
        raise RecordError("record-setup", reason=_reason(exc)) from None


def _reason(exc: ValueError) -> ZamekError | str:
    """The reason a setup was refused: the rules' own error, or (never expected) another's text."""
    return exc if isinstance(exc, ZamekError) else str(exc)


def make_record(
    setup: Setup, seed: int | None, actions: Sequence[Action], state: GameState | None = None
) -> dict[str, Any]:
    """Return the JSON-ready record of a game (with its result when ``state`` is finished)."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "setup": setup_to_json(setup),
        "seed": seed,
        "moves": [str(a) for a in actions],
    }
    if state is not None and state.is_over():
        record["result"] = {"scores": list(state.scores)}
    return record


def read_record(raw: Any) -> tuple[Setup, list[Action]]:
    """Check a record's header and parse its moves; raise RecordError naming the first bad entry."""
    record = check_header(raw, FORMAT, VERSION)
    setup = setup_from_json(record.get("setup"), record["version"])
    return setup, parse_moves(record, parse_action)


def _check_draw_order(order: Sequence[str], state: GameState, draws: int) -> None:
    """A fixed draw order must name tiles of the set, each once, and no fewer than the moves draw: the engine
    takes the order's next tile as the only outcome, and has none to take past its end."""
    pile = {tile.id for tile in state.tiles.tiles}
    seen: set[str] = set()
    for tile in order:
        if tile not in pile or tile in seen:
            raise RecordError("record-draw-order-tile", tile=tile[:20])
        seen.add(tile)
    if draws > len(order):
        raise RecordError("record-draw-order-short", tiles=len(order), draws=draws)


def replay(raw: Any, upto: int | None = None) -> GameState:
    """Replay a record with full checks, up to move ``upto`` (all by default); verify the result."""
    setup, actions = read_record(raw)
    try:
        state = new_game(setup)
    except ZamekError as exc:
        raise RecordError("record-setup", reason=exc) from None
    if setup.draw_order is not None:
        _check_draw_order(setup.draw_order, state, sum(isinstance(action, Draw) for action in actions))
    limit = len(actions) if upto is None else upto
    if not 0 <= limit <= len(actions):
        raise RecordError("record-no-move", moves=len(actions), upto=limit)
    for number, action in enumerate(actions[:limit], start=1):
        try:
            state.play(action)
        except ZamekError as exc:
            raise RecordError("record-move", number=number, action=str(action), reason=exc) from None
    if upto is None:
        result = raw.get("result")
        if result is not None:
            if not state.is_over():
                raise RecordError("record-unfinished")
            scores = result.get("scores") if isinstance(result, dict) else None
            if scores != list(state.scores):
                raise RecordError("record-scores", claimed=str(scores), found=str(list(state.scores)))
    return state
