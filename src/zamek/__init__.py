"""Zamek: a rules engine, computer players and web app for Carcassonne: The Castle (Polish edition Zamek).

What a user of the library needs is exported here; the module paths below it may change. Start with
``zamek.new_game(zamek.Setup.parse("zamek+sokol"))``, play with ``state.play(action)``, read the position
through ``state.features()`` and friends, and save games with ``make_record`` / ``replay``.

The names load lazily (PEP 562): ``import zamek`` loads nothing else, and ``zamek.GameState`` loads only the
rules; ``zamek.__version__`` is the installed distribution's version. The code is laid out by game:
``zamek.castle`` (the castle game: ``rules``, ``data``, ``bots``, ``fast``, records), ``zamek.knights`` (Rycerze
i zamki), over ``zamek.kit`` (what both share); ``zamek.env`` holds the research environments, ``zamek.server`` the
web app and ``zamek.cli`` the command line.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    __version__: str
    from zamek.castle.bots.base import Bot, Budget
    from zamek.castle.bots.levels import BOT_NAMES, LEVELS, make_bot
    from zamek.castle.data.loader import new_game, position_state, read_position, rules_for
    from zamek.castle.record import make_record, read_record, replay
    from zamek.castle.rules.actions import (
        Action,
        ChanceOutcome,
        Decline,
        Draw,
        Follower,
        Order,
        Pass,
        Piece,
        Place,
        PlayerAction,
        Reveal,
        UseToken,
        action_from_index,
        parse_action,
    )
    from zamek.castle.rules.board import BOARDS, CURRENT_BOARD, CastleDef
    from zamek.castle.rules.breakdown import ScoreItem
    from zamek.castle.rules.editions import EDITIONS, Edition
    from zamek.castle.rules.errors import DataError, IllegalActionError, MalformedActionError, RecordError, ZamekError
    from zamek.castle.rules.features import FeatureView
    from zamek.castle.rules.position import Position
    from zamek.castle.rules.rates import RATES, Rates
    from zamek.castle.rules.rulesets import RULE_SETS
    from zamek.castle.rules.setup import HeldToken, Phase, Result, Rules, Setup
    from zamek.castle.rules.state import GameState
    from zamek.castle.rules.tiles import FeatureKind, TileDef, TileSet
    from zamek.castle.rules.tokens import TokenKind
    from zamek.castle.runner import play_game
    from zamek.kit.play import sample_chance

_WHERE: dict[str, tuple[str, ...]] = {
    "zamek.castle.bots.base": ("Bot", "Budget"),
    "zamek.castle.bots.levels": ("BOT_NAMES", "LEVELS", "make_bot"),
    "zamek.castle.data.loader": ("new_game", "position_state", "read_position", "rules_for"),
    "zamek.castle.record": ("make_record", "read_record", "replay"),
    "zamek.castle.rules.rates": ("RATES", "Rates"),
    "zamek.castle.rules.rulesets": ("RULE_SETS",),
    "zamek.castle.runner": ("play_game",),
    "zamek.kit.play": ("sample_chance",),
    "zamek.castle.rules.actions": (
        "Action", "ChanceOutcome", "Decline", "Draw", "Follower", "Order", "Pass", "Piece", "Place", "PlayerAction",
        "Reveal", "UseToken", "action_from_index", "parse_action",
    ),
    "zamek.castle.rules.board": ("BOARDS", "CURRENT_BOARD", "CastleDef"),
    "zamek.castle.rules.breakdown": ("ScoreItem",),
    "zamek.castle.rules.editions": ("EDITIONS", "Edition"),
    "zamek.castle.rules.errors": (
        "DataError", "IllegalActionError", "MalformedActionError", "RecordError", "ZamekError",
    ),
    "zamek.castle.rules.features": ("FeatureView",),
    "zamek.castle.rules.position": ("Position",),
    "zamek.castle.rules.setup": ("HeldToken", "Phase", "Result", "Rules", "Setup"),
    "zamek.castle.rules.state": ("GameState",),
    "zamek.castle.rules.tiles": ("FeatureKind", "TileDef", "TileSet"),
    "zamek.castle.rules.tokens": ("TokenKind",),
}
_MODULE_OF: dict[str, str] = {name: module for module, names in _WHERE.items() for name in names}

__all__ = [
    "BOARDS",
    "BOT_NAMES",
    "CURRENT_BOARD",
    "EDITIONS",
    "LEVELS",
    "RATES",
    "RULE_SETS",
    "Action",
    "Bot",
    "Budget",
    "CastleDef",
    "ChanceOutcome",
    "DataError",
    "Decline",
    "Draw",
    "Edition",
    "FeatureKind",
    "FeatureView",
    "Follower",
    "GameState",
    "HeldToken",
    "IllegalActionError",
    "MalformedActionError",
    "Order",
    "Pass",
    "Phase",
    "Piece",
    "Place",
    "PlayerAction",
    "Position",
    "Rates",
    "RecordError",
    "Result",
    "Reveal",
    "Rules",
    "ScoreItem",
    "Setup",
    "TileDef",
    "TileSet",
    "TokenKind",
    "UseToken",
    "ZamekError",
    "action_from_index",
    "make_bot",
    "make_record",
    "new_game",
    "parse_action",
    "play_game",
    "position_state",
    "read_position",
    "read_record",
    "replay",
    "rules_for",
    "sample_chance",
]
"""The public API; each name loads from its module in ``_WHERE`` (a test checks the two agree)."""


_UNINSTALLED_VERSION = "0+unknown"
"""``__version__`` where zamek runs from a source tree that was never installed (PYTHONPATH=src)."""


def _version() -> str:
    """The version of the installed distribution (pyproject.toml's, through the package metadata)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("zamek")
    except PackageNotFoundError:
        return _UNINSTALLED_VERSION


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (PEP 562)."""
    if name == "__version__":  # read from the metadata on first use: importlib.metadata is not free to import
        globals()[name] = found = _version()
        return found
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'zamek' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
