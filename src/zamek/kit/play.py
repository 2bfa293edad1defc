"""One runner for both games: chance sampling, and a loop that lets each player choose in turn."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from zamek.kit.protocol import Game

G = TypeVar("G", bound=Game)


def sample_chance(game: Game, rng: random.Random) -> Any:
    """Pick a chance outcome of ``game`` with its probability."""
    outcomes = game.chance_outcomes()
    if len(outcomes) == 1:
        return outcomes[0][0]
    return rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]


@dataclass
class Thinking:
    """How long a player thought: its decisions, their seconds, the longest decision and the longest turn (all
    the decisions of one turn together: what a person playing it waits for)."""

    decisions: int = 0
    seconds: float = 0.0
    longest: float = 0.0
    turns: int = 0
    longest_turn: float = 0.0
    _turn: object = field(default=None, repr=False)
    _turn_seconds: float = field(default=0.0, repr=False)

    def record(self, turn: object, seconds: float) -> None:
        """Count a decision of ``seconds`` in ``turn`` (any value that differs from the last turn's)."""
        if self.turns == 0 or turn != self._turn:
            self._turn, self._turn_seconds = turn, 0.0
            self.turns += 1
        self._turn_seconds += seconds
        self.decisions += 1
        self.seconds += seconds
        self.longest = max(self.longest, seconds)
        self.longest_turn = max(self.longest_turn, self._turn_seconds)


@dataclass
class Played:
    """What a run of a game left: every action in order, and each seat's thinking."""

    actions: list[Any] = field(default_factory=list)
    thinking: list[Thinking] = field(default_factory=list)

    @property
    def decisions(self) -> list[int]:
        return [t.decisions for t in self.thinking]

    @property
    def think_seconds(self) -> list[float]:
        return [t.seconds for t in self.thinking]

    @property
    def max_seconds(self) -> list[float]:
        """Each seat's longest decision."""
        return [t.longest for t in self.thinking]

    @property
    def turns(self) -> list[int]:
        return [t.turns for t in self.thinking]

    @property
    def max_turn_seconds(self) -> list[float]:
        """Each seat's longest turn."""
        return [t.longest_turn for t in self.thinking]


def run(
    game: G,
    choose: Sequence[Callable[[G, random.Random], Any]],
    rngs: Sequence[random.Random],
    chance: Callable[[G], Any],
    *,
    checked: bool = True,
    on_action: Callable[[G, Any], None] | None = None,
    turn_of: Callable[[G], object] | None = None,
) -> Played:
    """Play ``game`` to its end: ``chance(game)`` decides chance events, seat ``p`` chooses with
    ``choose[p](game, rngs[p])``. ``checked`` plays through the rules' checks, else the fast ``apply``.

    A turn is a seat's decisions in a row; ``turn_of(game)`` (the game's turn number, say) also tells one turn
    from the next where a seat may take two in a row."""
    played = Played([], [Thinking() for _ in range(game.num_players)])
    runs, last_seat = 0, None  # runs of one seat's decisions: a new one whenever another seat decides
    while not game.is_over():
        if game.is_chance():
            action = chance(game)
        else:
            seat = game.current_player
            if seat != last_seat:
                runs, last_seat = runs + 1, seat
            turn = (runs, turn_of(game) if turn_of is not None else None)
            start = time.perf_counter()
            action = choose[seat](game, rngs[seat])
            played.thinking[seat].record(turn, time.perf_counter() - start)
        if on_action is not None:
            on_action(game, action)
        if checked:
            game.play(action)
        else:
            game.apply(action)
        played.actions.append(action)
    return played
