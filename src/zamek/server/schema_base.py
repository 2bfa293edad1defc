"""What every model of the web protocol shares: the protocol's version, the base models of requests and answers,
the refusal's answer, and the small types the models name (a space, a mode, a phase...).

The models themselves are in :mod:`zamek.server.schema_requests`, :mod:`zamek.server.schema_game`,
:mod:`zamek.server.schema_lobby` and :mod:`zamek.server.schema_analysis`; :mod:`zamek.server.schemas` names them
all (and tells the protocol's versions).
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

API_VERSION: Final = 5
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


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Answer(BaseModel):
    """An answer of the API (no field beyond those declared)."""

    model_config = ConfigDict(extra="forbid")


class MessageView(Answer):
    """A message of the catalogue not yet put into words (``/api/words`` has every message): its key and values.

    A value is text, a number, a word of the game (``{"term": key}``: said in the words of the edition), a player
    (``{"seat": n}``: said as the reader knows them, "You", "Player 2"), another message (``{"key", "params"}``:
    an engine's error inside a refusal, a count inside a score line) or a list of values. Which values a message
    takes is the catalogue's (its ``{name}`` arguments): they are not described here one by one, and are sent as
    they are (a view has many lines)."""

    key: str = Field(examples=["move.place"])
    params: dict[str, Any] = Field(default_factory=dict, examples=[{"player": {"seat": 0}, "tile": "Z15",
                                                                     "space": "e10", "degrees": 90}])


class ErrorAnswer(Answer):
    """A refused request (4xx, 5xx): the kind of refusal, its message in the catalogue (by code, with the rule it
    enforces and its values) and that message said in the request's language, in the words of the game's edition.

    The code names the message ``server.<code>`` of the catalogue for a refusal of the web layer, and the message
    ``error.<code>`` for one of the rules engines (kinds ``illegal-move``, ``malformed-move``, ``invalid-record``,
    and ``invalid`` for a rule set). A value that is a word of the game is ``{"term": key}``, a player
    ``{"seat": n}``, a nested error or message ``{"key": ..., "params": {...}}``."""

    error: str = Field(examples=["illegal-move"])
    """The kind of refusal: ``not-found``, ``not-your-seat``, ``not-your-turn``, ``stale``, ``game-over``,
    ``illegal-move``, ``malformed-move``, ``invalid-record``, ``invalid``..."""
    code: str = Field(examples=["no-neighbour"])
    """The message's code in the catalogue."""
    rule: str | None = Field(default=None, examples=["Z7"])
    """The rule the refusal enforces (RULES.md), if it is one of the rules'."""
    params: dict[str, Any] = Field(default_factory=dict)
    """The message's values (as ``MessageView``'s)."""
    message: str = Field(examples=["d5/0: a tile must touch a placed tile or a start space with a side (Z7)"])
    """The message in the request's language (``?lang=``, else ``Accept-Language``)."""


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The refusals a route may answer with (``ErrorAnswer``), for its OpenAPI description."""
    return {code: {"model": ErrorAnswer} for code in codes}


class Loose(BaseModel):
    """An answer built from ``zamek.castle.analysis``'s JSON: fields it may add later are left out, not refused."""

    model_config = ConfigDict(extra="ignore")
