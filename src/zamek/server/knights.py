"""Rycerze i zamki in the web app: games of 2-4 seats (people or computer players) under ``/api/knights``.

A game is its record (setup, seed, moves) in the ``knights_games`` table; it is replayed with every
check when loaded. The server turns up the tiles (from a generator seeded by the game's seed and
the number of moves, so a restart decides the same way) and plays the computer seats at once, in the
request (a decision takes well under a second; the Monte Carlo player is capped at ``MC_SECONDS``).

Hidden information (K8) never leaves the server: a seat's view is built from the engine's
``view(seat)``; without a seat the page gets the public view (no hand, no recruited card). Only a
person's seat has a view of its own: a computer seat's hand, camp and face-down choice are never
served (asking for one is refused with ``not-a-person``). The record, which holds every secret
choice, is given out only once the game is over.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response, StreamingResponse

from zamek.castle.bots.base import Budget
from zamek.kit.errors import MalformedActionError, ZamekError
from zamek.knights import record as records
from zamek.knights.bots import BOT_NAMES, make_bot
from zamek.knights.rules.actions import Action, Draw, parse_action
from zamek.knights.rules.cards import ARMY, ROUNDS, TILES, Card, CastleKind
from zamek.knights.rules.engine import (
    CardsRevealed,
    CardsToCamp,
    CastleTaken,
    DuplicatesCancelled,
    EmptyCamp,
    Event,
    GameEnded,
    KnightsSetup,
    KnightsState,
    Phase,
    Recruited,
    ShepherdsReturn,
    SwordPassed,
    TileRevealed,
)
from zamek.knights.terms import card_name, event_lines, term, tile_name
from zamek.server.cache import RecentGames
from zamek.server.db import Repository
from zamek.server.events import GameEvents, stream
from zamek.server.knights_schemas import (
    CampCard,
    CancelledCards,
    CardsRevealedEvent,
    CardsToCampEvent,
    CardView,
    CastleTakenEvent,
    DuplicatesCancelledEvent,
    EmptyCampEvent,
    GameEndedEvent,
    KnightsEvent,
    KnightsLine,
    KnightsMeta,
    KnightsMove,
    KnightsPhase,
    KnightsResultView,
    KnightsSavedGame,
    KnightsTile,
    KnightsView,
    NewKnightsGame,
    RecruitedEvent,
    SeatedKnightsView,
    SeatKind,
    ShepherdsReturnEvent,
    SwordPassedEvent,
    TileRevealedEvent,
)
from zamek.server.routing import Token, event_stream, last_event_id
from zamek.server.schemas import Adopted, Join, SeatToken, SeatView, errors
from zamek.server.seats import Seat, SeatPlayer, clean_name, new_secret, prove_seat, seat_of, seats_for
from zamek.server.tables import Extras, StoredMatch, new_id, now

PERSON: Final = "person"
FRIEND: Final = "friend"
PEOPLE: Final = (PERSON, FRIEND)
SEAT_KINDS: Final[tuple[SeatKind, ...]] = ("person", "friend", "random", "heuristic", "mc")
assert SEAT_KINDS[2:] == tuple(BOT_NAMES), "the seat kinds of the protocol are people and the computer players"
KIND: Final = "knights"
"""The kind of the matches of this game."""
CACHED_GAMES: Final = 2000
"""The games a process keeps in memory (the latest used)."""
MC_SECONDS: Final = 0.4
"""The most the Monte Carlo player thinks per decision in the web app."""
PHASES: Final[dict[Phase, KnightsPhase]] = {
    Phase.DRAW: "draw", Phase.CHOOSE: "choose", Phase.RECRUIT: "recruit", Phase.OVER: "over",
}


@dataclass
class LiveKnights:
    id: str
    seats: list[str]
    """Each seat's kind: 'person' (at the creator's screen), 'friend' (elsewhere) or a computer player."""
    seed: int
    setup: KnightsSetup
    actions: list[Action]
    state: KnightsState
    seat_info: list[Seat] = field(default_factory=list)
    revision: int = 0
    """Counts the stored changes (the compare-and-set of the next one)."""
    lock: threading.RLock = field(default_factory=threading.RLock)

    @property
    def waiting(self) -> bool:
        return any(s.player == "open" for s in self.seat_info)

    def to_move(self) -> int | None:
        state = self.state
        if state.is_over() or state.is_chance() or self.waiting or self.seats[state.current] not in PEOPLE:
            return None
        return state.current


def _status(state: KnightsState) -> str:
    return "over" if state.is_over() else "playing"


class KnightsService:
    """The Rycerze i zamki games of the app."""

    def __init__(self, repo: Repository, error: type[Exception], events: GameEvents) -> None:
        self.repo = repo
        self.events = events
        self._error = error
        self._games: RecentGames[LiveKnights] = RecentGames(CACHED_GAMES)

    def fail(self, status: int, code: str, message: str) -> Exception:
        return self._error(status, code, message)

    # ---------------------------------------------------------------- games

    def create(self, seats: list[str], seed: int | None, name: str | None = None
               ) -> tuple[LiveKnights, dict[int, str], str | None]:
        """Start a game; return it, the token of each 'person' seat (the creator's) and the friends' invitation."""
        seed = seed if seed is not None else random.SystemRandom().randrange(2**62)
        setup = KnightsSetup(players=len(seats))
        players: list[SeatPlayer] = [
            "person" if k == PERSON else "open" if k == FRIEND else "computer" for k in seats
        ]
        names = [clean_name(name) if k == PERSON else None for k in seats]
        seat_info, tokens, invite = seats_for(players, now(), names)
        live = LiveKnights(new_id(), list(seats), seed, setup, [], KnightsState.new(setup), seat_info)
        if not live.waiting:
            self._advance(live)
        stamp = now()
        self.repo.add(StoredMatch(
            id=live.id, kind=KIND, created_at=stamp, updated_at=stamp, mode="table", players=live.seats, seed=seed,
            setup=records.setup_to_json(setup), moves=[str(a) for a in live.actions], status=_status(live.state),
            scores=list(live.state.points), turn=live.state.round, revision=live.revision,
        ), seat_info, Extras(to_move=live.to_move()))
        self._games.keep(live.id, live)
        return live, tokens, invite

    def join(self, game_id: str, invite: str, name: str | None) -> tuple[LiveKnights, int, str]:
        """Take the first free seat with the invitation code; the game starts when every seat is taken."""
        live = self.get(game_id)
        with live.lock:
            free = [s for s in live.seat_info if s.player == "open"]
            if not free:
                raise self.fail(409, "no-free-seat", "every seat of this game is taken")
            if not free[0].invited(invite):
                raise self.fail(403, "bad-invite", "this invitation is not this game's")
            token = new_secret()
            seat = free[0].taken(token, clean_name(name), now())
            if not self.repo.take_seat(live.id, seat):
                raise self.fail(409, "no-free-seat", "someone else has just taken this seat")
            trial = LiveKnights(live.id, live.seats, live.seed, live.setup, list(live.actions), live.state.copy(),
                                [seat if s.index == seat.index else s for s in live.seat_info])
            if not trial.waiting:
                self._advance(trial)
            self._commit(live, trial)
        return live, seat.index, token

    def lines(self, held: dict[str, list[int]]) -> list[KnightsLine]:
        """The lobby's lines of the games (of ``held``: game id -> the seats held)."""
        games = self.repo.by_id(held, KIND)
        extras = self.repo.extras_of(g.id for g in games)
        lines = []
        for g in games:
            to_move = extras[g.id].to_move if g.id in extras else None
            mine = sorted(held[g.id])
            waiting = g.status != "over" and any(s.player == "open" for s in self.repo.seats(g.id))
            lines.append(KnightsLine(
                id=g.id, seats=g.players or [], status="over" if g.status == "over" else "playing", points=g.scores,
                round=g.turn, updated_at=g.updated_at, held=mine, your_move=g.status != "over" and to_move in mine,
                waiting=waiting))
        return lines

    def adopt(self) -> list[Adopted]:
        """Tokens for the person seats of games stored before games had seats."""
        adopted = []
        games = self.repo.unseated(KIND)
        for stored in games:
            players: list[SeatPlayer] = ["person" if k in PEOPLE else "computer" for k in stored.players or []]
            seat_info, tokens, _ = seats_for(players, stored.created_at)
            if not self.repo.add_seats(stored.id, seat_info):
                continue
            live = self._games.peek(stored.id)
            if live is not None:
                with live.lock:
                    live.seat_info = seat_info
            adopted += [Adopted(kind="knights", id=stored.id, seat=s, token=t) for s, t in tokens.items()]
        return adopted

    def get(self, game_id: str) -> LiveKnights:
        """A game as stored now: its copy in memory when that is current, else read again from the database (which
        another process may have changed)."""
        live = self._games.get(game_id)
        if live is not None:
            with live.lock:
                if self.repo.revision(game_id) != live.revision:
                    self._reload(live)
            return live
        stored = self.repo.get(game_id)
        if stored is None or stored.kind != KIND:
            raise self.fail(404, "not-found", f"there is no game {game_id!r}")
        loaded = self._load(stored)
        return self._games.keep(game_id, loaded)

    def _reload(self, live: LiveKnights) -> None:
        stored = self.repo.get(live.id)
        if stored is None or stored.kind != KIND:
            self._games.forget(live.id)
            raise self.fail(404, "not-found", f"there is no game {live.id!r}")
        fresh = self._load(stored)
        live.actions, live.state, live.seat_info = fresh.actions, fresh.state, fresh.seat_info
        live.revision = fresh.revision

    def _load(self, stored: StoredMatch) -> LiveKnights:
        raw = {"format": records.FORMAT, "version": records.VERSION, "setup": stored.setup, "moves": stored.moves}
        try:
            setup, actions = records.read_record(raw)
            state = records.replay(raw)
        except ZamekError as exc:
            raise self.fail(409, "corrupt-game", f"the stored game cannot be replayed: {exc}") from None
        return LiveKnights(stored.id, stored.players or [], stored.seed, setup, actions, state,
                           self.repo.seats(stored.id), stored.revision)

    def delete(self, game_id: str, token: str | None) -> None:
        live = self.get(game_id)
        with live.lock:
            prove_seat(live.seat_info, token)
            if any(s.player == "person" and live.seats[s.index] == FRIEND for s in live.seat_info):
                raise self.fail(409, "shared-game", "friends have joined this game: it stays on the server "
                                                    "(remove it from your list instead)")
            self._games.forget(game_id)
            if not self.repo.delete(game_id):
                raise self.fail(404, "not-found", f"there is no game {game_id!r}")
        self.events.gone(game_id)

    def act(self, game_id: str, token: str | None, text: str, revision: int | None, asked: int | None = None
            ) -> tuple[LiveKnights, int]:
        """A person's choice, by the seat the token holds (``asked``, when given, must be that seat)."""
        live = self.get(game_id)
        with live.lock:
            state = live.state
            seat = prove_seat(live.seat_info, token)
            if asked is not None and asked != seat:
                raise self.fail(403, "not-your-seat", f"this token holds seat {seat + 1}, not seat {asked + 1}")
            if revision is not None and revision != live.revision:
                raise self.fail(409, "stale", "the game has changed meanwhile; it has been brought up to date")
            if live.waiting:
                raise self.fail(409, "waiting", "the game starts when every friend has opened the invitation")
            try:
                action = parse_action(text)
            except MalformedActionError as exc:
                raise self.fail(400, "malformed", str(exc)) from None
            if isinstance(action, Draw):
                raise self.fail(400, "malformed", "the server turns up the tiles; play or recruit")
            if state.is_over():
                raise self.fail(409, "over", "the game is over")
            if state.current != seat:
                who = state.current + 1
                raise self.fail(409, "not-your-turn", f"seat {seat + 1} is not to choose now (seat {who} is)")
            trial = state.copy()
            try:
                trial.play(action)
            except ZamekError as exc:
                raise self.fail(409, "illegal", str(exc)) from None
            actions = [*live.actions, action]
            trial_live = LiveKnights(live.id, live.seats, live.seed, live.setup, actions, trial, live.seat_info)
            self._advance(trial_live)
            self._commit(live, trial_live)
        return live, seat

    def _commit(self, live: LiveKnights, new: LiveKnights) -> None:
        """Store the new move list first (only on the revision the game in memory has: another process may have
        changed it), then change the game in memory."""
        state = new.state
        written = self.repo.save(live.id, live.revision, [str(a) for a in new.actions], _status(state),
                                 list(state.points), state.round, Extras(to_move=new.to_move()))
        if written == "gone":
            self._games.forget(live.id)
            raise self.fail(404, "not-found", f"there is no game {live.id!r}")
        if written == "stale":
            self._reload(live)
            raise self.fail(409, "stale", "the game has changed meanwhile; it has been brought up to date")
        live.actions = new.actions
        live.state = new.state
        live.seat_info = new.seat_info
        live.revision += 1
        self.events.publish(live.id, live.revision)

    def _advance(self, live: LiveKnights) -> None:
        """Turn up tiles and play computer seats until a person is to choose or the game ends."""
        state = live.state
        while not state.is_over():
            n = len(live.actions)
            rng = random.Random(f"knights:{live.seed}:{n}")
            if state.is_chance():
                outcomes = state.chance_outcomes()
                tiles = [o for o, _ in outcomes]
                action: Action = rng.choices(tiles, weights=[w for _, w in outcomes])[0]
            elif live.seats[state.current] in PEOPLE:
                return
            else:
                kind = live.seats[state.current]
                budget = Budget(seconds=MC_SECONDS) if kind == "mc" else None
                action = make_bot(kind).choose(state, rng, budget)
            state.play(action)
            live.actions.append(action)

    def record(self, game_id: str) -> KnightsSavedGame:
        live = self.get(game_id)
        with live.lock:
            if not live.state.is_over():
                raise self.fail(409, "in-progress", "the record holds every secret choice: it is given after the game")
            return KnightsSavedGame.model_validate(records.make_record(live.setup, live.seed, live.actions, live.state))


# ------------------------------------------------------------------- views

def _card_key(card: Card | None) -> str | None:
    return card.key if card is not None else None  # ``is not None``: the dragon is Card 0, which is falsy


def event_view(event: Event, lang: str, you: int | None) -> KnightsEvent:
    """Return an event as the seat ``you`` (None: the public) sees it."""
    lines = event_lines(event, lang, you)
    if isinstance(event, TileRevealed):
        return TileRevealedEvent(lines=lines, round=event.round, tile=event.tile)
    if isinstance(event, CardsRevealed):
        choices = [[c.key for c in pair] for pair in event.choices]
        return CardsRevealedEvent(lines=lines, round=event.round, choices=choices)
    if isinstance(event, ShepherdsReturn):
        return ShepherdsReturnEvent(lines=lines, round=event.round, shepherds=list(event.shepherds))
    if isinstance(event, DuplicatesCancelled):
        return DuplicatesCancelledEvent(lines=lines, round=event.round,
                                        cards=[CancelledCards(card=c.key, seats=list(s)) for c, s in event.cards])
    if isinstance(event, CastleTaken):
        return CastleTakenEvent(lines=lines, round=event.round, player=event.player, tile=event.tile,
                                card=_card_key(event.card), strength=event.strength, points=TILES[event.tile].points,
                                tile_name=tile_name(event.tile, lang))
    if isinstance(event, CardsToCamp):
        to_camp = [CampCard(seat=p, card=c.key) for p, c in event.cards]
        return CardsToCampEvent(lines=lines, round=event.round, cards=to_camp)
    if isinstance(event, SwordPassed):
        return SwordPassedEvent(lines=lines, round=event.round, player=event.player, previous=event.previous,
                                tied=list(event.tied))
    if isinstance(event, Recruited):
        return RecruitedEvent(lines=lines, round=event.round, player=event.player, card=_card_key(event.card))
    if isinstance(event, EmptyCamp):
        return EmptyCampEvent(lines=lines, round=event.round, player=event.player)
    return GameEndedEvent(lines=lines)


def _public_events(state: KnightsState) -> list[Event]:
    return [Recruited(e.round, e.player, None) if isinstance(e, Recruited) else e for e in state.events]


def _cards(counts: tuple[int, ...], kind: CastleKind | None, strength: tuple[tuple[int, ...], ...],
           lang: str) -> list[CardView]:
    return [
        CardView(
            card=card.key, name=card_name(card, lang), count=counts[card],
            strength={k.key: strength[k][card] for k in CastleKind} if card.is_army else None,
            now=strength[kind][card] if kind is not None and card.is_army else None,
        )
        for card in Card
        if counts[card]
    ]


class ComputerSeatError(Exception):
    """A computer seat's own view was asked for: its cards and choices are nobody's to see (K8)."""


def check_view_seat(seats: Sequence[str], seat: int | None) -> None:
    """Raise ValueError for a seat the game does not have and ComputerSeatError for a computer's seat."""
    if seat is None:
        return
    if not 0 <= seat < len(seats):
        raise ValueError(f"no seat {seat} in a {len(seats)}-player game")
    if seats[seat] not in PEOPLE:
        raise ComputerSeatError(f"seat {seat + 1} is a computer player: its cards and choices are not shown")


def knights_view(live: LiveKnights, seat: int | None, lang: str, connected: Sequence[int] = ()) -> KnightsView:
    """What the page shows to ``seat`` (None: the public view, for the whole table at one screen).

    Only a person's seat has a view of its own: see :func:`check_view_seat` for what is refused.
    """
    state = live.state
    check_view_seat(live.seats, seat)
    kind = state.castle_kind
    strength = state.table.strength
    tile = None
    if state.tile is not None:
        tile = KnightsTile(id=state.tile, name=tile_name(state.tile, lang), kind=kind.key if kind is not None else None,
                           points=TILES[state.tile].points)
    result = state.result()
    if seat is None:
        events = [event_view(e, lang, None) for e in _public_events(state)]
        hand = camp = None
        my_choice = None
        legal: list[str] = []
    else:
        mine = state.view(seat)
        events = [event_view(e, lang, seat) for e in mine.events]
        hand, camp = _cards(mine.hand, kind, strength, lang), _cards(mine.camp, None, strength, lang)
        my_choice = str(mine.my_choice) if mine.my_choice is not None else None
        legal = [str(a) for a in mine.legal_actions()]
    return KnightsView(
        id=live.id,
        revision=live.revision,
        seats=live.seats,
        players=state.players,
        seat=seat,
        phase=PHASES[state.phase],
        round=state.round,
        rounds=ROUNDS,
        current=state.current,
        person_to_act=state.current if state.current >= 0 and live.seats[state.current] in PEOPLE else None,
        tile=tile,
        unseen=[tile_name(t, lang) for t in sorted(state.undrawn)],
        points=list(state.points),
        castles=[[tile_name(t, lang) for t in c] for c in state.castles],
        sword=state.sword,
        youngest=state.setup.youngest_seat,
        hand_sizes=[state.hand_size(p) for p in range(state.players)],
        camp_sizes=[state.camp_size(p) for p in range(state.players)],
        chosen=[c is not None for c in state.pending],
        names=[_name(live, p, lang) for p in range(state.players)],
        card_names={c.key: card_name(c, lang) for c in Card},
        kind_names={k.key: term(f"kind:{k.key}", lang) for k in CastleKind},
        over=state.is_over(),
        result=None if result is None else KnightsResultView(
            ranking=list(result.ranking), points=list(result.points), hand_sizes=list(result.hand_sizes),
            lines=event_lines(GameEnded(result.points, result.hand_sizes, result.ranking), lang),
        ),
        events=events,
        hand=hand,
        camp=camp,
        my_choice=my_choice,
        legal=legal,
        players_at=[SeatView(seat=s.index, player=s.player, name=s.name, connected=s.index in connected)
                    for s in live.seat_info],
    )


def _name(live: LiveKnights, seat: int, lang: str) -> str:
    """A seat's name: 'Player N', and the name a person chose."""
    base = term("player", lang, n=seat + 1)
    chosen = live.seat_info[seat].name if seat < len(live.seat_info) else None
    return f"{base} ({chosen})" if chosen else base


# ------------------------------------------------------------------ routes

def add_routes(app: FastAPI, service: KnightsService, lang_of: Callable[[str], str]) -> None:
    """Add ``/api/knights/...`` to the app."""

    @app.get("/api/knights/meta")
    def knights_meta() -> KnightsMeta:
        """The players a seat may have, the number of players and the cards."""
        return KnightsMeta(seat_kinds=list(SEAT_KINDS), min_players=2, max_players=4,
                           cards=[c.key for c in ARMY] + [Card.SHEPHERD.key])

    @app.post("/api/knights", status_code=201, responses=errors(400, 422))
    def new_knights(body: NewKnightsGame, lang: str = "en") -> SeatedKnightsView:
        """Start a game; the answer is the public view with the tokens of the creator's seats ('person') and, when
        seats are for friends, the invitation code of the link to send."""
        live, tokens, invite = service.create(list(body.seats), body.seed, body.name)
        view = _view(live, None, lang)
        return SeatedKnightsView(**dict(view), tokens=[SeatToken(seat=s, token=t) for s, t in sorted(tokens.items())],
                                 invite=invite)

    def _view(live: LiveKnights, seat: int | None, lang: str) -> KnightsView:
        connected = service.events.connected(live.id)
        with live.lock:
            return knights_view(live, seat, lang_of(lang), connected)

    def _seat(live: LiveKnights, token: str | None, asked: int | None) -> int | None:
        """The seat whose view a request may have: the token's (``asked`` must be it); None without a token."""
        if token is None and asked is None:
            return None
        with live.lock:
            if asked is not None and not 0 <= asked < len(live.seats):
                raise service.fail(400, "bad-seat", f"no seat {asked} in a {len(live.seats)}-player game")
            if asked is not None and live.seats[asked] not in PEOPLE:
                raise service.fail(403, "not-a-person",
                                   f"seat {asked + 1} is a computer player: its cards and choices are not shown")
            seat = prove_seat(live.seat_info, token)
        if asked is not None and asked != seat:
            raise service.fail(403, "not-your-seat", f"this token holds seat {seat + 1}, not seat {asked + 1}")
        return seat

    @app.get("/api/knights/{game_id}", responses=errors(400, 401, 403, 404, 409, 422))
    def get_knights(game_id: str, token: Token, seat: int | None = None, lang: str = "en") -> KnightsView:
        """With a seat's token, that seat's view (its hand, its choice); without, the public view."""
        live = service.get(game_id)
        return _view(live, _seat(live, token, seat), lang)

    @app.get("/api/knights/{game_id}/events", responses=errors(403, 404, 422, 429), response_class=StreamingResponse)
    async def knights_events(game_id: str, request: Request, token: Token) -> StreamingResponse:
        """Server-Sent Events, as for a castle game (``change``, ``presence``, ``gone``)."""
        live = await run_in_threadpool(service.get, game_id)
        seat = seat_of(live.seat_info, token)
        if token is not None and seat is None:
            raise service.fail(403, "not-your-seat", "this token holds no seat of this game")
        return await event_stream(stream(service.events, game_id, seat, live.revision, last_event_id(request)))

    @app.post("/api/knights/{game_id}/actions", responses=errors(400, 401, 403, 404, 409, 422))
    def knights_act(game_id: str, body: KnightsMove, token: Token, lang: str = "en") -> KnightsView:
        """A person's choice, by the seat the token holds; the computer seats and the next tiles follow at once."""
        live, seat = service.act(game_id, token, body.action, body.revision, body.seat)
        return _view(live, seat, lang)

    @app.post("/api/knights/{game_id}/join", status_code=201, responses=errors(403, 404, 409, 422))
    def knights_join(game_id: str, body: Join, lang: str = "en") -> SeatedKnightsView:
        """Take a free seat with the invitation code of the link; the answer is that seat's view and token."""
        live, seat, token = service.join(game_id, body.invite, body.name)
        view = _view(live, seat, lang)
        return SeatedKnightsView(**dict(view), tokens=[SeatToken(seat=seat, token=token)])

    @app.get("/api/knights/{game_id}/record", responses=errors(404, 409, 422))
    def knights_record(game_id: str) -> KnightsSavedGame:
        """The saved game, once the game is over."""
        return service.record(game_id)

    @app.delete("/api/knights/{game_id}", status_code=204, responses=errors(401, 403, 404, 409, 422))
    def delete_knights(game_id: str, token: Token) -> Response:
        """Delete a game (a seat's token); one that friends have joined stays."""
        service.delete(game_id, token)
        return Response(status_code=204)
