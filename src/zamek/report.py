"""Text reports of a game for people: the itemised breakdown and the result."""

from __future__ import annotations

from zamek.engine import GameState
from zamek.scoring import ScoreItem
from zamek.terms import term


def player_name(player: int | None, lang: str = "en") -> str:
    return term("nobody", lang) if player is None else term("player", lang, n=player + 1)


def item_line(item: ScoreItem, lang: str = "en") -> str:
    """Return one breakdown line, such as 'road (stocks): Player 1, 5 tiles x 2 = 10 points'."""
    what = term(item.reason, lang)
    if item.detail:
        what += f" ({term(item.detail, lang)})"
    unit = {"meadow": "shrines", "family-house": "empty-spaces"}.get(item.reason, "tiles")
    who = player_name(item.player, lang)
    return f"{what}: {who}, {item.count} {term(unit, lang)} x {item.rate} = {item.points} {term('points', lang)}"


def breakdown(state: GameState, lang: str = "en") -> str:
    """Return the whole itemised breakdown of a game so far, turn by turn, then the totals."""
    lines = [term("breakdown", lang)]
    final = [i for i in state.log if i.final]
    for item in state.log:
        if not item.final:
            lines.append(f"  #{item.turn:<3} {item_line(item, lang)}")
    if final:
        lines.append(term("final-scoring", lang))
        lines.extend(f"  {item_line(item, lang)}" for item in final)
    for player in (0, 1):
        lines.append(f"{term('total', lang)} {player_name(player, lang)}: {state.scores[player]}")
    if state.discarded:
        ids = ", ".join(state.tiles.tiles[t].id for t in state.discarded)
        lines.append(term("discarded", lang, tiles=ids))
    result = state.result()
    if result is not None:
        if len(result.winners) == 2:
            lines.append(term("shared-victory", lang))
        else:
            lines.append(term("winner", lang, who=player_name(result.winners[0], lang)))
    return "\n".join(lines)
