"""Zamek: a rules engine, computer players and web app for Carcassonne: The Castle (Polish edition Zamek).

What a user of the library needs is exported here; the module paths below it may change. Start with
``zamek.new_game(zamek.Setup(...))``, play with ``state.play(action)``, read the position through
``state.features()`` and friends, and save games with ``make_record`` / ``replay``.
"""

from zamek.bots.base import Bot, Budget
from zamek.bots.levels import BOT_NAMES, LEVELS, make_bot
from zamek.core.actions import (
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
from zamek.core.board import BOARDS, CURRENT_BOARD, CastleDef
from zamek.core.breakdown import ScoreItem
from zamek.core.editions import EDITIONS, Edition
from zamek.core.errors import DataError, IllegalActionError, MalformedActionError, RecordError, ZamekError
from zamek.core.features import FeatureView
from zamek.core.position import Position
from zamek.core.setup import HeldToken, Phase, Result, Rules, Setup
from zamek.core.state import GameState
from zamek.core.tiles import FeatureKind, TileDef, TileSet
from zamek.core.tokens import TokenKind
from zamek.datafiles import new_game, position_state, read_position, rules_for
from zamek.record import make_record, read_record, replay

__all__ = [
    "BOARDS",
    "BOT_NAMES",
    "CURRENT_BOARD",
    "EDITIONS",
    "LEVELS",
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
    "position_state",
    "read_position",
    "read_record",
    "replay",
    "rules_for",
]
