"""The castle game's view: a position with everything the page draws (the players, the tiles placed, the figures,
the features, the drawn tile and where it may go, the choices, the score log) and the game's metadata; the view a
game's creator first sees (with the seats' tokens) and a replay's view."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from zamek import Edition
from zamek.server.clock import ClockKind
from zamek.server.schema_base import (
    API_VERSION,
    Answer,
    MessageView,
    Mode,
    MoveKind,
    PhaseName,
    PieceKey,
    SeatPlayerName,
    Space,
)


class SeatView(Answer):
    """A seat of a game: a person (with a name if they chose one), the computer, or free for a friend."""

    seat: int
    player: SeatPlayerName
    name: str | None
    connected: bool
    """A page of this seat's player is open (it holds the game's live events)."""


class ClockView(Answer):
    """The game's clock when the answer was made: the page counts down from it."""

    kind: ClockKind
    minutes: float
    increment: int
    days: float
    left_ms: list[int]
    """Each seat's time left, in milliseconds."""
    running: int | None
    """The seat whose time runs."""


class EndedView(Answer):
    """A game ended before its rules ended it."""

    reason: Literal["resign", "timeout", "abort"]
    loser: int | None = None
    """The seat that resigned or ran out of time (an abort has none: the game counts for nobody)."""


class SeatToken(Answer):
    seat: int
    token: str


class SetupInfo(Answer):
    """A game's setup as its saved game holds it."""

    edition: Edition
    expansions: list[str] = Field(examples=[["sokol"]])
    """The keys of its expansions (``/api/meta``'s ``options`` of kind ``expansion``)."""
    variants: list[str] = Field(examples=[["gate-guard"]])
    """The keys of its variants (``/api/meta``'s ``options`` of kind ``variant``)."""
    first_player: int
    draw_order: list[str] | None
    board: int


class TokenView(Answer):
    """A special token (wall tile) a player holds."""

    kind: int
    """Its kind in Zamek numbering (``UseToken``'s kind)."""
    number: int
    """The number printed on it in the edition played."""
    name: str
    turn: int
    """The turn it was taken in."""
    usable: bool
    """The player to move may use it now (from the engine's ``usable_tokens``); the other player's tokens are
    usable in their next turn."""


class PlayerView(Answer):
    score: int
    projected: int
    """The score if the game ended now: the final scoring (meadows, the family house's empty area, the end tokens
    taken, falcon nests) applied to this position (the engine's ``projected_scores``); a finished game's, its score.
    It reads open information only (Z22): the same for every reader."""
    supply: int
    """Followers in supply."""
    princes: int
    falconers: int
    family_size: int
    family_spaces: list[Space]
    """The spaces of the player's family house."""
    nests: int
    on_gate: bool
    tokens: list[TokenView]


class PlacementView(Answer):
    """A tile on the castle, in order of placement."""

    space: Space
    tile: str
    rotation: int = Field(ge=0, le=3)
    """Quarter turns clockwise."""
    player: int | None
    """Who placed it (None when the game's moves do not say)."""
    order: int
    features: list[int] = Field(default_factory=list)
    """The id of the feature (``FeatureView.id``, as in ``GameView.features``) each part of the tile belongs to."""


class FeatureRef(Answer):
    """A feature of the position (a region joined across tiles), from the engine's feature view."""

    id: int
    """The feature's id in this position (``FeatureView.id``; a later tile may join it to another)."""
    kind: str
    tiles: int
    """The tiles and start spaces it covers."""
    spaces: list[Space]


class FeatureInfo(Answer):
    """A feature of the position as a player weighs it: its size, who controls it and what it is worth."""

    id: int
    """``FeatureView.id``; a tile's parts name it in ``PlacementView.features``."""
    kind: str
    tiles: int
    spaces: list[Space]
    complete: bool
    figures: list[int]
    """Each player's figures on it."""
    owner: int | None
    """The player with more figures on it (Z13); None when empty or tied."""
    points: int
    """A road, house, pigsty or chapel: what it is worth complete (Z14, F2; doubled by its owner's prince, F4),
    i.e. now if it is complete, else if it were completed now. A meadow: what its shrines give at the end (Z20)."""
    shrines: int
    stocks: int


class FigureView(Answer):
    """A figure on the castle: a follower (a herald, squire, farmer, monk or preacher by its feature), a prince or a
    falconer."""

    player: int
    space: Space
    part: int
    """The index of its feature on the tile (as in ``follower:N``)."""
    feature: int
    """The id of the feature it stands on (``FeatureView.id``)."""
    piece: PieceKey
    kind: str
    role: str


class PlaceOption(Answer):
    """Where the drawn tile may go, turned how: a legal ``Place`` action."""

    action: str = Field(examples=["e10/90"])
    space: Space
    rotation: int = Field(ge=0, le=3)


class DrawnTile(Answer):
    """The tile drawn; where it may go while it is to be placed (both lists are empty otherwise)."""

    id: str
    places: list[PlaceOption]
    """Each legal placement: its action, its space and its rotation."""


class FigureChoice(Answer):
    """Put a figure on a feature of the tile just placed."""

    type: Literal["figure"] = "figure"
    action: str = Field(examples=["follower:2"])
    part: int
    """The feature's index on the tile."""
    piece: PieceKey
    sides: list[int]
    """The tile's sides (0 north, clockwise) the feature touches, as placed."""
    kind: str
    role: str
    label: str
    feature: FeatureRef
    """The feature (joined across tiles) the figure would stand on."""


class PassChoice(Answer):
    type: Literal["pass"] = "pass"
    action: str = Field(examples=["pass"])


class OrderChoice(Answer):
    """Have this completed feature scored next (Z15)."""

    type: Literal["order"] = "order"
    action: str = Field(examples=["order:1"])
    kind: str
    label: str
    feature: FeatureRef
    owner: int | None = None
    """The player it scores for."""
    points: int = 0
    """The points it moves that player's marker by (before any x2 token)."""
    marker: int | None = None
    """Where that marker ends when this feature is scored first (the score; the track shows it modulo 100)."""
    tower: int | None = None
    """The tower (its index) whose face-down token that movement takes, if it ends on one that holds a token (Z16)."""
    gate: bool = False
    """The movement ends on a gate (F8)."""


class UseChoice(Answer):
    """Use a token: a x2 token on the feature being scored, or the extra-turn token (Z19)."""

    type: Literal["use"] = "use"
    action: str = Field(examples=["use:2"])
    token: int
    label: str
    feature: FeatureRef | None
    """The feature being scored (a x2 token), or None (an extra turn)."""
    feature_words: str | None
    """That feature in words."""
    gain: int | None = None
    """A x2 token: the points it adds to the feature being scored."""


class DeclineChoice(Answer):
    """Keep the token."""

    type: Literal["decline"] = "decline"
    action: str = Field(examples=["decline"])
    feature: FeatureRef | None
    feature_words: str | None


Choice = Annotated[FigureChoice | PassChoice | OrderChoice | UseChoice | DeclineChoice, Field(discriminator="type")]


class ScoreLine(Answer):
    """A line of the itemised score breakdown."""

    turn: int
    player: int | None
    points: int
    reason: str
    line: str
    """The line in words, in the view's language (its player as the request's seat reads it)."""
    message: MessageView
    """The line as a message of the catalogue (its players as seats: a page says them as its reader knows them)."""
    spaces: list[Space]
    """The spaces of the feature it scored (empty for a line about no feature)."""
    final: bool


class ResultView(Answer):
    scores: list[int]
    winners: list[int]


class MoveLine(Answer):
    """A move as people read it."""

    text: str
    """In the game's notation."""
    kind: MoveKind
    words: str
    """In words, in the view's language (its player as the request's seat reads it)."""
    message: MessageView | None = None
    """As a message of the catalogue (its player as a seat); None where the game does not describe its moves."""
    player: int | None
    chance: bool


class ReplayMove(MoveLine):
    n: int
    """Its number, from 1."""


class ReplayInfo(Answer):
    move: int
    """The moves the position shown comes after."""
    total: int
    moves: list[ReplayMove]


class PromptWords(Answer):
    """The names the page's prompts need."""

    current: str
    tile: str | None


class TakebackView(Answer):
    """A castle game with a friend: taking one's last turn back when the other player agrees (``/takeback``,
    ``/takeback/accept``, ``/takeback/decline``, ``/takeback/withdraw``). A takeback goes back to where its seat's
    last turn began (its tile just drawn): that turn's moves and everything after them (the other player's reply)
    are taken back."""

    can_ask: list[bool]
    """Whether each seat may ask now: it has a move to take back, no request is open, and it has not been refused
    on this position."""
    asked_by: int | None = None
    """The seat whose request waits for the other seat's answer."""
    declined: list[int] = Field(default_factory=list)
    """The seats whose request was declined on this position: they may ask again after the next move."""
    withdrawn: list[int] = Field(default_factory=list)
    """The seats that withdrew their request on this position: they may ask again after the next move."""
    moves: list[int] = Field(default_factory=list)
    """While a request is open: each seat's moves (not the tiles drawn) it would take back."""


class GameView(Answer):
    """A castle game's position with everything the page draws (and the game's metadata)."""

    api: int = API_VERSION
    id: str
    kind: Literal["castle"] = "castle"
    """The game (a card game's view says 'knights')."""
    mode: Mode
    level: str | None
    human: int | None
    seed: int | None
    """The game's seed, once it is over: before, it would tell every tile and token to come (Z22)."""
    revision: int
    position: int
    """The revision its position was reached at (a takeback asked or declined raises the revision alone): what a
    page keys its hints and menus on."""
    thinking: bool
    bot_error: str | None
    moves_count: int
    rules: str
    setup: SetupInfo
    edition: Edition
    sokol: bool
    board: int
    gate_guard: bool
    lang: str
    phase: PhaseName
    current: int
    turn: int
    over: bool
    result: ResultView | None
    players: list[PlayerView]
    towers: list[bool]
    """Whether each tower (by index) still holds a face-down token."""
    hidden_tokens: list[str] = Field(default_factory=list)
    """The tokens not yet revealed, in words with their numbers (a face-down token is one of these; Z4)."""
    placements: list[PlacementView]
    figures: list[FigureView]
    features: list[FeatureInfo] = Field(default_factory=list)
    """Every feature the placed tiles belong to (for what hovering a feature shows)."""
    drawn: DrawnTile | None
    choices: list[Choice]
    scoring: FeatureRef | None
    """The feature scored next while the order or a x2 token is being decided."""
    log: list[ScoreLine]
    remaining: list[str]
    discarded: list[str]
    recent: list[MoveLine]
    human_to_act: bool
    terms: dict[str, str]
    """Words for features, figures and extras, in the edition's terms and the view's language."""
    prompt_words: PromptWords
    can_undo: bool
    undo_refusal: str | None
    seats: list[SeatView] = Field(default_factory=list)
    clock: ClockView | None = None
    ended: EndedView | None = None
    """A resignation or a time out (then ``result`` names the other player the winner)."""
    rematch: str | None = None
    """The rematch's game id, once one is offered."""
    can_abort: bool = False
    """A player may abort the game (``/abort``): it is on and not every person has made a first move yet (the
    clocks wait for those; an aborted game has no result)."""
    hints: bool = False
    """The player to move may ask for hints (``/hints``): always against the computer and at one screen; against a
    friend only when the game was created with hints allowed (the friend joined knowing it)."""
    watching: int = 0
    """The spectators' pages open on the game (its live events without a seat's token) when the view was made; the
    events' ``presence`` tells of each change."""
    takeback: TakebackView | None = None
    """A game with a friend, on and under way: takebacks by agreement (None in the other games)."""
    rated: bool = False
    """The game counts for both players' ratings (issue 39): no hints, no takebacks."""


class SeatedView(GameView):
    """A game as its creator (or a friend who joined) first sees it, with the secrets only this answer gives:
    the tokens of the seats the request took, and the invitation code of a game against a friend."""

    tokens: list[SeatToken]
    invite: str | None = None


class ReplayView(GameView):
    """A position of a replay, with every move of the game."""

    replay: ReplayInfo
