"""The lobby's challenges and quick pairings (``/api/challenges``, ``/api/pairing``): requests and answers."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field, field_validator, model_validator

from zamek import Setup
from zamek.server.clock import ClockSettings
from zamek.server.errors import InvalidRequest
from zamek.server.schema_base import Answer, Request
from zamek.server.schema_requests import known_rule_set


class Seek(Request):
    """What a player wants to play: the game, its rule set (the castle game), the clock, rated or casual."""

    game: Literal["castle", "knights"] = "castle"
    rules: str | None = Field(default=None, max_length=100, examples=["zamek", "zamek+sokol"])
    """The castle game's rule set (``/api/meta``'s ``rule_sets``; None: the default one); none for Rycerze i zamki."""
    clock: ClockSettings | None = None
    rated: bool = False

    @field_validator("rules")
    @classmethod
    def _known_rule_set(cls, rules: str | None) -> str | None:
        return known_rule_set(rules)

    @model_validator(mode="after")
    def _rules_for_the_castle(self) -> Seek:
        if self.game == "knights" and self.rules is not None:
            raise InvalidRequest("knights-no-rules")
        if self.game == "castle" and self.rules is None:
            self.rules = Setup().name
        return self


class NewChallenge(Seek):
    """An open challenge: anyone whose rating is within the range (when one is given) may accept it."""

    min_rating: float | None = Field(default=None, ge=0, le=4000)
    max_rating: float | None = Field(default=None, ge=0, le=4000)

    @model_validator(mode="after")
    def _range(self) -> NewChallenge:
        if self.min_rating is not None and self.max_rating is not None and self.min_rating > self.max_rating:
            raise InvalidRequest("rating-range")
        return self


class ChallengeView(Answer):
    """An open challenge as the lobby lists it (the poster by name; never a token)."""

    id: str
    poster: str
    """The poster's name."""
    rating: float | None
    """The poster's rating for this game and clock kind (None: none yet)."""
    abandons: bool = False
    """The poster let their time run out in several of their last rated games (:func:`zamek.server.ratings.abandons`):
    the lobby shows it."""
    game: Literal["castle", "knights"]
    rules: str | None
    clock: ClockSettings | None
    rated: bool
    min_rating: float | None
    max_rating: float | None
    mine: bool = False
    """Posted by the player who asks (``X-Zamek-Player``)."""
    created_at: datetime


class Started(Answer):
    """A game made in the lobby: its id and game; each player plays it with their own player token as the seat's
    token (``Authorization: Bearer <player token>``), in ``seat``."""

    game_id: str
    game: Literal["castle", "knights"]
    seat: int
    """The seat of the player who asks."""
    challenge: str


class Challenges(Answer):
    """The open challenges (the latest first), and the games started lately from the asking player's challenges
    and pairings (their page goes to them)."""

    challenges: list[ChallengeView]
    started: list[Started] = Field(default_factory=list)


class Pairing(Answer):
    """A quick pairing: ``waiting`` for another player (its ``id``), or the game it ``started``."""

    id: str
    waiting: bool
    started: Started | None = None
