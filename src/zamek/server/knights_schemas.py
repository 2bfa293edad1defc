"""The web protocol of Rycerze i zamki: its answers as pydantic models (its requests are the castle game's).

The same protocol version as the castle game's (``API_VERSION``). A seat's view holds only what that
seat may see (K8): the others' hands and face-down choices are never in any answer.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field

from zamek.server.schemas import API_VERSION, Answer, ClockView, EndedView, GameLine, MessageView, SeatToken, SeatView

SeatKind = Literal["person", "friend", "random", "heuristic", "mc"]
"""A person at this screen, a friend elsewhere (who opens the invitation), or a computer player."""
KnightsPhase = Literal["draw", "choose", "recruit", "over"]


# ------------------------------------------------------------------- answers


class KnightsLine(Answer):
    """A Rycerze i zamki game in the lobby's list."""

    id: str
    kind: Literal["knights"] = "knights"
    seats: list[str]
    status: Literal["playing", "over"]
    points: list[int]
    round: int
    updated_at: datetime
    held: list[int] = Field(default_factory=list)
    """The seats the lobby's tokens hold in this game."""
    your_move: bool = False
    waiting: bool = False
    """Seats wait for friends to open the invitation."""
    ended: Literal["resign", "timeout", "abort"] | None = None
    """How it ended when not by its rules."""


class LobbyGames(Answer):
    """The games of the tokens a browser holds."""

    castle: list[GameLine]
    knights: list[KnightsLine]
    more: bool = False
    """More games follow this page (ask again with a larger ``offset``)."""


class KnightsTile(Answer):
    """The tile on the table: a castle of a kind, or a drum."""

    id: str
    name: str
    kind: str | None
    """stone, brick or wood; None for a drum."""
    points: int


class CardView(Answer):
    """Cards of one kind in a hand or a camp."""

    card: str
    name: str
    count: int
    strength: dict[str, int] | None
    """Against each castle kind (None for the shepherd)."""
    now: int | None
    """Against the castle on the table (in a hand, when there is one)."""


class KnightsResultView(Answer):
    ranking: list[int]
    points: list[int]
    hand_sizes: list[int]
    lines: list[str]
    messages: list[MessageView] = Field(default_factory=list)
    """The lines as messages of the catalogue (players as seats)."""


class Event(Answer):
    lines: list[str]
    """The event in words, for the seat viewing it."""
    messages: list[MessageView] = Field(default_factory=list)
    """The lines as messages of the catalogue (players as seats: a page says them as its reader knows them)."""


class TileRevealedEvent(Event):
    type: Literal["TileRevealed"] = "TileRevealed"
    round: int
    tile: str


class CardsRevealedEvent(Event):
    type: Literal["CardsRevealed"] = "CardsRevealed"
    round: int
    choices: list[list[str]]
    """Each seat's two cards."""


class ShepherdsReturnEvent(Event):
    type: Literal["ShepherdsReturn"] = "ShepherdsReturn"
    round: int
    shepherds: list[int]


class CancelledCards(Answer):
    card: str
    seats: list[int]


class DuplicatesCancelledEvent(Event):
    type: Literal["DuplicatesCancelled"] = "DuplicatesCancelled"
    round: int
    cards: list[CancelledCards]


class CastleTakenEvent(Event):
    type: Literal["CastleTaken"] = "CastleTaken"
    round: int
    player: int
    tile: str
    card: str | None
    """None when only shepherds were left: the sword takes the castle."""
    strength: int
    points: int = 0
    """What the castle is worth (its tile's points)."""
    tile_name: str = ""
    """The castle's name in the view's language (as the table lists it)."""


class CampCard(Answer):
    seat: int
    card: str


class CardsToCampEvent(Event):
    type: Literal["CardsToCamp"] = "CardsToCamp"
    round: int
    cards: list[CampCard]


class SwordPassedEvent(Event):
    type: Literal["SwordPassed"] = "SwordPassed"
    round: int
    player: int
    previous: int
    tied: list[int]


class RecruitedEvent(Event):
    type: Literal["Recruited"] = "Recruited"
    round: int
    player: int
    card: str | None
    """None for every seat but the recruiting one: the camp is face down (K8)."""


class EmptyCampEvent(Event):
    type: Literal["EmptyCamp"] = "EmptyCamp"
    round: int
    player: int


class GameEndedEvent(Event):
    type: Literal["GameEnded"] = "GameEnded"


KnightsEvent = Annotated[
    TileRevealedEvent | CardsRevealedEvent | ShepherdsReturnEvent | DuplicatesCancelledEvent | CastleTakenEvent
    | CardsToCampEvent | SwordPassedEvent | RecruitedEvent | EmptyCampEvent | GameEndedEvent,
    Field(discriminator="type"),
]


class KnightsView(Answer):
    """What one seat (or, without a seat, the whole table) may see of a game."""

    api: int = API_VERSION
    id: str
    kind: Literal["knights"] = "knights"
    revision: int
    seats: list[str]
    players: int
    seat: int | None
    phase: KnightsPhase
    round: int
    rounds: int
    current: int
    person_to_act: int | None
    tile: KnightsTile | None
    unseen: list[str]
    points: list[int]
    castles: list[list[str]]
    sword: int
    youngest: int
    hand_sizes: list[int]
    camp_sizes: list[int]
    chosen: list[bool]
    names: list[str]
    card_names: dict[str, str]
    kind_names: dict[str, str]
    over: bool
    result: KnightsResultView | None
    events: list[KnightsEvent]
    hand: list[CardView] | None
    """The seat's hand (None in the public view)."""
    camp: list[CardView] | None
    my_choice: str | None
    legal: list[str]
    """The seat's legal actions now, in notation."""
    players_at: list[SeatView] = Field(default_factory=list)
    """Who sits at each seat: a person (named if they chose), a computer, or a seat free for a friend."""
    moves_count: int = 0
    """The moves of the game so far (choices and tiles): a saved game's ``moves`` once it is over."""
    thinking: bool = False
    """Computer seats are choosing (as jobs of the server): a change follows."""
    bot_error: str | None = None
    """Why a computer seat cannot choose (a bug)."""
    clock: ClockView | None = None
    ended: EndedView | None = None
    """How the game ended before its rules ended it (a resignation, a time out, an abort)."""
    rematch: str | None = None
    """The id of the rematch offered or played after this game."""
    can_abort: bool = False
    """A player may abort the game (``/abort``): it is on and not every person has made a first move yet."""
    watching: int = 0
    """The spectators' pages open on the game."""
    seed: int | None = None
    """The game's seed, once it is over (it fixes every tile)."""
    rated: bool = False
    """The game counts for both players' ratings (issue 39)."""


class SeatedKnightsView(KnightsView):
    """A game as its creator (or a friend who joined) first sees it: the tokens of the seats it took, and the
    invitation code when seats wait for friends."""

    tokens: list[SeatToken]
    invite: str | None = None


class KnightsSetupInfo(Answer):
    players: int
    youngest: int | None
    sword: int | None
    tile_order: list[str] | None


class KnightsRecordResult(Answer):
    points: list[int]
    ranking: list[int]


class KnightsSavedGame(Answer):
    """A saved game (``zamek-knights-game``), given out once the game is over: it holds every secret choice."""

    format: Literal["zamek-knights-game"]
    version: int
    setup: KnightsSetupInfo
    seed: int | None
    moves: list[str]
    result: KnightsRecordResult | None = None
