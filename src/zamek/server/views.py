"""The answers the page draws, built from the engine's public reading API as the models of :mod:`zamek.server.schemas`.

A position is read through the state's public methods and the feature view (``feature_at``,
``order_choices``, ``feature_being_scored``, ``legal_actions``, ``usable_tokens``); places are named by
their space names (start spaces by their id) and features by their feature-view id, never by cell
numbers. Every word comes from the catalogue (:mod:`zamek.i18n`), in the view's language and the words of the
game's edition; a line (a move, a score) goes with its message (``{key, params}``, players as seats) so that a
page says it as its own reader knows the players, and in words as the request's seat reads it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import Any, Final

from zamek import (
    Decline,
    Draw,
    FeatureKind,
    FeatureView,
    Follower,
    GameState,
    Order,
    Pass,
    Phase,
    Piece,
    Place,
    Reveal,
    TokenKind,
    UseToken,
)
from zamek.castle import record as records
from zamek.castle.report import score_message
from zamek.castle.rules.board import CastleDef
from zamek.castle.rules.breakdown import ScoreItem
from zamek.castle.rules.geometry import rotate_segment, space_name
from zamek.castle.rules.projection import projected_scores
from zamek.castle.rules.setup import ROLES, Setup
from zamek.castle.rules.tokens import printed_number
from zamek.castle.terms import counted, feature, role, token
from zamek.i18n import BASE, NOBODY, Catalogue, Message, Reader, Seat, Term, catalogue, languages
from zamek.server.cache import Body, ViewCache, json_members
from zamek.server.errors import computer_failed
from zamek.server.schemas import (
    Choice,
    ClockView,
    DeclineChoice,
    DrawnTile,
    EndedView,
    FeatureInfo,
    FeatureRef,
    FigureChoice,
    FigureView,
    GameLine,
    GameStatus,
    GameView,
    MessageView,
    Mode,
    MoveKind,
    MoveLine,
    OrderChoice,
    PassChoice,
    PhaseName,
    PieceKey,
    PlacementView,
    PlaceOption,
    PlayerView,
    PromptWords,
    ReplayInfo,
    ReplayMove,
    ReplayView,
    ResultView,
    ScoreLine,
    SeatView,
    SetupInfo,
    TakebackView,
    TokenView,
    UseChoice,
)
from zamek.server.seats import seat_of
from zamek.server.sessions import COMPUTER, FRIEND, HOTSEAT, LiveGame, MoveInfo
from zamek.server.tables import Extras, StoredMatch

PHASES: Final[dict[Phase, PhaseName]] = {
    Phase.DRAW: "draw", Phase.PLACE: "place", Phase.FOLLOWER: "follower", Phase.REVEAL: "reveal",
    Phase.OVER: "over", Phase.ORDER: "order", Phase.DOUBLE: "double", Phase.EXTRA_TURN: "extra_turn",
}
PIECES: Final[dict[Piece, PieceKey]] = {Piece.FOLLOWER: "follower", Piece.PRINCE: "prince", Piece.FALCONER: "falconer"}
MOVE_KINDS: Final[dict[type, MoveKind]] = {
    Draw: "draw", Reveal: "reveal", Place: "place", Follower: "figure", Pass: "pass", Order: "order", UseToken: "use",
    Decline: "decline",
}
MODES: Final[dict[str, Mode]] = {COMPUTER: "computer", HOTSEAT: "hotseat", FRIEND: "friend"}
RECENT: Final = 8
"""The moves a game view repeats in words."""


class Spaces:
    """The names of a castle's spaces: an interior space by its name (``e10``), a start space by its id (``S5``)."""

    def __init__(self, state: GameState) -> None:
        self._names = _space_names(state.castle)

    def name(self, cell: int) -> str:
        return self._names[cell]

    def of(self, mask: int) -> list[str]:
        """The spaces in a bit mask of cells (``FeatureView.cells``, ``ScoreItem.cells``), in the engine's order."""
        names = []
        while mask:
            low = mask & -mask
            names.append(self._names[low.bit_length() - 1])
            mask ^= low
        return names

    def feature(self, view: FeatureView) -> FeatureRef:
        return FeatureRef(id=view.id, kind=view.kind.key, tiles=view.tiles, spaces=self.of(view.cells))



_SPACE_NAMES: dict[int, tuple[CastleDef, dict[int, str]]] = {}


def _space_names(castle: CastleDef) -> dict[int, str]:
    """Each cell's space name on a board: there are few boards, and their names never change (kept by the board's
    identity: hashing a board would hash all its cells)."""
    held = _SPACE_NAMES.get(id(castle))
    if held is None or held[0] is not castle:
        names = {c: castle.name_of(c) for c in castle.interior} | {s.cell: s.id for s in castle.starts}
        held = _SPACE_NAMES[id(castle)] = (castle, names)
    return held[1]


def public_setup(setup: Setup, over: bool) -> dict[str, Any]:
    """A game's setup as it may be shown: a fixed draw order (an imported game's) only once the game is over,
    since it tells every tile to come (Z22)."""
    raw = records.setup_to_json(setup)
    if not over:
        raw["draw_order"] = None
    return raw

def move_kind(info: MoveInfo) -> MoveKind:
    return MOVE_KINDS[type(info.action)]


def message_view(message: Message) -> MessageView:
    """A message as an answer carries it: its key and its values as JSON (players as ``{"seat": n}``)."""
    return MessageView(**message.to_json())


@lru_cache(maxsize=8192)
def score_line(item: ScoreItem, edition: str) -> tuple[Message, MessageView]:
    """A score line's message and that message as an answer carries it (made once: every view of a game repeats
    its score log)."""
    message = score_message(item, edition)
    return message, message_view(message)


@lru_cache(maxsize=16384)
def _score_words(item: ScoreItem, edition: str, words: Catalogue, you: frozenset[int]) -> str:
    """A score line in words, as the player of the seats ``you`` reads it (made once for each)."""
    return words.render(score_line(item, edition)[0], edition, Reader(you=you))


def said(message: Message, lang: str, edition: str | None, reader: Reader, made: dict[object, Any]) -> str:
    """A message in words, as ``reader`` reads it: made once for each language and reader and kept in ``made``
    (a move's: its words never change)."""
    words = catalogue(lang)
    if reader.names:
        return words.render(message, edition, reader)
    key = (words, edition, reader.you)
    text = made.get(key)
    if text is None:
        text = made[key] = words.render(message, edition, reader)
    return str(text)


def terms_for(lang: str, edition: str) -> dict[str, str]:
    """Return the words of the game (the catalogue's ``term.*``, by the key after ``term.``) in the words of the
    edition, and the players' names as the catalogue writes them (``player-1``, ``player-2``)."""
    return dict(_terms(catalogue(lang), catalogue(BASE), edition))


@lru_cache(maxsize=64)
def _terms(words: Catalogue, base: Catalogue, edition: str) -> tuple[tuple[str, str], ...]:
    """The terms of a catalogue (read again with it: a new catalogue is a new key) in an edition's words."""
    every = base.keys()  # the base language has every key
    keys = sorted({key.partition("@")[0] for key in every if key.startswith("term.")})
    terms = {key.removeprefix("term."): words.say(key, edition) for key in keys}
    terms |= {f"player-{p + 1}": words.value(Seat(p)) for p in (0, 1)}
    return tuple(terms.items())


def figure_message(kind: FeatureKind, piece: Piece) -> Message:
    """A figure on a feature: "herald — road", "prince (herald) — road"."""
    figure: Term | Message = role(kind)
    if piece is not Piece.FOLLOWER:
        figure = Message("server.view.special-figure", {"piece": Term(f"term.{piece.key}"), "role": figure})
    return Message("server.view.figure", {"figure": figure, "feature": feature(kind)})


def feature_message(kind: FeatureKind, tiles: int) -> Message:
    """A feature with its size: "road: 3 tiles"."""
    return Message("server.view.feature-size", {"feature": feature(kind), "tiles": counted(tiles, "tiles")})


def hidden_token(kind: int, count: int, edition: str) -> Message:
    """Tokens of a kind not yet revealed: "special token 2 (house x2) ×3"."""
    return Message("server.view.hidden-token", {"token": token(kind, edition), "count": count})


@lru_cache(maxsize=1024)
def _hidden_words(kind: int, count: int, edition: str, words: Catalogue) -> str:
    """:func:`hidden_token` in words (made once: every view of a game says its hidden tokens)."""
    return words.render(hidden_token(kind, count, edition), edition, NOBODY)


@lru_cache(maxsize=256)
def _token_words(kind: int, edition: str, words: Catalogue) -> str:
    """A token's name in words (made once: every view names each player's tokens)."""
    return words.render(token(kind, edition), edition, NOBODY)


def _doubling_gain(state: GameState, use: UseToken) -> int:
    """The points a x2 token adds to the feature being scored: that player's score right after using it, less
    right after keeping it (both played out on copies)."""
    player = state.current
    used, kept = state.copy(), state.copy()
    used.apply(use)
    kept.apply(Decline())
    return used.scores[player] - kept.scores[player]


def feature_infos(state: GameState, spaces: Spaces) -> tuple[list[list[int]], list[FeatureInfo]]:
    """Return the feature id of each part of each placed tile, in order of placement, and those features."""
    parts: list[list[int]] = []
    found: dict[int, FeatureInfo] = {}
    for cell, tile, _rotation in state.placements:
        ids = []
        for part in range(len(state.tiles.tiles[tile].features)):
            feature = state.feature_at(cell, part)
            ids.append(feature.id)
            if feature.id not in found:
                found[feature.id] = FeatureInfo(
                    id=feature.id, kind=feature.kind.key, tiles=feature.tiles, spaces=spaces.of(feature.cells),
                    complete=feature.complete, figures=list(feature.followers), owner=feature.controller,
                    points=state.worth(feature), shrines=feature.shrines, stocks=feature.stocks,
                )
        parts.append(ids)
    return parts, list(found.values())


def order_outcome(state: GameState, feature: FeatureView) -> dict[str, Any]:
    """What scoring ``feature`` first does (the engine's ``order_preview``), as an order choice's fields."""
    preview = state.order_preview(feature)
    if preview.owner is None:
        return {"owner": None, "points": 0}
    return {"owner": preview.owner, "points": preview.points, "marker": preview.marker, "tower": preview.tower,
            "gate": preview.gate}


def choices(state: GameState, spaces: Spaces, lang: str) -> list[Choice]:
    """Return the person's options now: the legal actions, each with its words and the feature it concerns."""
    if state.is_chance() or state.is_over():
        return []
    edition = state.setup.edition
    options: list[Choice] = []
    scored = state.feature_being_scored() if state.phase is Phase.DOUBLE else None
    about = spaces.feature(scored) if scored is not None else None
    words = feature_message(scored.kind, scored.tiles).text(lang, edition) if scored is not None else None
    order = state.order_choices() if state.phase is Phase.ORDER else []
    cell, tile_index, rotation = state.placements[-1] if state.placements else (-1, -1, 0)  # the tile just placed
    for action in state.legal_actions():
        if isinstance(action, Follower):
            space = spaces.name(cell)
            feature = state.tiles.tiles[tile_index].features[action.feature]
            kind = feature.kind
            options.append(FigureChoice(
                action=str(action), part=action.feature, piece=PIECES[action.piece],
                sides=sorted({rotate_segment(s, rotation) // 3 for s in feature.segments}), kind=kind.key,
                role=ROLES[kind], label=figure_message(kind, action.piece).text(lang, edition),
                feature=spaces.feature(state.feature_at(space, action.feature)),
            ))
        elif isinstance(action, Pass):
            options.append(PassChoice(action=str(action)))
        elif isinstance(action, Order):
            choice = order[action.choice]  # order_choices() lists them in the order of Order(k)
            options.append(OrderChoice(
                action=str(action), kind=choice.kind.key,
                label=feature_message(choice.kind, choice.tiles).text(lang, edition),
                feature=spaces.feature(choice), **order_outcome(state, choice),
            ))
        elif isinstance(action, UseToken):
            options.append(UseChoice(
                action=str(action), token=int(action.kind), label=token(action.kind, edition).text(lang, edition),
                feature=about, feature_words=words, gain=_doubling_gain(state, action) if scored is not None else None,
            ))
        elif isinstance(action, Decline):
            options.append(DeclineChoice(action=str(action), feature=about, feature_words=words))
    return options


def _tokens(state: GameState, player: int, lang: str) -> list[TokenView]:
    """A player's tokens; the player to move may use as many of each kind as the engine's ``usable_tokens`` says
    (the oldest first), the other player any of theirs in their next turn."""
    edition = state.setup.edition
    held = state.tokens[player]
    budget = {k: state.usable_tokens(TokenKind(k)) for k in {t.kind for t in held}} if player == state.current else {}
    tokens = []
    for t in held:  # in the order taken, as the engine spends them
        usable = True
        if player == state.current:
            usable = budget[t.kind] > 0
            budget[t.kind] -= usable
        tokens.append(TokenView(
            kind=t.kind, number=printed_number(TokenKind(t.kind), edition),
            name=_token_words(t.kind, edition, catalogue(lang)),
            turn=t.turn_taken, usable=usable,
        ))
    return tokens


def _drawn(state: GameState) -> DrawnTile | None:
    if state.drawn < 0 or state.is_over():
        return None
    places = [a for a in state.legal_actions() if isinstance(a, Place)] if state.phase is Phase.PLACE else []
    return DrawnTile(
        id=state.tiles.tiles[state.drawn].id,
        places=[PlaceOption(action=str(a), space=space_name(a.x, a.y), rotation=a.rotation) for a in places],
    )


def board_fields(state: GameState, infos: list[MoveInfo], lang: str) -> dict[str, Any]:
    """The fields of a view that the position and the language decide (not the reader)."""
    setup = state.setup
    edition = setup.edition
    spaces = Spaces(state)
    tiles = state.tiles.tiles
    placed_by = [i.player for i in infos if isinstance(i.action, Place)]
    parts, features = feature_infos(state, spaces)
    placements = [
        PlacementView(space=spaces.name(cell), tile=tiles[tile].id, rotation=rotation,
                      player=placed_by[order] if order < len(placed_by) else None, order=order, features=parts[order])
        for order, (cell, tile, rotation) in enumerate(state.placements)
    ]
    figures = []
    for f in state.followers:
        space = spaces.name(f.cell)
        feature = state.feature_at(space, f.feature)
        figures.append(FigureView(player=f.player, space=space, part=f.feature, feature=feature.id,
                                  piece=PIECES[f.piece], kind=feature.kind.key, role=ROLES[feature.kind]))
    projected = projected_scores(state)
    players = [
        PlayerView(
            score=state.scores[p], projected=projected[p], supply=state.supply[p], princes=state.princes[p],
            falconers=state.falconers[p],
            family_size=state.family_size[p], family_spaces=spaces.of(state.family_cells[p]), nests=state.nests[p],
            on_gate=state.on_gate[p], tokens=_tokens(state, p, lang),
        )
        for p in (0, 1)
    ]
    scored = state.feature_being_scored() if state.phase in (Phase.ORDER, Phase.DOUBLE) else None
    prompt = PromptWords(current=catalogue(lang).value(Seat(state.current)),
                         tile=tiles[state.drawn].id if state.drawn >= 0 else None)
    return {
        "rules": setup.name, "edition": edition, "sokol": setup.sokol, "board": setup.board,
        "gate_guard": setup.gate_guard, "lang": lang, "phase": PHASES[state.phase], "current": state.current,
        "turn": state.turn, "players": players, "towers": list(state.tower_token), "placements": placements,
        "figures": figures, "features": features,
        "hidden_tokens": [_hidden_words(kind, n, edition, catalogue(lang))
                          for kind, n in enumerate(state.unrevealed_tokens()) if n],
        "drawn": _drawn(state), "choices": choices(state, spaces, lang),
        "scoring": spaces.feature(scored) if scored is not None else None,
        "remaining": sorted(tiles[t].id for t in state.remaining),
        "discarded": [tiles[t].id for t in state.discarded], "terms": terms_for(lang, edition),
        "prompt_words": prompt,
    }


def line_fields(state: GameState, infos: list[MoveInfo], lang: str, reader: Reader) -> dict[str, Any]:
    """The fields of a view in words as ``reader`` reads them: the score log and the recent moves."""
    edition = state.setup.edition
    spaces = Spaces(state)
    log = []
    for item in state.log:
        _, shown = score_line(item, edition)
        text = (_score_words(item, edition, catalogue(lang), reader.you) if not reader.names
                else score_line(item, edition)[0].text(lang, edition, reader))
        log.append(ScoreLine(turn=item.turn, player=item.player, points=item.points, reason=item.reason, line=text,
                             message=shown, spaces=spaces.of(item.cells), final=item.final))
    # A move's lines are kept with it while it is among the recent ones; those of the moves before are let go, so
    # that a long game does not hold models for every move and reader for the collector to walk (a replay, which
    # shows every move, makes them again).
    for gone in infos[max(0, len(infos) - 2 * RECENT):-RECENT]:
        gone.shown.clear()
    return {"log": log, "recent": [move_line(i, lang, edition, reader) for i in infos[-RECENT:]]}


def game_view(
    live: LiveGame, state: GameState, infos: list[MoveInfo], lang: str, *, can_undo: bool = False,
    undo_refusal: str | None = None, thinking: bool = False, seats: Sequence[SeatView] = (),
    clock: ClockView | None = None, ended: EndedView | None = None, watching: int = 0, reader: Reader = NOBODY,
    takeback: TakebackView | None = None,
) -> GameView:
    """Return everything the page draws for one position of a game (``state``, reached by the moves ``infos``);
    ``ended`` is a resignation or a time out that ended the game at this position, ``watching`` the spectators'
    pages open on it; the lines in words are as ``reader`` reads them (the request's seat is "you"); ``takeback``
    the takebacks of a game with a friend."""
    lang = lang if lang in languages() else BASE
    around = _around_fields(live, state, lang, can_undo=can_undo, undo_refusal=undo_refusal, thinking=thinking,
                            seats=seats, clock=clock, ended=ended, watching=watching, takeback=takeback)
    return GameView(**around, **board_fields(state, infos, lang), **line_fields(state, infos, lang, reader))


def game_body(
    live: LiveGame, lang: str, cache: ViewCache, *, can_undo: bool = False, undo_refusal: str | None = None,
    thinking: bool = False, seats: Sequence[SeatView] = (), clock: ClockView | None = None,
    ended: EndedView | None = None, watching: int = 0, reader: Reader = NOBODY, takeback: TakebackView | None = None,
) -> Body:
    """:func:`game_view` of the game's position now, as its answer's body: made once for each position, language,
    reader and state of everything around the position (the seats, the clock...), and kept in ``cache`` for the
    next page that reads the same."""
    state, infos = live.state, live.infos
    if reader.names:  # names given by the request: nothing of it is kept
        return Body(game_view(live, state, infos, lang, can_undo=can_undo, undo_refusal=undo_refusal,
                              thinking=thinking, seats=seats, clock=clock, ended=ended, watching=watching,
                              reader=reader, takeback=takeback).model_dump_json().encode())
    lang = lang if lang in languages() else BASE
    around = _around_fields(live, state, lang, can_undo=can_undo, undo_refusal=undo_refusal, thinking=thinking,
                            seats=seats, clock=clock, ended=ended, watching=watching, takeback=takeback)
    # The body is written in three parts: the position's, in the language (one for every reader), the lines as this
    # reader reads them, and the fields made anew for each view; only the last is written each time. The position
    # keeps the first two as JSON only: their models would be thousands of objects a game for the collector to
    # walk again and again (its full pauses grew to 0.2-0.4 s under load).
    words = catalogue(lang)
    position = cache.position(live.id, state, infos)
    board = position.part(words, lambda: board_fields(state, infos, lang))
    lines = position.part((words, reader.you), lambda: line_fields(state, infos, lang, reader))
    around_json = json_members(_around_with_defaults(around, board.names, lines.names))
    key = (words, reader.you, around_json)
    body = position.bodies.get(key)
    if body is None:
        body = Body(b"{" + around_json + b"," + board.json + b"," + lines.json + b"}")
        position.keep(key, body)
    return body


@lru_cache(maxsize=1)
def _view_defaults() -> tuple[tuple[str, Any], ...]:
    """The fields of :class:`GameView` that have a default (the API's version, the game's kind...)."""
    return tuple((name, info.get_default(call_default_factory=True)) for name, info in GameView.model_fields.items()
                 if not info.is_required())


def _around_with_defaults(around: dict[str, Any], *given: Collection[str]) -> dict[str, Any]:
    """``around`` and the defaults of the fields that neither it nor any of the ``given`` parts (their fields' names)
    has."""
    return {**{name: value for name, value in _view_defaults()
               if name not in around and not any(name in part for part in given)}, **around}


def _around_fields(
    live: LiveGame, state: GameState, lang: str, *, can_undo: bool, undo_refusal: str | None, thinking: bool,
    seats: Sequence[SeatView], clock: ClockView | None, ended: EndedView | None, watching: int,
    takeback: TakebackView | None,
) -> dict[str, Any]:
    """The fields of a view made anew for each view: the game's metadata, the seats, the clock, the end... (the
    position's fields are :func:`board_fields`, its lines in words :func:`line_fields`)."""
    result = state.result()
    winners = list(result.winners) if result else []
    over = state.is_over() or ended is not None
    if ended is not None:
        winners = [] if ended.loser is None else [1 - ended.loser]  # an abort counts for nobody
    around = {
        "id": live.id, "mode": MODES[live.mode], "level": live.level, "human": live.human,
        "seed": live.seed if live.over else None,  # Z22: the seed fixes every tile and token to come
        "revision": live.revision, "position": live.position_revision, "thinking": thinking,
        "bot_error": computer_failed(live.bot_error, lang),
        "moves_count": len(live.actions), "setup": SetupInfo.model_validate(public_setup(state.setup, live.over)),
        "over": over, "result": ResultView(scores=list(state.scores), winners=winners) if over else None,
        "human_to_act": live.human_to_act(state), "can_undo": can_undo, "undo_refusal": undo_refusal,
        "seats": list(seats), "clock": clock, "ended": ended, "rematch": live.rematch, "hints": live.hints_allowed,
        "can_abort": live.invites_friends and not live.over and not live.started(live.infos),
        "watching": watching, "takeback": takeback, "rated": live.rated,
    }
    return around


def move_line(info: MoveInfo, lang: str, edition: str | None = None, reader: Reader = NOBODY) -> MoveLine:
    """A move as the view lists it: in notation, in words (as ``reader`` reads them) and as its message; kept with
    the move for each language and reader (a move stays among the recent ones of several positions)."""
    key = ("line", lang, edition, reader.you) if not reader.names else None
    kept: MoveLine | None = info.shown.get(key) if key is not None else None
    if kept is None:
        kept = _move_line(info, lang, edition, reader)
        if key is not None:
            info.shown[key] = kept
    return kept


def _move_line(info: MoveInfo, lang: str, edition: str | None, reader: Reader) -> MoveLine:
    message = info.message
    if message is None:
        return MoveLine(text=info.text, kind=move_kind(info), words=info.text, player=info.player, chance=info.chance)
    shown = info.shown.get("message")
    if shown is None:
        shown = info.shown["message"] = message_view(message)
    return MoveLine(text=info.text, kind=move_kind(info), words=said(message, lang, edition, reader, info.shown),
                    player=info.player, chance=info.chance, message=shown)


def replay_view(live: LiveGame, state: GameState, infos: list[MoveInfo], upto: int, lang: str,
                ended: EndedView | None = None, reader: Reader = NOBODY) -> ReplayView:
    """Return the position after the first ``upto`` of the moves ``infos`` (``state``), with every move in words.

    ``live`` gives the game's metadata (its revision and number of moves are those of the whole game); ``ended``
    is how it ended when the position is its last.
    """
    view = game_view(live, state, infos[:upto], lang, ended=ended if upto == len(infos) else None, reader=reader)
    edition = state.setup.edition
    moves = [
        ReplayMove(n=n, **dict(move_line(info, lang, edition, reader))) for n, info in enumerate(infos, start=1)
    ]
    fields = dict(view) | {"choices": []}
    return ReplayView(**fields, replay=ReplayInfo(move=upto, total=len(infos), moves=moves))


def castle_reader(live: LiveGame, token: str | None) -> Reader:
    """Who reads a castle game's lines in words: the seat ``token`` holds is "you" (a person against the computer or a
    friend); at one screen, where one page is both players', nobody is."""
    seat = seat_of(live.seats, token)
    if seat is None or live.mode == HOTSEAT:
        return NOBODY
    return Reader(you=frozenset({seat}))


def game_status(live: LiveGame, lang: str = BASE) -> GameStatus:
    return GameStatus(revision=live.revision, thinking=live.thinking, bot_error=computer_failed(live.bot_error, lang),
                      over=live.over)


def clock_view(live: LiveGame, now: float) -> ClockView | None:
    clock = live.clock
    if clock is None:
        return None
    settings = clock.settings
    return ClockView(kind=settings.kind, minutes=settings.minutes, increment=settings.increment, days=settings.days,
                     left_ms=[clock.left(s, now) for s in range(len(clock.left_ms))], running=clock.running)


def ended_view(live: LiveGame) -> EndedView | None:
    return EndedView.model_validate(live.ended) if live.ended is not None else None


def seat_views(live: LiveGame, connected: Sequence[int]) -> list[SeatView]:
    return [SeatView(seat=s.index, player=s.player, name=s.name, connected=s.index in connected) for s in live.seats]


def game_line(game: StoredMatch, held: Sequence[int] = (), extras: Extras | None = None,
              names: Sequence[str | None] = ()) -> GameLine:
    """Return a game's line in the lobby's list: ``held`` are the seats the lobby's tokens hold."""
    setup = records.setup_from_json(game.setup)
    extras = extras or Extras()
    winners: list[int] | None = None
    if game.status == "over":
        ended = extras.ended
        if isinstance(ended, dict) and ended.get("reason") == "abort":
            winners = []
        elif isinstance(ended, dict) and ended.get("loser") in (0, 1):
            winners = [1 - ended["loser"]]
        else:
            best = max(game.scores)
            winners = [p for p, score in enumerate(game.scores) if score == best]
    return GameLine(
        winners=winners, ended=extras.ended.get("reason") if isinstance(extras.ended, dict) else None,
        names=list(names), imported=game.imported,
        seats=list(held), your_move=game.status != "over" and extras.to_move in held,
        waiting=game.mode == FRIEND and game.status != "over" and len(held) < 2 and extras.to_move is None,
        id=game.id, mode=MODES[game.mode], level=game.level, human=game.human, rules=setup.name,
        edition=setup.edition, sokol=setup.sokol, gate_guard=setup.gate_guard,
        status="over" if game.status == "over" else "playing", scores=game.scores, turn=game.turn,
        moves=len(game.moves), created_at=game.created_at, updated_at=game.updated_at,
    )
