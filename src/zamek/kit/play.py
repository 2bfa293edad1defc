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
class Played:
    """What a run of a game left: every action in order, and each seat's thinking."""

    actions: list[Any] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    think_seconds: list[float] = field(default_factory=list)
    max_seconds: list[float] = field(default_factory=list)


def run(
    game: G,
    choose: Sequence[Callable[[G, random.Random], Any]],
    rngs: Sequence[random.Random],
    chance: Callable[[G], Any],
    *,
    checked: bool = True,
    on_action: Callable[[G, Any], None] | None = None,
) -> Played:
    """Play ``game`` to its end: ``chance(game)`` decides chance events, seat ``p`` chooses with
    ``choose[p](game, rngs[p])``. ``checked`` plays through the rules' checks, else the fast ``apply``."""
    n = game.num_players
    played = Played([], [0] * n, [0.0] * n, [0.0] * n)
    while not game.is_over():
        if game.is_chance():
            action = chance(game)
        else:
            seat = game.current_player
            start = time.perf_counter()
            action = choose[seat](game, rngs[seat])
            spent = time.perf_counter() - start
            played.decisions[seat] += 1
            played.think_seconds[seat] += spent
            played.max_seconds[seat] = max(played.max_seconds[seat], spent)
        if on_action is not None:
            on_action(game, action)
        if checked:
            game.play(action)
        else:
            game.apply(action)
        played.actions.append(action)
    return played
