"""The answers of the lobby's public lists: the live games anyone may watch (``GET /api/live``), and a word said at a
table (``POST /api/games/{id}/say``).

They carry only what a spectator of the game sees: no seat's token, no invitation, no hidden card or token."""

from __future__ import annotations

from datetime import datetime
from typing import Final, Literal

from pydantic import Field, field_validator

from zamek.server.clock import ClockKind
from zamek.server.errors import InvalidRequest
from zamek.server.schema_base import Answer, Request

TABLE_MESSAGES: Final = ("hello", "good-luck", "your-turn", "thanks", "oops", "well-played", "good-game", "bye")
"""The words a player may say at a table, by their keys (the page's words are ``page.say.<key>``): no other text is
ever said."""


class LiveLine(Answer):
    """A game being played that its creator listed: what its spectators see of it without opening it."""

    id: str
    game: Literal["castle", "knights"]
    rules: str | None = Field(examples=["zamek+sokol"])
    """The castle game's rule set (None: Rycerze i zamki)."""
    names: list[str | None]
    """The names the players chose, by seat (None: no name)."""
    computer: list[bool]
    """Which seats a computer plays (a card game may have some)."""
    scores: list[int]
    """The castle game's scores, the card game's points, by seat."""
    turn: int
    """The castle game's turn; the card game's round."""
    clock: ClockKind | None
    """The kind of clock the game is played with (None: no clock)."""
    watching: int
    """The spectators' pages open on it now."""
    rating: float | None = None
    """The higher of its players' ratings, once players have ratings (the list is sorted by it first)."""
    updated_at: datetime


class LiveGames(Answer):
    """The live games anyone may watch, the most highly rated first (without ratings: the latest active first)."""

    games: list[LiveLine]


class Say(Request):
    """A word at the table: one of the fixed messages (``/api/meta``'s ``table_messages``), by its key."""

    message: str = Field(max_length=32, examples=["good-game"])

    @field_validator("message")
    @classmethod
    def _fixed(cls, message: str) -> str:
        if message not in TABLE_MESSAGES:
            raise InvalidRequest("unknown-message", messages=", ".join(TABLE_MESSAGES))
        return message


class Said(Answer):
    """A word said at the table, as the game's live events carry it (event ``say``)."""

    game: str
    seat: int
    message: str
