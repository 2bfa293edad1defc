"""Matches between Rycerze i zamki bots: every seat rotation, win rates with confidence intervals.

Games are scheduled and played by the one arena of both games (:mod:`zamek.kit.arena`): game ``i``
uses seed ``S + i // n`` and rotation ``i % n`` (n players), so over n games on one seed each listed
player sits in every seat (the last seat is the youngest, who holds the sword first and wins final
ties, K3, K6) and all see the same tiles (they come from the seed alone).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field

from zamek.kit.arena import play_all, schedule
from zamek.kit.arena import seating as seating  # the arena's, as before
from zamek.kit.intervals import wilson_interval
from zamek.knights.rules.engine import KnightsSetup
from zamek.knights.runner import play_game


@dataclass(frozen=True)
class ArenaGame:
    """One arena game: which listed player sat where, and how it went."""

    seed: int
    rotation: int
    entrants: tuple[int, ...]
    """Per seat, the index of the listed player sitting there."""
    points: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    ranking: tuple[int, ...]
    decisions: tuple[int, ...]
    think_seconds: tuple[float, ...]
    max_seconds: tuple[float, ...]

    @property
    def winner_entrant(self) -> int:
        return self.entrants[self.ranking[0]]


def play_arena_game(players: tuple[str, ...], seed: int, rotation: int) -> ArenaGame:
    """Play one game of an arena at a rotation of the listed players."""
    entrants = seating(len(players), rotation)
    game = play_game(seed, [players[e] for e in entrants], KnightsSetup(players=len(players)))
    result = game.state.result()
    assert result is not None
    return ArenaGame(
        seed, rotation, entrants, result.points, result.hand_sizes, result.ranking,
        tuple(game.decisions), tuple(game.think_seconds), tuple(game.max_seconds),
    )


def labels(players: tuple[str, ...]) -> list[str]:
    """Return a name for each listed player; a name listed twice gets #2, #3…"""
    seen: Counter[str] = Counter()
    out = []
    for name in players:
        seen[name] += 1
        out.append(name if players.count(name) == 1 else f"{name}#{seen[name]}")
    return out


@dataclass
class Summary:
    """One listed player's (or one bot's, over its copies) results."""

    name: str
    games: int = 0
    wins: int = 0
    points: int = 0
    decisions: int = 0
    think_seconds: float = 0.0
    max_seconds: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_points(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def mean_seconds(self) -> float:
        return self.think_seconds / self.decisions if self.decisions else 0.0

    def add(self, other: Summary) -> None:
        self.games += other.games
        self.wins += other.wins
        self.points += other.points
        self.decisions += other.decisions
        self.think_seconds += other.think_seconds
        self.max_seconds = max(self.max_seconds, other.max_seconds)

    def to_json(self) -> dict[str, object]:
        low, high = self.ci95
        return {
            "name": self.name, "games": self.games, "wins": self.wins, "win_rate": self.win_rate,
            "ci95": [low, high], "mean_points": self.mean_points, "mean_seconds_per_decision": self.mean_seconds,
            "max_seconds_per_decision": self.max_seconds,
        }


@dataclass
class ArenaReport:
    """The outcome of an arena between n listed players."""

    players: tuple[str, ...]
    games: list[ArenaGame] = field(default_factory=list)

    def entrants(self) -> list[Summary]:
        """Return each listed player's results, in the order listed."""
        out = [Summary(label) for label in labels(self.players)]
        for game in self.games:
            for seat, entrant in enumerate(game.entrants):
                s = out[entrant]
                s.games += 1
                s.points += game.points[seat]
                s.decisions += game.decisions[seat]
                s.think_seconds += game.think_seconds[seat]
                s.max_seconds = max(s.max_seconds, game.max_seconds[seat])
            out[game.winner_entrant].wins += 1
        return out

    def bots(self) -> list[Summary]:
        """Return the results per bot name, copies of one bot added up (first listed first)."""
        by_name: dict[str, Summary] = {}
        for name, entrant in zip(self.players, self.entrants(), strict=True):
            by_name.setdefault(name, Summary(name)).add(entrant)
        return list(by_name.values())

    def to_json(self) -> dict[str, object]:
        return {
            "players": list(self.players),
            "games": len(self.games),
            "entrants": [s.to_json() for s in self.entrants()],
            "bots": [s.to_json() for s in self.bots()],
            "results": [asdict(g) for g in self.games],
        }

    def text(self) -> str:
        n = len(self.players)
        share = 1 / n
        lines = [
            f"Rycerze i zamki, {n} players: {', '.join(self.players)}; {len(self.games)} games "
            f"(every seat rotation; a fair share of wins is {100 * share:.1f}%)",
        ]
        width = max(len(label) for label in labels(self.players)) + 2
        for title, rows in (("per player", self.entrants()), ("per bot", self.bots())):
            if title == "per bot" and len(rows) == n:
                continue
            lines.append(f"  {title}:")
            for s in rows:
                low, high = s.ci95
                lines.append(
                    f"    {s.name:<{width}} wins {s.wins:>4}/{s.games:<4} {100 * s.win_rate:5.1f}% "
                    f"(95% CI {100 * low:.1f}-{100 * high:.1f}%)  mean points {s.mean_points:.2f}  "
                    f"time per decision mean {s.mean_seconds * 1000:.1f} ms, max {s.max_seconds * 1000:.1f} ms"
                )
        return "\n".join(lines)


def _play(job: tuple[tuple[str, ...], int, int]) -> ArenaGame:
    return play_arena_game(*job)


def run_arena(players: tuple[str, ...], games: int, seed: int, workers: int = 1) -> ArenaReport:
    """Play ``games`` games: game i on seed S + i // n at rotation i % n (n = number of players)."""
    jobs = [(players, game_seed, rotation) for game_seed, rotation in schedule(len(players), games, seed)]
    report = ArenaReport(players)
    report.games = play_all(_play, jobs, workers)
    return report
