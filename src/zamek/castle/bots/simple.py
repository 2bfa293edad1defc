"""The random bot and the greedy bot."""

from __future__ import annotations

import random

from zamek.castle import fast
from zamek.castle.bots import compiled as fast_players
from zamek.castle.bots.base import Budget
from zamek.castle.bots.evaluate import DEFAULT, Evaluator
from zamek.castle.rules.actions import PlayerAction, UseToken
from zamek.castle.rules.setup import Phase
from zamek.castle.rules.state import GameState
from zamek.castle.runner import sample_chance


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def choose(self, state: GameState, rng: random.Random, budget: Budget | None = None) -> PlayerAction:
        return rng.choice(state.legal_actions())


def settle(state: GameState, rng: random.Random, evaluator: Evaluator = DEFAULT) -> None:
    """Play out the rest of the current turn: chance by sampling, decisions greedily."""
    player = state.current
    while not state.is_over() and state.phase is not Phase.DRAW:
        if state.is_chance():
            state.apply(sample_chance(state, rng))
        elif state.phase is Phase.PLACE:
            return  # a new turn began (extra turn): stop here
        else:
            state.apply(best_immediate(state, rng, player, evaluator))


def best_immediate(state: GameState, rng: random.Random, player: int, evaluator: Evaluator = DEFAULT) -> PlayerAction:
    """Return the scoring-time decision (order, token use, extra turn) that looks best right after it.

    An extra turn is always taken: a turn is worth more than the token, which scores nothing if kept.
    """
    actions = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    if state.phase is Phase.EXTRA_TURN:
        return next(a for a in actions if isinstance(a, UseToken))
    best, best_value = actions[0], -1e9
    for action in actions:
        child = state.copy()
        child.apply(action)
        settle(child, rng, evaluator)
        value = evaluator.lead(child, player)
        if value > best_value:
            best, best_value = action, value
    return best


class GreedyBot:
    """Picks the move (tile placement with its follower) whose outcome this turn looks best.

    "Looks best" is the evaluation of :mod:`zamek.castle.bots.evaluate`: points scored now plus the
    promise of open features, followers in play and in supply, the family-house and nest races.
    A budget of N iterations makes it look at only N placements, drawn at random (a weaker player).

    With ``compiled`` (the default) it thinks in the compiled core where it can (``zamek.castle.bots.compiled``):
    the same choice, and the generator left in the same state, about thirty times sooner.
    """

    name = "greedy"
    compiled = True
    """Think in the compiled core where it is available (else, and with False, in Python)."""

    def __init__(self, placements: int | None = None, evaluator: Evaluator = DEFAULT) -> None:
        self.placements = placements
        self.evaluator = evaluator

    def choose(self, state: GameState, rng: random.Random, budget: Budget | None = None) -> PlayerAction:
        limit = budget.iterations if budget and budget.iterations else self.placements
        if self.compiled and fast.AVAILABLE:
            choice = fast_players.greedy_choice(state, rng, self.evaluator, limit)
            if choice is not None:
                return choice
        player = state.current
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if state.phase is Phase.PLACE:
            if limit is not None and limit < len(actions):
                actions = rng.sample(actions, limit)
            scored = [(self._best_follow_up(state, a, rng, player), i) for i, a in enumerate(actions)]
            return actions[max(scored)[1]]
        if state.phase is Phase.FOLLOWER:
            return self._best_follower(state, actions, rng, player)[0]
        return best_immediate(state, rng, player, self.evaluator)

    def _best_follow_up(self, state: GameState, place: PlayerAction, rng: random.Random, player: int) -> float:
        placed = state.copy()
        placed.apply(place)
        return self._best_follower(placed, placed.legal_actions(), rng, player)[1]

    def _best_follower(
        self, state: GameState, actions: list[PlayerAction], rng: random.Random, player: int
    ) -> tuple[PlayerAction, float]:
        best, best_value = actions[-1], -1e9
        for action in actions:
            child = state.copy()
            child.apply(action)
            settle(child, rng, self.evaluator)
            value = self.evaluator.lead(child, player)
            if value > best_value:
                best, best_value = action, value
        return best, best_value
