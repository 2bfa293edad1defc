"""The answers the page draws, built from the engine's public reading API as the models of :mod:`zamek.server.schemas`.

A position is read through the state's public methods and the feature view (``feature_at``,
``order_choices``, ``feature_being_scored``, ``legal_actions``, ``usable_tokens``); places are named by
their space names (start spaces by their id) and features by their feature-view id, never by cell
numbers. Every word comes from the translation tables (``zamek.castle.terms``, ``zamek.castle.report``).
"""

from __future__ import annotations

from collections.abc import Sequence
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
from zamek.castle.report import item_line, player_name
from zamek.castle.rules.geometry import rotate_segment, space_name
from zamek.castle.rules.setup import ROLES, Setup
from zamek.castle.rules.tokens import printed_number
from zamek.castle.terms import LANGUAGES, counted, term, token_name
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
    TokenView,
    UseChoice,
)
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
        castle = state.castle
        self._names = {c: castle.name_of(c) for c in castle.interior} | {s.cell: s.id for s in castle.starts}

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



def public_setup(setup: Setup, over: bool) -> dict[str, Any]:
    """A game's setup as it may be shown: a fixed draw order (an imported game's) only once the game is over,
    since it tells every tile to come (Z22)."""
    raw = records.setup_to_json(setup)
    if not over:
        raw["draw_order"] = None
    return raw

def move_kind(info: MoveInfo) -> MoveKind:
    return MOVE_KINDS[type(info.action)]


def terms_for(lang: str, edition: str, sokol: bool) -> dict[str, str]:
    """Return the words the page shows for features, figures and extras (from zamek.castle.terms)."""
    keys = ["road", "house", "pigsty", "meadow", "shrine", "shrines", "stocks", "fountain", "family-house",
            "herald", "squire", "farmer", "monk", "follower", "special-token", "score-marker", "tiles", "points",
            "total", "breakdown", "final-scoring", "shared-victory", "unfinished"]
    if sokol:
        keys += ["chapel", "preacher", "prince", "falconer", "nest", "nests", "gate"]
    words = {key: term(key, lang, edition) for key in keys}
    words["player-1"] = player_name(0, lang)
    words["player-2"] = player_name(1, lang)
    return words


def _figure_label(kind: FeatureKind, piece: Piece, lang: str, edition: str) -> str:
    role = term(ROLES[kind], lang, edition)
    figure = role if piece is Piece.FOLLOWER else f"{term(piece.key, lang, edition)} ({role})"
    return f"{figure} — {term(kind.key, lang, edition)}"


def _feature_words(feature: FeatureView, lang: str, edition: str) -> str:
    return f"{term(feature.kind.key, lang, edition)}: {counted(feature.tiles, 'tiles', lang, edition)}"


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
    words = _feature_words(scored, lang, edition) if scored is not None else None
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
                role=ROLES[kind], label=_figure_label(kind, action.piece, lang, edition),
                feature=spaces.feature(state.feature_at(space, action.feature)),
            ))
        elif isinstance(action, Pass):
            options.append(PassChoice(action=str(action)))
        elif isinstance(action, Order):
            choice = order[action.choice]  # order_choices() lists them in the order of Order(k)
            options.append(OrderChoice(
                action=str(action), kind=choice.kind.key,
                label=f"{term(choice.kind.key, lang, edition)}: {counted(choice.tiles, 'tiles', lang, edition)}",
                feature=spaces.feature(choice), **order_outcome(state, choice),
            ))
        elif isinstance(action, UseToken):
            options.append(UseChoice(
                action=str(action), token=int(action.kind), label=token_name(action.kind, lang, edition),
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
            kind=t.kind, number=printed_number(TokenKind(t.kind), edition), name=token_name(t.kind, lang, edition),
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


def game_view(
    live: LiveGame, state: GameState, infos: list[MoveInfo], lang: str, *, can_undo: bool = False,
    undo_refusal: str | None = None, thinking: bool = False, seats: Sequence[SeatView] = (),
    clock: ClockView | None = None, ended: EndedView | None = None, watching: int = 0,
) -> GameView:
    """Return everything the page draws for one position of a game (``state``, reached by the moves ``infos``);
    ``ended`` is a resignation or a time out that ended the game at this position, ``watching`` the spectators'
    pages open on it."""
    lang = lang if lang in LANGUAGES else "en"
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
    players = [
        PlayerView(
            score=state.scores[p], supply=state.supply[p], princes=state.princes[p], falconers=state.falconers[p],
            family_size=state.family_size[p], family_spaces=spaces.of(state.family_cells[p]), nests=state.nests[p],
            on_gate=state.on_gate[p], tokens=_tokens(state, p, lang),
        )
        for p in (0, 1)
    ]
    log = [
        ScoreLine(turn=item.turn, player=item.player, points=item.points, reason=item.reason,
                  line=item_line(item, lang, edition), spaces=spaces.of(item.cells), final=item.final)
        for item in state.log
    ]
    result = state.result()
    winners = list(result.winners) if result else []
    over = state.is_over() or ended is not None
    if ended is not None:
        winners = [] if ended.loser is None else [1 - ended.loser]  # an abort counts for nobody
    scored = state.feature_being_scored() if state.phase in (Phase.ORDER, Phase.DOUBLE) else None
    prompt = PromptWords(current=player_name(state.current, lang),
                         tile=tiles[state.drawn].id if state.drawn >= 0 else None)
    return GameView(
        id=live.id, mode=MODES[live.mode], level=live.level, human=live.human,
        seed=live.seed if live.over else None,  # Z22: the seed fixes every tile and token to come
        revision=live.revision, thinking=thinking, bot_error=live.bot_error, moves_count=len(live.actions),
        rules=setup.name, setup=SetupInfo.model_validate(public_setup(setup, live.over)), edition=edition,
        sokol=setup.sokol, board=setup.board, gate_guard=setup.gate_guard, lang=lang, phase=PHASES[state.phase],
        current=state.current, turn=state.turn, over=over,
        result=ResultView(scores=list(state.scores), winners=winners) if over else None,
        players=players, towers=list(state.tower_token), placements=placements, figures=figures, features=features,
        hidden_tokens=[f"{token_name(kind, lang, edition)} ×{n}" for kind, n in enumerate(state.unrevealed_tokens())
                       if n],
        drawn=_drawn(state), choices=choices(state, spaces, lang),
        scoring=spaces.feature(scored) if scored is not None else None, log=log,
        remaining=sorted(tiles[t].id for t in state.remaining), discarded=[tiles[t].id for t in state.discarded],
        recent=[move_line(i, lang) for i in infos[-RECENT:]], human_to_act=live.human_to_act(state),
        terms=terms_for(lang, edition, setup.sokol), prompt_words=prompt, can_undo=can_undo, undo_refusal=undo_refusal,
        seats=list(seats), clock=clock, ended=ended, rematch=live.rematch, hints=live.hints_allowed,
        can_abort=live.invites_friends and not live.over and not live.started(live.infos),
        watching=watching,
    )


def move_line(info: MoveInfo, lang: str) -> MoveLine:
    return MoveLine(text=info.text, kind=move_kind(info), words=info.words.get(lang, info.text), player=info.player,
                    chance=info.chance)


def replay_view(live: LiveGame, state: GameState, infos: list[MoveInfo], upto: int, lang: str,
                ended: EndedView | None = None) -> ReplayView:
    """Return the position after the first ``upto`` of the moves ``infos`` (``state``), with every move in words.

    ``live`` gives the game's metadata (its revision and number of moves are those of the whole game); ``ended``
    is how it ended when the position is its last.
    """
    view = game_view(live, state, infos[:upto], lang, ended=ended if upto == len(infos) else None)
    moves = [
        ReplayMove(n=n, **move_line(info, lang).model_dump()) for n, info in enumerate(infos, start=1)
    ]
    fields = dict(view) | {"choices": []}
    return ReplayView(**fields, replay=ReplayInfo(move=upto, total=len(infos), moves=moves))


def game_status(live: LiveGame) -> GameStatus:
    return GameStatus(revision=live.revision, thinking=live.thinking, bot_error=live.bot_error, over=live.over)


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
        names=list(names),
        seats=list(held), your_move=game.status != "over" and extras.to_move in held,
        waiting=game.mode == FRIEND and game.status != "over" and len(held) < 2 and extras.to_move is None,
        id=game.id, mode=MODES[game.mode], level=game.level, human=game.human, rules=setup.name,
        edition=setup.edition, sokol=setup.sokol, gate_guard=setup.gate_guard,
        status="over" if game.status == "over" else "playing", scores=game.scores, turn=game.turn,
        moves=len(game.moves), created_at=game.created_at, updated_at=game.updated_at,
    )
