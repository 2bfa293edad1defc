"""The requests the web API accepts, validated with pydantic (version 1 of the protocol)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from zamek.core.editions import Edition


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewGame(Request):
    """Start a game: against the computer, or for two people at one screen."""

    mode: Literal["computer", "hotseat"] = "computer"
    level: Literal["beginner", "easy", "medium", "hard"] = "beginner"
    seat: Literal["first", "second", "random"] = "first"
    """Against the computer: whether the person plays first (player 1) or second."""
    edition: Edition = Edition.ZAMEK
    sokol: bool = False
    gate_guard: bool = False
    seed: int | None = Field(default=None, ge=0, lt=2**62)

    @model_validator(mode="after")
    def _gate_guard_needs_sokol(self) -> NewGame:
        if self.gate_guard and not self.sokol:
            raise ValueError("the gate-guard variant needs the Sokół expansion")
        return self


class Move(Request):
    """A move in the game's notation ('e10/90', 'follower:2', 'pass', 'order:1', 'use:2', 'decline')."""

    action: str = Field(min_length=1, max_length=40)
    revision: int | None = None
    """The revision the page shows; a move made on an older one is refused (409)."""


class Revision(Request):
    revision: int | None = None
