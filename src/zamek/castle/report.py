"""Text reports of a game for people: the itemised breakdown and the result."""

from __future__ import annotations

from collections.abc import Sequence

from zamek.castle.rules.actions import (
    Action,
    Decline,
    Draw,
    Follower,
    Order,
    Pass,
    Piece,
    Place,
    Reveal,
    UseToken,
    parse_action,
)
from zamek.castle.rules.breakdown import ScoreItem
from zamek.castle.rules.setup import ROLES
from zamek.castle.rules.state import GameState
from zamek.castle.terms import counted, term, token_name


def player_name(player: int | None, lang: str = "en") -> str:
    return term("nobody", lang) if player is None else term("player", lang, n=player + 1)


def _detail_words(item: ScoreItem, lang: str, edition: str) -> list[str]:
    words = []
    for detail in item.details:
        key, _, value = detail.partition(":")
        if key == "token":
            words.append(token_name(int(value), lang, edition))
        elif key == "chapel-size":
            continue
        else:
            words.append(term(key, lang, edition))
    return words


def item_line(item: ScoreItem, lang: str = "en", edition: str = "zamek") -> str:
    """Return one breakdown line, such as 'road (stocks): Player 1, 5 tiles x 2 = 10 points'."""
    if item.reason == "token":
        what = _detail_words(item, lang, edition)[0]
        return f"{what}: {player_name(item.player, lang)}, {counted(item.points, 'points', lang, edition)}"
    what = term("most-nests" if item.reason == "nests" else item.reason, lang, edition)
    words = _detail_words(item, lang, edition)
    if words:
        what += f" ({', '.join(words)})"
    who = player_name(item.player, lang)
    unit = {"meadow": "shrines", "family-house": "empty-spaces", "nests": "empty-spaces"}.get(item.reason, "tiles")
    if item.reason == "chapel":
        tiles = next((d.partition(":")[2] for d in item.details if d.startswith("chapel-size:")), "?")
        sum_text = term("chapel-size", lang, tiles=tiles, points=item.rate)
        if item.multiplier != 1:
            sum_text += f" x {item.multiplier}"
        sum_text += f" = {counted(item.points + item.lost, 'points', lang, edition)}"
    else:
        factors = f"{counted(item.count, unit, lang, edition)} x {item.rate}"
        if item.multiplier != 1:
            factors += f" x {item.multiplier}"
        sum_text = f"{factors} = {counted(item.points + item.lost, 'points', lang, edition)}"
    if item.player is None:
        sum_text = f"{counted(item.count, unit, lang, edition)}, {counted(0, 'points', lang, edition)}"
    line = f"{what}: {who}, {sum_text}"
    if item.lost:
        line += f"; {term('gate-lost', lang, lost=item.lost)}"
    if item.nests:
        line += f"; {term('nests-taken', lang, n=item.nests)}"
    return line


def breakdown(state: GameState, lang: str = "en") -> str:
    """Return the whole itemised breakdown of a game so far, turn by turn, then the totals."""
    edition = state.setup.edition
    lines = [term("breakdown", lang)]
    final = [i for i in state.log if i.final]
    for item in state.log:
        if not item.final:
            lines.append(f"  #{item.turn:<3} {item_line(item, lang, edition)}")
    if final:
        lines.append(term("final-scoring", lang))
        lines.extend(f"  {item_line(item, lang, edition)}" for item in final)
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


def describe_move(state: GameState, action: Action, lang: str = "en") -> str:
    """Return a move in words, for the position ``state`` it is played in."""
    edition = state.setup.edition
    player = player_name(state.current, lang)
    if isinstance(action, Draw):
        return term("move-draw", lang, edition, turn=state.turn, player=player, tile=action.tile)
    if isinstance(action, Reveal):
        revealing = state.revealing_player()
        who = player_name(revealing, lang) if revealing is not None else player
        return term("move-reveal", lang, edition, player=who, token=token_name(action.kind, lang, edition))
    if isinstance(action, Place):
        tile = state.tiles.tiles[state.drawn].id
        space = state.castle.name_of(state.castle.cell(action.x, action.y))
        return term("move-place", lang, edition, player=player, tile=tile, space=space, degrees=90 * action.rotation)
    if isinstance(action, Follower):
        placed = state.tiles.tiles[state.placements[-1][1]]
        kind = placed.features[action.feature].kind
        figure = term(ROLES[kind], lang, edition)
        if action.piece is not Piece.FOLLOWER:
            figure = f"{term(action.piece.key, lang, edition)} ({figure})"
        return term("move-figure", lang, edition, player=player, figure=figure, feature=term(kind.key, lang, edition))
    if isinstance(action, Pass):
        return term("move-pass", lang, edition, player=player)
    if isinstance(action, Order):
        feature = term(state.order_choices()[action.choice].kind.key, lang, edition)
        return term("move-order", lang, edition, player=player, feature=feature)
    if isinstance(action, UseToken):
        return term("move-use", lang, edition, player=player, token=token_name(action.kind, lang, edition))
    if isinstance(action, Decline):
        return term("move-decline", lang, edition, player=player)
    return str(action)


def describe_moves(state: GameState, move: Sequence[str], lang: str = "en") -> str:
    """Return a move of several actions (in notation, as the analysis gives them) in words, for the position
    ``state`` it is played in (left as it is)."""
    position = state.copy()
    words = []
    for text in move:
        action = parse_action(text)
        words.append(describe_move(position, action, lang))
        position.apply(action)
    return "; ".join(words)
