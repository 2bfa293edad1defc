"""Rycerze i zamki: the card game for 2-4 players (rules K1-K8 in the project's RULES.md).

``engine`` is the pure rules core (no I/O, no global randomness); the other modules build on it:
``cards`` (data model and the strength table's loader), ``actions`` (notation), ``knowledge``
(what open information tells about hidden hands, K8), ``record`` (saved games), ``match`` (K7),
``bots``, ``runner``, ``arena``, ``terms`` (words for people) and ``cli``.
"""

from zamek.knights.rules.actions import Choose, Draw, Recruit, action_from_index, parse_action
from zamek.knights.rules.cards import Card, CastleKind, load_cards
from zamek.knights.rules.engine import KnightsResult, KnightsSetup, KnightsState, Phase, View

__all__ = [
    "Card",
    "CastleKind",
    "Choose",
    "Draw",
    "KnightsResult",
    "KnightsSetup",
    "KnightsState",
    "Phase",
    "Recruit",
    "View",
    "action_from_index",
    "load_cards",
    "parse_action",
]
