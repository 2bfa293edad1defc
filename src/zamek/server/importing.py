"""Importing a saved game: the checks a record sent by a caller meets before it is replayed, and the new game it
becomes (two people at one screen, or against the computer when its export says so).

:meth:`zamek.server.sessions.Sessions.import_record` runs these around its replay of the record's moves.
"""

from __future__ import annotations

import secrets
from typing import Any, Final

from zamek import Action, Draw, GameState, Setup, new_game
from zamek.castle import record as records
from zamek.server.errors import ServiceError
from zamek.server.games.castle import CASTLE, players_for
from zamek.server.live import COMPUTER, HOTSEAT, SEED_BITS, Created, LiveGame, MoveInfo, computer_of
from zamek.server.seats import SeatPlayer, seats_for
from zamek.server.tables import new_id, now

MAX_IMPORT_MOVES: Final = 5000


def check_length(raw: Any) -> None:
    """Refuse a saved game with more moves than any game has (before reading it)."""
    if isinstance(raw, dict) and isinstance(raw.get("moves"), list) and len(raw["moves"]) > MAX_IMPORT_MOVES:
        raise ServiceError(400, "invalid-record", "too-many-moves", limit=MAX_IMPORT_MOVES)


def check_draw_order(setup: Setup) -> None:
    """A game that goes on from a fixed draw order needs every tile of its set in it, once: refuse any other
    (its draws would run out, or name a tile that is not in the pile)."""
    assert setup.draw_order is not None
    ids = sorted(t.id for t in new_game(setup).tiles.tiles)
    if sorted(setup.draw_order) != ids:
        raise ServiceError(400, "invalid-record", "draw-order-set", tiles=len(ids))


def read_import(raw: Any) -> tuple[Setup, list[Action]]:
    """A saved game's setup and moves, checked as a record (the caller refuses what the engine raises)."""
    setup, actions = records.read_record(raw)
    draws = sum(isinstance(a, Draw) for a in actions)
    if setup.draw_order is not None and draws > len(setup.draw_order):
        raise ServiceError(400, "invalid-record", "draw-order-short", tiles=len(setup.draw_order), draws=draws)
    if setup.draw_order is not None:
        check_draw_order(setup)
    records.replay(raw)
    return setup, actions


def imported_game(raw: Any, setup: Setup, actions: list[Action], infos: list[MoveInfo], state: GameState
                  ) -> Created:
    """The new game a saved game becomes, with its seats' tokens: its own seed when it has a valid one, and against
    the computer at the level its export names."""
    seed = raw.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**62:
        seed = secrets.randbits(SEED_BITS)
    mode, level, human = HOTSEAT, None, None
    against = computer_of(raw.get("players"))
    if against is not None:  # a game against the computer goes on against it (the export says which level)
        mode, (human, level) = COMPUTER, against
    players: list[SeatPlayer] = ["person", "person"]
    if human is not None:
        players[1 - human] = "computer"
    seats, tokens, _ = seats_for(players, now())
    live = LiveGame(new_id(), CASTLE, mode, players_for(mode, level, human), seed, setup, now(), actions, infos, state,
                    0, seats, level=level, human=human, imported=True)
    return Created(live, tokens)
