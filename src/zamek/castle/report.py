"""Text reports of a game for people: the itemised breakdown and the result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

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
from zamek.castle.rules.geometry import rotate_segment
from zamek.castle.rules.state import GameState
from zamek.castle.terms import counted, feature, role, token
from zamek.i18n import BASE, NOBODY, Message, Reader, Seat, Term, catalogue, clauses, say

SIDES: Final = ("north", "east", "south", "west")
"""A tile's sides in the order of its segments, as a hint names the side a feature lies on."""
SPACES_NAMED: Final = 3
"""The spaces of a feature named in a hint; of a larger one, how many more it covers."""

UNITS: Final = {"meadow": "shrines", "family-house": "empty-spaces", "nests": "empty-spaces"}
"""What a score line counts, by its reason (tiles unless named here)."""


def player_name(player: int | None, lang: str = BASE, reader: Reader = NOBODY) -> str:
    """Return a player's name as ``reader`` knows them ("Player 1", "You")."""
    return catalogue(lang).value(_seat(player), reader=reader)


def _details(item: ScoreItem, edition: str) -> list[Term | Message]:
    words: list[Term | Message] = []
    for detail in item.details:
        key, _, value = detail.partition(":")
        if key == "token":
            words.append(token(int(value), edition))
        elif key != "chapel-size":
            words.append(Term(f"term.{key}"))
    return words


def score_message(item: ScoreItem, edition: str = "zamek") -> Message:
    """A score line as a message: 'road (stocks): Player 1, 5 tiles x 2 = 10 points'."""
    points = counted(item.points + item.lost, "points")
    if item.reason == "token":
        kind = int(item.details[0].partition(":")[2])
        return Message("score.token", {"token": token(kind, edition), "player": _seat(item.player),
                                       "points": counted(item.points, "points")})
    what: Term | Message = Term("score.most-nests") if item.reason == "nests" else Term(f"term.{item.reason}")
    details = _details(item, edition)
    if details:
        what = Message("score.what-with", {"what": what, "details": details})
    unit = counted(item.count, UNITS.get(item.reason, "tiles"))
    if item.player is None:
        return Message("score.line-nobody", {"what": what, "count": unit, "points": counted(0, "points")})
    doubled = item.multiplier != 1
    if item.reason == "chapel":
        tiles = next((int(d.partition(":")[2]) for d in item.details if d.startswith("chapel-size:")), 0)
        total = Message("score.chapel-sum-doubled" if doubled else "score.chapel-sum",
                        {"rate": item.rate, "tiles": tiles, "multiplier": item.multiplier, "points": points})
    else:
        total = Message("score.sum-doubled" if doubled else "score.sum",
                        {"count": unit, "rate": item.rate, "multiplier": item.multiplier, "points": points})
    line = Message("score.line", {"what": what, "player": Seat(item.player), "sum": total})
    if item.lost:
        line = Message("score.gate-lost", {"line": line, "lost": item.lost})
    if item.nests:
        line = Message("score.nests-taken", {"line": line, "nests": item.nests})
    return line


def _seat(player: int | None) -> Seat | Term:
    return Term("score.nobody-name") if player is None else Seat(player)


def item_line(item: ScoreItem, lang: str = BASE, edition: str = "zamek", reader: Reader = NOBODY) -> str:
    """Return one breakdown line, such as 'road (stocks): Player 1, 5 tiles x 2 = 10 points'."""
    return score_message(item, edition).text(lang, edition, reader)


def breakdown(state: GameState, lang: str = BASE, reader: Reader = NOBODY) -> str:
    """Return the whole itemised breakdown of a game so far, turn by turn, then the totals."""
    edition = state.setup.edition

    def line(key: str, **params: object) -> str:
        return say(key, lang, edition, reader, **params)

    lines = [line("report.title")]
    final = [i for i in state.log if i.final]
    for item in state.log:
        if not item.final:
            lines.append("  " + line("report.turn-line", turn=item.turn, line=score_message(item, edition)))
    if final:
        lines.append(line("report.final-scoring"))
        lines.extend("  " + score_message(item, edition).text(lang, edition, reader) for item in final)
    for player in (0, 1):
        lines.append(line("report.total", player=Seat(player), points=state.scores[player]))
    if state.discarded:
        lines.append(line("report.discarded", tiles=[state.tiles.tiles[t].id for t in state.discarded]))
    result = state.result()
    if result is not None:
        if len(result.winners) == 2:
            lines.append(line("report.shared-victory"))
        else:
            lines.append(line("report.winner", player=Seat(result.winners[0])))
    return "\n".join(lines)


def move_message(state: GameState, action: Action, *, where: bool = False) -> Message:
    """A move as a message, for the position ``state`` it is played in; the player is a Seat. ``where``: a figure's
    feature is named by where it lies (as a hint names it: a tile may hold two houses)."""
    edition = state.setup.edition
    player = Seat(state.current)
    if isinstance(action, Draw):
        return Message("move.draw", {"turn": state.turn, "player": player, "tile": action.tile})
    if isinstance(action, Reveal):
        revealing = state.revealing_player()
        who = Seat(revealing) if revealing is not None else player
        return Message("move.reveal", {"player": who, "token": token(action.kind, edition)})
    if isinstance(action, Place):
        tile = state.tiles.tiles[state.drawn].id
        space = state.castle.name_of(state.castle.cell(action.x, action.y))
        return Message("move.place", {"player": player, "tile": tile, "space": space, "degrees": 90 * action.rotation})
    if isinstance(action, Follower):
        placed = state.tiles.tiles[state.placements[-1][1]]
        kind = placed.features[action.feature].kind
        figure: Term | Message = role(kind)
        if action.piece is not Piece.FOLLOWER:
            figure = Message("move.special-figure", {"piece": Term(f"term.{action.piece.key}"), "role": figure})
        if where:
            return _figure_where(state, action, player, figure)
        return Message("move.figure", {"player": player, "figure": figure, "feature": feature(kind)})
    if isinstance(action, Pass):
        return Message("move.pass", {"player": player})
    if isinstance(action, Order):
        return Message("move.order", {"player": player, "feature": feature(state.order_choices()[action.choice].kind)})
    if isinstance(action, UseToken):
        return Message("move.use", {"player": player, "token": token(action.kind, edition)})
    assert isinstance(action, Decline), action
    return Message("move.decline", {"player": player})


def placed_feature_spaces(state: GameState, part: int) -> list[str]:
    """The spaces (start spaces by their id) that the feature of part ``part`` of the tile just placed covers, the
    tile's own first: the others are where the feature goes on from it."""
    cell = state.placements[-1][0]
    cells = state.feature_at(cell, part).cells
    starts = {s.cell: s.id for s in state.castle.starts}
    names = [starts.get(c) or state.castle.name_of(c) for c in range(cells.bit_length()) if cells >> c & 1]
    return sorted(names, key=lambda name: name != state.castle.name_of(cell))


def _figure_where(state: GameState, action: Follower, player: Seat, figure: Term | Message) -> Message:
    """A figure put on a feature of the tile just placed, the feature named by the spaces it covers once the tile is
    there and by the sides of the tile it touches: the sides tell apart two features of one kind on a tile (every
    tile's do), the spaces say how far it reaches."""
    _, tile_index, rotation = state.placements[-1]
    part = state.tiles.tiles[tile_index].features[action.feature]
    names = placed_feature_spaces(state, action.feature)
    sides = sorted({rotate_segment(s, rotation) // 3 for s in part.segments})
    return Message("move.figure-at", {
        "player": player, "figure": figure, "feature": feature(part.kind), "count": len(names),
        "spaces": Message("move.spaces", {"spaces": names[:SPACES_NAMED], "more": max(0, len(names) - SPACES_NAMED)}),
        "sides": [Term(f"move.side.{SIDES[side]}") for side in sides],
    })


def describe_move(state: GameState, action: Action, lang: str = BASE, reader: Reader = NOBODY) -> str:
    """Return a move in words, for the position ``state`` it is played in."""
    return move_message(state, action).text(lang, state.setup.edition, reader)


def moves_messages(state: GameState, move: Sequence[str]) -> list[Message]:
    """Return a move of several actions (in notation, as the analysis gives them) as messages, for the position
    ``state`` it is played in (left as it is)."""
    position = state.copy()
    messages = []
    for text in move:
        action = parse_action(text)
        messages.append(move_message(position, action))
        position.apply(action)
    return messages


def describe_moves(state: GameState, move: Sequence[str], lang: str = BASE, reader: Reader = NOBODY) -> str:
    """Return a move of several actions in words, joined as clauses."""
    return catalogue(lang).value(clauses(moves_messages(state, move)), state.setup.edition, reader)
