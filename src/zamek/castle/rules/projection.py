"""What the scores would be if the game ended now: the final scoring (Z20; end tokens 4-9 of Z19, C4; the falcon
nests' empty area, F6) applied to the current position.

Everything it reads is open information (Z22): the figures, the shrines, the family houses, the empty spaces, the
tokens each player has taken (face up) and the nests. The tokens still face down on the towers count for nobody at
the end (Z20), so their kinds, which nobody knows, change nothing; the draw pile's order is not read either. The
same projection is therefore right to show to both players and to anyone watching.

Features completed in a turn that is still being scored (an order or a x2 token to decide) count once they are
scored: the projection adds the end's awards to the scores as they stand.
"""

from __future__ import annotations

from zamek.castle.rules.breakdown import totals
from zamek.castle.rules.state import GameState


def projected_scores(state: GameState) -> tuple[int, ...]:
    """Each player's score if the game ended in ``state`` (a finished game: its final scores). ``state`` is not
    changed: the final scoring's lines are read from the position (``final_items``), as the game's end adds them."""
    if state.is_over():
        return tuple(state.scores)
    awards = totals(state.final_items(), state.num_players)
    return tuple(score + award for score, award in zip(state.scores, awards, strict=True))
