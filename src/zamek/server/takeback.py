"""Takebacks by agreement in a castle game with a friend (two people, each on their own device).

What is taken back: the asking seat's last turn in which it decided something, from its first decision on (its
tile stays drawn: the game goes back to the moment that tile came out), and everything after it: the other
player's tile drawn and, if they have moved, their reply. An extra turn counts with the turn that earned it. At one
screen and against the computer a move is undone alone (``/undo``); in a game with a friend that undo still serves
within one's own turn, before the next tile is drawn.

The flow: a seat asks (``/takeback``); the other seat sees the request in the game's view (the change's live event
brings it) and accepts (``/takeback/accept``: the game is replayed without those moves, so the position is exactly
the one of that moment, and chance, fixed by the seed, brings the same tiles and tokens again) or declines
(``/takeback/decline``); or the asking seat withdraws it (``/takeback/withdraw``). One request is open at a time, and
a seat whose request was declined, or who withdrew it, may not ask again before the next move (so that no one can
ask over and over): a request belongs to one position, and any move (or the end of the game) lets it lapse.

Clocks: nothing stops while a request waits, and no time comes back: once accepted, the clock runs for the seat to
move in the position gone back to, from then on (the seat whose time ran until then is charged it, as at the end of
a turn).

Hidden information: none is told. The moves taken back were seen by both players, and so were the tiles drawn in
them; the asking player has seen the tile drawn for the other player after their turn, which the seed draws again:
that is what the other player agrees to.

The request is stored with the game (``game_extras.takeback``, on the game's revision, as every change), so that every
process of a server, and a restarted one, sees the same request.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from zamek.server.endings import check_clock
from zamek.server.errors import ServiceError, restored_on_failure
from zamek.server.games import MoveInfo
from zamek.server.games.castle import CASTLE, FRIEND
from zamek.server.live import LiveGame
from zamek.server.schema_game import TakebackView

if TYPE_CHECKING:
    from zamek.server.sessions import Sessions


def kept_moves(infos: Sequence[MoveInfo], seat: int) -> int | None:
    """How many of a game's moves (``infos``) stay when ``seat`` takes its last turn back: the moves before the
    first decision of its last turn with a decision (its draws stay); None when it has decided nothing yet."""
    decisions = [i for i, info in enumerate(infos) if not info.chance]
    mine = [i for i in decisions if infos[i].player == seat]
    if not mine:
        return None
    theirs = [i for i in decisions if i < mine[-1] and infos[i].player != seat]
    since = theirs[-1] if theirs else -1
    return next(i for i in mine if i > since)


def started_before(infos: Sequence[MoveInfo], seat: int, kept: int) -> bool:
    """Whether the game has begun in its first ``kept`` moves, where ``seat`` is to take its turn back: whether that
    seat decided anything before. Turns alternate, so the other seat's first turn then came before too, and was over.
    A takeback that would go back before the game began is refused: it could then be aborted, its clock idle."""
    return any(not info.chance and info.player == seat for info in infos[:kept])


def ask(sessions: Sessions, game_id: str, token: str | None, revision: int | None = None) -> LiveGame:
    """The seat of ``token`` asks to take its last turn back."""
    live = sessions.get(game_id)
    with live.lock:
        seat = _checked(sessions, live, token, revision)
        if live.rated:
            raise ServiceError(409, "takeback", "rated-no-takeback")
        request = _request(live)
        if request["asked_by"] is not None:
            raise ServiceError(409, "takeback", "takeback-open")
        if seat in request["declined"]:
            raise ServiceError(409, "takeback", "takeback-declined")
        if seat in request["withdrawn"]:
            raise ServiceError(409, "takeback", "takeback-withdrawn")
        kept = kept_moves(live.infos, seat)
        if kept is None:
            raise ServiceError(409, "takeback", "nothing-to-take-back")
        if not started_before(live.infos, seat, kept):
            raise ServiceError(409, "takeback", "takeback-first-moves")
        check_clock(sessions, live)
        _store(sessions, live, request | {"asked_by": seat})
    return live


def accept(sessions: Sessions, game_id: str, token: str | None, revision: int | None = None) -> LiveGame:
    """The other seat accepts the open request: the game goes back (see the module's doc)."""
    live = sessions.get(game_id)
    with live.lock:
        asked_by = _answering(sessions, live, token, revision)
        check_clock(sessions, live)
        kept = kept_moves(live.infos, asked_by)
        assert kept is not None  # a request is asked only with a move to take back, and lapses with any move
        actions = live.actions[:kept]
        state, infos = live.kind.replay(live.setup, actions)
        # a change of the moves: the request lapses
        sessions.commit(live, state, actions, infos, replace=True, taken_back=True)
    return live


def decline(sessions: Sessions, game_id: str, token: str | None, revision: int | None = None) -> LiveGame:
    """The other seat declines the open request: the asking seat may not ask again before the next move."""
    live = sessions.get(game_id)
    with live.lock:
        asked_by = _answering(sessions, live, token, revision)
        request = _request(live)
        _store(sessions, live, {**request, "asked_by": None, "declined": sorted({*request["declined"], asked_by})})
    return live


def withdraw(sessions: Sessions, game_id: str, token: str | None, revision: int | None = None) -> LiveGame:
    """The asking seat withdraws its open request: it may not ask again before the next move."""
    live = sessions.get(game_id)
    with live.lock:
        seat = _checked(sessions, live, token, revision)
        request = _request(live)
        if request["asked_by"] != seat:
            raise ServiceError(409, "takeback", "no-own-takeback")
        _store(sessions, live, {**request, "asked_by": None, "withdrawn": sorted({*request["withdrawn"], seat})})
    return live


def takeback_view(live: LiveGame) -> TakebackView | None:
    """The takebacks of a game with a friend that is on, as its view shows them (None in any other game, and in a
    rated game, which has none)."""
    if not _takes_back(live) or live.over or live.waiting_for_friend or live.rated:
        return None
    request = _request(live)
    asked_by: int | None = request["asked_by"]
    declined: list[int] = request["declined"]
    withdrawn: list[int] = request["withdrawn"]
    seats = range(len(live.players))
    can_ask = [asked_by is None and s not in declined and s not in withdrawn
               and (kept := kept_moves(live.infos, s)) is not None and started_before(live.infos, s, kept)
               for s in seats]
    moves: list[int] = []
    if asked_by is not None:
        kept = kept_moves(live.infos, asked_by) or 0
        undone = [info.player for info in live.infos[kept:] if not info.chance]
        moves = [undone.count(s) for s in seats]
    return TakebackView(can_ask=can_ask, asked_by=asked_by, declined=declined, withdrawn=withdrawn, moves=moves)


def _takes_back(live: LiveGame) -> bool:
    return live.kind is CASTLE and live.mode == FRIEND


def _checked(sessions: Sessions, live: LiveGame, token: str | None, revision: int | None) -> int:
    """The seat of ``token``, in a game with a friend that is on, on the revision its page shows."""
    seat = sessions.prove(live, token)
    sessions.check_revision(live, revision)
    if not _takes_back(live):
        raise ServiceError(409, "not-for-this-game", "takeback-friends")
    if live.over:
        raise ServiceError(409, "game-over", "game-over")
    if live.waiting_for_friend:
        raise ServiceError(409, "waiting", "waiting-friend")
    return seat


def _answering(sessions: Sessions, live: LiveGame, token: str | None, revision: int | None) -> int:
    """The seat that asked for the open request that the seat of ``token`` (the other one) answers."""
    seat = _checked(sessions, live, token, revision)
    asked_by: int | None = _request(live)["asked_by"]
    if asked_by is None:
        raise ServiceError(409, "takeback", "no-takeback")
    if asked_by == seat:
        raise ServiceError(403, "not-your-seat", "takeback-own")
    return asked_by


def _request(live: LiveGame) -> dict[str, Any]:
    """The takeback asked, declined or withdrawn on the game's position: ``asked_by`` (a seat or None), ``declined``
    and ``withdrawn`` (seats)."""
    stored = live.takeback or {}
    asked_by = stored.get("asked_by")

    def seats(key: str) -> list[int]:
        found = stored.get(key)
        return [s for s in found if isinstance(s, int)] if isinstance(found, list) else []

    return {"asked_by": asked_by if isinstance(asked_by, int) else None, "declined": seats("declined"),
            "withdrawn": seats("withdrawn")}


def _store(sessions: Sessions, live: LiveGame, request: dict[str, Any]) -> None:
    """Store a change of the request alone (no move: it stays with the position, whose revision it keeps as
    ``at``: a move sent from that position's page still stands); the other pages hear of it."""
    before = live.takeback
    live.takeback = {**request, "at": live.position_revision}
    with restored_on_failure(lambda: setattr(live, "takeback", before)):
        sessions.commit(live, live.state, [], [])
