"""Every word a person reads, in every language: one catalogue per language, used by the command line, the
server and the page (which gets it from ``/api/words``).

A catalogue is a folder named for its language (``en``, ``pl``) of TOML files: ``language.toml`` names the
language and the CLDR locale whose plural rules it follows; the others hold messages, grouped by where they are
read (``game.toml``, ``errors.toml``, ``page.toml``...). A table's keys join its name with dots (``[error]`` /
``road-mismatch`` is ``error.road-mismatch``). A key may have a form for one edition, ``"road@castle2003"``,
used when that edition is played (The Castle 2003 names things its own way, C1). Messages are written in the
syntax of ``zamek.i18n.messageformat`` (ICU MessageFormat: plural and select).

A third language is one more folder, here or in the folder named by the ``ZAMEK_CATALOGUES`` environment
variable; a key it lacks is said in English.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final, Protocol, runtime_checkable

from zamek.i18n.messageformat import MessageSyntaxError, Pattern, format_pattern, parse

__all__ = [
    "BASE",
    "CATALOGUES_ENV",
    "NOBODY",
    "Catalogue",
    "Message",
    "MessageSyntaxError",
    "Reader",
    "Seat",
    "Term",
    "catalogue",
    "clauses",
    "languages",
    "reset",
    "say",
]

BASE: Final = "en"
"""The language every catalogue falls back to, and the one the logs and exceptions are written in."""

CATALOGUES_ENV: Final = "ZAMEK_CATALOGUES"
"""An environment variable naming a folder of more catalogues (one folder per language)."""

HERE: Final = Path(__file__).parent
LANGUAGE_FILE: Final = "language.toml"
EDITION_MARK: Final = "@"


@dataclass(frozen=True)
class Term:
    """A word of the game by its key in the catalogue (``term.road``, ``card.dragon``), said in the words of the
    edition played."""

    key: str


@dataclass(frozen=True)
class Seat:
    """A player, by seat (0 for the first): said as the reader knows them ("You", "Player 2", "Computer").

    A message with a seat value ``player`` also gets ``player_person``: ``you`` when the reader holds that seat,
    else ``other`` (a person is addressed in the second person: "You draw", "Player 2 draws").
    """

    number: int


@dataclass(frozen=True)
class Reader:
    """Who reads a message: the seats that are theirs and the names the players go by (default "Player N")."""

    you: frozenset[int] = frozenset()
    names: Mapping[int, str] = field(default_factory=dict)


NOBODY: Final = Reader()


@dataclass(frozen=True)
class Message:
    """A message not yet put into words: its key in the catalogue and its values."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)

    def text(self, lang: str = BASE, edition: str | None = None, reader: Reader = NOBODY) -> str:
        """Return the message in ``lang``, in the words of ``edition``, as ``reader`` reads it."""
        return catalogue(lang).render(self, edition, reader)

    def to_json(self) -> dict[str, Any]:
        """Return the message as JSON values: ``{"key": ..., "params": {...}}``; a Term is ``{"term": key}``."""
        return {"key": self.key, "params": {name: _json(value) for name, value in self.params.items()}}

    def __str__(self) -> str:
        return self.text()


@runtime_checkable
class Said(Protocol):
    """Anything that can be said as a message (an engine's error)."""

    @property
    def message(self) -> Message: ...


def _json(value: object) -> Any:
    if isinstance(value, (str, int, float)) or value is None:
        return value
    if isinstance(value, Term):
        return {"term": value.key}
    if isinstance(value, Seat):
        return {"seat": value.number}
    if isinstance(value, Said):
        return value.message.to_json()
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return value


class Catalogue:
    """One language's messages (with the base language's for any key it lacks)."""

    def __init__(self, lang: str, name: str, plural_rules: str, messages: Mapping[str, str],
                 fallback: Catalogue | None) -> None:
        self.lang = lang
        self.name = name
        self.plural_rules = plural_rules
        self.own = dict(messages)
        self.fallback = fallback
        self._patterns: dict[str, Pattern] = {}
        from babel import Locale  # Babel's CLDR data is large: read it when a catalogue is first used

        self._locale = Locale.parse(plural_rules.replace("-", "_"))
        self._plural = self._locale.plural_form

    def __contains__(self, key: str) -> bool:
        return key in self.own or (self.fallback is not None and key in self.fallback)

    def keys(self) -> frozenset[str]:
        """Return the keys this language itself defines (edition forms included, ``key@edition``)."""
        return frozenset(self.own)

    def pattern(self, key: str, edition: str | None = None) -> Pattern:
        """Return the parsed message for ``key`` in ``edition``'s form if it has one."""
        for candidate in ([f"{key}{EDITION_MARK}{edition}"] if edition else []) + [key]:
            if candidate in self.own:
                if candidate not in self._patterns:
                    self._patterns[candidate] = parse(self.own[candidate])
                return self._patterns[candidate]
        if self.fallback is not None:
            return self.fallback.pattern(key, edition)
        raise KeyError(f"no message {key!r} in the catalogue")

    def plural(self, n: int | float) -> str:
        """Return the CLDR plural category of ``n`` in this language ('one', 'few', 'many', 'other'...)."""
        return str(self._plural(n))

    def say(self, key: str, edition: str | None = None, reader: Reader = NOBODY, /, **params: object) -> str:
        """Return the message ``key`` with ``params`` filled in, in the words of ``edition``."""
        values = dict(params)
        for name, value in params.items():
            if isinstance(value, Seat):
                values[f"{name}_person"] = "you" if value.number in reader.you else "other"
        return format_pattern(self.pattern(key, edition), values, self.plural,
                              lambda value: self.value(value, edition, reader))

    def render(self, message: Message, edition: str | None = None, reader: Reader = NOBODY) -> str:
        """Return a Message in this language, as ``reader`` reads it."""
        return self.say(message.key, edition, reader, **message.params)

    def value(self, value: object, edition: str | None = None, reader: Reader = NOBODY, *, inline: bool = False) -> str:
        """Return a message's value in words (a Term, a Seat, a Message, a list...); ``inline``: inside a list, where
        the reader is "you" in the middle of a sentence."""
        if isinstance(value, str):
            return value
        if isinstance(value, bool) or value is None:
            raise TypeError(f"a message cannot show {value!r}")
        if isinstance(value, int):
            return str(value)
        if isinstance(value, float):  # as the page writes it (Intl.NumberFormat): the language's decimal sign
            from babel.numbers import format_decimal

            return str(format_decimal(value, locale=self._locale, group_separator=False))
        if isinstance(value, Term):
            return self.say(value.key, edition)
        if isinstance(value, Seat):
            name = reader.names.get(value.number)
            if name is not None:
                return name
            you = "player.you-inline" if inline else "player.you"
            return self.say(you if value.number in reader.you else "player.name", n=value.number + 1)
        if isinstance(value, Message):
            return self.render(value, edition, reader)
        if isinstance(value, Said):
            return self.render(value.message, edition, reader)
        if isinstance(value, (list, tuple)):
            return self.say("list.separator").join(self.value(v, edition, reader, inline=True) for v in value)
        raise TypeError(f"a message cannot show a {type(value).__name__}")

    def export(self) -> dict[str, Any]:
        """Return the catalogue as the page reads it: every key, in this language or else the base one."""
        messages = dict(self.fallback.export()["messages"]) if self.fallback is not None else {}
        for key in [key for key in messages if EDITION_MARK in key]:
            if key not in self.own and key.partition(EDITION_MARK)[0] in self.own:
                del messages[key]  # the language's own word serves every edition, as it does in pattern()
        messages.update(self.own)
        return {"lang": self.lang, "name": self.name, "plural_rules": self.plural_rules, "messages": messages}


def clauses(items: Sequence[object]) -> object:
    """Several clauses as one value, told one after another ('a; b; c': ``list.clauses``)."""
    if not items:
        raise ValueError("clauses of nothing")
    joined = items[-1]
    for item in reversed(items[:-1]):
        joined = Message("list.clauses", {"first": item, "rest": joined})
    return joined


def _folders() -> Iterator[Path]:
    yield HERE
    extra = os.environ.get(CATALOGUES_ENV)
    if extra:
        yield Path(extra)


def _flatten(table: Mapping[str, Any], prefix: str, into: dict[str, str], where: Path) -> None:
    for name, value in table.items():
        key = f"{prefix}{name}"
        if isinstance(value, dict):
            _flatten(value, f"{key}.", into, where)
        elif isinstance(value, str):
            if key in into:
                raise ValueError(f"{where}: {key!r} is defined twice in the catalogue")
            into[key] = value
        else:
            raise ValueError(f"{where}: {key!r} must be text")


def _read(folder: Path) -> tuple[str, str, dict[str, str]]:
    about = tomllib.loads((folder / LANGUAGE_FILE).read_text(encoding="utf-8")).get("language", {})
    messages: dict[str, str] = {}
    for path in sorted(folder.glob("*.toml")):
        if path.name != LANGUAGE_FILE:
            _flatten(tomllib.loads(path.read_text(encoding="utf-8")), "", messages, path)
    for key, text in messages.items():
        try:
            parse(text)
        except MessageSyntaxError as exc:
            raise ValueError(f"{folder.name}: {key}: {exc}") from None
    return str(about.get("name", folder.name)), str(about.get("plural_rules", folder.name)), messages


@cache
def _available() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for root in _folders():
        if root.is_dir():
            for folder in sorted(root.iterdir()):
                if (folder / LANGUAGE_FILE).is_file():
                    found[folder.name] = folder
    return found


def languages() -> tuple[str, ...]:
    """Return the languages there are catalogues for, the base language first."""
    return (BASE, *sorted(lang for lang in _available() if lang != BASE))


@cache
def _catalogue(lang: str) -> Catalogue:
    name, plural_rules, messages = _read(_available()[lang])
    return Catalogue(lang, name, plural_rules, messages, None if lang == BASE else _catalogue(BASE))


def catalogue(lang: str = BASE) -> Catalogue:
    """Return the catalogue of ``lang`` (the base language's for a language there is none for)."""
    return _catalogue(lang if lang in _available() else BASE)


def say(key: str, lang: str = BASE, edition: str | None = None, reader: Reader = NOBODY, /,
        **params: object) -> str:
    """Return the message ``key`` in ``lang`` and the words of ``edition``, with ``params`` filled in."""
    return catalogue(lang).say(key, edition, reader, **params)


def reset() -> None:
    """Forget the catalogues read so far (after ``ZAMEK_CATALOGUES`` or a file has changed)."""
    _available.cache_clear()
    _catalogue.cache_clear()
