"""The games the match service plays, each through a small adapter (:class:`GameKind`).

The match service (:mod:`zamek.server.sessions`) knows seats, tokens, joining, the turn and stale-revision checks,
the compare-and-set commit, clocks, resignations, aborts, rematches, the computer's turns as jobs and live events,
for any game. What differs between games is here: how a game's setup and moves are read and written, how a move is
played and described, when chance is decided in a person's request and when it is the computer's, who is to act,
what may be taken back, and how the computer thinks (a pure function, run in a pool). The views of a seat or a
spectator are the games' own (:mod:`zamek.server.views`, :mod:`zamek.server.games.knights`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from zamek.i18n import Message
from zamek.kit.errors import RecordError, ZamekError
from zamek.kit.play import Thinking
from zamek.server.errors import ServiceError

if TYPE_CHECKING:
    from zamek.server.live import LiveGame


@dataclass
class MoveInfo:
    """A move as people read it: the action, who made it and its message of the catalogue, said in any language
    when it is shown (where the game describes its moves: a card game's choices are secret until revealed, and its
    view tells them)."""

    action: Any
    player: int | None
    message: Message | None
    chance: bool = False
    shown: dict[object, Any] = field(default_factory=dict, repr=False, compare=False)
    """What the views made of the move once, to use again (its message as an answer carries it, its words in each
    language for each reader): a move's message never changes."""

    @property
    def text(self) -> str:
        return str(self.action)


@dataclass(frozen=True)
class Thought:
    """The computer's reply: its moves in notation (chance included), and how long its seats thought."""

    moves: list[str]
    thinking: Thinking = field(default_factory=Thinking)


Think = Callable[..., Thought]
"""The computer's whole reply from a game's record: its moves until a person is to decide or the game ends.
Module-level and pure (but for the clock it reads), so that it runs in a pool of processes."""


class GameKind(ABC):
    """One game as the match service plays it."""

    name: str
    """The game's kind as stored and in the protocol: 'castle' or 'knights'."""
    undo: bool = False
    """Whether a move may be taken back (while nothing has happened since)."""

    @abstractmethod
    def setup_from_json(self, raw: Any) -> Any: ...

    @abstractmethod
    def setup_to_json(self, setup: Any) -> dict[str, Any]: ...

    @abstractmethod
    def new_state(self, setup: Any) -> Any: ...

    @abstractmethod
    def parse(self, text: str) -> Any:
        """A move in the game's notation; a ZamekError (MalformedActionError) when it is not one."""

    @abstractmethod
    def step(self, state: Any, action: Any) -> MoveInfo:
        """Play ``action`` on ``state`` with every check; a ZamekError names what is wrong."""

    @abstractmethod
    def is_chance(self, action: Any) -> bool:
        """Whether ``action`` is chance (decided by the game, never chosen by a person)."""

    @abstractmethod
    def chance(self, live: LiveGame, state: Any, moves: int) -> Any:
        """The chance event due in ``state``, the ``moves``-th move of the game (the same after a restart)."""

    @abstractmethod
    def seats(self, setup: Any) -> int: ...

    @abstractmethod
    def scores(self, state: Any) -> list[int]: ...

    @abstractmethod
    def turn(self, state: Any) -> int:
        """What the lobby shows of the game's progress (the castle game's turn, the card game's round)."""

    @abstractmethod
    def seat_to_act(self, live: LiveGame, state: Any) -> int | None:
        """The seat whose decision the game waits for in ``state`` (None: chance or the computer's, or the end)."""

    @abstractmethod
    def computer_to_move(self, live: LiveGame, state: Any) -> bool:
        """Whether the computer has something to do in ``state``: its turn, or chance in its turn."""

    @abstractmethod
    def person_chance(self, live: LiveGame, state: Any, moves: int) -> bool:
        """Whether the chance due in ``state`` is decided at once in a person's request (``moves``: the game's
        moves so far, with those of this request); else it waits (the computer's draw, or a person's button)."""

    def refuse_person_action(self, live: LiveGame, state: Any, action: Any) -> ServiceError | None:
        """The refusal of ``action`` sent by a person now, beyond the engine's checks (None: they may send it)."""
        return None

    def undo_refusal(self, live: LiveGame) -> str | None:
        """Why the last move cannot be taken back now: the code of its message (``server.<code>``); None: it can."""
        return "no-undo"

    @abstractmethod
    def think(self) -> Think: ...

    @abstractmethod
    def think_args(self, live: LiveGame) -> tuple[Any, ...]:
        """The arguments of :meth:`think` for the computer's turn in ``live`` (plain values: they cross processes)."""

    @abstractmethod
    def record(self, live: LiveGame) -> dict[str, Any]:
        """The match's saved game (``live``'s setup, seed and moves)."""

    @abstractmethod
    def rematch_players(self, live: LiveGame) -> list[str]:
        """Who plays each seat of a rematch (``live.players`` moved round by one)."""

    def replay(self, setup: Any, actions: Sequence[Any]) -> tuple[Any, list[MoveInfo]]:
        """Replay moves with every check; raise a RecordError naming the first bad one."""
        state = self.new_state(setup)
        infos = []
        for number, action in enumerate(actions, start=1):
            try:
                infos.append(self.step(state, action))
            except ZamekError as exc:
                raise RecordError("record-move", number=number, action=str(action), reason=exc) from None
        return state, infos

    def winners(self, live: LiveGame) -> list[int]:
        """Who won: the other players when one resigned or ran out of time, else the best score."""
        scores = self.scores(live.state)
        if live.ended is not None:
            if live.ended.get("loser") is None:
                return []  # aborted: no result
            rest = [s for s in range(len(scores)) if s != live.ended["loser"]]
            best = max(scores[s] for s in rest)
            return [s for s in rest if scores[s] == best] if len(rest) > 1 else rest
        best = max(scores)
        return [s for s, score in enumerate(scores) if score == best]
