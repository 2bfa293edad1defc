"""The requests of the web protocol (``POST /api/games``, ``/join``, ``/api/lobby``, a move), each
checked against its model: a mismatch is a 422 answer."""

from __future__ import annotations

import json
from typing import Literal

from pydantic import Field, field_validator, model_validator

from zamek import Edition, Setup, ZamekError
from zamek.castle.rules.rulesets import OPTIONS, rule_set_name
from zamek.server.clock import ClockSettings
from zamek.server.errors import InvalidRequest
from zamek.server.schema_base import Answer, Mode, Name, Request, Secret

SeatKind = Literal["person", "friend", "random", "heuristic", "mc"]
"""A card game's seat: a person at this screen, a friend elsewhere (who opens the invitation), or a computer player."""


def known_rule_set(rules: str | None) -> str | None:
    """A rule set the registry knows, by its name as a game's view writes it (the engine's error names what is
    wrong)."""
    if rules is None:
        return None
    try:
        return Setup.parse(rules).name
    except ZamekError:
        raise
    except ValueError:
        raise InvalidRequest("bad-rules-name", rules=rules) from None


class NewGame(Request):
    """Start a match: of the castle game (against the computer, for two people at one screen, or against a friend),
    or of Rycerze i zamki (``game: "knights"``, its ``seats``)."""

    game: Literal["castle", "knights"] = "castle"
    seats: list[SeatKind] | None = Field(default=None, min_length=2, max_length=4)
    """Rycerze i zamki: each seat's player, in seat order: 'person', 'friend' or a computer player."""
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
    rated: bool = False
    """Against one friend, asked by a player (``X-Zamek-Player``): the game counts for both players' ratings; the
    friend must join as a player. No hints, no takebacks."""
    rules: str | None = Field(default=None, max_length=100, examples=["zamek+sokol", "castle2003+sokol+gate-guard"])
    """The rule set's name (``/api/meta`` lists them: ``rule_sets``); None: the one ``edition``, ``sokol`` and
    ``gate_guard`` name. Those older fields may come with it only where they agree with it."""
    edition: Edition = Edition.ZAMEK
    sokol: bool = False
    gate_guard: bool = False
    seed: int | None = Field(default=None, ge=0, lt=2**62)
    listed: bool = False
    """A game with friends elsewhere (the castle game's 'friend' mode, a card game with a 'friend' seat): list it among
    the live games anyone may watch (``GET /api/live``) once every seat is taken. A game is private without it: only
    those who have its link see it."""

    @field_validator("rules")
    @classmethod
    def _known_rule_set(cls, rules: str | None) -> str | None:
        return known_rule_set(rules)

    @model_validator(mode="after")
    def _gate_guard_needs_sokol(self) -> NewGame:
        if self.rules is not None:
            against = self._contradiction(self.rules)
            if against is not None:
                raise InvalidRequest("rules-contradict", rules=self.rules, field=against)
        elif self.gate_guard and not self.sokol:
            raise InvalidRequest("gate-guard-sokol")
        if self.game == "knights":
            return self._knights()
        if self.seats is not None:
            raise InvalidRequest("seats-knights")
        if self.clock is not None and self.mode != "friend":
            raise InvalidRequest("clocks-friend")
        if self.seed is not None and self.mode == "friend":
            raise InvalidRequest("friend-seed")
        if self.listed and self.mode != "friend":
            raise InvalidRequest("listed-friends")
        return self

    def _knights(self) -> NewGame:
        if self.seats is None:
            raise InvalidRequest("knights-seats")
        if "person" not in self.seats:
            raise InvalidRequest("person-seat")
        if self.seed is not None and "friend" in self.seats:
            raise InvalidRequest("friends-seed")
        if self.clock is not None and "friend" not in self.seats:
            raise InvalidRequest("clocks-friends")
        if self.listed and "friend" not in self.seats:
            raise InvalidRequest("listed-friends")
        return self

    def _contradiction(self, rules: str) -> str | None:
        """The first of the older fields given in the request that says otherwise than ``rules`` (``field=value``),
        or None."""
        setup = Setup.parse(rules)
        given = self.model_fields_set
        if "edition" in given and self.edition != setup.edition:
            return f"edition={self.edition.value}"
        for option in OPTIONS:
            field = option.setup_field
            if field is not None and field in given and getattr(self, field) != (option.key in setup.options):
                return f"{field}={json.dumps(getattr(self, field))}"
        return None

    def rule_set(self) -> str:
        """The name of the rule set asked for: ``rules``, or the one the older fields name (through the registry)."""
        if self.rules is not None:
            return self.rules
        fields = type(self).model_fields
        chosen = {o.key for o in OPTIONS if o.setup_field in fields and getattr(self, o.setup_field)}
        return rule_set_name(self.edition, chosen)


class Join(Request):
    """Take the free seat of a friend's game: the invitation code of its link, and a name if you like."""

    invite: Secret
    name: Name | None = None
    key: Secret | None = None
    """A secret the page makes for this joining and sends again if its answer is lost: the same invitation with the
    same key gives the same seat again (a new token), until that seat's token is first used."""


class Lobby(Request):
    """The seat tokens this browser holds: the lobby lists their games (and no other)."""

    tokens: list[Secret] = Field(default_factory=list, max_length=1000)
    offset: int = Field(default=0, ge=0)
    """How many of the games (the latest changed first) the pages before this one listed."""
    limit: int = Field(default=50, ge=1, le=200)
    """How many games this page lists at most."""


class Move(Request):
    """A move in the game's notation (the castle game: 'e10/90', 'follower:2', 'pass', 'order:1', 'use:2',
    'decline'; Rycerze i zamki: 'play:…', 'recruit:…')."""

    action: str = Field(min_length=1, max_length=40)
    revision: int | None = None
    """The revision the page shows; a move made on an older one is refused (409)."""
    seat: int | None = Field(default=None, ge=0, le=3)
    """The seat the page acts for (it must be the token's): a card game's screen may hold several."""


class Revision(Request):
    revision: int | None = None


class Invitation(Answer):
    """A new invitation code for a match's open seats (the link to send carries it)."""

    invite: str
