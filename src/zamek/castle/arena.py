"""Matches between bots: both seat orders, win rates with confidence intervals, time per decision and per turn."""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Final, TypeVar

from zamek.castle.bots.levels import make_bot
from zamek.castle.data.loader import new_game
from zamek.castle.rules.setup import Setup
from zamek.castle.seeding import SeededChance, player_rng
from zamek.kit.arena import play_all, schedule, seating
from zamek.kit.intervals import wilson_interval as wilson_interval  # also the arena's, as before
from zamek.kit.play import run
from zamek.kit.ratings import bradley_terry

T = TypeVar("T")


@dataclass(frozen=True)
class GameResult:
    """One arena game: who sat where, the scores, and how long each seat thought."""

    seed: int
    seats: tuple[str, str]
    a_seat: int
    """The seat of the match's first-named bot (A)."""
    scores: tuple[int, int]
    decisions: tuple[int, int]
    think_seconds: tuple[float, float]
    max_seconds: tuple[float, float]
    """Each seat's longest decision."""
    turns: tuple[int, int] = (0, 0)
    """Each seat's turns (an extra turn counts as one); 0 in a report written before turns were counted."""
    max_turn_seconds: tuple[float, float] = (0.0, 0.0)
    """Each seat's longest turn, all its decisions together: what a person playing it waits for."""


def play_match_game(players: tuple[str, str], seed: int, setup: Setup, a_seat: int = 0) -> GameResult:
    """Play one game; seat 0 moves first. Chance follows the seed (``zamek.castle.seeding``), so the two seat
    orders of one seed see the same tiles and tokens in the same order, whatever the players do."""
    bots = [make_bot(p) for p in players]
    bot_rngs = [player_rng(seed, seat) for seat in (0, 1)]
    state = new_game(replace(setup, first_player=0))
    chance = SeededChance(seed, state.tiles)
    played = run(state, [bot.choose for bot in bots], bot_rngs, chance.outcome, turn_of=lambda s: s.turn)
    d, t, m = played.decisions, played.think_seconds, played.max_seconds
    turns, longest = played.turns, played.max_turn_seconds
    return GameResult(seed, players, a_seat, (state.scores[0], state.scores[1]), (d[0], d[1]), (t[0], t[1]),
                      (m[0], m[1]), (turns[0], turns[1]), (longest[0], longest[1]))


@dataclass
class BotSummary:
    name: str
    wins: int = 0
    points: int = 0
    decisions: int = 0
    think_seconds: float = 0.0
    max_seconds: float = 0.0
    turns: int = 0
    max_turn_seconds: float = 0.0

    @property
    def mean_seconds(self) -> float:
        return self.think_seconds / self.decisions if self.decisions else 0.0

    @property
    def mean_turn_seconds(self) -> float:
        """Mean thinking time a turn (0 where no turns were counted: a report written before they were)."""
        return self.think_seconds / self.turns if self.turns else 0.0


@dataclass
class ArenaReport:
    """The outcome of a match between two bots A and B."""

    players: tuple[str, str]
    rules: str
    games: list[GameResult] = field(default_factory=list)
    planned: int = 0
    """The games the match is to play; more than ``len(games)`` while it is still under way."""

    def summaries(self) -> tuple[BotSummary, BotSummary, int]:
        a, b = BotSummary(self.players[0]), BotSummary(self.players[1])
        draws = 0
        for game in self.games:
            for seat in (0, 1):
                who = a if seat == game.a_seat else b
                who.points += game.scores[seat]
                who.decisions += game.decisions[seat]
                who.think_seconds += game.think_seconds[seat]
                who.max_seconds = max(who.max_seconds, game.max_seconds[seat])
                who.turns += game.turns[seat]
                who.max_turn_seconds = max(who.max_turn_seconds, game.max_turn_seconds[seat])
            if game.scores[0] == game.scores[1]:
                draws += 1
                continue
            winner_seat = 0 if game.scores[0] > game.scores[1] else 1
            (a if winner_seat == game.a_seat else b).wins += 1
        return a, b, draws

    def win_rate(self) -> tuple[float, float, float]:
        """A's share of the games, draws counting half, with its 95% confidence interval (0 with no games)."""
        a, _, draws = self.summaries()
        n = len(self.games)
        low, high = wilson_interval(a.wins + draws / 2, n)
        return (a.wins + draws / 2) / n if n else 0.0, low, high

    def to_json(self) -> dict[str, object]:
        a, b, draws = self.summaries()
        n = len(self.games)
        rate, low, high = self.win_rate()
        return {
            "players": list(self.players),
            "rules": self.rules,
            "games": n,
            "games_planned": max(self.planned, n),
            "wins": [a.wins, b.wins],
            "draws": draws,
            "win_rate_a": rate,
            "ci95_a": [low, high],
            "mean_scores": [a.points / n if n else 0.0, b.points / n if n else 0.0],
            "mean_seconds_per_decision": [a.mean_seconds, b.mean_seconds],
            "max_seconds_per_decision": [a.max_seconds, b.max_seconds],
            "mean_seconds_per_turn": [a.mean_turn_seconds, b.mean_turn_seconds],
            "max_seconds_per_turn": [a.max_turn_seconds, b.max_turn_seconds],
            "results": [asdict(g) for g in self.games],
        }

    def text(self) -> str:
        a, b, draws = self.summaries()
        n = len(self.games)
        rate, low, high = self.win_rate()
        lines = [
            f"{a.name} vs {b.name}, {self.rules}, {n} games (both seat orders)",
            f"  wins: {a.name} {a.wins}, {b.name} {b.wins}, draws {draws}",
            f"  win rate of {a.name}: {100 * rate:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%, draws count half)",
            f"  mean score: {a.name} {a.points / max(n, 1):.1f}, {b.name} {b.points / max(n, 1):.1f}",
            f"  time per decision: {a.name} mean {a.mean_seconds:.3f} s, max {a.max_seconds:.3f} s; "
            f"{b.name} mean {b.mean_seconds:.3f} s, max {b.max_seconds:.3f} s",
        ]
        if a.turns and b.turns:  # else games from before turns were timed
            lines.append(f"  time per turn: {a.name} mean {a.mean_turn_seconds:.3f} s, max {a.max_turn_seconds:.3f} s; "
                         f"{b.name} mean {b.mean_turn_seconds:.3f} s, max {b.max_turn_seconds:.3f} s")
        return "\n".join(lines)


def _play(job: tuple[tuple[str, str], int, Setup, int]) -> GameResult:
    return play_match_game(*job)


GameCallback = Callable[["ArenaReport", GameResult], None]
"""Called after each finished game with the report so far (its games in seat-and-seed order)."""


def run_arena(a: str, b: str, games: int, seed: int, setup: Setup, workers: int = 1,
              on_game: GameCallback | None = None, already: Sequence[GameResult] = ()) -> ArenaReport:
    """Play ``games`` games, alternating seats: game 2k has A first, game 2k+1 B first, both on seed S + k.

    ``on_game`` hears of every game as it finishes, so that a long match can show progress and save
    what it has; with several workers games finish out of order, but the report keeps them in order.
    Games of this match found in ``already`` (an interrupted run's) are kept and not played again: chance
    follows the seed, so a match played in pieces is the match played at once."""
    listed = (a, b)
    kept = {(g.seed, g.a_seat, g.seats): g for g in already}
    finished: list[GameResult | None] = []
    jobs, places = [], []
    for game_seed, rotation in schedule(2, games, seed):
        players = (listed[seating(2, rotation)[0]], listed[seating(2, rotation)[1]])
        finished.append(kept.get((game_seed, rotation, players)))
        if finished[-1] is None:
            jobs.append((players, game_seed, setup, rotation))
            places.append(len(finished) - 1)
    report = ArenaReport(listed, setup.name, [g for g in finished if g is not None], planned=games)

    def record(index: int, result: GameResult) -> None:
        finished[places[index]] = result
        report.games = [g for g in finished if g is not None]
        if on_game is not None:
            on_game(report, result)

    play_all(_play, jobs, workers, record)
    return report


def results_from_json(data: object) -> tuple[tuple[str, str], str, list[GameResult]]:
    """The players, the rules and the games of a report ``to_json`` wrote; ValueError if it is not one."""
    if not (isinstance(data, dict) and isinstance(data.get("rules"), str) and isinstance(data.get("results"), list)):
        raise ValueError("not an arena report: it needs players, rules and results")
    players = _pair(data.get("players"), str)
    games = []
    for number, row in enumerate(data["results"], 1):
        if not isinstance(row, dict) or not isinstance(row.get("seed"), int) or row.get("a_seat") not in (0, 1):
            raise ValueError(f"result {number}: not an arena game (seed, seats, a_seat, scores…)")
        try:
            games.append(GameResult(row["seed"], _pair(row.get("seats"), str), row["a_seat"],
                                    _pair(row.get("scores"), int), _pair(row.get("decisions"), int),
                                    _pair(row.get("think_seconds"), float), _pair(row.get("max_seconds"), float),
                                    # a report written before turns were counted has neither
                                    _pair(row.get("turns", [0, 0]), int),
                                    _pair(row.get("max_turn_seconds", [0.0, 0.0]), float)))
        except ValueError as exc:
            raise ValueError(f"result {number}: {exc}") from None
    return players, data["rules"], games


def games_to_resume(path: Path, players: tuple[str, str], rules: str, games: int, seed: int) -> list[GameResult]:
    """The games an interrupted run of this match left in ``path`` (none if there is no file yet); ValueError
    naming the file if it is not a report, holds another match, or holds games this one would not play (and so
    would drop)."""
    if not path.exists():
        return []
    try:
        found_players, found_rules, found = results_from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:  # RecursionError: nested too deep
        raise ValueError(f"{path}: {exc}") from None
    if (found_players, found_rules) != (players, rules):
        raise ValueError(f"{path} holds {','.join(found_players)} in {found_rules}, not "
                         f"{','.join(players)} in {rules}")
    planned = set(schedule(2, games, seed))
    outside = [g for g in found if (g.seed, g.a_seat) not in planned]
    if outside:
        raise ValueError(f"{path} holds games this match would not play (seed {outside[0].seed}): give the "
                         f"--games and --seed of the run that wrote it")
    return found


def pair_file_name(a: str, b: str) -> str:
    """The file of one ladder match: the two names, with what a file name cannot hold (``:``, ``@``, ``/``) as ``_``."""
    return re.sub(r"[^A-Za-z0-9.-]", "_", f"{a}_vs_{b}") + ".json"


def _pair(value: object, kind: type[T]) -> tuple[T, T]:
    """Two values of ``kind`` from a JSON list (whole numbers stand for floats)."""
    kinds = (float, int) if kind is float else (kind,)
    if not isinstance(value, list) or len(value) != 2 or not all(isinstance(v, kinds) for v in value):
        raise ValueError(f"expected two {kind.__name__} values, got {value!r}")
    return kind(value[0]), kind(value[1])  # type: ignore[call-arg]


VALUE_SEARCH: Final = "mcts:128"
"""How training measures a value: the hard level's search, with that value in place of the shipped one."""
EVAL_SEED_OFFSET: Final = 1_000_000
"""A learning curve's games are on seeds this far past the training seed, away from the self-play games'."""


def measure_value(value_text: str, against: str, games: int, training_seed: int, setup: Setup, workers: int = 1
                  ) -> ArenaReport:
    """Play ``VALUE_SEARCH`` over the value file ``value_text`` (a learned value or a network) against
    ``against``: how strong a value being trained is, one point of a learning curve."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "value.json"
        path.write_text(value_text, encoding="utf-8")
        return run_arena(f"{VALUE_SEARCH}@{path}", against, games, training_seed + EVAL_SEED_OFFSET, setup,
                         workers)


def progress_line(report: ArenaReport, result: GameResult) -> str:
    """One line about a finished game and the match so far, for a long run's log."""
    a, b, draws = report.summaries()
    first, second = result.seats
    longest = " / ".join(f"{name} {seconds:.2f} s"
                         for name, seconds in zip(result.seats, result.max_seconds, strict=True))
    longest_turn = " / ".join(f"{name} {seconds:.2f} s"
                              for name, seconds in zip(result.seats, result.max_turn_seconds, strict=True))
    return (f"[{len(report.games)}/{report.planned}] seed {result.seed}, {first} first: "
            f"{first} {result.scores[0]}, {second} {result.scores[1]}; longest decision {longest}, "
            f"turn {longest_turn}; "
            f"so far {a.name} {a.wins}, {b.name} {b.wins}, draws {draws}")


def ladder_pairs(players: list[str]) -> list[tuple[str, str]]:
    """The ladder's matches, in the order it plays them: each player against every one listed after it."""
    return [(a, b) for i, a in enumerate(players) for b in players[i + 1:]]


def ladder(players: list[str], games: int, seed: int, setup: Setup, workers: int = 1,
           on_game: GameCallback | None = None,
           already: Mapping[tuple[str, str], Sequence[GameResult]] | None = None) -> list[ArenaReport]:
    """Play every pair of ``players`` against each other, keeping the games of a pair found in ``already``."""
    return [run_arena(a, b, games, seed, setup, workers, on_game, (already or {}).get((a, b), ()))
            for a, b in ladder_pairs(players)]


def ladder_ratings(players: list[str], reports: list[ArenaReport]) -> dict[str, float] | None:
    """Each player's Bradley–Terry rating on the Elo scale (the first player at 0), from every game of the
    ladder; None when the games played do not link every player to the others."""
    results = {}
    for report in reports:
        a, _, draws = report.summaries()
        if report.games:
            results[report.players] = (a.wins + draws / 2, len(report.games))
    try:
        return bradley_terry(players, results)
    except ValueError:
        return None


def ladder_table(players: list[str], reports: list[ArenaReport]) -> str:
    """Return a Markdown table: the row player's win rate (draws half) against each column player, and each
    player's rating (``ladder_ratings``)."""
    rate: dict[tuple[str, str], str] = {}
    seconds: dict[str, list[float]] = {p: [] for p in players}
    longest: dict[str, float] = dict.fromkeys(players, 0.0)
    longest_turn: dict[str, float] = dict.fromkeys(players, 0.0)
    ratings = ladder_ratings(players, reports)
    for report in reports:
        a, b, draws = report.summaries()
        n = len(report.games)
        share = (a.wins + draws / 2) / n if n else 0.0
        low, high = wilson_interval(a.wins + draws / 2, n)
        rate[(a.name, b.name)] = f"{100 * share:.0f}% ({100 * low:.0f}–{100 * high:.0f})"
        low_b, high_b = wilson_interval(b.wins + draws / 2, n)
        rate[(b.name, a.name)] = f"{100 * (1 - share):.0f}% ({100 * low_b:.0f}–{100 * high_b:.0f})"
        for who in (a, b):
            seconds[who.name].append(who.mean_seconds)
            longest[who.name] = max(longest[who.name], who.max_seconds)
            longest_turn[who.name] = max(longest_turn[who.name], who.max_turn_seconds)
    lines = ["| row beats column | " + " | ".join(players)
             + " | rating | mean s/decision | max s/decision | max s/turn |",
             "|---" * (len(players) + 5) + "|"]
    for row in players:
        cells = [rate.get((row, col), "—") for col in players]
        mean = sum(seconds[row]) / len(seconds[row]) if seconds[row] else 0.0
        rating = "—" if ratings is None else f"{ratings[row]:.0f}"
        turn = f"{longest_turn[row]:.3f}" if longest_turn[row] else "—"  # "—": games from before turns were timed
        lines.append(f"| {row} | " + " | ".join(cells) + f" | {rating} | {mean:.3f} | {longest[row]:.3f} | {turn} |")
    return "\n".join(lines)
