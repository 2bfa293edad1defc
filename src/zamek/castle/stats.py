"""Statistics of a tile set under random legal play (the table in the docs)."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass

from zamek.castle.data.loader import new_game
from zamek.castle.rules.setup import Setup
from zamek.castle.rules.state import GameState
from zamek.castle.rules.tiles import FeatureKind, TileSet
from zamek.castle.runner import play_game


@dataclass(frozen=True)
class Line:
    label: str
    mean: float
    stdev: float
    low: float
    high: float


def _line(label: str, values: list[float]) -> Line:
    return Line(label, statistics.fmean(values), statistics.pstdev(values), min(values), max(values))


def completed_kinds(state: GameState) -> list[str]:
    """Return the kind of every complete region at the end of a game, scored or not."""
    return [f.kind.key for f in state.features() if f.complete]


def meadow_shrine_share(state: GameState) -> tuple[int, int]:
    """Return (shrines on meadows with a monk, all shrines on the board)."""
    total = sum(f.shrines for f in state.features() if f.kind is FeatureKind.MEADOW)
    monked = sum(f.shrines for f in state.occupied_features() if f.kind is FeatureKind.MEADOW)
    return monked, total


def random_play_table(games: int, seed: int, setup: Setup | None = None,
                      on_game: Callable[[], None] | None = None) -> list[Line]:
    """Play ``games`` random games and return the table's lines; ``on_game`` hears of each game as it ends."""
    discarded: list[float] = []
    placed: list[float] = []
    roads: list[float] = []
    houses: list[float] = []
    pigsties: list[float] = []
    shrine_share: list[float] = []
    empty: list[float] = []
    points: list[float] = []
    margin: list[float] = []
    chapels: list[float] = []
    nests: list[float] = []
    for i in range(games):
        state = play_game(seed + i, setup=setup).state
        if on_game is not None:
            on_game()
        discarded.append(float(len(state.discarded)))
        placed.append(float(len(state.placements)))
        done = completed_kinds(state)
        roads.append(float(done.count("road")))
        houses.append(float(done.count("house")))
        pigsties.append(float(done.count("pigsty")))
        chapels.append(float(done.count("chapel")))
        nests.append(float(sum(state.nests)))
        monked, total = meadow_shrine_share(state)
        shrine_share.append(monked / total if total else 0.0)
        empty.append(float(state.largest_empty_area()))
        points.extend(float(s) for s in state.scores)
        margin.append(float(abs(state.scores[0] - state.scores[1])))
    sokol = [_line("completed chapels per game", chapels), _line("falcon nests taken per game", nests)]
    return [
        _line("tiles discarded per game", discarded),
        _line("tiles placed per game", placed),
        _line("completed roads per game", roads),
        _line("completed houses per game", houses),
        _line("completed pigsties per game", pigsties),
        _line("share of shrines on meadows with a monk", shrine_share),
        _line("largest empty area (spaces)", empty),
        _line("points per player per game", points),
        _line("winning margin (points)", margin),
        *(sokol if setup is not None and setup.sokol else []),
    ]


def format_table(lines: list[Line], games: int, seed: int, setup: Setup | None = None) -> str:
    rules = (setup or Setup()).name
    out = [f"Random legal play, {rules}, {games} games (seeds {seed}..{seed + games - 1})", ""]
    out.append(f"| {'measure':<40} | {'mean':>7} | {'stdev':>7} | {'min':>6} | {'max':>6} |")
    out.append(f"|{'-' * 42}|{'-' * 9}|{'-' * 9}|{'-' * 8}|{'-' * 8}|")
    for line in lines:
        out.append(
            f"| {line.label:<40} | {line.mean:>7.2f} | {line.stdev:>7.2f} | {line.low:>6.2f} | {line.high:>6.2f} |"
        )
    return "\n".join(out)


def structure_table(tiles: TileSet) -> list[tuple[str, int]]:
    """Return counts describing a tile set's make-up (the design targets)."""
    t = tiles.tiles
    roads = [tile for tile in t if tile.has(FeatureKind.ROAD)]
    crossroads = [
        tile for tile in t if not tile.fountain and any(f.kind is FeatureKind.ROAD and len(f.segments) >= 3
                                                        for f in tile.features)
    ]
    ending = sum(
        1 for tile in t if not tile.fountain for f in tile.features
        if f.kind is FeatureKind.ROAD and len(f.segments) == 1
    )
    return [
        ("tiles", len(t)),
        ("tiles with a road", len(roads)),
        ("tiles with a fountain", sum(1 for tile in t if tile.fountain)),
        ("crossroads without a fountain", len(crossroads)),
        ("roads ending at a building on their tile", ending),
        ("stocks", sum(tile.stocks for tile in t)),
        ("shrines", sum(tile.shrines for tile in t)),
        ("tiles with a shrine", sum(1 for tile in t if tile.shrines)),
        ("tiles with a house", sum(1 for tile in t if tile.has(FeatureKind.HOUSE))),
        ("tiles with a pigsty", sum(1 for tile in t if tile.has(FeatureKind.PIGSTY))),
        ("tiles with a meadow", sum(1 for tile in t if tile.has(FeatureKind.MEADOW))),
        ("tiles with a chapel", sum(1 for tile in t if tile.has(FeatureKind.CHAPEL))),
        ("falcon nests", sum(tile.nests for tile in t)),
    ]


def unplaceable_in_empty_castle(setup: Setup | None = None) -> list[str]:
    """Return the ids of tiles with no legal placement in the empty castle."""
    state = new_game(setup or Setup())
    return [tile.id for tile in state.tiles.tiles if not state.placements_for(tile.index)]


