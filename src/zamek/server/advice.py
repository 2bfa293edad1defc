"""Hints and analyses for the web app: the answers built from :mod:`zamek.castle.analysis`.

A hint is one of the best moves for the player to move, with the expected final lead it leads to; the answer
also names its placement (space, rotation) and its figure (the feature's index on the tile, and the spaces that
feature covers once the tile is placed), so the page draws it on the board without parsing notation, and says each
action in words and as a message of the catalogue (a figure's feature named by where it lies: a tile may hold two
houses). An
analysis is stored as ``zamek.castle.analysis``'s JSON, language-free; the words and messages of each decision's move
played and best move are added to each answer from a replay of the game.

An analysis takes seconds of the processor: an :class:`Advisor` works it out in a process of its own on a server
(``advice_slots`` of them, :mod:`zamek.server.fairness`), so that it never holds the web process's interpreter
lock while other players' moves wait.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from zamek import Action, GameState, Setup, ZamekError, new_game, parse_action
from zamek.castle import analysis as judging
from zamek.castle.analysis import Hint
from zamek.castle.report import move_message, placed_feature_spaces
from zamek.castle.rules.actions import Follower, Place
from zamek.castle.rules.geometry import SEGMENTS, rotate_segment, space_name
from zamek.castle.rules.tiles import TileDef, canonical_form
from zamek.i18n import NOBODY, Message, Reader
from zamek.kit.pools import process_pool
from zamek.server.schemas import AnalysedDecision, AnalysisView, HintMove, MessageView
from zamek.server.views import message_view


def _messages(state: GameState, texts: Sequence[str]) -> list[Message]:
    """The actions ``texts`` played one after another from ``state`` (left untouched), as messages, a figure's
    feature named by where it lies (as far as they are the engine's own moves: an action that is not one ends the
    list)."""
    state = state.copy()
    messages = []
    for text in texts:
        try:
            action = parse_action(text)
            messages.append(move_message(state, action, where=True))
            state.apply(action)
        except ZamekError:  # never expected: the moves are the engine's own
            break
    return messages


def _said(state: GameState, texts: Sequence[str], lang: str, reader: Reader = NOBODY
          ) -> tuple[list[str], list[MessageView]]:
    """The actions ``texts`` in words (as ``reader`` reads them) and as messages; an action no message says is
    in notation."""
    messages = _messages(state, texts)
    edition = state.setup.edition
    words = [m.text(lang, edition, reader) for m in messages] + list(texts[len(messages):len(messages) + 1])
    return words, [message_view(m) for m in messages]


def _turned(tile: TileDef, rotation: int) -> tuple[tuple[object, ...], dict[int, int]]:
    """The tile turned ``rotation`` quarter turns as its rules see it (``canonical_form``), and the label that form
    gives each feature: two turns of a tile with equal forms are the same placement, and features of equal labels
    the same feature."""
    owner = [0] * SEGMENTS
    for index, feature in enumerate(tile.features):
        for segment in feature.segments:
            owner[rotate_segment(segment, rotation)] = index
    labels: dict[int, int] = {}
    for segment in range(SEGMENTS):
        labels.setdefault(owner[segment], len(labels))
    return canonical_form(tile.features, tile.fountain, rotation), labels


def _same_move(state: GameState, move: Sequence[str]) -> tuple[object, ...]:
    """What a move does, the same for moves that differ only by a turn of a symmetric tile (a tile of houses
    only, a crossroads): its space, the tile's form as turned, and the figure's feature by its label in that
    form; any other move is its notation."""
    try:
        actions = [parse_action(text) for text in move]
    except ZamekError:
        return tuple(move)
    if not actions or not isinstance(actions[0], Place) or state.drawn < 0:
        return tuple(move)
    place = actions[0]
    form, labels = _turned(state.tiles.tiles[state.drawn], place.rotation)
    figure: tuple[object, ...] = ()
    for action in actions[1:]:
        if isinstance(action, Follower):
            figure = (action.piece.key, labels.get(action.feature, -1 - action.feature))
        else:
            figure = (str(action),)
    return (place.x, place.y, form, figure)


def distinct_hints(state: GameState, hints: Sequence[Hint], count: int) -> list[Hint]:
    """The first ``count`` of ``hints`` (best first) that are different moves: of moves that differ only by how a
    symmetric tile is turned, the best one stays (the others would fill the list with one move three times)."""
    seen: set[tuple[object, ...]] = set()
    kept = []
    for hint in hints:
        key = _same_move(state, hint.move)
        if key not in seen:
            seen.add(key)
            kept.append(hint)
            if len(kept) == count:
                break
    return kept


def hint_move(state: GameState, hint: Hint, lang: str, reader: Reader = NOBODY) -> HintMove:
    """A hint as the page draws it: the tile's space and rotation, the figure's feature (and the spaces it covers),
    the words (as ``reader``, the seat to move, reads them) and the messages."""
    words, messages = _said(state, hint.move, lang, reader)
    answer = HintMove(move=list(hint.move), lead=hint.lead, words=words, messages=messages)
    position = state.copy()
    for text in hint.move:
        try:
            action = parse_action(text)
            if isinstance(action, Place):
                answer.space, answer.rotation = space_name(action.x, action.y), action.rotation
            elif isinstance(action, Follower):
                answer.part, answer.piece = action.feature, action.piece.key  # type: ignore[assignment]
                answer.feature_spaces = placed_feature_spaces(position, action.feature)
            position.apply(action)
        except ZamekError:  # never expected: the moves are the engine's own
            break
    return answer


def analysis_view(data: dict[str, Any], setup: Setup, actions: Sequence[Action], lang: str,
                  game: str | None = None) -> AnalysisView:
    """A stored analysis with each decision's moves in words (replaying the game's ``actions`` once); a move played
    that is the best move with its symmetric tile turned another way is shown as the best move played."""
    view = AnalysisView.model_validate(data | {"game": game})
    by_index: dict[int, AnalysedDecision] = {d.index: d for d in view.decisions}
    state = new_game(setup)
    for index, action in enumerate(actions):
        decision = by_index.get(index)
        if decision is not None:
            best, played = decision.best, decision.played
            if best != played and _same_move(state, best) == _same_move(state, played):
                decision.best = list(decision.played)  # the best move, the symmetric tile turned another way
            decision.played_words, decision.played_messages = _said(state, decision.played, lang)
            decision.best_words, decision.best_messages = _said(state, decision.best, lang)
        state.apply(action)
    return view


def analysed(raw: Any) -> dict[str, Any]:
    """The analysis of a finished game's record, as JSON (a function of its own: a pool's process runs it)."""
    return judging.analyse(raw).to_json()


class Advisor:
    """Where analyses are worked out: here (``processes`` 0), or in a pool of that many processes, started when the
    first is asked for (see the module's doc)."""

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def analyse(self, raw: Any) -> dict[str, Any]:
        """``analysed(raw)``, of a record already read (its errors are the caller's to catch before)."""
        if not self.processes:
            return analysed(raw)
        with self._lock:
            if self._pool is None:
                self._pool = process_pool(self.processes, spawn=True)
            pool = self._pool
        try:
            return pool.submit(analysed, raw).result()
        except BrokenProcessPool:  # its process was killed: a new pool for the next one, this one here
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            return analysed(raw)

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
