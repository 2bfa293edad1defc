"""The scoring of a round of Rycerze i zamki: how the round's secret choices resolve once the last player has chosen,
the castle fought for (K4's reveal and its five steps) or the recruitment (K5). Each changes the state in place and
records its steps in the state's ``events`` (unless a search copy has them off)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from zamek.knights.rules.actions import Choose, Recruit
from zamek.knights.rules.cards import TILES, Card
from zamek.knights.rules.events import (
    CardsRevealed,
    CardsToCamp,
    CastleTaken,
    DuplicatesCancelled,
    EmptyCamp,
    Recruited,
    ShepherdsReturn,
    SwordPassed,
)

if TYPE_CHECKING:
    from zamek.knights.rules.engine import KnightsState


def resolve_castle(state: KnightsState) -> None:
    """K4: reveal, then steps 1 to 5 in order."""
    assert state.tile is not None
    tile = TILES[state.tile]
    kind = tile.kind
    assert kind is not None
    log = state.log_events
    rnd = state.round
    chosen = [p.cards for p in state.pending if isinstance(p, Choose)]
    if log:
        state.events.append(CardsRevealed(rnd, tuple(chosen)))
        # 1. Shepherds go back: they never leave the hand here, as nothing else happens to them.
        state.events.append(ShepherdsReturn(rnd, tuple(cards.count(Card.SHEPHERD) for cards in chosen)))
    # 2. Army cards played by more than one player go to the camps, every copy.
    players_of: dict[Card, list[int]] = {}
    for player, cards in enumerate(chosen):
        for card in cards:
            if card is not Card.SHEPHERD:
                players_of.setdefault(card, []).append(player)
    cancelled = sorted(c for c, who in players_of.items() if len(who) > 1)
    for card in cancelled:
        for player in players_of[card]:
            state.hands[player][card] -= 1
            state.camps[player][card] += 1
    if log:
        state.events.append(DuplicatesCancelled(rnd, tuple((c, tuple(players_of[c])) for c in cancelled)))
    # 3. The strongest card left takes the castle; none left: the sword holder does.
    left = sorted((who[0], c) for c, who in players_of.items() if len(who) == 1)
    strength = state.table.strength[kind]
    if left:
        winner, card = max(left, key=lambda pc: strength[pc[1]])
        taken = CastleTaken(rnd, tile.id, winner, card, strength[card])
    else:
        winner = state.sword
        taken = CastleTaken(rnd, tile.id, winner, None)
    state.castles[winner].append(tile.id)
    state.points[winner] += tile.points
    # 4. The cards left go to the camps.
    for player, card in left:
        state.hands[player][card] -= 1
        state.camps[player][card] += 1
    # 5. The fewest castle points take the sword; a tie: the youngest of them.
    fewest = min(state.points)
    tied = tuple(p for p in range(state.players) if state.points[p] == fewest)
    previous, state.sword = state.sword, state.setup.youngest_of(tied)
    if log:
        state.events.append(taken)
        state.events.append(CardsToCamp(rnd, tuple(left)))
        state.events.append(SwordPassed(rnd, state.sword, previous, tied))


def resolve_recruitment(state: KnightsState) -> None:
    """K5: everyone takes their chosen card back; an empty camp brings nothing."""
    for player, choice in enumerate(state.pending):
        if isinstance(choice, Recruit):
            state.camps[player][choice.card] -= 1
            state.hands[player][choice.card] += 1
            if state.log_events:
                state.events.append(Recruited(state.round, player, choice.card))
        elif state.log_events:
            state.events.append(EmptyCamp(state.round, player))
