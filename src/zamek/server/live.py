"""A castle game held in memory (:class:`LiveGame`) and the values around it: a move in words, replaying moves,
the chance due now, who plays each seat.

A :class:`LiveGame` is a game's saved-game record (setup, seed, moves) and the position those moves reach;
:mod:`zamek.server.sessions` keeps these games, stores their changes and brings them up to date.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from zamek import Action, Draw, GameState, Phase, RecordError, Reveal, Setup, ZamekError, new_game
from zamek.castle import record as records
from zamek.castle.bots.levels import OFFERED_LEVELS
from zamek.castle.report import describe_move
from zamek.castle.seeding import SeededChance
from zamek.castle.terms import LANGUAGES
from zamek.server.clock import Clock
from zamek.server.seats import Seat
from zamek.server.tables import Extras

SEED_BITS: Final = 62
COMPUTER: Final = "computer"
HOTSEAT: Final = "hotseat"
FRIEND: Final = "friend"
"""Two people, each on their own device: the creator's seat and a seat for the friend who opens the link."""


@dataclass
class MoveInfo:
    """A move as people read it: the action, who made it and its words in each language."""

    action: Action
    player: int | None
    words: dict[str, str]

    @property
    def text(self) -> str:
        return str(self.action)

    @property
    def chance(self) -> bool:
        return isinstance(self.action, (Draw, Reveal))


@dataclass
class LiveGame:
    """A game held in memory."""

    id: str
    mode: str
    level: str | None
    human: int | None
    seed: int
    setup: Setup
    created_at: datetime
    actions: list[Action]
    infos: list[MoveInfo]
    state: GameState
    revision: int
    seats: list[Seat] = field(default_factory=list)
    clock: Clock | None = None
    ended: dict[str, Any] | None = None
    """How the game ended before its rules ended it: ``{"reason": "resign" | "timeout", "loser": seat}``."""
    rematch: str | None = None
    """The id of the rematch offered or played after this game."""
    lock: threading.RLock = field(default_factory=threading.RLock)
    bot_error: str | None = None
    """Why the computer cannot play this game (read with the game's view)."""
    deleted: bool = False
    agreed_hints: bool = False
    """A game against a friend created with hints allowed (the friend joined knowing it)."""

    @property
    def hints_allowed(self) -> bool:
        """Whether a player may ask for hints: against the computer and at one screen always, against a friend
        when both agreed."""
        return self.mode != FRIEND or self.agreed_hints

    def record(self) -> dict[str, Any]:
        return records.make_record(self.setup, self.seed, self.actions, self.state)

    @property
    def over(self) -> bool:
        return self.ended is not None or self.state.is_over()

    def extras(self) -> Extras:
        return Extras(self.clock.to_json() if self.clock else None, self.ended, self.rematch, self.seat_to_act())

    @property
    def waiting_for_friend(self) -> bool:
        return any(seat.player == "open" for seat in self.seats)

    @property
    def everyone_seated(self) -> bool:
        """Every person's seat is taken: none is open, none is a rematch's seat its player has not taken yet."""
        return all(s.player == "computer" or (s.player == "person" and s.token_digest is not None) for s in self.seats)

    @property
    def thinking(self) -> bool:
        """The computer is about to move (its turn waits in the jobs, unless it failed)."""
        return self.computer_to_move() and self.bot_error is None

    def human_to_act(self, state: GameState | None = None) -> bool:
        """Return whether a person (not the computer, not chance) is to decide in ``state`` (default: now)."""
        state = self.state if state is None else state
        if state.is_over() or state.is_chance() or (state is self.state and self.ended is not None):
            return False
        return self.mode != COMPUTER or state.current == self.human

    def seat_to_act(self, state: GameState | None = None) -> int | None:
        """The seat whose decision the game waits for in ``state`` (default: now); None: chance, a friend yet to
        join, or the end."""
        state = self.state if state is None else state
        if self.ended is not None or state.is_over() or self.waiting_for_friend:
            return None
        if state.is_chance() and not (self.mode == HOTSEAT and state.phase is Phase.DRAW):
            return None
        return state.current

    def computer_to_move(self, state: GameState | None = None) -> bool:
        """Return whether the computer has something to do in ``state`` (default: now): its turn, or chance in
        its turn."""
        state = self.state if state is None else state
        over = self.ended is not None or state.is_over()
        return self.mode == COMPUTER and not over and not self.human_to_act(state)


@dataclass
class Created:
    """A new game and its secrets, given once to its creator: each person seat's token, the friend's invitation."""

    live: LiveGame
    tokens: dict[int, str]
    invite: str | None = None


def step(state: GameState, action: Action) -> MoveInfo:
    """Play ``action`` with every check and return it in words."""
    state.check(action)  # first: the words of an illegal move may not exist
    player: int | None = state.current
    if isinstance(action, Reveal):
        player = state.revealing_player()
    info = MoveInfo(action, player, {lang: describe_move(state, action, lang) for lang in LANGUAGES})
    state.apply(action)
    return info


def replay_moves(setup: Setup, actions: list[Action]) -> tuple[GameState, list[MoveInfo]]:
    """Replay moves with every check; raise a ZamekError naming the first bad one."""
    state = new_game(setup)
    infos = []
    for number, action in enumerate(actions, start=1):
        try:
            infos.append(step(state, action))
        except ZamekError as exc:
            raise RecordError(f"move {number} ({action}): {exc}") from None
    return state, infos


def chance_for(seed: int, state: GameState) -> Action:
    """The chance event due now in a game of ``seed`` (``zamek.castle.seeding``): the same after a restart or an
    undo."""
    return SeededChance(seed, state.tiles).outcome(state)


def players_of(live: LiveGame) -> list[str] | None:
    """Who plays each seat, as a saved game says it: 'person', or 'computer:LEVEL' (None: two people)."""
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


def status_of(state: GameState) -> str:
    return "over" if state.is_over() else "playing"


def wall_clock() -> float:
    return time.time()
