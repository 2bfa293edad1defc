"""The castle game's words as values of the catalogue's messages (zamek.i18n): features, figures, tokens, counts.

The words themselves are in the catalogue (``term.*``, ``token.*``, ``count.*``), in each language and in the
words of each edition (C1); this module only names them for the game's values.
"""

from __future__ import annotations

from zamek.castle.rules.setup import ROLES
from zamek.castle.rules.tiles import FeatureKind
from zamek.castle.rules.tokens import TokenKind, printed_number
from zamek.i18n import BASE, Message, Term, say


def feature(kind: FeatureKind) -> Term:
    """The word for a kind of feature (a road; a path in 2003)."""
    return Term(f"term.{kind.key}")


def role(kind: FeatureKind) -> Term:
    """The word for the role a follower plays on a kind of feature (a herald on a road)."""
    return Term(f"term.{ROLES[kind]}")


def token(kind: int, edition: str) -> Message:
    """A token's full name with the number printed on it in ``edition`` (C4)."""
    token_kind = TokenKind(kind)
    return Message("token.named",
                   {"number": printed_number(token_kind, edition), "name": Term(f"token.{int(token_kind)}")})


def counted(n: int, what: str) -> Message:
    """``n`` things with the right plural form ('1 tile', '5 kafelków'): ``what`` is tiles, shrines, empty-spaces
    or points."""
    return Message(f"count.{what}", {"n": n})


def term(key: str, lang: str = BASE, edition: str | None = None) -> str:
    """Return the word ``term.<key>`` in ``lang`` and the words of ``edition``."""
    return say(f"term.{key}", lang, edition)


def token_name(kind: int, lang: str = BASE, edition: str = "zamek") -> str:
    """Return a token's full name in ``lang`` (C4)."""
    return token(kind, edition).text(lang, edition)
