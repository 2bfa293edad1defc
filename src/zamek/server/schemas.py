"""The web protocol of the castle game, version ``API_VERSION``: every request and every answer as a pydantic model.

Requests are checked against their model (a mismatch is a 422 answer); answers are built as these models
and described by them in ``/api/openapi.json``. A position names places by their space names (``e10``;
start spaces by their id, ``S5``) and features by their id in the engine's feature view: an answer never
carries the engine's cell numbers. The models of Rycerze i zamki are in :mod:`zamek.server.knights_schemas`,
those of the castle's drawing geometry (``/api/geometry``) in :mod:`zamek.server.layout`.

Version 2 (this one) replaced version 1's cell numbers (``cell``, ``cells``, ``family_cells``,
``scoring_cells``, the geometry's ``cell`` and ``stride``) by space names and feature references
(``FeatureRef``), added the drawn tile's ``places`` (each legal placement as its action), renamed
``followers`` to ``figures`` (a tile's feature index is ``part``, the feature it belongs to ``feature``)
and gave every move its ``kind``.

Version 3 added seats: every request that changes a game proves its seat with ``Authorization: Bearer
<token>`` (the tokens are in the answer that creates or joins a game); games against a friend (``mode:
"friend"``, an invitation code, ``/join``), clocks, resignation, rematches, the lobby of the tokens a browser
holds (``POST /api/lobby``), and live events (``GET /api/games/{id}/events``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from zamek import Edition
from zamek.server.clock import ClockKind, ClockSettings

API_VERSION: Final = 3
"""The version of the protocol; every game view and ``/api/meta`` say it, and so does the ``Zamek-Api`` header."""
API_HEADER: Final = "Zamek-Api"

PhaseName = Literal["draw", "place", "follower", "reveal", "over", "order", "double", "extra_turn"]
"""What the game waits for: the engine's ``Phase``, by its name."""
MoveKind = Literal["draw", "reveal", "place", "figure", "pass", "order", "use", "decline"]
"""The kind of a move: its action's type (``Draw``, ``Reveal``, ``Place``, ``Follower``, ``Pass``...)."""
PieceKey = Literal["follower", "prince", "falconer"]
Mode = Literal["computer", "hotseat", "friend"]
"""Against the computer, two people at one screen, or against a friend elsewhere (who opens an invitation)."""
SeatPlayerName = Literal["person", "computer", "open"]
Name = Annotated[str, Field(max_length=40, description="a player's chosen name (no account)")]
Secret = Annotated[str, Field(min_length=16, max_length=64)]
Space = Annotated[str, Field(description="a space name (e10) or a start space's id (S5)", examples=["e10", "S5"])]


# ------------------------------------------------------------------ requests


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewGame(Request):
    """Start a game: against the computer, or for two people at one screen."""

    mode: Mode = "computer"
    level: Literal["beginner", "easy", "medium", "hard", "expert"] = "beginner"
    seat: Literal["first", "second", "random"] = "first"
    """Against the computer or a friend: whether the creator plays first (player 1) or second."""
    clock: ClockSettings | None = None
    """Against a friend: a live clock (minutes for the game, seconds added a move) or correspondence (days a
    move); None plays without a clock."""
    name: Name | None = None
    """Against a friend: the creator's name, shown to the friend."""
    hints: bool = False
    """Against a friend: allow hints (the best moves, ``/hints``) to both players; the friend sees it before
    joining, and joining agrees to it. Against the computer and at one screen hints are always allowed."""
    edition: Edition = Edition.ZAMEK
    sokol: bool = False
    gate_guard: bool = False
    seed: int | None = Field(default=None, ge=0, lt=2**62)

    @model_validator(mode="after")
    def _gate_guard_needs_sokol(self) -> NewGame:
        if self.gate_guard and not self.sokol:
            raise ValueError("the gate-guard variant needs the Sokół expansion")
        if self.clock is not None and self.mode != "friend":
            raise ValueError("clocks are for games against a friend")
        if self.seed is not None and self.mode == "friend":
            raise ValueError("a game against a friend has no chosen seed: it would tell its creator every tile")
        return self


class Join(Request):
    """Take the free seat of a friend's game: the invitation code of its link, and a name if you like."""

    invite: Secret
    name: Name | None = None


class Lobby(Request):
    """The seat tokens this browser holds: the lobby lists their games (and no other)."""

    tokens: list[Secret] = Field(default_factory=list, max_length=1000)
    offset: int = Field(default=0, ge=0)
    """How many of the games (the latest changed first) the pages before this one listed."""
    limit: int = Field(default=50, ge=1, le=200)
    """How many games this page lists at most."""


class Move(Request):
    """A move in the game's notation ('e10/90', 'follower:2', 'pass', 'order:1', 'use:2', 'decline')."""

    action: str = Field(min_length=1, max_length=40)
    revision: int | None = None
    """The revision the page shows; a move made on an older one is refused (409)."""


class Revision(Request):
    revision: int | None = None


# ------------------------------------------------------------------- answers


class Answer(BaseModel):
    """An answer of the API (no field beyond those declared)."""

    model_config = ConfigDict(extra="forbid")


class ErrorAnswer(Answer):
    """A refused request (4xx): a code and the reason in words (the engine's own message for a move)."""

    error: str = Field(examples=["illegal"])
    message: str = Field(examples=["d5/0: a tile must touch a placed tile or a start space with a side (Z7)"])


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The refusals a route may answer with (``ErrorAnswer``), for its OpenAPI description."""
    return {code: {"model": ErrorAnswer} for code in codes}


class Meta(Answer):
    """The protocol's version, the choices for a new game and the language the browser prefers."""

    api: int = API_VERSION
    levels: list[str]
    editions: list[Edition]
    languages: list[str]
    lang: str


class GameLine(Answer):
    """A castle game in the lobby's list."""

    id: str
    kind: Literal["castle"] = "castle"
    mode: Mode
    seats: list[int] = Field(default_factory=list)
    """The seats the lobby's tokens hold in this game."""
    your_move: bool = False
    """One of those seats is to move."""
    waiting: bool = False
    """The game waits for a friend to open the invitation."""
    winners: list[int] | None = None
    """Once the game is over: who won (both seats for a draw)."""
    ended: Literal["resign", "timeout"] | None = None
    """How it ended when not by its rules."""
    names: list[str | None] = Field(default_factory=list)
    """The names people chose for the seats (a game against a friend)."""
    level: str | None
    human: int | None
    rules: str
    edition: Edition
    sokol: bool
    gate_guard: bool
    status: Literal["playing", "over"]
    scores: list[int]
    turn: int
    moves: int
    created_at: datetime
    updated_at: datetime


class GameStatus(Answer):
    """Cheap to poll: the revision changes with every move."""

    revision: int
    thinking: bool
    bot_error: str | None
    over: bool


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

    reason: Literal["resign", "timeout"]
    loser: int


class SeatToken(Answer):
    seat: int
    token: str


class Adopted(Answer):
    """A seat of a game stored before games had seats, given to this machine's browser."""

    kind: Literal["castle", "knights"]
    id: str
    seat: int
    token: str


class SetupInfo(Answer):
    """A game's setup as its saved game holds it."""

    edition: Edition
    expansions: list[Literal["sokol"]]
    variants: list[Literal["gate-guard"]]
    first_player: int
    draw_order: list[str] | None
    board: int


class RecordResult(Answer):
    scores: list[int]


class SavedGame(Answer):
    """A saved game (``zamek-game``): the setup, the seed and every move; the result once it is over."""

    format: Literal["zamek-game"]
    version: int
    setup: SetupInfo
    seed: int | None = None
    moves: list[str]
    result: RecordResult | None = None
    players: list[str] | None = None
    """Who played each seat of a game against the computer: 'person' and 'computer:LEVEL' (an import goes on
    against the same level); absent for a game of people."""


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


class GameView(Answer):
    """A castle game's position with everything the page draws (and the game's metadata)."""

    api: int = API_VERSION
    id: str
    mode: Mode
    level: str | None
    human: int | None
    seed: int | None
    """The game's seed, once it is over: before, it would tell every tile and token to come (Z22)."""
    revision: int
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
    hints: bool = False
    """The player to move may ask for hints (``/hints``): always against the computer and at one screen; against a
    friend only when the game was created with hints allowed (the friend joined knowing it)."""


class SeatedView(GameView):
    """A game as its creator (or a friend who joined) first sees it, with the secrets only this answer gives:
    the tokens of the seats the request took, and the invitation code of a game against a friend."""

    tokens: list[SeatToken]
    invite: str | None = None


class ReplayView(GameView):
    """A position of a replay, with every move of the game."""

    replay: ReplayInfo


# ------------------------------------------------------------- hints and analysis


class HintMove(Answer):
    """One of the best moves for the player to move (``zamek.castle.analysis.hints``)."""

    move: list[str] = Field(examples=[["e10/90", "follower:2"]])
    """Its actions in the game's notation: a placement then the figure choice, or one answer."""
    lead: float
    """The mover's expected final lead (points) after it, as the expert's learned value judges it."""
    words: list[str]
    """Each action in words, in the view's language."""
    space: Space | None = None
    """A placement: where the tile goes."""
    rotation: int | None = None
    """A placement: the tile's quarter turns clockwise."""
    part: int | None = None
    """The feature (its index on the tile) the figure goes on; None: no figure."""
    piece: PieceKey | None = None


class Hints(Answer):
    """The best moves for the player to move, best first."""

    revision: int
    """The revision they are for (a move since makes them stale)."""
    player: int
    hints: list[HintMove]


class Loose(BaseModel):
    """An answer built from ``zamek.castle.analysis``'s JSON: fields it may add later are left out, not refused."""

    model_config = ConfigDict(extra="ignore")


class FlagSummary(Loose):
    """A player's moves in a game's analysis: how many got each flag, and the points lost on average."""

    player: int
    decisions: int
    mean_loss: float
    inaccuracies: int
    mistakes: int
    blunders: int


class AnalysedDecision(Loose):
    """A decision of the game, judged: the move played against the best one, by seat 0's expected final lead."""

    index: int
    """The number of moves before it: the replay's position ``move=index`` is where the decision was made."""
    player: int
    played: list[str]
    best: list[str]
    lead_before: float
    """Seat 0's expected final lead with the best move (the advantage graph's value)."""
    lead_after: float
    """Seat 0's expected final lead after the move played."""
    loss: float
    """Points of expected final lead the mover gave away against the best move."""
    flag: Literal["inaccuracy", "mistake", "blunder"] | None
    choices: int
    played_words: list[str] = Field(default_factory=list)
    """The move played in words (the view's language)."""
    best_words: list[str] = Field(default_factory=list)


class AnalysisView(Loose):
    """A finished game's analysis (``zamek-analysis``): every decision judged by the expert's estimate of the final
    lead, the flags' thresholds (points lost), and each player's summary."""

    format: Literal["zamek-analysis"]
    version: int
    estimator: str
    """The estimate it was made with; an analysis stored with another is made again."""
    thresholds: dict[str, float]
    """The least loss (points) of each flag: inaccuracy, mistake, blunder."""
    final_lead: int
    summary: list[FlagSummary]
    decisions: list[AnalysedDecision]
    game: str | None = None
    """The game analysed (None: a saved game sent in the request)."""
