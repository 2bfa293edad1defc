"""Special tokens (Zamek) / wall tiles (The Castle 2003): kinds, numbering per edition, timing.

Kinds are identified in code and records by their Zamek number (Z19). The 2003
edition prints other numbers on the same effects (C4); ``printed_number`` maps them.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from zamek.castle.rules.breakdown import ScoreItem
from zamek.castle.rules.editions import edition_of
from zamek.castle.rules.errors import IllegalActionError
from zamek.castle.rules.features import Features
from zamek.castle.rules.tiles import FeatureKind


class TokenKind(IntEnum):
    """A token's effect, numbered as in Zamek."""

    EXTRA_TURN = 1
    HOUSE_X2 = 2
    PIGSTY_X2 = 3
    MEADOW_4 = 4
    FAMILY_PLUS_2 = 5
    FIVE_POINTS = 6
    OPEN_HOUSE = 7
    OPEN_PIGSTY = 8
    OPEN_ROAD = 9

    @property
    def key(self) -> str:
        return self.name.lower().replace("_", "-")


END_KINDS: Final = frozenset(TokenKind) - {TokenKind.EXTRA_TURN, TokenKind.HOUSE_X2, TokenKind.PIGSTY_X2}

# C4: the number printed on each 2003 wall tile, by effect.
_CASTLE2003_NUMBERS: Final = {
    TokenKind.EXTRA_TURN: 1,
    TokenKind.PIGSTY_X2: 2,
    TokenKind.HOUSE_X2: 3,
    TokenKind.OPEN_ROAD: 4,
    TokenKind.OPEN_PIGSTY: 5,
    TokenKind.OPEN_HOUSE: 6,
    TokenKind.MEADOW_4: 7,
    TokenKind.FAMILY_PLUS_2: 8,
    TokenKind.FIVE_POINTS: 9,
}

def printed_number(kind: TokenKind, edition: str) -> int:
    """Return the number printed on a token of ``kind`` in ``edition``."""
    return _CASTLE2003_NUMBERS[kind] if edition_of(edition).numbers_tokens_its_own_way else int(kind)


def kind_from_printed(number: int, edition: str) -> TokenKind:
    """Return the kind of the token printed with ``number`` in ``edition``."""
    for kind in TokenKind:
        if printed_number(kind, edition) == number:
            return kind
    raise ValueError(f"no token is numbered {number}")


def usable_same_turn(edition: str) -> bool:
    """Return whether a token may be used in the turn it was taken (C3 yes, Z19 no)."""
    return edition_of(edition).tokens_usable_same_turn


DOUBLING_TOKENS: Final = {FeatureKind.HOUSE: TokenKind.HOUSE_X2, FeatureKind.PIGSTY: TokenKind.PIGSTY_X2}
_OPEN_TOKENS: Final = {
    TokenKind.OPEN_HOUSE: FeatureKind.HOUSE,
    TokenKind.OPEN_PIGSTY: FeatureKind.PIGSTY,
    TokenKind.OPEN_ROAD: FeatureKind.ROAD,
}


class Tokens(Features):
    """What the special tokens (wall tiles) do: when they may be used, and their effects (Z19, C3, C4)."""

    __slots__ = ()

    def usable_tokens(self, kind: TokenKind) -> int:
        """Return how many tokens of ``kind`` the current player may use now (Z19, C3)."""
        same_turn = self.rules.edition.tokens_usable_same_turn
        return sum(
            1 for t in self.tokens[self.current] if t.kind == kind and (same_turn or t.turn_taken < self.turn)
        )

    def doubling_token(self, root: int | None = None) -> TokenKind | None:
        """Return the x2 token the current player may use on the region about to be scored (or ``root``), if any."""
        root = self.queue[0] if root is None else root
        owner = self.region_owner(root)
        token = DOUBLING_TOKENS.get(FeatureKind(self.kind[root]))
        if token is None or owner != self.current or self.prince[root] >> owner & 1:
            return None  # F4: a prince's doubling leaves no room for a token's
        return token if self.usable_tokens(token) else None

    def _spend_token(self, kind: TokenKind) -> None:
        same_turn = self.rules.edition.tokens_usable_same_turn
        held = self.tokens[self.current]
        for i, t in enumerate(held):
            if t.kind == kind and (same_turn or t.turn_taken < self.turn):
                del held[i]
                return
        raise IllegalActionError("no-usable-token", "Z19", token=printed_number(kind, self.rules.edition))

    def _held(self, player: int, kind: TokenKind) -> int:
        return sum(1 for t in self.tokens[player] if t.kind == kind)

    # ------------------------------------------------------------ end tokens (Z19 4-9, C4)

    def _prince_factor(self, root: int, player: int) -> int:
        return self.rules.rates.prince_factor if self.prince[root] >> player & 1 else 1

    def _meadows_upgraded(self, meadows: list[int]) -> set[int]:
        """Token 4: each goes on one of its owner's meadows worth most (rates combine with a prince, F4)."""
        upgraded: set[int] = set()
        for player in (0, 1):
            mine = [r for r in meadows if self.region_owner(r) == player and self.shrines[r]]
            mine.sort(key=lambda r: (-self.shrines[r] * self._prince_factor(r, player), self.place_key(r)))
            upgraded.update(mine[: self._held(player, TokenKind.MEADOW_4)])
        return upgraded

    def _family_sizes(self) -> list[int]:
        """Token 5: +2 tiles each, only to an existing family house."""
        sizes = []
        for player in (0, 1):
            size = self.family_size[player]
            if size:
                size += self.rules.rates.family_token_tiles * self._held(player, TokenKind.FAMILY_PLUS_2)
            sizes.append(size)
        return sizes

    def _end_token_items(self, player: int, turn: int) -> list[ScoreItem]:
        """Tokens 7-9 on the owner's best unfinished features of the kind (a prince doubling, F4), then token 6."""
        items = []
        rates = self.rules.rates
        counts_stocks = self.rules.edition.open_road_token_counts_stocks
        for token, kind in _OPEN_TOKENS.items():
            held = self._held(player, token)
            if not held:
                continue
            options = []
            for root in self.roots():
                if self.kind[root] != kind or self.open[root] == 0 or self.region_owner(root) != player:
                    continue
                rate = rates.open_rate(kind, self.stocks[root], counts_stocks)
                details = ["unfinished"]
                if kind is FeatureKind.ROAD and counts_stocks and self.stocks[root]:
                    details.append("stocks")  # C4: the 2003 path token counts a fountain
                multiplier = self._prince_factor(root, player)
                if self.prince[root] >> player & 1:
                    details.append("prince")
                details.append(f"token:{int(token)}")
                tiles = self.region_tiles(root)
                options.append((tiles * rate * multiplier, root, tiles, rate, multiplier, details))
            options.sort(key=lambda o: (-o[0], self.place_key(o[1])))  # ties by place, as a rebuilt position
            for points, root, tiles, rate, multiplier, details in options[:held]:
                items.append(ScoreItem(kind.key, player, tiles, rate, points, turn, self.cells[root],
                                       ",".join(details), multiplier, final=True))
        for _ in range(self._held(player, TokenKind.FIVE_POINTS)):
            items.append(ScoreItem("token", player, 1, rates.five_points, rates.five_points, turn,
                                   detail=f"token:{int(TokenKind.FIVE_POINTS)}", final=True))
        return items
