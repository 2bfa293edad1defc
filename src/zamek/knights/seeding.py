"""One seeding convention for Rycerze i zamki, as :mod:`zamek.castle.seeding` is the castle game's: a game's seed
fixes its chance the same way wherever the game is played (``zamek knights``, the arena, the research
environment, the web app, a record's ``seed``):

- the order of the tiles: the round tiles shuffled by ``Random("knights-tiles:S")``; each round turns up the first
  tile of that order not yet turned up. That is a uniform draw from the tiles left, and it does not depend on
  what the players do: every seat order of an arena seed sees the same tiles;
- each seat's own randomness (the computer players'): ``Random("knights-player:S:P")`` for seat ``P`` (the web app,
  which must decide the same way after a restart, takes ``Random("knights-player:S:P:M")`` at move ``M``), apart
  from the tiles: a player that thinks more or less never changes them.

The rules stay free of randomness: this module only chooses among ``state.chance_outcomes()``.
"""

from __future__ import annotations

import random
from collections import Counter

from zamek.knights.rules.actions import Draw
from zamek.knights.rules.engine import KnightsSetup, KnightsState


def tile_order(seed: int, setup: KnightsSetup) -> list[str]:
    """Every tile of a game of seed ``seed``, in the order they are turned up."""
    order = sorted(KnightsState.new(setup).undrawn)
    random.Random(f"knights-tiles:{seed}").shuffle(order)
    return order


def player_rng(seed: int, seat: int) -> random.Random:
    """The random stream of the player in ``seat`` (its bot's choices), apart from the tiles."""
    return random.Random(f"knights-player:{seed}:{seat}")


def player_move_rng(seed: int, seat: int, move: int) -> random.Random:
    """A player's random stream for its decision at ``move``, for a server that must decide the same way after a
    restart without keeping a generator's state (the web app)."""
    return random.Random(f"knights-player:{seed}:{seat}:{move}")


class SeededTiles:
    """Turns up a game's tiles by the convention above."""

    def __init__(self, seed: int, setup: KnightsSetup) -> None:
        self.order = tile_order(seed, setup)

    def outcome(self, state: KnightsState) -> Draw:
        """The tile turned up now: the first of the order not turned up yet (a setup's own order comes first)."""
        outcomes = state.chance_outcomes()
        if len(outcomes) == 1:
            return outcomes[0][0]
        seen = Counter(state.drawn)
        for tile in self.order:
            if seen[tile]:
                seen[tile] -= 1
            elif tile in state.undrawn:
                return Draw(tile)
        raise ValueError("no tile is left to turn up")
