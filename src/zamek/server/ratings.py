"""Ratings of players (issue 39): Glicko-2 (:mod:`zamek.kit.glicko2`), one rating per game (``castle``, ``knights``)
and per clock kind (``live``: a game with a live clock; ``correspondence``: a time for each move, or no clock).

A rated game is a two-player game between two players with identities (:mod:`zamek.server.players`): against a
friend with ``"rated": true`` (the friend must join as a player), or made by the lobby for two players
(:func:`create_rated`). It offers no hints and no takeback. Games against the computer are never rated: the
computer levels appear on the leaderboard as reference points instead, at their ladder ratings (README, *Strength
and speed*: a Bradley–Terry fit on Elo's scale, the scale Glicko uses) moved so that *medium* sits at 1500, the
rating every newcomer starts from (:data:`COMPUTER_REFERENCE`).

When a rated game ends, its result is stored and both ratings change in the transaction that stores the end
(:func:`record_end`, called by :meth:`zamek.server.sessions.Sessions.commit`): the end is stored once (on the
revision it was made from), and the result is keyed by the game's id, so a game that would end twice counts once.
Each game is one rating period of Glicko-2 for both players, each rated against the other's rating before it. An
aborted game (before both players had moved) changes no rating, but one the server aborted because a player let
the time for a first move run out counts as that player's abandon, and so does a game lost on time.

A rating is provisional while its deviation is over :data:`PROVISIONAL_RD` (110, as on lichess): a newcomer's for
about 12 games against established players, 16 against other newcomers (each game its own period, no time between
them); the leaderboard lists the established ratings first. A player with :data:`ABANDONS_SHOWN` abandons
or more among their last :data:`ABANDONS_WINDOW` rated games is shown so (``abandons``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final, Literal

from sqlalchemy import or_, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from zamek.kit import glicko2
from zamek.server.live import LiveGame
from zamek.server.players import players_seated
from zamek.server.tables import PlayerRatingRow, RatedResultRow, RatingHistoryRow, now

if TYPE_CHECKING:
    from zamek.server.db import Repository

ClockKind = Literal["live", "correspondence"]
GAMES: Final = ("castle", "knights")
CLOCKS: Final[tuple[ClockKind, ...]] = ("live", "correspondence")
PROVISIONAL_RD: Final = 110.0
ABANDONS_WINDOW: Final = 10
ABANDONS_SHOWN: Final = 2
MEDIUM_ANCHOR: Final = 1500 - 1521
"""Added to a level's ladder rating (*medium*: 1521) to place it on the players' scale (*medium* at 1500)."""
LADDER: Final = {"beginner": 786, "easy": 1128, "medium": 1521, "hard": 1827, "expert": 1994}
"""The castle game's levels' ladder ratings (README, *Strength and speed*: 3,000 games in ``results/ladder``)."""
COMPUTER_REFERENCE: Final = {"castle": {level: rating + MEDIUM_ANCHOR for level, rating in LADDER.items()}}
"""The computer levels shown on each game's leaderboard (Rycerze i zamki has no ladder yet: none)."""


def clock_kind(clock: dict[str, Any] | None) -> ClockKind:
    """The rating a game counts for: ``live`` with a live clock, else ``correspondence``."""
    return "live" if clock is not None and clock.get("kind") == "live" else "correspondence"


def provisional(rd: float) -> bool:
    return rd > PROVISIONAL_RD


@dataclass(frozen=True)
class Ending:
    """A rated game's end as its transaction stores it: seat 0's score (None: aborted, no result) and the seat that
    let its time run out (an abandon), if one did."""

    game_id: str
    game: str
    clock: ClockKind
    score0: float | None
    abandoned: int | None


def ending_of(live: LiveGame, state: Any, moment_ms: int) -> Ending:
    """How a rated game ends in ``state`` (its ``ended`` already set when it ends before its rules)."""
    ended = live.ended or {}
    scores = live.kind.scores(state)
    abandoned: int | None = None
    if ended.get("reason") == "abort":
        score0 = None
        timed_out = live.deadline_ms is not None and live.deadline_ms <= moment_ms
        current = getattr(live.state, "current", None)
        abandoned = int(current) if timed_out and current is not None else None
    elif ended.get("loser") in (0, 1):
        score0 = 0.0 if ended["loser"] == 0 else 1.0
        abandoned = int(ended["loser"]) if ended.get("reason") == "timeout" else None
    else:
        score0 = 1.0 if scores[0] > scores[1] else 0.0 if scores[0] < scores[1] else 0.5
    clock = live.clock.settings.kind if live.clock is not None else None
    return Ending(live.id, live.kind.name, "live" if clock == "live" else "correspondence", score0, abandoned)


def end_writer(live: LiveGame, state: Any, over: bool, moment: float, postgres: bool
               ) -> Callable[[Session], None] | None:
    """What the transaction that stores a change to ``live`` (reaching ``state``) writes more: when it is a rated
    game's end, its result and ratings (:func:`record_end`); else None."""
    if not over or not live.rated:
        return None
    return record_end(ending_of(live, state, round(moment * 1000)), postgres)


def record_end(ending: Ending, postgres: bool) -> Callable[[Session], None]:
    """What the transaction of a rated game's end writes: its result, once, and both players' new ratings and
    their history. A game whose seats are not both players' counts for nothing."""

    def write(session: Session) -> None:
        if session.get(RatedResultRow, ending.game_id) is not None:
            return  # counted already
        seated = players_seated(session, [ending.game_id])
        players = [seated.get((ending.game_id, seat)) for seat in (0, 1)]
        if players[0] is None or players[1] is None or players[0] == players[1]:
            return
        first, second = players[0], players[1]
        moment = now()
        session.add(RatedResultRow(
            game_id=ending.game_id, game=ending.game, clock=ending.clock, player0=first, player1=second,
            score0=ending.score0, abandoned_by=players[ending.abandoned] if ending.abandoned in (0, 1) else None,
            ended_at=moment))
        if ending.score0 is None:
            return
        rows = _locked_ratings(session, [first, second], ending.game, ending.clock, postgres)
        before = [_rating(rows[first]), _rating(rows[second])]
        scores = (ending.score0, 1 - ending.score0)
        for index, player in enumerate((first, second)):
            after = glicko2.rate(before[index], [glicko2.Game(before[1 - index], scores[index])])
            row = rows[player]
            row.rating, row.rd, row.volatility = after.rating, after.rd, after.volatility
            row.games += 1
            row.updated_at = moment
            session.add(RatingHistoryRow(player_id=player, game=ending.game, clock=ending.clock,
                                         game_id=ending.game_id, rating=after.rating, rd=after.rd, at=moment))

    return write


def _rating(row: PlayerRatingRow) -> glicko2.Rating:
    return glicko2.Rating(row.rating, row.rd, row.volatility)


def _locked_ratings(session: Session, players: list[str], game: str, clock: str, postgres: bool
                    ) -> dict[str, PlayerRatingRow]:
    """The two players' rating rows, made when missing and, on PostgreSQL, locked (in the players' order: two games
    ending at once in two processes wait for each other rather than both writing a rating read before the other)."""
    fresh = [{"player_id": p, "game": game, "clock": clock, "rating": glicko2.CENTRE, "rd": glicko2.START_RD,
              "volatility": glicko2.START_VOLATILITY, "games": 0, "updated_at": now()} for p in sorted(players)]
    insert = pg_insert if postgres else sqlite_insert
    session.execute(insert(PlayerRatingRow).values(fresh).on_conflict_do_nothing())
    query = (select(PlayerRatingRow).where(PlayerRatingRow.player_id.in_(players), PlayerRatingRow.game == game,
                                           PlayerRatingRow.clock == clock).order_by(PlayerRatingRow.player_id))
    if postgres:
        query = query.with_for_update()
    return {row.player_id: row for row in session.scalars(query)}


# ---------------------------------------------------------------- reading


@dataclass(frozen=True)
class RatingLine:
    player_id: str
    game: str
    clock: str
    rating: float
    rd: float
    games: int


@dataclass(frozen=True)
class HistoryPoint:
    game: str
    clock: str
    game_id: str
    rating: float
    rd: float
    at: datetime


@dataclass(frozen=True)
class Result:
    game_id: str
    game: str
    clock: str
    players: tuple[str, str]
    score0: float | None
    abandoned_by: str | None
    ended_at: datetime


def ratings_of(repo: Repository, player_id: str) -> list[RatingLine]:
    with Session(repo.engine) as session:
        rows = session.scalars(select(PlayerRatingRow).where(PlayerRatingRow.player_id == player_id)
                               .order_by(PlayerRatingRow.game, PlayerRatingRow.clock))
        return [RatingLine(r.player_id, r.game, r.clock, r.rating, r.rd, r.games) for r in rows]


def history_of(repo: Repository, player_id: str, limit: int = 500) -> list[HistoryPoint]:
    with Session(repo.engine) as session:
        rows = session.scalars(select(RatingHistoryRow).where(RatingHistoryRow.player_id == player_id)
                               .order_by(RatingHistoryRow.id.desc()).limit(limit))
        return [HistoryPoint(r.game, r.clock, r.game_id, r.rating, r.rd, r.at) for r in reversed(list(rows))]


def results_of(repo: Repository, player_id: str, limit: int | None = None) -> list[Result]:
    """The player's rated games' results, the latest first."""
    with Session(repo.engine) as session:
        rows = session.scalars(select(RatedResultRow)
                               .where(or_(RatedResultRow.player0 == player_id, RatedResultRow.player1 == player_id))
                               .order_by(RatedResultRow.ended_at.desc(), RatedResultRow.game_id).limit(limit))
        return [Result(r.game_id, r.game, r.clock, (r.player0, r.player1), r.score0, r.abandoned_by, r.ended_at)
                for r in rows]


def abandons(repo: Repository, player_id: str) -> bool:
    """Whether the player let their time run out in :data:`ABANDONS_SHOWN` or more of their last
    :data:`ABANDONS_WINDOW` rated games."""
    recent = results_of(repo, player_id, ABANDONS_WINDOW)
    return sum(1 for r in recent if r.abandoned_by == player_id) >= ABANDONS_SHOWN


def leaderboard(repo: Repository, game: str, clock: str, limit: int = 100) -> list[RatingLine]:
    """The ratings of a game and clock kind: the established ones first, each part by rating."""
    with Session(repo.engine) as session:
        rows = list(session.scalars(select(PlayerRatingRow).where(PlayerRatingRow.game == game,
                                                                  PlayerRatingRow.clock == clock,
                                                                  PlayerRatingRow.games > 0)))
    rows.sort(key=lambda r: (provisional(r.rd), -r.rating, r.player_id))
    return [RatingLine(r.player_id, r.game, r.clock, r.rating, r.rd, r.games) for r in rows[:limit]]
