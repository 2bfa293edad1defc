"""Chance: tile draws (Z3) and token reveals (Z4, Z16), explicit so that the caller owns the randomness.

When ``is_chance()`` the caller picks one of ``chance_outcomes()`` (with a random generator it owns) and
applies it; the engine itself never draws a random number. What a draw or a reveal then does is the
turn's flow (:mod:`zamek.castle.rules.state`).
"""

from __future__ import annotations

from zamek.castle.rules.actions import ChanceOutcome, Draw, Reveal
from zamek.castle.rules.setup import Phase
from zamek.castle.rules.tokens import Tokens


class Chance(Tokens):
    """The chance events a position waits for, with their probabilities."""

    __slots__ = ()

    def is_chance(self) -> bool:
        return self.phase is Phase.DRAW or self.phase is Phase.REVEAL

    def unrevealed_tokens(self) -> tuple[int, ...]:
        """Tokens of each kind (index 1-9) not yet revealed: the pool a reveal draws from (Z4)."""
        return tuple(self.token_pool)

    def revealing_player(self) -> int | None:
        """The player whose token taken from a tower is to be revealed now (Z16), or None."""
        return self.pending_reveals[0] if self.phase is Phase.REVEAL and self.pending_reveals else None

    def chance_outcomes(self) -> list[tuple[ChanceOutcome, float]]:
        """Return the possible chance outcomes with their probabilities."""
        if self.phase is Phase.DRAW:
            order = self.setup.draw_order
            if order is not None:
                return [(Draw(order[self.draw_position]), 1.0)]
            p = 1.0 / len(self.remaining)
            ids = self.tiles.tiles
            return [(Draw(ids[t].id), p) for t in self.remaining]
        if self.phase is Phase.REVEAL:
            total = sum(self.token_pool)
            return [(Reveal(k), n / total) for k, n in enumerate(self.token_pool) if n]
        return []
