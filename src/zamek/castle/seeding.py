"""One seeding convention: a game's seed fixes its chance the same way everywhere.

A seed ``S`` fixes, whoever plays and wherever the game is played (``zamek selfplay``, ``watch``,
``arena``, ``ladder``, the web app, a record's ``seed``; ``train-value`` keeps its own generator so that
the shipped value model is reproduced from the seeds written in it):

- the first player, ``Random("zamek-first:S").randrange(2)`` (Z5), unless the setup names one;
- the order of the tiles: the tile set shuffled by ``Random("zamek-tiles:S")``; each draw takes the
  first tile of that order still in the pile. That is a uniform draw from the pile (Z3), and it does
  not depend on what the players do: both seat orders of an arena seed see the same tiles, and a tile
  discarded (Z8) changes nothing after it;
- the order of the special tokens: the 18 tokens shuffled by ``Random("zamek-tokens:S")``; the n-th
  token revealed is the n-th of that order, the same as drawing from the tokens not yet revealed (Z4);
- each player's own randomness (the computer players'): ``Random("zamek-player:S:P")`` for seat ``P``
  (the web app, which must decide the same way after a restart, takes ``Random("zamek-player:S:P:M")``
  at move ``M``), apart from the chance above: a bot that thinks more or less never changes the tiles,
  and neither does undoing a move.

The rules core stays free of randomness: this module only chooses among ``state.chance_outcomes()``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from zamek.castle.rules.actions import ChanceOutcome, Draw, Reveal
from zamek.castle.rules.setup import TOKEN_KINDS, TOKENS_PER_KIND, Phase
from zamek.castle.rules.state import GameState
from zamek.castle.rules.tiles import TileSet

ALL_TOKENS: Final = tuple(kind for kind in range(1, TOKEN_KINDS + 1) for _ in range(TOKENS_PER_KIND))


def first_player(seed: int) -> int:
    """The player who starts a game of seed ``seed`` unless its setup says otherwise (Z5)."""
    return random.Random(f"zamek-first:{seed}").randrange(2)


def player_rng(seed: int, seat: int) -> random.Random:
    """The random stream of the player in ``seat`` (its bot's choices), apart from the game's chance."""
    return random.Random(f"zamek-player:{seed}:{seat}")


def player_move_rng(seed: int, seat: int, move: int) -> random.Random:
    """A player's random stream for its decision at ``move``, for a server that must decide the same way
    after a restart without keeping a generator's state (the web app)."""
    return random.Random(f"zamek-player:{seed}:{seat}:{move}")


class SeededChance:
    """Decides a game's chance events by the convention above."""

    def __init__(self, seed: int, tiles: TileSet) -> None:
        self.seed = seed
        order = list(range(len(tiles)))
        random.Random(f"zamek-tiles:{seed}").shuffle(order)
        self.tile_order: tuple[int, ...] = tuple(order)
        tokens = list(ALL_TOKENS)
        random.Random(f"zamek-tokens:{seed}").shuffle(tokens)
        self.token_order: tuple[int, ...] = tuple(tokens)

    def outcome(self, state: GameState) -> ChanceOutcome:
        """Return the chance outcome due now: the next tile of the order still in the pile, or the next token."""
        outcomes = state.chance_outcomes()
        if len(outcomes) == 1:  # a fixed draw order (tests, puzzles)
            return outcomes[0][0]
        if state.phase is Phase.DRAW:
            pile = set(state.remaining)
            tile = next(t for t in self.tile_order if t in pile)
            return Draw(state.tiles.tiles[tile].id)
        if state.phase is Phase.REVEAL:
            return Reveal(self._next_token(state.unrevealed_tokens()))
        raise ValueError(f"no chance event is due in phase {state.phase.name}")

    def _next_token(self, pool: Sequence[int]) -> int:
        """The first token of the order whose copies are not all revealed yet (``pool``: copies left per kind)."""
        passed = [0] * (TOKEN_KINDS + 1)
        for kind in self.token_order:
            revealed = TOKENS_PER_KIND - pool[kind]
            if passed[kind] >= revealed:
                return kind
            passed[kind] += 1
        raise ValueError("every token has been revealed")
