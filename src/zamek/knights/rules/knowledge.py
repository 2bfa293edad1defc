"""What a player can deduce about the others' cards from open information (K8).

Every army card a player lays down is seen by all and goes to that player's camp; shepherds
always come back. So a player's hand and camp are known exactly, except after a recruitment
(K5): the card taken back from the face-down camp is not shown. :func:`possible_hands` follows
one player's public history and keeps every hand that history allows, branching at each unseen
recruitment over the cards then in the camp (each equally likely) and dropping the branches a
later reveal contradicts (a card laid down must have been in the hand). The weights are the
probabilities of the branches left, normalised.
"""

from __future__ import annotations

from dataclasses import dataclass

from zamek.knights.rules.cards import ARMY, SHEPHERDS_PER_SET, Card
from zamek.knights.rules.engine import CardsRevealed, Recruited, View

ArmyHand = tuple[int, ...]
"""1 for each army card (indexed by ``Card``) in the hand, 0 for one in the camp."""


def possible_hands(view: View, target: int) -> list[tuple[ArmyHand, float]]:
    """Return the army cards ``target`` may hold now, as seen by ``view.player``, with probabilities."""
    beliefs: dict[ArmyHand, float] = {tuple(1 for _ in ARMY): 1.0}
    for event in view.events:
        if isinstance(event, CardsRevealed):
            played = [c for c in event.choices[target] if c is not Card.SHEPHERD]
            kept: dict[ArmyHand, float] = {}
            for hand, weight in beliefs.items():
                if all(hand[c] for c in played):
                    after = list(hand)
                    for c in played:
                        after[c] = 0
                    key = tuple(after)
                    kept[key] = kept.get(key, 0.0) + weight
            beliefs = kept
        elif isinstance(event, Recruited) and event.player == target:
            grown: dict[ArmyHand, float] = {}
            for hand, weight in beliefs.items():
                camp = [c for c in ARMY if not hand[c]]
                options = [event.card] if event.card is not None else camp
                for card in options:
                    after = list(hand)
                    after[card] = 1
                    key = tuple(after)
                    grown[key] = grown.get(key, 0.0) + weight / len(options)
            beliefs = grown
    total = sum(beliefs.values())
    if not total:
        raise ValueError(f"the history in this view is impossible for player {target}")
    return sorted(((hand, weight / total) for hand, weight in beliefs.items()), key=lambda hw: (-hw[1], hw[0]))


def full_hand(army: ArmyHand) -> tuple[int, ...]:
    """Return the hand as counts per card, shepherds included."""
    return (*army, SHEPHERDS_PER_SET)


def camp_of(army: ArmyHand) -> tuple[int, ...]:
    """Return the camp that goes with a hand: every army card not in it."""
    return (*(1 - x for x in army), 0)


@dataclass(frozen=True, slots=True)
class Deduction:
    """What a player knows for sure about another player's army cards."""

    in_hand: tuple[Card, ...]
    """Certainly in the hand."""
    in_camp: tuple[Card, ...]
    """Certainly in the camp."""
    either: tuple[Card, ...]
    """In the hand or in the camp: a recruitment hid which."""


def deduce(view: View, target: int) -> Deduction:
    """Return what ``view.player`` knows for sure about where ``target``'s army cards are."""
    hands = [hand for hand, _ in possible_hands(view, target)]
    in_hand = tuple(c for c in ARMY if all(h[c] for h in hands))
    in_camp = tuple(c for c in ARMY if not any(h[c] for h in hands))
    either = tuple(c for c in ARMY if c not in in_hand and c not in in_camp)
    return Deduction(in_hand, in_camp, either)
