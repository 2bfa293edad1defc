"""Computer players for Rycerze i zamki: random, heuristic, and Monte Carlo over deduced hands.

Every bot has the castle bots' interface, ``choose(state, rng, budget)``, and looks only at
``state.view(state.current)``: what that player may see (K8). ``choose_from_view`` is the same
decision taken straight from a view.

The heuristic (``heuristic``) imagines a couple of dozen ways the others might lay their cards
(from the hands they may hold, :mod:`zamek.knights.rules.knowledge`): mostly one of their three best
cards for this castle, sometimes two, sometimes only shepherds. It scores each lay of its own by
the castle points it would take in those scenes minus a price for the cards it spends when cards
are short, and picks at random among the lays close to the best. Mixing matters in this game:
players who always lay the same way cancel each other out (K4 step 2).

The Monte Carlo bot (``mc[:N]``) samples what it cannot see. Each of its N iterations draws, for
every other player, a hand the public history allows (with its probability) and their secret
choice this round (the heuristic's, or with probability ``epsilon`` any legal one); then, for
each of its own candidate actions, it plays the game out to the end, tiles drawn at random from
those not seen yet and every player laying as the heuristic pictures the others (mostly one of
their three best cards here) or now and then at random. Candidates share each iteration's samples (common random
numbers), and the worse half is dropped after each stage (successive halving). It chooses the
action with the best mean outcome: a win counts 1, plus a tenth for each point of margin.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from itertools import combinations
from typing import Final, Protocol

from zamek.kit.budget import Budget
from zamek.knights.rules.actions import Choose, Draw, PlayerAction, Recruit
from zamek.knights.rules.cards import ARMY, ROUNDS, TILES, Card, CardTable, CastleKind
from zamek.knights.rules.engine import KnightsState, Phase, View, choices_from
from zamek.knights.rules.knowledge import ArmyHand, camp_of, full_hand, possible_hands

SHEPHERD: Final = Card.SHEPHERD
TOP_TWO: Final = len(ARMY) - 2
"""A rank this high is among the two strongest cards against a castle kind."""

Beliefs = dict[int, list[tuple[ArmyHand, float]]]
"""For each other player, the army cards they may hold, with probabilities."""


class KnightsBot(Protocol):
    """A computer player: chooses an action for the player the game waits for."""

    name: str

    def choose(self, state: KnightsState, rng: random.Random, budget: Budget | None = None) -> PlayerAction:
        """Return a legal action for ``state.current`` from what that player may see; never change ``state``."""
        ...


# ------------------------------------------------------------------ the heuristic

SCENES: Final = 24
"""Imagined lays of the other players per heuristic decision."""
OTHERS_LAY: Final = (0.4, 0.2, 0.1, 0.1)
"""The chances the heuristic gives another player's laying their best, second, third card for this
castle (with a shepherd), or two shepherds; the rest, their two best cards."""
CARD_PRICE: Final = 0.3
"""Castle points a card laid costs when the hand holds no card to spare for the castles to come."""
NEAR_BEST: Final = 0.3
"""Lays worth this much less than the best are still chosen, at random with the best."""


def by_strength(table: CardTable, kind: CastleKind, cards: Sequence[int]) -> list[Card]:
    """Return the army cards present in ``cards`` (counts or flags per card), strongest against ``kind`` first."""
    row = table.strength[kind]
    return sorted((c for c in ARMY if cards[c]), key=lambda c: -row[c])


def castle_winner(strength: Sequence[int], plays: dict[int, Sequence[Card]], sword: int) -> int:
    """Return who takes a castle when each player lays ``plays[player]`` (K4 steps 1-3)."""
    owners: dict[Card, list[int]] = {}
    for player, cards in plays.items():
        for card in cards:
            if card is not SHEPHERD:
                owners.setdefault(card, []).append(player)
    left = [(strength[c], who[0]) for c, who in owners.items() if len(who) == 1]
    return max(left)[1] if left else sword


def _imagined_lay(army: list[Card], last_round: bool, rng: random.Random) -> tuple[Card, ...]:
    if last_round:
        return tuple(army[:2])
    r = rng.random()
    for i, p in enumerate(OTHERS_LAY):
        if r < p:
            return () if i == len(OTHERS_LAY) - 1 else tuple(army[i : i + 1])
        r -= p
    return tuple(army[:2])


def _sample(options: list[tuple[ArmyHand, float]], rng: random.Random) -> ArmyHand:
    if len(options) == 1:
        return options[0][0]
    return rng.choices([h for h, _ in options], weights=[w for _, w in options])[0]


def heuristic_choice(
    table: CardTable,
    tile: str,
    round_: int,
    me: int,
    hand: Sequence[int],
    camp: Sequence[int],
    others: Beliefs,
    sword: int,
    unseen: Sequence[str],
    rng: random.Random,
) -> PlayerAction:
    """Return the heuristic's action (see the module docstring) from one player's knowledge.

    Its lays: two shepherds, any army card with a shepherd, two of its three best cards here. The
    price of cards: nothing in the last round or while the hand holds more army cards than the
    castles still expected (one to spare), else ``CARD_PRICE`` each. At a recruitment it takes
    back the card that is among the two strongest against the most castle points not yet seen.
    """
    info = TILES[tile]
    kind = info.kind
    if kind is None:
        return Recruit(best_recruit(table, camp, unseen))
    strength = table.strength[kind]
    army = by_strength(table, kind, hand)
    last = round_ >= ROUNDS
    scenes = []
    for _ in range(SCENES):
        scene: dict[int, Sequence[Card]] = {}
        for p, hands in others.items():
            scene[p] = _imagined_lay(by_strength(table, kind, _sample(hands, rng)), last, rng)
        scenes.append(scene)
    castles_left = sum(1 for t in unseen if TILES[t].kind is not None)
    expected_castles = (ROUNDS - round_) * castles_left / max(1, len(unseen))
    price = 0.0 if last or len(army) - 1 >= expected_castles + 1 else CARD_PRICE
    options: list[tuple[Card, ...]] = [(SHEPHERD, SHEPHERD), *((c, SHEPHERD) for c in army)]
    options += list(combinations(army[:3], 2))
    values = []
    for cards in options:
        won = sum(castle_winner(strength, {**scene, me: cards}, sword) == me for scene in scenes) / SCENES
        values.append(won * info.points - price * sum(c is not SHEPHERD for c in cards))
    best = max(values)
    a, b = rng.choice([o for o, v in zip(options, values, strict=True) if v >= best - NEAR_BEST])
    return Choose(a, b)


def best_recruit(table: CardTable, camp: Sequence[int], unseen: Sequence[str]) -> Card:
    """Return the camp card that is among the two strongest against the most castle points not yet seen."""

    def value(card: Card) -> tuple[int, int]:
        need = sum(
            TILES[t].points for t in unseen
            if (k := TILES[t].kind) is not None and table.rank(card, k) >= TOP_TWO
        )
        return need, sum(table.rank(card, k) for k in CastleKind)

    return max((c for c in ARMY if camp[c]), key=value)


def state_heuristic(state: KnightsState, player: int, rng: random.Random) -> PlayerAction:
    """Return the heuristic's action for ``player`` in a full state, taking the others' hands as known."""
    assert state.tile is not None
    others: Beliefs = {p: [(tuple(state.hands[p][: len(ARMY)]), 1.0)] for p in range(state.players) if p != player}
    return heuristic_choice(
        state.table, state.tile, state.round, player, state.hands[player], state.camps[player], others,
        state.sword, state.undrawn, rng,
    )


def sketch_choice(state: KnightsState, player: int, rng: random.Random) -> PlayerAction:
    """Return a lay as the heuristic pictures another player's (``OTHERS_LAY``), shepherds filling up: fast."""
    if state.phase is Phase.RECRUIT:
        return Recruit(best_recruit(state.table, state.camps[player], state.undrawn))
    kind = state.castle_kind
    assert kind is not None
    cards = _imagined_lay(by_strength(state.table, kind, state.hands[player]), state.round >= ROUNDS, rng)
    lay = (*cards, SHEPHERD, SHEPHERD)
    return Choose(lay[0], lay[1])


def random_choice(state: KnightsState, player: int, rng: random.Random) -> PlayerAction:
    """Return any legal action of ``player``, uniformly."""
    if state.phase is Phase.CHOOSE:
        return rng.choice(choices_from(state.hands[player]))
    camp = state.camps[player]
    return Recruit(rng.choice([c for c in ARMY if camp[c]]))


def beliefs_of(view: View) -> Beliefs:
    """Return what the viewer may deduce about every other player's army cards (K8)."""
    return {p: possible_hands(view, p) for p in range(view.setup.players) if p != view.player}


# ---------------------------------------------------------------------- the bots


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def choose(self, state: KnightsState, rng: random.Random, budget: Budget | None = None) -> PlayerAction:
        return self.choose_from_view(state.view(state.current), rng, budget)

    def choose_from_view(self, view: View, rng: random.Random, budget: Budget | None = None) -> PlayerAction:
        return rng.choice(view.legal_actions())


class HeuristicBot:
    """Plays by :func:`heuristic_choice` over the hands it deduces the others may hold."""

    name = "heuristic"

    def choose(self, state: KnightsState, rng: random.Random, budget: Budget | None = None) -> PlayerAction:
        return self.choose_from_view(state.view(state.current), rng, budget)

    def choose_from_view(self, view: View, rng: random.Random, budget: Budget | None = None) -> PlayerAction:
        assert view.tile is not None
        others = beliefs_of(view) if view.phase is Phase.CHOOSE else {}
        return heuristic_choice(
            view.table, view.tile, view.round, view.player, view.hand, view.camp, others, view.sword, view.unseen,
            rng,
        )


def playout(state: KnightsState, rng: random.Random, epsilon: float) -> None:
    """Play to the end: tiles at random from those not seen; every player lays as the heuristic pictures
    the others (:func:`sketch_choice`), or with probability ``epsilon`` at random."""
    while state.phase is not Phase.OVER:
        if state.phase is Phase.DRAW:
            state.apply(Draw(rng.choice(state.undrawn)))
        elif rng.random() < epsilon:
            state.apply(random_choice(state, state.current, rng))
        else:
            state.apply(sketch_choice(state, state.current, rng))


def outcome(state: KnightsState, player: int) -> float:
    """Return 1 for a win (K6), plus a tenth for each point of margin over the best other player."""
    result = state.result()
    assert result is not None
    best_other = max(p for seat, p in enumerate(result.points) if seat != player)
    return (1.0 if result.winner == player else 0.0) + 0.1 * (result.points[player] - best_other)


class MonteCarloBot:
    """Flat Monte Carlo over sampled hands, choices and tiles (see the module docstring)."""

    iterations = 64
    """Default iterations: samples of the hidden cards and the future, shared by all candidates."""

    def __init__(
        self, name: str = "mc", iterations: int | None = None, epsilon: float = 0.25,
        max_seconds: float | None = None,
    ) -> None:
        self.name = name
        if iterations is not None:
            self.iterations = iterations
        self.epsilon = epsilon
        self.max_seconds = max_seconds

    def choose(self, state: KnightsState, rng: random.Random, budget: Budget | None = None) -> PlayerAction:
        return self.choose_from_view(state.view(state.current), rng, budget)

    def choose_from_view(self, view: View, rng: random.Random, budget: Budget | None = None) -> PlayerAction:
        actions = view.legal_actions()
        if not actions:
            raise ValueError(f"player {view.player} has nothing to choose now")
        if len(actions) == 1:
            return actions[0]
        iterations = budget.iterations if budget and budget.iterations else self.iterations
        seconds = budget.seconds if budget and budget.seconds else self.max_seconds
        deadline = time.perf_counter() + seconds if seconds else None
        beliefs = beliefs_of(view)
        alive = list(range(len(actions)))
        totals = [0.0] * len(actions)
        counts = [0] * len(actions)
        stages = max(1, (len(actions) - 1).bit_length())
        per_stage = max(1, iterations // stages)
        done = 0
        while done < iterations:
            for _ in range(min(per_stage, iterations - done)):
                self._iterate(view, beliefs, actions, alive, totals, counts, rng)
                done += 1
                if deadline is not None and time.perf_counter() > deadline:
                    done = iterations
                    break
            if len(alive) > 2 and done < iterations:
                alive.sort(key=lambda i: (-totals[i] / counts[i], i))
                alive = alive[: (len(alive) + 1) // 2]
        best = max(alive, key=lambda i: (totals[i] / counts[i], -i))
        return actions[best]

    def _iterate(
        self, view: View, beliefs: Beliefs, actions: list[PlayerAction], alive: list[int], totals: list[float],
        counts: list[int], rng: random.Random,
    ) -> None:
        me = view.player
        hands: list[Sequence[int]] = []
        camps: list[Sequence[int]] = []
        for p in range(view.setup.players):
            if p == me:
                hands.append(view.hand)
                camps.append(view.camp)
            else:
                army = _sample(beliefs[p], rng)
                hands.append(full_hand(army))
                camps.append(camp_of(army))
        root = KnightsState.from_view(view, hands, camps)
        others = {
            p: random_choice(root, p, rng) if rng.random() < self.epsilon else state_heuristic(root, p, rng)
            for p in range(root.players) if p != me and root.must_choose(p)
        }
        future = rng.getrandbits(32)
        the_round = root.round
        for i in alive:
            state = root.copy(events=False)
            while state.round == the_round and state.phase in (Phase.CHOOSE, Phase.RECRUIT):
                who = state.current
                state.apply(actions[i] if who == me else others[who])
            playout(state, random.Random(future), self.epsilon)
            totals[i] += outcome(state, me)
            counts[i] += 1


BOT_NAMES: Final = ("random", "heuristic", "mc")


def make_bot(spec: str) -> KnightsBot:
    """Return a bot from a name: random, heuristic, or mc[:N] (N iterations)."""
    name, _, budget = spec.strip().lower().partition(":")
    if budget and (name != "mc" or not (budget.isascii() and budget.isdigit() and len(budget) <= 9)
                   or int(budget) < 1):
        raise ValueError(f"{spec[:40]!r}: only mc takes a budget, a whole number of iterations, 1 to 999999999 "
                         "(mc:64)")
    if name == "random":
        return RandomBot()
    if name == "heuristic":
        return HeuristicBot()
    if name == "mc":
        return MonteCarloBot(name=spec.strip().lower(), iterations=int(budget) if budget else None)
    raise ValueError(f"unknown player {spec!r}; choose from {', '.join(BOT_NAMES)} (mc takes :N)")
