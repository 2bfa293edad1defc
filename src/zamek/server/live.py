"""A match held in memory (:class:`LiveGame`), of either game: its record (setup, seed, moves), the position those
moves reach, its seats, clock and ending; and the values around it.

:mod:`zamek.server.sessions` keeps these matches, stores their changes and brings them up to date; what differs
between the games is asked of the match's :class:`~zamek.server.games.GameKind`.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from zamek.castle.bots.levels import OFFERED_LEVELS
from zamek.server.clock import Clock
from zamek.server.games import GameKind, MoveInfo
from zamek.server.games.castle import CASTLE, COMPUTER, FRIEND, HOTSEAT, chance_for, step
from zamek.server.seats import Seat

__all__ = [
    "COMPUTER",
    "FRIEND",
    "HOTSEAT",
    "PEOPLE",
    "SEED_BITS",
    "Created",
    "LiveGame",
    "MoveInfo",
    "chance_for",
    "computer_of",
    "players_of",
    "step",
    "wall_clock",
]

SEED_BITS: Final = 62
PEOPLE: Final = ("person", "friend")
"""The players of a seat who are people: at the creator's screen, or a friend on their own device."""


@dataclass
class LiveGame:
    """A match held in memory."""

    id: str
    kind: GameKind
    mode: str
    """The castle game: 'computer', 'hotseat' or 'friend'; the card game: 'table'."""
    players: list[str]
    """Who plays each seat: 'person', 'friend', or a computer player (its level)."""
    seed: int
    setup: Any
    created_at: datetime
    actions: list[Any]
    infos: list[MoveInfo]
    state: Any
    revision: int
    seats: list[Seat] = field(default_factory=list)
    clock: Clock | None = None
    ended: dict[str, Any] | None = None
    """How the game ended before its rules ended it: ``{"reason": "resign" | "timeout", "loser": seat}``, or
    ``{"reason": "abort"}`` (before both players had moved: no result)."""
    rematch: str | None = None
    """The id of the rematch offered or played after this game."""
    level: str | None = None
    """The castle game against the computer: its level."""
    human: int | None = None
    """The castle game against the computer: the person's seat."""
    lock: threading.RLock = field(default_factory=threading.RLock)
    bot_error: str | None = None
    """Why the computer cannot play this game (read with the game's view)."""
    deleted: bool = False
    agreed_hints: bool = False
    """A game against a friend created with hints allowed (the friend joined knowing it)."""
    imported: bool = False
    """A castle game made from a saved game's record."""
    rated: bool = False
    """A game between two players with identities that counts for their ratings: no hints, no takebacks."""
    listed: bool = False
    """Listed among the live games anyone may watch (``GET /api/live``): its creator asked for it."""
    deadline_ms: int | None = None
    """When the time of the seat to move runs out (before the game has started: its time for a first move)."""
    takeback: dict[str, Any] | None = None
    """A castle game with a friend: the takeback asked or declined on this position (:mod:`zamek.server.takeback`);
    every move clears it."""

    @property
    def position_revision(self) -> int:
        """The revision this game's position was reached at: a change that is no move (a takeback asked or
        declined) raises the revision and keeps the position, so a move sent from the page of that position
        still stands."""
        reached = (self.takeback or {}).get("at")
        return reached if isinstance(reached, int) and reached <= self.revision else self.revision

    @property
    def hints_allowed(self) -> bool:
        """Whether a player may ask for hints: against the computer and at one screen always, against a friend
        when both agreed."""
        return (self.mode != FRIEND or self.agreed_hints) and not self.rated

    @property
    def over(self) -> bool:
        return self.ended is not None or self.state.is_over()

    @property
    def aborted(self) -> bool:
        return self.ended is not None and self.ended.get("reason") == "abort"

    @property
    def waiting_for_friend(self) -> bool:
        return any(seat.player == "open" for seat in self.seats)

    @property
    def everyone_seated(self) -> bool:
        """Every person's seat is taken: none is open, none is a rematch's seat its player has not taken yet."""
        return all(s.player == "computer" or (s.player == "person" and s.token_digest is not None) for s in self.seats)

    @property
    def invites_friends(self) -> bool:
        """Friends were invited to seats (rematches are for such matches)."""
        return self.mode == FRIEND or "friend" in self.players

    @property
    def friend_joined(self) -> bool:
        """A friend has taken a seat: the match belongs to more than its creator."""
        if self.mode == FRIEND:
            return not self.waiting_for_friend
        return any(self.players[s.index] == "friend" and s.player == "person" for s in self.seats)

    def is_computer(self, seat: int) -> bool:
        return self.players[seat] not in PEOPLE

    @property
    def thinking(self) -> bool:
        """The computer is about to move (its turn waits in the jobs, unless it failed)."""
        return self.computer_to_move() and self.bot_error is None

    def record(self) -> dict[str, Any]:
        return self.kind.record(self)

    def human_to_act(self, state: Any = None) -> bool:
        """Whether a person (not the computer, not chance) is to decide in ``state`` (default: now)."""
        state = self.state if state is None else state
        if self.kind is CASTLE:
            return CASTLE.human_to_act(self, state)
        return self.seat_to_act(state) is not None

    def seat_to_act(self, state: Any = None) -> int | None:
        """The seat whose decision the game waits for in ``state`` (default: now); None: chance, a friend yet to
        join, the computer, or the end."""
        return self.kind.seat_to_act(self, self.state if state is None else state)

    def computer_to_move(self, state: Any = None) -> bool:
        """Whether the computer has something to do in ``state`` (default: now)."""
        return self.kind.computer_to_move(self, self.state if state is None else state)

    def started(self, infos: list[MoveInfo], state: Any = None) -> bool:
        """Every person has made a first move, their turn over (the clocks run from then on), in the game of moves
        ``infos`` reaching ``state`` (default: now)."""
        # A move is made once another player has moved after it, or chance that is nobody's has come (a card game's
        # tile, turned up once every seat has chosen); a castle game's draw and reveal are their player's.
        movers = [i.player for i in infos if not i.chance or i.player is None]
        done: set[int | None] = set()
        later: set[int | None] = set()
        for player in reversed(movers):
            if later - {player}:
                done.add(player)
            later.add(player)
        if movers and self.seat_to_act(self.state if state is None else state) != movers[-1]:
            done.add(movers[-1])
        return all(seat in done for seat in self.person_seats())

    def person_seats(self) -> list[int]:
        """The seats people play (their first moves start the clocks)."""
        return [s for s in range(len(self.players)) if not self.is_computer(s)]


@dataclass
class Created:
    """A new game and its secrets, given once to its creator: each person seat's token, the friend's invitation."""

    live: LiveGame
    tokens: dict[int, str]
    invite: str | None = None


def players_of(live: LiveGame) -> list[str] | None:
    """Who plays each seat of a castle game, as a saved game says it: 'person', or 'computer:LEVEL' (None: two
    people)."""
    if live.mode != COMPUTER or live.human is None:
        return None
    return ["person" if seat == live.human else f"computer:{live.level}" for seat in (0, 1)]


def computer_of(players: Any) -> tuple[int, str] | None:
    """The person's seat and the computer's level of a saved game's ``players`` (None: not against the computer,
    or not a list this program knows)."""
    if not isinstance(players, list) or len(players) != 2 or players.count("person") != 1:
        return None
    human = players.index("person")
    other = players[1 - human]
    if not isinstance(other, str) or not other.startswith("computer:") or other[9:] not in OFFERED_LEVELS:
        return None
    return human, other[9:]


def wall_clock() -> float:
    return time.time()
