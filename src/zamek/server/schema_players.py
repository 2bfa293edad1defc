"""The models of players, ratings and the leaderboard (issue 39): :mod:`zamek.server.player_routes`."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from zamek.server.schema_base import Answer, Request

GameName = Literal["castle", "knights"]
ClockName = Literal["live", "correspondence"]


class NewPlayer(Request):
    """A player's name: 3 to 20 letters (Polish ones too), digits, ``_`` or ``-``; unique whatever the case."""

    name: str = Field(max_length=100, examples=["Zosia_77"])


class PlayerCreated(Answer):
    """A new player and its secret token, given once: send it as ``X-Zamek-Player`` to act as the player."""

    name: str
    token: str


class PlayerMe(Answer):
    """The player a token is."""

    name: str
    abandons: bool = False
    """The player let their time run out in 2 or more of their last 10 rated games."""


class MyGame(Answer):
    """A game the player holds a seat of, with that seat's token (the player's own: a device that holds the player
    token plays every game of the player)."""

    id: str
    kind: GameName
    seat: int
    token: str
    status: Literal["playing", "over"]
    rated: bool
    updated_at: datetime


class MyGames(Answer):
    games: list[MyGame]


class HistoryPointView(Answer):
    game_id: str
    rating: float
    rd: float
    at: datetime


class RatingView(Answer):
    """A rating of one game and clock kind (Glicko-2), with its history (after each rated game, the oldest first)."""

    game: GameName
    clock: ClockName
    rating: float
    rd: float
    """Its deviation: how unsure it is (350 for a newcomer)."""
    games: int
    provisional: bool
    """The deviation is over 110: too few games yet."""
    history: list[HistoryPointView] = Field(default_factory=list)


class PlayerGame(Answer):
    """A rated game of the player: watch it while it is on (``#/watch/ID``), replay it once it is over."""

    id: str
    kind: GameName
    seat: int
    status: Literal["playing", "over"]
    opponent: str | None
    """The other player's name (None: a seat no player holds)."""
    score: float | None = None
    """Once over: the player's result (1 a win, 0.5 a draw, 0 a loss; None: aborted)."""
    clock: ClockName
    updated_at: datetime


class OpponentRecord(Answer):
    """The player's results against one opponent in rated games."""

    name: str
    wins: int
    draws: int
    losses: int


class PlayerPage(Answer):
    name: str
    abandons: bool
    ratings: list[RatingView]
    games: list[PlayerGame]
    opponents: list[OpponentRecord]


class LeaderLine(Answer):
    """A line of the leaderboard: a player, or a computer level as a reference point (``level``, its ladder rating
    on the players' scale)."""

    name: str | None = None
    level: str | None = None
    rating: float
    rd: float | None = None
    games: int | None = None
    provisional: bool = False
    abandons: bool = False


class Leaderboard(Answer):
    game: GameName
    clock: ClockName
    players: list[LeaderLine]
    """The players, those with an established rating first, each part by rating."""
    computer: list[LeaderLine]
    """The computer levels, strongest first."""
