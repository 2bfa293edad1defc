"""Cards and tiles of Rycerze i zamki: the data model, and the strength table's loader (K1-K3).

The strength table is a data file (``zamek/knights/data/cards.toml``), a reconstruction:
only the knight's strengths are printed in the rulebook. :func:`parse_cards` checks every
condition the project sets for it (K2, DATA.md) and names the card and the problem.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from importlib import resources
from itertools import combinations
from typing import Any, Final

from zamek.kit.errors import DataError


class Card(IntEnum):
    """A card in a player's set (K1): six army cards and the shepherd (two per set)."""

    DRAGON = 0
    MOUNTED_KNIGHT = 1
    KNIGHT = 2
    FOOT_SOLDIER = 3
    PEASANT = 4
    HOG = 5
    SHEPHERD = 6

    @property
    def key(self) -> str:
        """Return the card's name in notation and data files (``mounted-knight``)."""
        return self.name.lower().replace("_", "-")

    @property
    def is_army(self) -> bool:
        return self is not Card.SHEPHERD

    @classmethod
    def from_key(cls, key: str) -> Card:
        """Return the card named ``key``; raise KeyError for an unknown name."""
        return cls[key.strip().upper().replace("-", "_")]


ARMY: Final = tuple(c for c in Card if c.is_army)
CARD_KINDS: Final = len(Card)
SHEPHERDS_PER_SET: Final = 2
SET_SIZE: Final = len(ARMY) + SHEPHERDS_PER_SET
"""Eight cards in each player's set (K1)."""


class CastleKind(IntEnum):
    """What a castle is built of (K1)."""

    STONE = 0
    BRICK = 1
    WOOD = 2

    @property
    def key(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class TileDef:
    """A tile (K3): a castle of a kind worth 1 (small) or 2 (big) points, or a recruitment drum."""

    id: str
    kind: CastleKind | None
    """None for the recruitment tile."""
    points: int

    @property
    def is_castle(self) -> bool:
        return self.kind is not None


DRUM: Final = "drum"
TILES: Final = {
    t.id: t
    for t in (
        *(TileDef(f"{kind.key}-small", kind, 1) for kind in CastleKind),
        *(TileDef(f"{kind.key}-big", kind, 2) for kind in CastleKind),
        TileDef(DRUM, None, 0),
    )
}
TILE_SET: Final = tuple(sorted([*(t for t in TILES if t != DRUM), DRUM, DRUM]))
"""The eight tiles of the game (K3), sorted: the two drums are alike."""
ROUNDS: Final = len(TILE_SET) - 1
"""One tile stays in the box unseen: 7 rounds (K3)."""


@dataclass(frozen=True, slots=True)
class CardTable:
    """The strength of every army card against every castle kind (K2)."""

    strength: tuple[tuple[int, ...], ...]
    """``strength[kind][card]`` for the army cards; the shepherd (index 6) has -1 everywhere."""

    def of(self, card: Card, kind: CastleKind) -> int:
        return self.strength[kind][card]

    def ranked(self, kind: CastleKind) -> tuple[Card, ...]:
        """Return the army cards against ``kind``, strongest first."""
        return tuple(sorted(ARMY, key=lambda c: -self.strength[kind][c]))

    def rank(self, card: Card, kind: CastleKind) -> int:
        """Return 5 for the strongest army card against ``kind`` down to 0 for the weakest; -1 for a shepherd."""
        if not card.is_army:
            return -1
        return len(ARMY) - 1 - self.ranked(kind).index(card)


KNIGHT_PRINTED: Final = {CastleKind.STONE: 6, CastleKind.BRICK: 3, CastleKind.WOOD: 2}
"""The only strengths printed in the rulebook (source)."""


def parse_cards(text: str, where: str = "knights_cards.toml") -> CardTable:
    """Read and check a strength table; raise DataError naming the card and the problem."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{where}: not valid TOML: {exc}") from None
    unknown = set(raw) - {"card"}
    if unknown:
        raise DataError(f"{where}: unknown top-level field(s) {sorted(unknown)}")
    cards = raw.get("card")
    if not isinstance(cards, dict):
        raise DataError(f"{where}: needs a [card.NAME] table for each army card")
    names = {c.key for c in ARMY}
    if set(cards) != names:
        missing, extra = sorted(names - set(cards)), sorted(set(cards) - names)
        raise DataError(f"{where}: the army cards must be exactly {sorted(names)}; missing {missing}, unknown {extra}")
    strength = [[-1] * CARD_KINDS for _ in CastleKind]
    for card in ARMY:
        entry: Any = cards[card.key]
        if not isinstance(entry, dict) or set(entry) != {k.key for k in CastleKind}:
            raise DataError(f"{where}: card.{card.key} needs exactly stone, brick and wood")
        for kind in CastleKind:
            value = entry[kind.key]
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise DataError(f"{where}: card.{card.key}.{kind.key} must be a whole number >= 1, not {value!r}")
            strength[kind][card] = value
    table = CardTable(tuple(tuple(row) for row in strength))
    check_table(table, where)
    return table


def check_table(table: CardTable, where: str) -> None:
    """Raise DataError unless the table meets K2 and the project's design conditions."""
    for kind, value in KNIGHT_PRINTED.items():
        if table.of(Card.KNIGHT, kind) != value:
            raise DataError(
                f"{where}: the knight is printed with {value} against {kind.key}, "
                f"the file says {table.of(Card.KNIGHT, kind)} (K2)"
            )
    for kind in CastleKind:
        seen: dict[int, Card] = {}
        for card in ARMY:
            value = table.of(card, kind)
            if value in seen:
                raise DataError(
                    f"{where}: {seen[value].key} and {card.key} are both {value} against {kind.key}; "
                    "against each castle kind the six army cards must differ (K2)"
                )
            seen[value] = card
    if table.of(Card.DRAGON, CastleKind.BRICK) <= table.of(Card.FOOT_SOLDIER, CastleKind.BRICK):
        raise DataError(f"{where}: the dragon must beat the foot soldier against brick (rulebook example, K2)")
    for card in ARMY:
        if not any(table.rank(card, kind) >= len(ARMY) - 2 for kind in CastleKind):
            raise DataError(
                f"{where}: {card.key} is not among the two strongest cards against any castle kind; "
                "every card must be the best choice somewhere"
            )
    for a, b in combinations(ARMY, 2):
        for weaker, stronger in ((a, b), (b, a)):
            if all(table.of(weaker, k) < table.of(stronger, k) for k in CastleKind):
                raise DataError(
                    f"{where}: {weaker.key} is weaker than {stronger.key} against every castle kind; "
                    "every card must be the best choice somewhere"
                )


@cache
def load_cards() -> CardTable:
    """Load the strength table shipped with the package (cached)."""
    text = resources.files("zamek.knights.data").joinpath("cards.toml").read_text(encoding="utf-8")
    return parse_cards(text)
