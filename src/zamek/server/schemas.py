"""The web protocol of the castle game, version ``API_VERSION``: every request and every answer as a pydantic model.

Requests are checked against their model (a mismatch is a 422 answer); answers are built as these models
and described by them in ``/api/openapi.json``. A position names places by their space names (``e10``;
start spaces by their id, ``S5``) and features by their id in the engine's feature view: an answer never
carries the engine's cell numbers. The models of Rycerze i zamki are in :mod:`zamek.server.knights_schemas`,
those of the castle's drawing geometry (``/api/geometry``) in :mod:`zamek.server.layout`.

This module names every model of the castle game's protocol; they are written by what they describe: the shared
base and types (:mod:`zamek.server.schema_base`), the requests (:mod:`zamek.server.schema_requests`), the game's
view (:mod:`zamek.server.schema_game`), the lobby, ``/api/meta`` and saved games (:mod:`zamek.server.schema_lobby`),
hints and analysis (:mod:`zamek.server.schema_analysis`).

Version 2 replaced version 1's cell numbers (``cell``, ``cells``, ``family_cells``,
``scoring_cells``, the geometry's ``cell`` and ``stride``) by space names and feature references
(``FeatureRef``), added the drawn tile's ``places`` (each legal placement as its action), renamed
``followers`` to ``figures`` (a tile's feature index is ``part``, the feature it belongs to ``feature``)
and gave every move its ``kind``.

Version 3 added seats: every request that changes a game proves its seat with ``Authorization: Bearer
<token>`` (the tokens are in the answer that creates or joins a game); games against a friend (``mode:
"friend"``, an invitation code, ``/join``), clocks, resignation, rematches, the lobby of the tokens a browser
holds (``POST /api/lobby``), and live events (``GET /api/games/{id}/events``).

Version 4 made one protocol of both games (``/api/games`` for Rycerze i zamki too; ``/api/knights`` stayed as
deprecated aliases).

Version 5 (this one) speaks through the catalogue of words (:mod:`zamek.i18n`, served by ``/api/words``): a refusal
answers its kind, its message's code, the rule it enforces and its values beside the message in the request's
language (``ErrorAnswer``; the kinds ``illegal`` and ``malformed`` became ``illegal-move`` and ``malformed-move``, a
game over is ``game-over``); a view's lines (moves, score lines, hints, a decision's moves, the card game's events)
come with their messages (``MessageView``: players as seats, said by each reader as they know them); ``/api/meta``
names each language (``LanguageView``); the routes of protocol 3 under ``/api/knights`` are gone. Added since, which a
client of version 5 may ignore: each player's ``projected`` score (``PlayerView``) and takebacks by agreement in
games with a friend (``GameView.takeback``, ``/takeback``, ``/takeback/accept``, ``/takeback/decline``).
"""

from __future__ import annotations

from zamek.server.schema_analysis import (
    AnalysedDecision,
    AnalysisView,
    FlagSummary,
    HintMove,
    Hints,
)
from zamek.server.schema_base import (
    API_HEADER,
    API_VERSION,
    Answer,
    ErrorAnswer,
    Loose,
    MessageView,
    Mode,
    MoveKind,
    Name,
    PhaseName,
    PieceKey,
    Request,
    SeatPlayerName,
    Secret,
    Space,
    errors,
)
from zamek.server.schema_game import (
    Choice,
    ClockView,
    DeclineChoice,
    DrawnTile,
    EndedView,
    FeatureInfo,
    FeatureRef,
    FigureChoice,
    FigureView,
    GameView,
    MoveLine,
    OrderChoice,
    PassChoice,
    PlacementView,
    PlaceOption,
    PlayerView,
    PromptWords,
    ReplayInfo,
    ReplayMove,
    ReplayView,
    ResultView,
    ScoreLine,
    SeatedView,
    SeatToken,
    SeatView,
    SetupInfo,
    TakebackView,
    TokenView,
    UseChoice,
)
from zamek.server.schema_lobby import (
    Adopted,
    GameLine,
    GameStatus,
    LanguageView,
    Meta,
    RatesView,
    RecordResult,
    RuleOptionView,
    SavedGame,
    Words,
)
from zamek.server.schema_requests import (
    Invitation,
    Join,
    Lobby,
    Move,
    NewGame,
    Revision,
)

__all__ = [
    "API_HEADER",
    "API_VERSION",
    "Adopted",
    "AnalysedDecision",
    "AnalysisView",
    "Answer",
    "Choice",
    "ClockView",
    "DeclineChoice",
    "DrawnTile",
    "EndedView",
    "ErrorAnswer",
    "FeatureInfo",
    "FeatureRef",
    "FigureChoice",
    "FigureView",
    "FlagSummary",
    "GameLine",
    "GameStatus",
    "GameView",
    "HintMove",
    "Hints",
    "Invitation",
    "Join",
    "LanguageView",
    "Lobby",
    "Loose",
    "MessageView",
    "Meta",
    "Mode",
    "Move",
    "MoveKind",
    "MoveLine",
    "Name",
    "NewGame",
    "OrderChoice",
    "PassChoice",
    "PhaseName",
    "PieceKey",
    "PlaceOption",
    "PlacementView",
    "PlayerView",
    "PromptWords",
    "RatesView",
    "RecordResult",
    "ReplayInfo",
    "ReplayMove",
    "ReplayView",
    "Request",
    "ResultView",
    "Revision",
    "RuleOptionView",
    "SavedGame",
    "ScoreLine",
    "SeatPlayerName",
    "SeatToken",
    "SeatView",
    "SeatedView",
    "Secret",
    "SetupInfo",
    "Space",
    "TakebackView",
    "TokenView",
    "UseChoice",
    "Words",
    "errors",
]
