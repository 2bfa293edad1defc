"""Monte Carlo tree search with explicit chance nodes and greedy knowledge.

A move in the tree is a whole turn's choice: the tile placement together with the figure
put on it (or none); the scoring-time decisions that may follow are settled greedily. At a
decision node only the ``width`` most promising moves by the greedy estimate are searched.

Each iteration copies the root position and walks down. At a chance node (a tile draw, a
token reveal) it samples an outcome with the engine's probabilities and follows (or
creates) that outcome's child, so every iteration sees a fresh future draw: the draw order
is never fixed in advance. At a decision node it tries each candidate once, then picks by
UCT. From the new leaf a short playout (``playout_turns`` turns of one-turn-look play) looks a
little further, and the position estimate (``evaluator``: the hand-set one of
:mod:`zamek.castle.bots.evaluate` or the learned value of :mod:`zamek.castle.bots.value`), turned into a win
chance, is backed up; each node keeps it from the point of view of the player who chose the move
into it. A node is expanded only after ``expand_after`` visits. The opponent's candidate moves
and playout moves may be judged by another estimate (``opponent``): a model of how they choose.

This module is the reference. Where the compiled core is available the search runs there instead
(:mod:`zamek.castle.bots.compiled`, ``zamek_bots.h``): the same tree, the same random numbers, the same
decision, about a hundred times sooner.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Final

from zamek.castle import fast
from zamek.castle.bots import compiled as fast_players
from zamek.castle.bots.base import Budget
from zamek.castle.bots.evaluate import DEFAULT, Evaluator
from zamek.castle.bots.simple import settle
from zamek.castle.rules.actions import Action, Draw, PlayerAction, Reveal
from zamek.castle.rules.setup import Phase
from zamek.castle.rules.state import GameState
from zamek.castle.runner import sample_chance

Move = tuple[PlayerAction, ...]
"""One action, or a placement followed by a figure choice."""
PLACEMENT_SHARE: Final = 0.8
"""The part of a turn's seconds its placement may take (with its figure: the turn's main choice); the rest is for
the questions that may follow, two-choice questions that need far fewer iterations."""


def apply_move(state: GameState, move: Move, rng: random.Random, evaluator: Evaluator = DEFAULT) -> None:
    """Apply a move, then settle the rest of the turn greedily."""
    for action in move:
        state.apply(action)
    settle(state, rng, evaluator)


def ranked_moves(
    state: GameState, rng: random.Random, width: int, evaluator: Evaluator = DEFAULT
) -> list[tuple[float, Move]]:
    """Return the ``width`` best moves for the player to move, by the greedy estimate, best first."""
    player = state.current
    if state.phase is not Phase.PLACE:
        scored: list[tuple[float, Move]] = []
        for action in state.legal_actions():
            child = state.copy()
            apply_move(child, (action,), rng, evaluator)
            scored.append((evaluator.lead(child, player), (action,)))
        scored.sort(key=lambda item: -item[0])
        return scored[:width]
    # Every placement with every figure choice, as the greedy bot judges them: a move's worth often
    # lies in its figure, so ranking placements without figures first would drop the best moves.
    moves: list[tuple[float, Move]] = []
    for place in state.legal_actions():
        placed = state.copy()
        placed.apply(place)
        for figure in placed.legal_actions():
            child = placed.copy()
            apply_move(child, (figure,), rng, evaluator)
            moves.append((evaluator.lead(child, player), (place, figure)))
    moves.sort(key=lambda item: -item[0])
    return moves[:width]


class Node:
    """A tree node. Decision nodes keep their candidate moves; chance nodes only children."""

    __slots__ = ("candidates", "children", "mover", "value", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        """The player who chose the move into this node (under chance: the one before it)."""
        self.children: dict[object, Node] = {}
        self.candidates: list[Move] | None = None
        self.visits = 0
        self.value = 0.0


@dataclass
class MCTSBot:
    """UCT search with sampled chance and greedy playouts; deterministic for a given generator."""

    name: str = "mcts"
    iterations: int = 200
    exploration: float = 0.4
    width: int = 8
    """Candidate moves searched at each decision node."""
    playout_turns: int = 1
    """Turns of greedy play after a leaf before it is estimated."""
    expand_after: int = 3
    evaluator: Evaluator = DEFAULT
    """The position estimate, for ranking its own moves, its own playout moves and leaves."""
    opponent: Evaluator | None = None
    """How the opponent is assumed to judge moves (in the tree and in playouts); None: like ``evaluator``."""
    max_seconds: float | None = None
    """A safety cap on one decision's thinking time; the iteration budget normally ends the search well before."""
    turn_seconds: float | None = None
    """A cap on all the decisions of one turn together (an extra turn is another turn): what a person waits for.
    The placement, which decides most, may take ``PLACEMENT_SHARE`` of it; each decision after it half of what is
    left, so that however many follow (the order of scoring, a x2 token, an extra turn) the turn ends within it."""
    compiled: bool = True
    """Search in the compiled core where it is available (``zamek.castle.bots.compiled``: the same decisions, the
    generator left in the same state, a hundred times sooner); else, and with False, in Python."""
    _plan: tuple[object, PlayerAction] | None = field(default=None, repr=False)
    scaled_questions: bool = False
    """Search a question (a figure not planned, the order of scoring, a x2 token, an extra turn) with the iterations
    of its candidates only: ``iterations`` are for ``width`` candidates, and a yes-or-no question has two, so its
    time goes to the placements, where it matters."""
    _me: int = field(default=0, repr=False)
    _turn: tuple[int, int] = field(default=(-1, -1), repr=False)
    _turn_spent: float = field(default=0.0, repr=False)
    last_iterations: int = field(default=0, repr=False)
    """Iterations the last search ran (for benchmarks)."""

    def choose(self, state: GameState, rng: random.Random, budget: Budget | None = None) -> PlayerAction:
        started = time.perf_counter()  # the time cap counts ranking the candidates too
        turn = (state.turn, state.current)
        if turn != self._turn:
            self._turn, self._turn_spent = turn, 0.0
        try:
            return self._choose(state, rng, budget, started)
        finally:
            self._turn_spent += time.perf_counter() - started

    def _seconds(self, state: GameState, budget: Budget | None) -> float | None:
        """This decision's cap: the budget's or the bot's, and within what the turn has left."""
        seconds = budget.seconds if budget and budget.seconds else self.max_seconds
        if self.turn_seconds is None:
            return seconds
        left = max(0.0, self.turn_seconds - self._turn_spent)
        share = left * (PLACEMENT_SHARE if state.phase is Phase.PLACE else 1 / 2)
        return max(1e-9, min(seconds, share) if seconds else share)

    def _choose(self, state: GameState, rng: random.Random, budget: Budget | None, started: float) -> PlayerAction:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if state.phase is Phase.FOLLOWER and self._plan is not None and self._plan[0] == _plan_key(state):
            planned = self._plan[1]
            if planned in actions:
                return planned
        self._me = state.current
        iterations = budget.iterations if budget and budget.iterations else self.iterations
        if self.scaled_questions and state.phase is not Phase.PLACE and len(actions) < self.width:
            iterations = max(1, iterations * len(actions) // self.width)
        seconds = self._seconds(state, budget)
        if self.compiled and fast.AVAILABLE:
            left = None if not seconds else max(1e-9, seconds - (time.perf_counter() - started))
            result = fast_players.search(
                state, rng, iterations=iterations, evaluator=self.evaluator, opponent=self.opponent, width=self.width,
                playout_turns=self.playout_turns, expand_after=self.expand_after, exploration=self.exploration,
                seconds=left)
            if result is not None:
                if result.searched:
                    self.last_iterations = result.iterations
                return self._decide(state, result.move)
        root = Node(1 - state.current)
        root.candidates = [m for _, m in ranked_moves(state, rng, self.width, self.evaluator)]
        if len(root.candidates) == 1:
            return self._decide(state, root.candidates[0])
        deadline = started + seconds if seconds else None
        futures = rng.getrandbits(64)
        # Sequential halving at the root: every surviving move gets the same number of visits
        # (on the same sampled futures), then the worse half is dropped, until one is left.
        self.last_iterations = 0
        survivors = root.candidates[:]
        rounds = max(1, math.ceil(math.log2(len(survivors))))
        out_of_time = False
        for _ in range(rounds):
            visits = max(1, iterations // (len(survivors) * rounds))
            for _ in range(visits):
                for move in survivors:
                    if deadline is not None and time.perf_counter() > deadline:
                        out_of_time = True
                        break
                    self._iterate(root, state.copy(), rng, futures, move)
                if out_of_time:
                    break
            survivors.sort(key=lambda m: _mean(root.children.get(m)), reverse=True)
            if out_of_time:  # further halving would only keep the best mean: it is first already
                break
            survivors = survivors[: max(1, len(survivors) // 2)]
        return self._decide(state, survivors[0])

    def _decide(self, state: GameState, move: Move) -> PlayerAction:
        """Return the move's first action, remembering the figure planned to go with a placement."""
        if len(move) == 2:
            placed = state.copy()
            placed.apply(move[0])
            self._plan = (_plan_key(placed), move[1])
        return move[0]

    def _iterate(self, root: Node, state: GameState, rng: random.Random, futures: int, move: Move) -> None:
        self.last_iterations += 1
        node = root
        path = [node]
        # Common random numbers: the n-th visit of every root move replays the same sampled future,
        # so moves are compared on equal luck rather than on whichever tiles each happened to get.
        visits = root.children[move].visits if move in root.children else 0
        rng = random.Random(futures ^ (visits * 0x9E3779B97F4A7C15))
        first: Move | None = move
        while not state.is_over():
            if state.is_chance():
                outcome = sample_chance(state, rng)
                state.apply(outcome)
                chance_child = node.children.get(outcome)
                if chance_child is None:
                    chance_child = node.children[outcome] = Node(node.mover)
                node = chance_child
                path.append(node)
                continue
            if node is not root and node.visits < self.expand_after:
                break
            if node.candidates is None:
                node.candidates = [m for _, m in ranked_moves(state, rng, self.width, self._judge(state))]
            move, first = (first, None) if first is not None else (self._select(node), None)
            mover = state.current
            apply_move(state, move, rng, self._judge(state))
            child = node.children.get(move)
            if child is None:
                child = node.children[move] = Node(mover)
            node = child
            path.append(node)
            if child.visits == 0:
                break
        # A walk that stopped at a decision node stopped inside a turn: that turn counts as begun, so
        # every leaf is estimated at the same depth (after the reply to the move being judged).
        self._playout(state, rng, turns=0 if state.is_chance() or state.is_over() else 1)
        chance0 = self.evaluator.win_chance(state, 0)
        for visited in path:
            visited.visits += 1
            visited.value += chance0 if visited.mover == 0 else 1.0 - chance0

    def _select(self, node: Node) -> Move:
        assert node.candidates is not None
        for move in node.candidates:
            if move not in node.children:
                return move
        log_n = math.log(node.visits)
        c = self.exploration
        best_move = node.candidates[0]
        best_score = -1.0
        for move in node.candidates:
            child = node.children[move]
            score = child.value / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best_move, best_score = move, score
        return best_move

    def _playout(self, state: GameState, rng: random.Random, turns: int = 0) -> None:
        """Play on with the greedy policy (its best-ranked move) until ``playout_turns`` turns have begun."""
        while not state.is_over():
            if state.is_chance():
                if state.phase is Phase.DRAW:
                    if turns == self.playout_turns:
                        return
                    turns += 1
                state.apply(sample_chance(state, rng))
                continue
            judge = self._judge(state)
            (_, move), = ranked_moves(state, rng, 1, judge)
            apply_move(state, move, rng, judge)

    def _judge(self, state: GameState) -> Evaluator:
        """Return the estimate the player to move is assumed to choose by."""
        if state.current == self._me or self.opponent is None:
            return self.evaluator
        return self.opponent


def _plan_key(state: GameState) -> object:
    return (len(state.placements), state.placements[-1] if state.placements else None, state.turn,
            tuple(state.scores), state.current)


def _mean(node: Node | None) -> float:
    return node.value / node.visits if node is not None and node.visits else 0.0


__all__ = ["Action", "Draw", "MCTSBot", "Reveal", "apply_move", "ranked_moves"]
