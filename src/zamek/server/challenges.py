"""The lobby where strangers meet (issue 39 item 2): open challenges and quick pairings of players
(:mod:`zamek.server.players`).

A **challenge** is posted by a player (game, rule set, clock, rated or casual, optionally a rating range) and listed
to everyone; any other player whose rating for that game and clock kind is in its range accepts it, and both are
seated at once in a new game (who plays first is drawn), listed among the live games. Of several accepting at once
exactly one wins: the challenge is taken by a conditional ``UPDATE … WHERE status = 'open'`` in the transaction that
stores the game, so it holds across the worker processes of a server on PostgreSQL; the others get 409
``challenge-gone``. Its poster withdraws it (``DELETE``).

A **quick pairing** ("play now") waits for another player asking for the same game, rule set, clock and rated or
casual, whose rating is near (``PAIRING_WINDOW``, wider the longer they wait); when several wait, the one whose
rating is closest to the asker's is taken (then the one waiting longest).
Two asking at once are paired exactly once: the look for a waiting player and the wait are one transaction, taken one
at a time for each kind of pairing (PostgreSQL: an advisory lock on its key; SQLite: the database's one writer).

**Expiry**: a challenge or a pairing lives while its poster's page is there. The page's lobby stream (``GET
/api/lobby/events`` with the player's token) tells the server so every ``HEARTBEAT_SECONDS``, as does the poster's
``GET /api/challenges``; unseen for ``EXPIRES_MS`` (60 s), it is no longer listed nor taken. A reload of the page
keeps it.

Each change rings the lobby (:meth:`zamek.server.events.GameEvents.ring_lobby`): the pages that follow it ask for the
list again, and the poster's page learns of its game (``started``).
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from contextlib import nullcontext
from typing import Any, Final

from sqlalchemy import ColumnElement, and_, select, text, update
from sqlalchemy.orm import Session

from zamek.kit.glicko2 import CENTRE
from zamek.server.creating import players_match
from zamek.server.db import Added
from zamek.server.errors import ServiceError
from zamek.server.players import Player, by_id
from zamek.server.ratings import abandons, clock_kind
from zamek.server.schema_challenges import ChallengeView, NewChallenge, Pairing, Seek, Started
from zamek.server.seats import new_game_id
from zamek.server.service import GameService
from zamek.server.tables import ChallengeRow, PlayerRatingRow, PlayerRow, SeatRow, now

EXPIRES_MS: Final = 60_000
"""A challenge or a pairing whose poster's page has not said it is there for this long is gone."""
HEARTBEAT_SECONDS: Final = 20.0
"""How often the poster's lobby stream says the page is there."""
TOUCH_EVERY_SECONDS: Final = 10.0
TOUCHED_KEPT: Final = 100_000
STARTED_MS: Final = 120_000
"""How long the poster's answers tell of the game made from their challenge (their page goes to it)."""
PAIRING_WINDOW: Final = 300.0
"""Quick pairing pairs players whose ratings differ by this much at most..."""
PAIRING_WIDENS: Final = 100.0
"""...and by this much more for each ``PAIRING_WIDENS_EVERY_MS`` the waiting player has waited (a newcomer's rating is
1500: two newcomers always pair)."""
PAIRING_WIDENS_EVERY_MS: Final = 10_000
MAX_OPEN: Final = 3
"""Open challenges of one player at once."""
LISTED_AT_MOST: Final = 100
CHALLENGE: Final = "challenge"
PAIRING: Final = "pairing"


def pairing_key(seek: Seek) -> str:
    """What two pairings must share to be paired: the game, the rule set, the clock and rated or casual."""
    clock = seek.clock.model_dump() if seek.clock is not None else None
    return json.dumps([seek.game, seek.rules, clock, seek.rated], sort_keys=True, separators=(",", ":"))


class Lobby:
    """The lobby's challenges and pairings of one server (see the module's doc)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.repo = service.repo
        self._touched: dict[str, float] = {}
        """When this process last said each player's page is there (its monotonic clock): at most every
        ``TOUCH_EVERY_SECONDS``, so that reading the list is no write each time."""

    def now_ms(self) -> int:
        return round(self.repo.clock() * 1000)

    def _fresh(self) -> ColumnElement[bool]:
        """Open, and its poster's page seen lately."""
        return and_(ChallengeRow.status == "open", ChallengeRow.seen_ms >= self.now_ms() - EXPIRES_MS)

    # ------------------------------------------------------------ challenges

    def post(self, player: Player, body: NewChallenge) -> ChallengeView:
        """Post a challenge (409 ``too-many-open`` with ``MAX_OPEN`` open already)."""
        moment = self.now_ms()
        row = ChallengeRow(
            id=new_game_id(), kind=CHALLENGE, poster=player.id, game=body.game, rules=body.rules,
            clock=body.clock.model_dump() if body.clock is not None else None, rated=body.rated,
            min_rating=body.min_rating, max_rating=body.max_rating, pairing_key=pairing_key(body), status="open",
            created_at=now(), seen_ms=moment, changed_ms=moment)
        with self.repo.transaction() as session:
            mine = session.scalars(select(ChallengeRow.id).where(
                ChallengeRow.poster == player.id, ChallengeRow.kind == CHALLENGE, self._fresh())).all()
            if len(mine) >= MAX_OPEN:
                raise ServiceError(409, "too-many-open", "too-many-open", count=MAX_OPEN)
            session.add(row)
            view = self._view(session, row, player, abandons(self.repo, player.id))
        self.service.events.ring_lobby()
        return view

    def listed(self, player: Player | None) -> tuple[list[ChallengeView], list[Started]]:
        """The open challenges, the latest first, and the games started lately from the player's own (a player's
        asking says their page is there)."""
        if player is not None:
            self.touch(player)
        with Session(self.repo.engine) as session:
            rows = session.scalars(select(ChallengeRow).where(ChallengeRow.kind == CHALLENGE, self._fresh())
                                   .order_by(ChallengeRow.created_at.desc(), ChallengeRow.id).limit(LISTED_AT_MOST))
            listed = list(rows)
            flagged = {poster: abandons(self.repo, poster) for poster in {row.poster for row in listed}}
            views = [self._view(session, row, player, flagged[row.poster]) for row in listed]
            started = self._started(session, player) if player is not None else []
        return views, started

    def withdraw(self, player: Player, challenge_id: str) -> None:
        """The poster withdraws an open challenge or pairing (404 when it is not theirs or no longer open)."""
        with self.repo.transaction() as session:
            gone = session.execute(update(ChallengeRow).where(
                ChallengeRow.id == challenge_id, ChallengeRow.poster == player.id, ChallengeRow.status == "open")
                .values(status="withdrawn", changed_ms=self.now_ms()))
            if not getattr(gone, "rowcount", 0):
                raise ServiceError(404, "not-found", "no-challenge")
        self.service.events.ring_lobby()

    def accept(self, player: Player, challenge_id: str) -> Started:
        """Accept a challenge: both players seated in a new game at once (exactly one of several accepting wins)."""
        with Session(self.repo.engine) as session:
            row = session.scalars(select(ChallengeRow).where(ChallengeRow.id == challenge_id,
                                                             ChallengeRow.kind == CHALLENGE, self._fresh())).first()
            if row is None:
                raise ServiceError(409, "challenge-gone", "challenge-gone")
            if row.poster == player.id:
                raise ServiceError(409, "own-challenge", "own-challenge")
            rating = _rating(session, player.id, row.game, row.clock)
            low, high = row.min_rating, row.max_rating
            if (low is not None and rating < low) or (high is not None and rating > high):
                raise ServiceError(403, "out-of-range", "out-of-range", rating=round(rating),
                                   low=round(low) if low is not None else "–", high=round(high) if high is not None
                                   else "–")
            poster = by_id(session, row.poster)
        if poster is None:
            raise ServiceError(409, "challenge-gone", "challenge-gone")
        return self._seat(row, poster, player)

    def _seat(self, row: ChallengeRow, poster: Player, taker: Player, session: Session | None = None) -> Started:
        """Take ``row`` for ``taker`` and store their game in one transaction (``session``: the caller's); the taker's
        answer."""
        first, second = (poster, taker) if secrets.randbelow(2) else (taker, poster)
        clock = Seek.model_validate({"clock": row.clock}).clock if row.clock is not None else None
        live = players_match(self.service.sessions, row.game, first, second, clock, row.rules, row.rated)
        sessions = self.service.sessions
        added = Added(sessions.stored(live), live.seats, sessions.extras_of(live), None)
        with self.repo.transaction() if session is None else nullcontext(session) as writing:
            taken = writing.execute(update(ChallengeRow).where(ChallengeRow.id == row.id, self._fresh())
                                    .values(status="taken", taker=taker.id, game_id=live.id,
                                            changed_ms=self.now_ms()))
            if getattr(taken, "rowcount", 0) != 1:
                raise ServiceError(409, "challenge-gone", "challenge-gone")  # another was quicker: rolled back
            self.repo.add_in(writing, added)
        sessions.keep(live)
        if session is None:  # else the caller rings once its transaction is committed
            self.service.events.ring_lobby(poster.id)
        return Started(game_id=live.id, game=row.game, seat=0 if first is taker else 1,  # type: ignore[arg-type]
                       challenge=row.id)

    # ------------------------------------------------------------ pairings

    def play_now(self, player: Player, seek: Seek) -> Pairing:
        """Pair with a player waiting for the same (the closest rating), or wait for one."""
        key = pairing_key(seek)
        moment = self.now_ms()
        started: Started | None = None
        waiter = ""
        with self.repo.transaction() as session:
            if self.repo.postgres:  # one pairing of this key at a time, across the worker processes
                session.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": key})
            waiting = list(session.scalars(select(ChallengeRow).where(
                ChallengeRow.kind == PAIRING, ChallengeRow.pairing_key == key, self._fresh())))
            mine = next((w for w in waiting if w.poster == player.id), None)
            others = [w for w in waiting if w.poster != player.id]
            rating = _rating(session, player.id, seek.game, seek.clock.model_dump() if seek.clock else None)
            apart = {w.id: abs(_rating(session, w.poster, w.game, w.clock) - rating) for w in others}
            near = [w for w in others if apart[w.id] <= PAIRING_WINDOW + PAIRING_WIDENS * (
                (moment - w.changed_ms) // PAIRING_WIDENS_EVERY_MS)]
            if near:
                chosen = min(near, key=lambda w: (apart[w.id], w.changed_ms, w.id))
                poster = by_id(session, chosen.poster)
                if poster is not None:
                    started = self._seat(chosen, poster, player, session)
                    waiter = poster.id
                    if mine is not None:
                        mine.status, mine.changed_ms = "withdrawn", moment
            if started is None:
                if mine is None:
                    mine = ChallengeRow(
                        id=new_game_id(), kind=PAIRING, poster=player.id, game=seek.game, rules=seek.rules,
                        clock=seek.clock.model_dump() if seek.clock is not None else None, rated=seek.rated,
                        pairing_key=key, status="open", created_at=now(), seen_ms=moment, changed_ms=moment)
                    session.add(mine)
                mine.seen_ms = moment
                waiting_id = mine.id
        if started is not None:
            self.service.events.ring_lobby(waiter)  # the waiting player's page learns of its game
            return Pairing(id=started.challenge, waiting=False, started=started)
        return Pairing(id=waiting_id, waiting=True)

    def touch(self, player: Player) -> None:
        """The player's page is there: their open challenges and pairings live on (said again after
        ``TOUCH_EVERY_SECONDS`` at most)."""
        moment = time.monotonic()
        if moment - self._touched.get(player.id, float("-inf")) < TOUCH_EVERY_SECONDS:
            return
        if len(self._touched) > TOUCHED_KEPT:
            self._touched.clear()
        self._touched[player.id] = moment
        with self.repo.transaction() as session:
            session.execute(update(ChallengeRow).where(ChallengeRow.poster == player.id,
                                                       ChallengeRow.status == "open")
                            .values(seen_ms=self.now_ms()))

    def started_for(self, player: Player, since_ms: int) -> list[Started]:
        with Session(self.repo.engine) as session:
            return self._started(session, player, since_ms)

    # ------------------------------------------------------------ views

    def _started(self, session: Session, player: Player, since_ms: int | None = None) -> list[Started]:
        """The games made lately from the player's challenges and pairings, with the player's seat in each."""
        since = self.now_ms() - STARTED_MS if since_ms is None else since_ms
        rows = list(session.scalars(select(ChallengeRow).where(
            ChallengeRow.poster == player.id, ChallengeRow.status == "taken", ChallengeRow.changed_ms >= since)))
        ids = [r.game_id for r in rows if r.game_id is not None]
        found = session.execute(select(SeatRow.game_id, SeatRow.seat).where(
            SeatRow.game_id.in_(ids), SeatRow.token_digest == player.token_digest))
        seats = {game_id: seat for game_id, seat in found}
        return [Started(game_id=r.game_id, game=r.game, seat=seats[r.game_id], challenge=r.id)  # type: ignore[arg-type]
                for r in rows if r.game_id in seats]

    def _view(self, session: Session, row: ChallengeRow, player: Player | None, flagged: bool) -> ChallengeView:
        poster = session.get(PlayerRow, row.poster)
        rating = session.get(PlayerRatingRow, (row.poster, row.game, clock_kind(row.clock)))
        return ChallengeView(
            id=row.id, poster=poster.name if poster is not None else "?", rating=rating.rating if rating else None,
            abandons=flagged,
            game=row.game, rules=row.rules, clock=row.clock, rated=row.rated,  # type: ignore[arg-type]
            min_rating=row.min_rating, max_rating=row.max_rating, mine=player is not None and row.poster == player.id,
            created_at=row.created_at)


def _rating(session: Session, player_id: str, game: str, clock: dict[str, Any] | None) -> float:
    """A player's rating for a game and clock kind (a newcomer's, 1500, without one)."""
    row = session.get(PlayerRatingRow, (player_id, game, clock_kind(clock)))
    return row.rating if row is not None else CENTRE


__all__: Sequence[str] = ["EXPIRES_MS", "HEARTBEAT_SECONDS", "Lobby", "pairing_key"]
