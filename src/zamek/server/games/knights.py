"""Rycerze i zamki in the match service: its records, its chance and computer seats, who is to choose; and the view
of a seat or of the public.

A game has 2-4 seats: people at the creator's screen ('person'), friends on their own devices ('friend'), or
computer players ('random', 'heuristic', 'mc'). The server turns up the tiles (from a generator seeded by the
game's seed by the card game's seeding convention, :mod:`zamek.knights.seeding`, so a restart decides the same
way); the computer seats choose as jobs of the match service, outside any request.

Hidden information (K8) never leaves the server: a seat's view is built from the engine's ``view(seat)``;
without a seat the page gets the public view (no hand, no recruited card). Only a person's seat has a view of
its own: a computer seat's hand, camp and face-down choice are never served. The record, which holds every
secret choice, is given out only once the game is over.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from zamek import i18n
from zamek.castle.bots.base import Budget
from zamek.i18n import Message, catalogue, say
from zamek.kit.play import Thinking
from zamek.knights import record as records
from zamek.knights.bots import BOT_NAMES, make_bot
from zamek.knights.rules.actions import Action, Draw, parse_action
from zamek.knights.rules.cards import ROUNDS, TILES, Card, CastleKind
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
from zamek.knights.seeding import SeededTiles, player_move_rng
from zamek.knights.terms import card_name, event_messages, reader_of, tile_name
from zamek.server.errors import ServiceError, computer_failed
from zamek.server.games import GameKind, MoveInfo, Think, Thought
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
    KnightsPhase,
    KnightsResultView,
    KnightsTile,
    KnightsView,
    RecruitedEvent,
    SeatKind,
    ShepherdsReturnEvent,
    SwordPassedEvent,
    TileRevealedEvent,
)
from zamek.server.schemas import ClockView, EndedView, MessageView, SeatView
from zamek.server.seats import Seat
from zamek.server.tables import Extras, StoredMatch

if TYPE_CHECKING:
    from zamek.server.live import LiveGame

PEOPLE: Final = ("person", "friend")
SEAT_KINDS: Final[tuple[SeatKind, ...]] = ("person", "friend", "random", "heuristic", "mc")
assert SEAT_KINDS[2:] == tuple(BOT_NAMES), "the seat kinds of the protocol are people and the computer players"
MC_SECONDS: Final = 0.4
"""The most the Monte Carlo player thinks per decision in the web app."""
PHASES: Final[dict[Phase, KnightsPhase]] = {
    Phase.DRAW: "draw", Phase.CHOOSE: "choose", Phase.RECRUIT: "recruit", Phase.OVER: "over",
}




def think(setup: dict[str, Any], moves: list[str], seed: int, players: list[str]) -> Thought:
    """The computer seats' choices (and the tiles turned up between them) from a game's record, until a person is
    to choose or the game ends, and how long they thought (a seat's decisions in a row are its turn). Its moves
    are a pure function of its arguments; it runs in the pool."""
    rules = records.setup_from_json(setup)
    state = KnightsState.new(rules)
    for move in moves:
        state.play(parse_action(move))
    tiles = SeededTiles(seed, rules)
    played: list[str] = []
    thinking = Thinking()
    while not state.is_over():
        if state.is_chance():
            action: Action = tiles.outcome(state)
        elif players[state.current] in PEOPLE:
            break
        else:
            kind, seat = players[state.current], state.current
            rng = player_move_rng(seed, seat, len(moves) + len(played))
            started = time.perf_counter()
            action = make_bot(kind).choose(state, rng, Budget(seconds=MC_SECONDS) if kind == "mc" else None)
            thinking.record(seat, time.perf_counter() - started)
        state.play(action)
        played.append(str(action))
    return Thought(played, thinking)


class KnightsKind(GameKind):
    name = "knights"

    def setup_from_json(self, raw: Any) -> KnightsSetup:
        return records.setup_from_json(raw)

    def setup_to_json(self, setup: Any) -> dict[str, Any]:
        return records.setup_to_json(setup)

    def new_state(self, setup: Any) -> KnightsState:
        return KnightsState.new(setup)

    def parse(self, text: str) -> Action:
        return parse_action(text)

    def step(self, state: Any, action: Any) -> MoveInfo:
        player = None if state.is_chance() else int(state.current)
        state.play(action)
        return MoveInfo(action, player, None, isinstance(action, Draw))

    def is_chance(self, action: Any) -> bool:
        return isinstance(action, Draw)

    def chance(self, live: LiveGame, state: Any, moves: int) -> Action:
        return SeededTiles(live.seed, live.setup).outcome(state)

    def seats(self, setup: Any) -> int:
        return int(setup.players)

    def scores(self, state: Any) -> list[int]:
        return list(state.points)

    def turn(self, state: Any) -> int:
        return int(state.round)

    def seat_to_act(self, live: LiveGame, state: Any) -> int | None:
        if live.ended is not None or state.is_over() or state.is_chance() or live.waiting_for_friend:
            return None
        return None if live.is_computer(state.current) else int(state.current)

    def computer_to_move(self, live: LiveGame, state: Any) -> bool:
        if live.ended is not None or state.is_over() or live.waiting_for_friend:
            return False
        return bool(state.is_chance()) or live.is_computer(state.current)

    def person_chance(self, live: LiveGame, state: Any, moves: int) -> bool:
        return True  # the tile is turned up for everyone at once

    def refuse_person_action(self, live: LiveGame, state: Any, action: Any) -> ServiceError | None:
        if isinstance(action, Draw):
            return ServiceError(400, "malformed-move", "server-draws")
        return None

    def think(self) -> Think:
        return think

    def think_args(self, live: LiveGame) -> tuple[Any, ...]:
        return records.setup_to_json(live.setup), [str(a) for a in live.actions], live.seed, list(live.players)

    def rematch_players(self, live: LiveGame) -> list[str]:
        count = len(live.players)
        return [live.players[(seat - 1) % count] for seat in range(count)]

    def record(self, live: LiveGame) -> dict[str, Any]:
        return records.make_record(live.setup, live.seed, live.actions, live.state)


KNIGHTS: Final = KnightsKind()


# ------------------------------------------------------------------- the views

def _card_key(card: Card | None) -> str | None:
    return card.key if card is not None else None  # ``is not None``: the dragon is Card 0, which is falsy


def _lines(event: Event, lang: str, you: int | None) -> dict[str, Any]:
    """An event's lines in words, as the seat ``you`` reads them, and as messages (players as seats)."""
    messages = event_messages(event)
    reader = reader_of(you)
    return {"lines": [m.text(lang, None, reader) for m in messages],
            "messages": [MessageView(**m.to_json()) for m in messages]}


def event_view(event: Event, lang: str, you: int | None) -> KnightsEvent:
    """Return an event as the seat ``you`` (None: the public) sees it."""
    lines = _lines(event, lang, you)
    if isinstance(event, TileRevealed):
        return TileRevealedEvent(**lines, round=event.round, tile=event.tile)
    if isinstance(event, CardsRevealed):
        choices = [[c.key for c in pair] for pair in event.choices]
        return CardsRevealedEvent(**lines, round=event.round, choices=choices)
    if isinstance(event, ShepherdsReturn):
        return ShepherdsReturnEvent(**lines, round=event.round, shepherds=list(event.shepherds))
    if isinstance(event, DuplicatesCancelled):
        return DuplicatesCancelledEvent(**lines, round=event.round,
                                        cards=[CancelledCards(card=c.key, seats=list(s)) for c, s in event.cards])
    if isinstance(event, CastleTaken):
        return CastleTakenEvent(**lines, round=event.round, player=event.player, tile=event.tile,
                                card=_card_key(event.card), strength=event.strength, points=TILES[event.tile].points,
                                tile_name=tile_name(event.tile, lang))
    if isinstance(event, CardsToCamp):
        to_camp = [CampCard(seat=p, card=c.key) for p, c in event.cards]
        return CardsToCampEvent(**lines, round=event.round, cards=to_camp)
    if isinstance(event, SwordPassed):
        return SwordPassedEvent(**lines, round=event.round, player=event.player, previous=event.previous,
                                tied=list(event.tied))
    if isinstance(event, Recruited):
        return RecruitedEvent(**lines, round=event.round, player=event.player, card=_card_key(event.card))
    if isinstance(event, EmptyCamp):
        return EmptyCampEvent(**lines, round=event.round, player=event.player)
    return GameEndedEvent(**lines)


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

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat {seat} is a computer player's")
        self.seat = seat


def check_view_seat(seats: Sequence[str], seat: int | None) -> None:
    """Raise IndexError for a seat the game does not have and ComputerSeatError for a computer's seat (the
    service refuses both before: these are a bug)."""
    if seat is None:
        return
    if not 0 <= seat < len(seats):
        raise IndexError(f"no seat {seat} in a game of {len(seats)} seats")
    if seats[seat] not in PEOPLE:
        raise ComputerSeatError(seat)


def knights_view(live: LiveGame, seat: int | None, lang: str, connected: Sequence[int] = (), *,
                 clock: ClockView | None = None, ended: EndedView | None = None, watching: int = 0) -> KnightsView:
    """What the page shows to ``seat`` (None: the public view, for the whole table at one screen).

    Only a person's seat has a view of its own: see :func:`check_view_seat` for what is refused.
    """
    state = live.state
    check_view_seat(live.players, seat)
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
        rated=live.rated,
        revision=live.revision,
        seats=live.players,
        players=state.players,
        seat=seat,
        phase=PHASES[state.phase],
        round=state.round,
        rounds=ROUNDS,
        current=state.current,
        person_to_act=state.current if state.current >= 0 and not live.is_computer(state.current) else None,
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
        kind_names={k.key: say(f"castle-kind.{k.key}", lang) for k in CastleKind},
        over=live.over,
        result=None if result is None else KnightsResultView(
            ranking=list(result.ranking), points=list(result.points), hand_sizes=list(result.hand_sizes),
            **_lines(GameEnded(result.points, result.hand_sizes, result.ranking), lang, seat),
        ),
        events=events,
        hand=hand,
        camp=camp,
        my_choice=my_choice,
        legal=legal,
        players_at=[SeatView(seat=s.index, player=s.player, name=s.name, connected=s.index in connected)
                    for s in live.seats],
        moves_count=len(live.actions),
        thinking=live.thinking,
        bot_error=computer_failed(live.bot_error, lang),
        clock=clock,
        ended=ended,
        rematch=live.rematch,
        can_abort=live.invites_friends and not live.over and not live.started(live.infos),
        watching=watching,
        seed=live.seed if live.over else None,
    )


def _name(live: LiveGame, seat: int, lang: str) -> str:
    """A seat's name: 'Player N', and the name a person chose ('Player 2 (Ola)')."""
    words = catalogue(lang)
    chosen = live.seats[seat].name if seat < len(live.seats) else None
    if not chosen:
        return words.value(i18n.Seat(seat))
    return words.render(Message("server.view.named-player", {"player": i18n.Seat(seat), "name": chosen}))


def knights_line(game: StoredMatch, held: Sequence[int], extras: Extras | None, seats: Sequence[Seat]) -> KnightsLine:
    """A card game's line in the lobby's list: ``held`` are the seats the lobby's tokens hold."""
    to_move = extras.to_move if extras is not None else None
    ended = extras.ended if extras is not None and isinstance(extras.ended, dict) else None
    over = game.status == "over"
    return KnightsLine(
        id=game.id, seats=game.players or [], status="over" if over else "playing", points=game.scores,
        round=game.turn, updated_at=game.updated_at, held=list(held), your_move=not over and to_move in held,
        waiting=not over and any(s.player == "open" for s in seats),
        ended=ended.get("reason") if ended is not None else None)
