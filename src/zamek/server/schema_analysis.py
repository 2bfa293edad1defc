"""Hints (the best moves for the player to move) and a finished game's analysis (``zamek-analysis``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from zamek.server.schema_base import Answer, Loose, MessageView, PieceKey, Space


class HintMove(Answer):
    """One of the best moves for the player to move (``zamek.castle.analysis.hints``)."""

    move: list[str] = Field(examples=[["e10/90", "follower:2"]])
    """Its actions in the game's notation: a placement then the figure choice, or one answer."""
    lead: float
    """The mover's expected final lead (points) after it, as the expert's learned value judges it."""
    words: list[str]
    """Each action in words, in the view's language."""
    messages: list[MessageView] = Field(default_factory=list)
    """Each action as a message of the catalogue (its player as a seat)."""
    space: Space | None = None
    """A placement: where the tile goes."""
    rotation: int | None = None
    """A placement: the tile's quarter turns clockwise."""
    part: int | None = None
    """The feature (its index on the tile) the figure goes on; None: no figure."""
    piece: PieceKey | None = None
    feature_spaces: list[Space] = Field(default_factory=list)
    """The spaces the figure's feature covers once the tile is placed, the tile's own first (none: no figure)."""


class Hints(Answer):
    """The best moves for the player to move, best first."""

    revision: int
    """The revision they are for (a move since makes them stale)."""
    position: int
    """The revision their position was reached at (the view's ``position``)."""
    player: int
    hints: list[HintMove]


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
    played_messages: list[MessageView] = Field(default_factory=list)
    """The move played as messages of the catalogue (its player as a seat)."""
    best_messages: list[MessageView] = Field(default_factory=list)


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
