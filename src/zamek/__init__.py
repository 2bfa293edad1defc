"""Zamek: a rules engine for Carcassonne: The Castle (Polish edition Zamek)."""

from zamek.actions import Action, Draw, Follower, Pass, Piece, Place, Reveal, action_from_index, parse_action
from zamek.engine import GameState, Phase, Setup
from zamek.errors import IllegalActionError, MalformedActionError, RecordError, ZamekError

__all__ = [
    "Action",
    "Draw",
    "Follower",
    "GameState",
    "IllegalActionError",
    "MalformedActionError",
    "Pass",
    "Phase",
    "Piece",
    "Place",
    "RecordError",
    "Reveal",
    "Setup",
    "ZamekError",
    "action_from_index",
    "parse_action",
]
