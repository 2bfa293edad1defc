"""Move hints and post-game analysis: the expert's estimate of every move's expected final lead.

A *move* is a whole decision: a placement with the figure put on the tile (or none), or one action in the
other decisions (scoring order, doubling, an extra turn's tile). A move's worth is the expected final lead
of the player who makes it, as the expert judges it: the move is played, the rest of the turn settled
greedily, and the learned value (``zamek.castle.bots.value``, the same one the expert's search backs up from
its leaves) estimates the final lead of the position reached. Every legal move is judged, so the best
move and the move played are compared on one scale.

The analysis walks a saved game: before each decision the expected lead is that of the best move, after
it that of the move played; the difference is the loss, flagged by the thresholds of :data:`FLAGS`.
Nothing here reads or writes files: the CLI and the web app do.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Final

from zamek.castle import record as records
from zamek.castle.bots.mcts import Move, apply_move, ranked_moves
from zamek.castle.bots.value import ValueModel, default_model
from zamek.castle.rules.actions import Action, Draw, Reveal
from zamek.castle.rules.errors import ZamekError
from zamek.castle.rules.setup import Phase
from zamek.castle.rules.state import GameState

__all__ = ["FLAGS", "FORMAT", "VERSION", "Analysis", "Decision", "Hint", "analyse", "flag_for", "hints", "judge",
           "timeline"]

FORMAT: Final = "zamek-analysis"
VERSION: Final = 1
FLAGS: Final = (("blunder", 12.0), ("mistake", 6.0), ("inaccuracy", 3.0))
"""A move losing at least this many points of expected final lead against the best move gets the flag
(checked from the largest). Chosen from the moves of self-play games (``examples/analysis_flags.py``; docs/analysis.md,
"How a move is judged"): the ``hard`` level loses 3 points or more in one move in a hundred and never 6; the
``beginner`` level 3 or more in two moves in five, 6 in one in five, 12 in one in fifty; random play 12 or more
in one in six."""
ALL_MOVES: Final = 1_000_000
"""A ranking width that keeps every legal move."""


@dataclass(frozen=True)
class Hint:
    """One of the best moves for the player to move: its actions (notation) and expected final lead."""

    move: tuple[str, ...]
    lead: float


@dataclass(frozen=True)
class Decision:
    """One decision of a saved game, judged."""

    index: int
    """Index in the record's moves of the decision's first action."""
    player: int
    played: tuple[str, ...]
    best: tuple[str, ...]
    lead_before: float
    """First player's (seat 0's) expected final lead with the best move, like a chess engine's evaluation
    from White's side; the advantage graph plots it."""
    lead_after: float
    """Seat 0's expected final lead after the move played."""
    loss: float
    """Points of expected final lead the mover gave away against the best move (0 for the best move)."""
    flag: str | None
    choices: int
    """Legal moves the player had."""


@dataclass(frozen=True)
class Analysis:
    """A whole game's analysis, ready for JSON (``to_json``) and for storing with the game."""

    estimator: str
    decisions: tuple[Decision, ...]
    final_lead: int
    """Seat 0's actual final lead (or its lead when the record stops)."""

    def summary(self, player: int) -> dict[str, float | int]:
        mine = [d for d in self.decisions if d.player == player]
        counts = {name: sum(1 for d in mine if d.flag == name) for name, _ in FLAGS}
        mean = sum(d.loss for d in mine) / len(mine) if mine else 0.0
        return {"player": player, "decisions": len(mine), "mean_loss": round(mean, 2),
                "inaccuracies": counts["inaccuracy"], "mistakes": counts["mistake"], "blunders": counts["blunder"]}

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "estimator": self.estimator,
            "thresholds": {name: points for name, points in FLAGS},
            "final_lead": self.final_lead,
            "summary": [self.summary(p) for p in (0, 1)],
            "decisions": [asdict(d) | {"played": list(d.played), "best": list(d.best)} for d in self.decisions],
        }


def flag_for(loss: float) -> str | None:
    """The flag a move losing ``loss`` points of expected final lead gets (see :data:`FLAGS`)."""
    for name, points in FLAGS:
        if loss >= points:
            return name
    return None


def estimator_name(model: ValueModel | None = None) -> str:
    """Names the estimate (its coefficients' digest), so a stored analysis of another estimate is redone."""
    model = model or default_model()
    digest = hashlib.sha256(repr((model.coefficients, model.win_scale)).encode()).hexdigest()[:12]
    return f"value-{digest}"


def _judged(state: GameState, seed: int, model: ValueModel) -> list[tuple[float, Move]]:
    """Every legal move of the player to move with its expected final lead (for that player), best first."""
    return ranked_moves(state, random.Random(seed), ALL_MOVES, model)


def hints(state: GameState, count: int = 3, model: ValueModel | None = None) -> list[Hint]:
    """The ``count`` best moves for the player to move, best first (none when chance or the end is next)."""
    if state.is_over() or state.is_chance():
        return []
    judged = _judged(state, 0, model or default_model())
    return [Hint(tuple(str(a) for a in move), round(lead, 1)) for lead, move in judged[:count]]


def analyse(raw: Any, model: ValueModel | None = None, on_move: Callable[[int, int], None] | None = None) -> Analysis:
    """Analyse a saved game (a record, ``zamek.castle.record``); raise RecordError when it does not replay.
    ``on_move(done, moves)`` hears how far the judging has come (a search for each decision: minutes in all)."""
    model = model or default_model()
    _, actions = records.read_record(raw)
    records.replay(raw)  # checks every move and the result before any judging
    state = records.replay(raw, 0)
    decisions: list[Decision] = []
    i = 0
    while i < len(actions):
        # A placement with one legal spot still carries a choice: the figure put on the tile.
        if state.is_chance() or (len(state.legal_actions()) < 2 and state.phase is not Phase.PLACE):
            state.apply(actions[i])
            i += 1
            continue
        decision = judge(state, actions[i:], i, model)
        decisions.append(decision)
        for action in actions[i:i + len(decision.played)]:
            state.apply(action)
        i += len(decision.played)
        if on_move is not None:
            on_move(i, len(actions))
    return Analysis(estimator_name(model), tuple(decisions), state.scores[0] - state.scores[1])


def judge(state: GameState, actions: Sequence[Action], index: int = 0, model: ValueModel | None = None
          ) -> Decision:
    """Judge the decision the player to move faces in ``state``, played as the start of ``actions`` (a
    placement and its figure choice, or one action). ``index`` is the decision's place in its game's moves:
    it seeds the greedy settling of the turn, so a game's analysis is the same every time."""
    model = model or default_model()
    player = state.current
    judged = _judged(state, index, model)
    length = len(judged[0][1])
    played = tuple(actions[:length])
    lead_played = next((lead for lead, move in judged if move == played), None)
    if lead_played is None:  # a move the ranking did not list (never expected): judge it by itself
        length, played, lead_played = 1, (actions[0],), _single(state, actions[0], index, model)
    best_lead, best = judged[0]
    sign = 1.0 if player == 0 else -1.0
    loss = round(max(0.0, best_lead - lead_played), 2)  # flagged as shown: 5.996 is shown and flagged as 6.0
    return Decision(
        index=index, player=player, played=tuple(str(a) for a in played), best=tuple(str(a) for a in best),
        lead_before=round(sign * best_lead, 2), lead_after=round(sign * lead_played, 2), loss=loss,
        flag=flag_for(loss), choices=len(judged))


def _single(state: GameState, action: Action, seed: int, model: ValueModel) -> float:
    if isinstance(action, Draw | Reveal):
        return model.lead(state, state.current)
    child = state.copy()
    try:
        apply_move(child, (action,), random.Random(seed), model)
    except ZamekError:
        return 0.0
    return model.lead(child, state.current)


def timeline(analysis: Analysis) -> Sequence[float]:
    """Seat 0's expected final lead before each decision, then the final lead: the advantage graph."""
    return [d.lead_before for d in analysis.decisions] + [float(analysis.final_lead)]
