"""Game clocks, enforced by the server: live (a time for the game plus an increment a move) or correspondence
(a time for each move).

A clock is a value: the time each seat has left and whose time runs since when (seconds since the epoch, so
that it survives a restart: the time a server is down counts, as on a wall clock). The caller says what time
it is, so the clock has no clock of its own and tests set the time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from zamek.server.errors import InvalidRequest

ClockKind = Literal["live", "correspondence"]


class ClockSettings(BaseModel):
    """The time control chosen when a game is created."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: ClockKind
    minutes: float = Field(default=10, gt=0, le=24 * 60)
    """Live: each player's time for the whole game."""
    increment: int = Field(default=5, ge=0, le=600)
    """Live: seconds added after each of a player's turns."""
    days: float = Field(default=1, gt=0, le=14)
    """Correspondence: the time for each turn."""

    @model_validator(mode="after")
    def _sensible(self) -> ClockSettings:
        if self.kind == "live" and self.minutes * 60 < 10:
            raise InvalidRequest("live-clock-min")
        if self.kind == "correspondence" and self.days * 24 < 1:
            raise InvalidRequest("correspondence-clock-min")
        return self

    @property
    def start_ms(self) -> int:
        return round((self.minutes * 60 if self.kind == "live" else self.days * 86400) * 1000)


@dataclass
class Clock:
    """The time left to each seat, and whose time runs (``running``) since when (``since``, epoch seconds)."""

    settings: ClockSettings
    left_ms: list[int]
    running: int | None = None
    since: float | None = None
    moves: list[int] = field(default_factory=lambda: [0, 0])

    @classmethod
    def new(cls, settings: ClockSettings, seats: int = 2) -> Clock:
        return cls(settings, [settings.start_ms] * seats, moves=[0] * seats)

    def left(self, seat: int, now: float) -> int:
        """Milliseconds ``seat`` has left at ``now``."""
        left = self.left_ms[seat]
        if seat == self.running and self.since is not None:
            left -= round((now - self.since) * 1000)
        return max(0, left)

    def expired(self, now: float) -> int | None:
        """The seat whose time has run out at ``now``, or None."""
        if self.running is not None and self.left(self.running, now) <= 0:
            return self.running
        return None

    def run_for(self, seat: int | None, now: float) -> None:
        """The turn passes to ``seat`` (None: the clock stops) at ``now``: the seat that was thinking is charged
        its time and, when its turn is over, gets the increment (live) or the next turn's time (correspondence)."""
        if seat == self.running:
            return
        if self.running is not None:
            done = self.running
            self.left_ms[done] = self.left(done, now)
            self.moves[done] += 1
            if self.settings.kind == "live":
                self.left_ms[done] += self.settings.increment * 1000
            else:
                self.left_ms[done] = self.settings.start_ms
        self.running, self.since = seat, (now if seat is not None else None)

    def turn_back(self, seat: int | None, now: float) -> None:
        """A takeback gives the turn back to ``seat`` at ``now``: the seat that was thinking is charged its time,
        with no increment and no new turn's time (its turn did not end), and ``seat``'s time runs from now."""
        if self.running is not None:
            self.left_ms[self.running] = self.left(self.running, now)
        self.running, self.since = seat, (now if seat is not None else None)

    def stop(self, now: float) -> None:
        """The game ends at ``now`` before its rules end it (a resignation, a time out): the seat that was thinking
        is charged its time, with no increment (a seat out of time keeps none)."""
        if self.running is not None:
            self.left_ms[self.running] = self.left(self.running, now)
        self.running, self.since = None, None

    def to_json(self) -> dict[str, Any]:
        return {"settings": self.settings.model_dump(), "left_ms": list(self.left_ms), "running": self.running,
                "since": self.since, "moves": list(self.moves)}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Clock:
        return cls(ClockSettings.model_validate(raw["settings"]), [int(x) for x in raw["left_ms"]], raw["running"],
                   raw["since"], [int(x) for x in raw.get("moves", [0] * len(raw["left_ms"]))])
