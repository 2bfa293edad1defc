"""The layout of a Rycerze i zamki observation (``knights_v0``): one vector, seats counted from the observer."""

from __future__ import annotations

from typing import Final

from zamek.env.layout import Layout, Part
from zamek.knights.rules.actions import ACTION_COUNT
from zamek.knights.rules.cards import ARMY, TILES, Card

MAX_SEATS: Final = 4
KNIGHTS_TILES: Final = tuple(TILES)
"""Tile ids in the order of every by-tile part, and of the chance player's actions (``chance="explicit"``)."""
_CARDS = tuple(c.key for c in Card)
_ARMY = tuple(c.key for c in ARMY)
_PHASES = ("draw", "choose", "recruit", "over")


def _seat(k: int) -> tuple[Part, ...]:
    who = "mine" if k == 0 else f"the player {k} seat{'s' if k > 1 else ''} after me"
    return (
        Part(f"seat{k}.present", 1, f"1 if this seat plays ({who})"),
        Part(f"seat{k}.points", 1, "castle points"),
        Part(f"seat{k}.hand_size", 1, "cards in hand"),
        Part(f"seat{k}.camp_size", 1, "cards in the camp"),
        Part(f"seat{k}.sword", 1, "holds the sword"),
        Part(f"seat{k}.chosen", 1, "has chosen in this round's secret choice"),
        Part(f"seat{k}.to_move", 1, "the game waits for this seat"),
        Part(f"seat{k}.castles", len(KNIGHTS_TILES), "castles taken, by tile", KNIGHTS_TILES),
        Part(f"seat{k}.in_hand", len(ARMY), "army cards certainly in the hand (what the open play shows)", _ARMY),
        Part(f"seat{k}.in_camp", len(ARMY), "army cards certainly in the camp", _ARMY),
        Part(f"seat{k}.unsure", len(ARMY), "army cards in the hand or the camp: a hidden recruitment", _ARMY),
    )


KNIGHTS: Final = Layout(
    planes=(),
    vector=(
        Part("phase", 4, "what the game waits for, one-hot", _PHASES),
        Part("round", 1, "the round, 1..7 (0 before the first tile)"),
        Part("tile", len(KNIGHTS_TILES), "the tile of this round, one-hot", KNIGHTS_TILES),
        Part("unseen", len(KNIGHTS_TILES), "tiles not turned up yet (one stays in the box), by tile", KNIGHTS_TILES),
        Part("strength", len(ARMY), "each army card's strength against this round's castle (0: recruitment)",
             _ARMY),
        Part("hand", len(Card), "my hand, cards of each kind", _CARDS),
        Part("camp", len(Card), "my camp, cards of each kind", _CARDS),
        Part("my_choice", ACTION_COUNT, "my choice this round, one-hot by action index (before the reveal)"),
        *(part for k in range(MAX_SEATS) for part in _seat(k)),
    ),
    area=0,
    dtype="int8",
)
"""The Rycerze i zamki observation: the same length for 2 to 4 players."""
