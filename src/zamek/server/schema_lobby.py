"""The answers about games rather than positions: ``/api/meta``, the lobby's lines, a game's status, the seats
adopted, and the saved game (``zamek-game``) a game exports."""

from __future__ import annotations

from dataclasses import fields
from datetime import datetime
from typing import Literal

from pydantic import Field

from zamek import Edition
from zamek.castle.rules.rates import Rates
from zamek.castle.rules.rulesets import Kind, RuleOption
from zamek.server.schema_base import API_VERSION, Answer, Mode
from zamek.server.schema_game import SetupInfo
from zamek.server.schema_watch import TABLE_MESSAGES


class RuleOptionView(Answer):
    """An edition, expansion or variant of the castle game, as the registry of rule sets has it
    (``zamek.castle.rules.rulesets``)."""

    key: str = Field(examples=["sokol"])
    """Its key in rule-set names (``zamek+sokol``)."""
    kind: Kind
    rule_ids: list[str]
    """The rules of ``RULES.md`` it brings (an edition: those it plays by)."""
    words: str = Field(examples=["sokol"])
    """The key of its name in the page's words."""
    requires: list[str]
    """The keys of the options it needs (a variant of an expansion needs that expansion)."""

    @classmethod
    def of(cls, option: RuleOption) -> RuleOptionView:
        return cls(key=option.key, kind=option.kind, rule_ids=list(option.rule_ids), words=option.words,
                   requires=list(option.requires))


class RatesView(Answer):
    """Every rate of scoring (``zamek.castle.rules.rates.Rates``): the page shows the server's numbers, not its
    own."""

    road: int
    road_with_stocks: int
    house: int
    pigsty: int
    chapel: list[int]
    """A complete chapel's points by its tiles (0 to 8; larger ones score the last entry)."""
    shrine: int
    meadow_token: int
    family_token_tiles: int
    five_points: int
    open_house: int
    open_pigsty: int
    open_road: int
    open_road_with_stocks: int
    empty_space: int
    prince_factor: int
    token_factor: int
    falconer_nests: int

    @classmethod
    def of(cls, rates: Rates) -> RatesView:
        return cls.model_validate({f.name: getattr(rates, f.name) for f in fields(rates)})


class LanguageView(Answer):
    """A language there is a catalogue of words for."""

    code: str = Field(examples=["pl"])
    """Its code (``?lang=``, ``/api/words?lang=``)."""
    name: str = Field(examples=["Polski"])
    """Its name in itself (the catalogue's ``language.name``)."""


class Words(Answer):
    """A language's catalogue of words (``zamek.i18n``): every message, in the language or, where it has none, in
    English; the page says every word with it (``static/words.js``)."""

    lang: str = Field(examples=["pl"])
    name: str = Field(examples=["Polski"])
    plural_rules: str = Field(examples=["pl"])
    """The CLDR locale whose plural rules its messages follow (``Intl.PluralRules``)."""
    messages: dict[str, str]
    """Every message by its key (``key@edition`` for an edition's own form), in ICU MessageFormat."""


class Meta(Answer):
    """The protocol's version, the choices for a new game and the language the browser prefers."""

    api: int = API_VERSION
    levels: list[str]
    editions: list[Edition]
    languages: list[LanguageView]
    """The languages there are catalogues for, the base language (English) first."""
    lang: str
    """The one of them the browser prefers (``Accept-Language``)."""
    rule_sets: list[str] = Field(examples=[["zamek", "castle2003", "zamek+sokol"]])
    """Every rule set's name (``NewGame.rules``), the fewest options first, the default first."""
    edition_options: list[RuleOptionView]
    """The editions (``editions``) with their words, the default first."""
    options: list[RuleOptionView]
    """The expansions and variants, in the order their keys are written in a rule set's name."""
    rates: RatesView
    """What everything scores (the rules page draws its examples with them)."""
    token_numbers: dict[str, dict[str, int]]
    """The number printed on each token, by edition and token kind (C4: The Castle 2003 numbers them its own way)."""
    knight_strengths: dict[str, int]
    """Rycerze i zamki: the knight's strength against each kind of castle, the one strength the cards print (K2)."""
    table_messages: list[str] = Field(default_factory=lambda: list(TABLE_MESSAGES))
    """The keys of the fixed messages a player may say at a table (``POST /api/games/{id}/say``; the page's words
    ``page.say.<key>``)."""


class GameLine(Answer):
    """A castle game in the lobby's list."""

    id: str
    kind: Literal["castle"] = "castle"
    mode: Mode
    seats: list[int] = Field(default_factory=list)
    """The seats the lobby's tokens hold in this game."""
    your_move: bool = False
    """One of those seats is to move."""
    waiting: bool = False
    """The game waits for a friend to open the invitation."""
    winners: list[int] | None = None
    """Once the game is over: who won (both seats for a draw)."""
    ended: Literal["resign", "timeout", "abort"] | None = None
    """How it ended when not by its rules."""
    names: list[str | None] = Field(default_factory=list)
    """The names people chose for the seats (a game against a friend)."""
    imported: bool = False
    """The game was made from a saved game's record (it may repeat a game of the list)."""
    level: str | None
    human: int | None
    rules: str
    edition: Edition
    sokol: bool
    gate_guard: bool
    status: Literal["playing", "over"]
    scores: list[int]
    turn: int
    moves: int
    created_at: datetime
    updated_at: datetime


class GameStatus(Answer):
    """Cheap to poll: the revision changes with every move."""

    revision: int
    thinking: bool
    bot_error: str | None
    over: bool


class Adopted(Answer):
    """A seat of a game stored before games had seats, given to this machine's browser."""

    kind: Literal["castle", "knights"]
    id: str
    seat: int
    token: str


class RecordResult(Answer):
    scores: list[int]


class SavedGame(Answer):
    """A saved game (``zamek-game``): the setup, the seed and every move; the result once it is over."""

    format: Literal["zamek-game"]
    version: int
    setup: SetupInfo
    seed: int | None = None
    moves: list[str]
    result: RecordResult | None = None
    players: list[str] | None = None
    """Who played each seat of a game against the computer: 'person' and 'computer:LEVEL' (an import goes on
    against the same level); absent for a game of people."""
