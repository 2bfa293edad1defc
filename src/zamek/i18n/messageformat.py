"""The catalogue's message syntax: a subset of ICU MessageFormat, read and filled in.

A message is text with arguments in braces::

    {name}                                        the value as it is (or in words: a Term, a Message)
    {n, plural, one {# tile} few {# tiles} other {# tiles}}
                                                  the form for the number by the language's plural rules
                                                  (CLDR categories: zero one two few many other, or =N)
    {person, select, you {You draw} other {{player} draws}}
                                                  the form for a value from a fixed set

Inside a plural form ``#`` is the number. An apostrophe quotes a brace or a ``#`` ('{', '}', '#'); two
apostrophes are one. This is the syntax translation platforms (Weblate, Crowdin, Lokalise) show translators
with a form per plural category, and the one the page reads (static/words.js) with ``Intl.PluralRules``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final, TypeAlias


@dataclass(frozen=True)
class Argument:
    """``{name}``: a value put in as it is (words are rendered by the caller's ``render``)."""

    name: str


@dataclass(frozen=True)
class Choice:
    """``{name, plural|select, key {message} ...}``."""

    name: str
    kind: str
    forms: tuple[tuple[str, Pattern], ...]


@dataclass(frozen=True)
class Number:
    """``#`` inside a plural form: the number the form was chosen for."""


Part: TypeAlias = "str | Argument | Choice | Number"
Pattern: TypeAlias = "tuple[Part, ...]"

PLURAL_CATEGORIES: Final = ("zero", "one", "two", "few", "many", "other")
_NAME: Final = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*")
_SELECTOR: Final = re.compile(r"\s*(=\d+|[A-Za-z_][A-Za-z0-9_-]*)\s*")


class MessageSyntaxError(ValueError):
    """A catalogue's message does not follow the syntax above."""


def parse(text: str) -> Pattern:
    """Return the parts of ``text``; raise MessageSyntaxError if it is not a well-formed message."""
    pattern, at = _parse(text, 0, in_plural=False, nested=False)
    if at != len(text):
        raise MessageSyntaxError(f"{text!r}: unmatched '}}' at {at}")
    return pattern


def _parse(text: str, at: int, *, in_plural: bool, nested: bool) -> tuple[Pattern, int]:
    parts: list[Part] = []
    literal: list[str] = []

    def flush() -> None:
        if literal:
            parts.append("".join(literal))
            literal.clear()

    while at < len(text):
        char = text[at]
        if char == "'":
            if text.startswith("''", at):
                literal.append("'")
                at += 2
            elif at + 1 < len(text) and text[at + 1] in "{}#":
                end = text.find("'", at + 1)
                if end < 0:
                    raise MessageSyntaxError(f"{text!r}: a quote opened at {at} is not closed")
                literal.append(text[at + 1:end])
                at = end + 1
            else:
                literal.append("'")
                at += 1
        elif char == "{":
            flush()
            part, at = _argument(text, at + 1, in_plural=in_plural)
            parts.append(part)
        elif char == "}":
            if not nested:
                raise MessageSyntaxError(f"{text!r}: unmatched '}}' at {at}")
            break
        elif char == "#" and in_plural:
            flush()
            parts.append(Number())
            at += 1
        else:
            literal.append(char)
            at += 1
    flush()
    return tuple(parts), at


def _argument(text: str, at: int, *, in_plural: bool) -> tuple[Part, int]:
    name = _NAME.match(text, at)
    if name is None:
        raise MessageSyntaxError(f"{text!r}: an argument at {at} has no name")
    at = name.end()
    if text.startswith("}", at):
        return Argument(name.group(1)), at + 1
    kind = re.compile(r",\s*(plural|select)\s*,").match(text, at)
    if kind is None:
        raise MessageSyntaxError(f"{text!r}: argument {name.group(1)!r} must be {{name}}, plural or select")
    at = kind.end()
    forms: list[tuple[str, Pattern]] = []
    while True:
        selector = _SELECTOR.match(text, at)
        if selector is None or not text.startswith("{", selector.end()):
            break
        key = selector.group(1)
        if kind.group(1) == "plural" and not key.startswith("=") and key not in PLURAL_CATEGORIES:
            raise MessageSyntaxError(f"{text!r}: {key!r} is not a plural category ({', '.join(PLURAL_CATEGORIES)})")
        form, at = _parse(text, selector.end() + 1, in_plural=kind.group(1) == "plural" or in_plural, nested=True)
        if not text.startswith("}", at):
            raise MessageSyntaxError(f"{text!r}: the form {key!r} is not closed")
        forms.append((key, form))
        at += 1
    at = len(text) - len(text[at:].lstrip())
    if not text.startswith("}", at):
        raise MessageSyntaxError(f"{text!r}: argument {name.group(1)!r} is not closed at {at}")
    if "other" not in dict(forms):
        raise MessageSyntaxError(f"{text!r}: argument {name.group(1)!r} has no 'other' form")
    return Choice(name.group(1), kind.group(1), tuple(forms)), at + 1


def arguments(pattern: Pattern) -> frozenset[str]:
    """Return the names of every argument a message uses."""
    names: set[str] = set()
    for part in pattern:
        if isinstance(part, Argument):
            names.add(part.name)
        elif isinstance(part, Choice):
            names.add(part.name)
            for _, form in part.forms:
                names |= arguments(form)
    return frozenset(names)


def literals(pattern: Pattern) -> list[str]:
    """Return every piece of text a message shows as it is, in every form."""
    found: list[str] = []
    for part in pattern:
        if isinstance(part, str):
            found.append(part)
        elif isinstance(part, Choice):
            for _, form in part.forms:
                found.extend(literals(form))
    return found


def unparse(pattern: Pattern, literal: Callable[[str], str] = lambda text: text) -> str:
    """Return the message's text, with ``literal`` applied to each piece of plain text (a pseudo-locale's
    transformation keeps the arguments and selectors as they are)."""
    out: list[str] = []
    for part in pattern:
        if isinstance(part, str):
            out.append(re.sub(r"([{}#])", r"'\1'", literal(part).replace("'", "''")))
        elif isinstance(part, Argument):
            out.append(f"{{{part.name}}}")
        elif isinstance(part, Number):
            out.append("#")
        else:
            forms = " ".join(f"{key} {{{unparse(form, literal)}}}" for key, form in part.forms)
            out.append(f"{{{part.name}, {part.kind}, {forms}}}")
    return "".join(out)


def format_pattern(pattern: Pattern, values: Mapping[str, object], plural: Callable[[int | float], str],
                   render: Callable[[object], str], number: int | float | None = None) -> str:
    """Fill in ``pattern``: ``plural`` names a number's category, ``render`` turns a value into text."""
    out: list[str] = []
    for part in pattern:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, Number):
            out.append(render(number))
        elif isinstance(part, Argument):
            if part.name not in values:
                raise KeyError(f"the message needs a value for {{{part.name}}}")
            out.append(render(values[part.name]))
        else:
            if part.name not in values:
                raise KeyError(f"the message needs a value for {{{part.name}}}")
            value = values[part.name]
            forms = dict(part.forms)
            if part.kind == "plural":
                if not isinstance(value, (int, float)) or isinstance(value, bool):
                    raise TypeError(f"{{{part.name}, plural}} needs a number, not {value!r}")
                exact, category = f"={int(value)}" if float(value).is_integer() else "", plural(value)
                key = exact if exact in forms else category if category in forms else "other"
                out.append(format_pattern(forms[key], values, plural, render, value))
            else:
                form = forms.get(str(value), forms["other"])
                out.append(format_pattern(form, values, plural, render, number))
    return "".join(out)
