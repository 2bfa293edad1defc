"""Every rate of scoring, stated once: what a tile, a shrine, a token or the largest empty area is worth.

``RATES`` is the table of the rulebooks, and the one every game is played with (``new_game``, records, the web
app, the compiled core's rule sets by setup). A ``Rules`` value carries its table (``rules.rates``) rather than
reading a global, so that nothing else states a rate: the Python engine reads ``rules.rates``, the compiled core
is given the same numbers when its rules are built (``_core.pyx`` copies them into ``zc_rates``), and the views
and the bots ask the engine's previews (``state.worth(feature)``, ``state.order_preview(feature)``). A copy with
other numbers (``dataclasses.replace(RATES, pigsty=3)``) plays in every one of them alike when given to a game
(``GameState.new(setup, replace(rules_for(setup), rates=...))``), as the tests do; records do not carry rates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from zamek.castle.rules.tiles import FeatureKind


@dataclass(frozen=True, slots=True)
class Rates:
    """The points of the game, by rule."""

    road: int = 1
    """Z14: a complete road, a tile."""
    road_with_stocks: int = 2
    """Z14: a complete road with stocks (a fountain, C1) beside it, a tile."""
    house: int = 1
    """Z14: a complete house, a tile."""
    pigsty: int = 2
    """Z14: a complete pigsty, a tile."""
    chapel: tuple[int, ...] = (0, 1, 3, 6, 10, 15, 21, 28, 36)
    """F2: a complete chapel by its tiles (0 to 8; larger ones score the last entry)."""
    shrine: int = 3
    """Z20: a meadow at the end, a shrine."""
    meadow_token: int = 4
    """Z19 token 4: a shrine of the meadow it goes on."""
    family_token_tiles: int = 2
    """Z19 token 5: tiles it adds to an existing family house."""
    five_points: int = 5
    """Z19 token 6."""
    open_house: int = 1
    """Z19 token 7: an unfinished house, a tile."""
    open_pigsty: int = 2
    """Z19 token 8: an unfinished pigsty, a tile."""
    open_road: int = 1
    """Z19 token 9: an unfinished road, a tile."""
    open_road_with_stocks: int = 2
    """C4: the 2003 unfinished-path wall tile, a tile of a path beside a fountain."""
    empty_space: int = 1
    """Z18, Z20, F6: a space of the largest empty area (the family house's points, and the nests' majority's)."""
    prince_factor: int = 2
    """F4: a prince multiplies what its owner scores for its feature."""
    token_factor: int = 2
    """Z19 tokens 2 and 3: the x2 tokens multiply a house's or pigsty's points."""
    falconer_nests: int = 1
    """F5: nests a falconer adds to the feature it stands on when it is scored."""

    def chapel_points(self, tiles: int) -> int:
        """F2: a complete chapel of ``tiles`` tiles."""
        return self.chapel[min(tiles, len(self.chapel) - 1)]

    def complete_rate(self, kind: FeatureKind, stocks: int) -> int:
        """Z14: the points a tile of a complete road, house or pigsty."""
        if kind is FeatureKind.ROAD:
            return self.road_with_stocks if stocks else self.road
        if kind is FeatureKind.HOUSE:
            return self.house
        if kind is FeatureKind.PIGSTY:
            return self.pigsty
        raise ValueError(f"{kind.key} is not scored by the tile at completion")

    def complete_points(self, kind: FeatureKind, tiles: int, stocks: int) -> int:
        """Z14, F2: a complete road, house, pigsty or chapel, before a prince or a x2 token multiplies it."""
        if kind is FeatureKind.CHAPEL:
            return self.chapel_points(tiles)
        return tiles * self.complete_rate(kind, stocks)

    def open_rate(self, kind: FeatureKind, stocks: int, counts_stocks: bool) -> int:
        """Z19 tokens 7-9 (C4): the points a tile of an unfinished house, pigsty or road."""
        if kind is FeatureKind.ROAD:
            return self.open_road_with_stocks if counts_stocks and stocks else self.open_road
        return self.open_house if kind is FeatureKind.HOUSE else self.open_pigsty


RATES: Final = Rates()
"""The rates of the rulebooks (Zamek and The Castle 2003 score alike; Sokół adds the chapels, nests and prince)."""
