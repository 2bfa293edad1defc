"""What every model of the web protocol shares: the protocol's version, the base models of requests and answers,
the refusal's answer, and the small types the models name (a space, a mode, a phase...).

The models themselves are in :mod:`zamek.server.schema_requests`, :mod:`zamek.server.schema_game`,
:mod:`zamek.server.schema_lobby` and :mod:`zamek.server.schema_analysis`; :mod:`zamek.server.schemas` names them
all (and tells the protocol's versions).
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

API_VERSION: Final = 4
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


class ErrorAnswer(Answer):
    """A refused request (4xx): a code and the reason in words (the engine's own message for a move)."""

    error: str = Field(examples=["illegal"])
    message: str = Field(examples=["d5/0: a tile must touch a placed tile or a start space with a side (Z7)"])


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The refusals a route may answer with (``ErrorAnswer``), for its OpenAPI description."""
    return {code: {"model": ErrorAnswer} for code in codes}


class Loose(BaseModel):
    """An answer built from ``zamek.castle.analysis``'s JSON: fields it may add later are left out, not refused."""

    model_config = ConfigDict(extra="ignore")
