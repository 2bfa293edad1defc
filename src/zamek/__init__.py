"""Zamek: a rules engine for Carcassonne: The Castle (Polish edition Zamek)."""

from zamek.core.actions import Action, Draw, Follower, Pass, Piece, Place, Reveal, action_from_index, parse_action
from zamek.core.errors import IllegalActionError, MalformedActionError, RecordError, ZamekError
from zamek.core.setup import Phase, Setup
from zamek.core.state import GameState
from zamek.datafiles import new_game

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
    "new_game",
    "parse_action",
]
