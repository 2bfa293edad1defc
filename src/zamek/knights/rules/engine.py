"""The rules of Rycerze i zamki (K1-K8): game state, legal actions, transitions, players' views.

``KnightsState`` is mutable like the castle engine's ``GameState``: ``apply`` changes it in
place and checks nothing (for search and trusted records), ``play`` checks first and raises
:class:`IllegalActionError` or :class:`MalformedActionError` with a message a person can act on.
``copy`` is cheap (a few short lists of small ints).

Chance is explicit. Each round starts with a chance event, ``Draw(tile)``, drawn uniformly from
the tiles not seen yet. Shuffling eight tiles and putting one back in the box unseen (K3) is the
same as drawing seven of them at random one at a time, so the tile in the box is simply the one
never drawn: it is no event, is never recorded, and no view shows it (K8).

Secret, simultaneous choices (K4, K5) are collected one player at a time, in seat order, into
``pending``: hidden state. ``view(player)`` is all one player may see; it shows whether the others
have chosen, never what. When the last player has chosen, the reveal resolves K4's five steps in
order, and each step is recorded in ``events`` for display. The card a player recruits is never
shown to the others (the camp is face down): their views show only that one card came back.

Beside this module: the phases (:mod:`~zamek.knights.rules.phase`), the events
(:mod:`~zamek.knights.rules.events`), a player's view (:mod:`~zamek.knights.rules.view`), the result
(:mod:`~zamek.knights.rules.result`) and the scoring of a round (:mod:`~zamek.knights.rules.scoring`);
their names are importable from here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from zamek.i18n import Message, Term
from zamek.kit.errors import IllegalActionError, MalformedActionError, SetupError
from zamek.kit.protocol import CHANCE, TERMINAL
from zamek.knights.rules.actions import Action, Choose, Draw, PlayerAction, Recruit
from zamek.knights.rules.cards import (
    ARMY,
    CARD_KINDS,
    DRUM,
    ROUNDS,
    SHEPHERDS_PER_SET,
    TILE_SET,
    TILES,
    Card,
    CardTable,
    CastleKind,
    load_cards,
)
from zamek.knights.rules.events import (
    CardsRevealed,
    CardsToCamp,
    CastleTaken,
    DuplicatesCancelled,
    EmptyCamp,
    Event,
    GameEnded,
    Recruited,
    ShepherdsReturn,
    SwordPassed,
    TileRevealed,
)
from zamek.knights.rules.phase import Phase
from zamek.knights.rules.result import KnightsResult, ranking
from zamek.knights.rules.scoring import resolve_castle, resolve_recruitment
from zamek.knights.rules.view import View, choices_from

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "SHEPHERD",
    "CardsRevealed",
    "CardsToCamp",
    "CastleTaken",
    "DuplicatesCancelled",
    "EmptyCamp",
    "Event",
    "GameEnded",
    "KnightsResult",
    "KnightsSetup",
    "KnightsState",
    "Phase",
    "Recruited",
    "ShepherdsReturn",
    "SwordPassed",
    "TileRevealed",
    "View",
    "choices_from",
    "ranking",
]

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
SHEPHERD: Final = int(Card.SHEPHERD)
_WAITING: Final[dict[Phase, tuple[str, str | None]]] = {
    Phase.DRAW: ("turn-up-tile", "K4"),
    Phase.CHOOSE: ("choose-cards", "K4"),
    Phase.RECRUIT: ("recruit", "K5"),
}
"""What the game waits for in each phase (``error.waiting.<key>``), and the rule that says so."""


@dataclass(frozen=True, slots=True)
class KnightsSetup:
    """Everything that fixes a game before the first tile."""

    players: int = 3
    youngest: int | None = None
    """The youngest player's seat (K3); None (the default) is the last seat. The others' ages: see ``age``."""
    sword: int | None = None
    """Who holds the sword at the start; None (the default) is the youngest (K3), in a match's every game too
    (K7). Another seat is for tests and puzzles."""
    tile_order: tuple[str, ...] | None = None
    """A fixed order of tiles (tests, puzzles): 7 or 8 tile ids; None draws at random."""

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise SetupError("player-count", least=MIN_PLAYERS, most=MAX_PLAYERS, players=self.players)
        for name, seat in (("youngest", self.youngest), ("sword", self.sword)):
            if seat is not None and not 0 <= seat < self.players:
                raise SetupError("seat-out-of-range", "K3", field=name, last=self.players - 1, seat=seat)
        if self.tile_order is not None:
            order = list(self.tile_order)
            if len(order) not in (ROUNDS, ROUNDS + 1):
                raise SetupError("tile-order-length", "K3", rounds=ROUNDS, tiles=ROUNDS + 1, count=len(order))
            pool = list(TILE_SET)
            for tile in order:
                if tile not in pool:
                    raise SetupError("tile-order-tile", "K3", tile=str(tile), known=list(TILES))
                pool.remove(tile)
        # Settle the defaults, so that equal games have equal setups (and records name the seats).
        if self.youngest is None:
            object.__setattr__(self, "youngest", self.players - 1)
        if self.sword is None:
            object.__setattr__(self, "sword", self.youngest)

    @property
    def youngest_seat(self) -> int:
        return self.players - 1 if self.youngest is None else self.youngest

    @property
    def first_sword(self) -> int:
        return self.youngest_seat if self.sword is None else self.sword

    def age(self, seat: int) -> int:
        """Return 0 for the youngest player, 1 for the next youngest, and so on.

        Ruling: only the youngest is a setting; going round the table against seat order from the
        youngest, each player counts as the next older one.
        """
        return (self.youngest_seat - seat) % self.players

    def youngest_of(self, seats: Iterable[int]) -> int:
        """Return the youngest of some players."""
        return min(seats, key=self.age)


# ------------------------------------------------------------------------------ state


@dataclass(slots=True)
class KnightsState:
    """A position of a game of Rycerze i zamki. Mutable: see the module docstring."""

    setup: KnightsSetup
    table: CardTable
    phase: Phase
    round: int
    """1..7 once the first tile is drawn; 0 before."""
    current: int
    """The player the game waits for; -1 at a chance event and at the end."""
    tile: str | None
    undrawn: list[str]
    drawn: list[str]
    hands: list[list[int]]
    """Per player, how many of each card (indexed by ``Card``) are in the hand."""
    camps: list[list[int]]
    castles: list[list[str]]
    points: list[int]
    sword: int
    pending: list[PlayerAction | None]
    """Hidden: this round's secret choices so far."""
    events: list[Event] = field(default_factory=list)
    log_events: bool = True
    """Search copies turn this off: they need no history."""

    # ----------------------------------------------------------------- creation

    @classmethod
    def new(cls, setup: KnightsSetup | None = None, table: CardTable | None = None) -> KnightsState:
        """Return the position before the first tile (``table`` overrides the strength data, for tests)."""
        setup = setup or KnightsSetup()
        n = setup.players
        full = [1] * len(ARMY) + [SHEPHERDS_PER_SET]
        return cls(
            setup=setup,
            table=table or load_cards(),
            phase=Phase.DRAW,
            round=0,
            current=-1,
            tile=None,
            undrawn=list(TILE_SET),
            drawn=[],
            hands=[full[:] for _ in range(n)],
            camps=[[0] * CARD_KINDS for _ in range(n)],
            castles=[[] for _ in range(n)],
            points=[0] * n,
            sword=setup.first_sword,
            pending=[None] * n,
        )

    @classmethod
    def from_view(
        cls, view: View, hands: Sequence[Sequence[int]], camps: Sequence[Sequence[int]]
    ) -> KnightsState:
        """Return a full state consistent with ``view`` and the given hands and camps (a determinization).

        It records no events, and this round's secret choice starts afresh: nobody has chosen yet,
        so the game waits for the first player in seat order who has to choose.
        """
        state = cls(
            setup=view.setup,
            table=view.table,
            phase=view.phase,
            round=view.round,
            current=-1,
            tile=view.tile,
            undrawn=list(view.unseen),
            drawn=list(view.drawn),
            hands=[list(h) for h in hands],
            camps=[list(c) for c in camps],
            castles=[list(c) for c in view.castles],
            points=list(view.points),
            sword=view.sword,
            pending=[None] * view.setup.players,
            log_events=False,
        )
        if state.phase in (Phase.CHOOSE, Phase.RECRUIT):
            state.current = next(p for p in range(state.players) if state.must_choose(p))
        return state

    def copy(self, events: bool = True) -> KnightsState:
        """Return an independent copy; ``events=False`` drops the history and stops recording it (search)."""
        return type(self)(
            setup=self.setup,
            table=self.table,
            phase=self.phase,
            round=self.round,
            current=self.current,
            tile=self.tile,
            undrawn=self.undrawn[:],
            drawn=self.drawn[:],
            hands=[h[:] for h in self.hands],
            camps=[c[:] for c in self.camps],
            castles=[c[:] for c in self.castles],
            points=self.points[:],
            sword=self.sword,
            pending=self.pending[:],
            events=self.events[:] if events else [],
            log_events=self.log_events and events,
        )

    # ------------------------------------------------------------------ queries

    @property
    def players(self) -> int:
        return self.setup.players

    @property
    def castle_kind(self) -> CastleKind | None:
        """The kind of the castle being fought for, or None."""
        return TILES[self.tile].kind if self.tile is not None else None

    def is_chance(self) -> bool:
        return self.phase is Phase.DRAW

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def hand_size(self, player: int) -> int:
        return sum(self.hands[player])

    def camp_size(self, player: int) -> int:
        return sum(self.camps[player])

    def chance_outcomes(self) -> list[tuple[Draw, float]]:
        """Return the possible tiles of the next draw with their probabilities."""
        if self.phase is not Phase.DRAW:
            return []
        order = self.setup.tile_order
        if order is not None:
            return [(Draw(order[len(self.drawn)]), 1.0)]
        total = len(self.undrawn)
        return [(Draw(t), self.undrawn.count(t) / total) for t in sorted(set(self.undrawn))]

    def legal_actions(self) -> list[PlayerAction]:
        """Return the actions the player the game waits for may take (empty at chance and at the end)."""
        if self.phase is Phase.CHOOSE:
            return choices_from(self.hands[self.current])
        if self.phase is Phase.RECRUIT:
            camp = self.camps[self.current]
            return [Recruit(c) for c in ARMY if camp[c]]
        return []

    # ------------------------------------------------------- the game protocol (zamek.kit.protocol)

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def current_player(self) -> int:
        """The player to choose; ``CHANCE`` while a tile is to be turned up; ``TERMINAL`` at the end."""
        if self.phase is Phase.OVER:
            return TERMINAL
        return CHANCE if self.is_chance() else self.current

    def returns(self) -> tuple[float, ...]:
        """1 to the winner at the end (K6 leaves no tie), 0 to the others; nothing before the end."""
        result = self.result()
        if result is None:
            return (0.0,) * self.players
        return tuple(1.0 if p == result.winner else 0.0 for p in range(self.players))

    def result(self) -> KnightsResult | None:
        if self.phase is not Phase.OVER:
            return None
        hand_sizes = tuple(self.hand_size(p) for p in range(self.players))
        return KnightsResult(tuple(self.points), hand_sizes, ranking(self.setup, self.points, hand_sizes))

    def view(self, player: int) -> View:
        """Return what ``player`` may see (K8): nothing of the other players' hidden cards or choices."""
        if not 0 <= player < self.players:
            raise ValueError(f"no player {player} in a {self.players}-player game")
        events = tuple(
            Recruited(e.round, e.player, None) if isinstance(e, Recruited) and e.player != player else e
            for e in self.events
        )
        return View(
            setup=replace(self.setup, tile_order=None),  # a fixed tile order is hidden too (K8)
            table=self.table,
            player=player,
            phase=self.phase,
            round=self.round,
            current=self.current,
            tile=self.tile,
            drawn=tuple(self.drawn),
            unseen=tuple(sorted(self.undrawn)),
            points=tuple(self.points),
            castles=tuple(tuple(c) for c in self.castles),
            sword=self.sword,
            hand=tuple(self.hands[player]),
            camp=tuple(self.camps[player]),
            hand_sizes=tuple(self.hand_size(p) for p in range(self.players)),
            camp_sizes=tuple(self.camp_size(p) for p in range(self.players)),
            chosen=tuple(c is not None for c in self.pending),
            my_choice=self.pending[player],
            events=events,
        )

    # -------------------------------------------------------------- transitions

    def play(self, action: Action) -> None:
        """Apply an action after checking it; raise a ZamekError that explains a refusal."""
        self.check(action)
        self.apply(action)

    def check(self, action: Action) -> None:
        """Raise IllegalActionError (or MalformedActionError) unless ``action`` is legal now."""
        if not isinstance(action, (Choose, Recruit, Draw)):
            raise MalformedActionError("not-an-action-value", value=repr(action))
        if self.phase is Phase.OVER:
            raise IllegalActionError("action-after-game-over", "K6", action=str(action))
        if isinstance(action, Draw):
            if self.phase is not Phase.DRAW:
                raise IllegalActionError("no-tile-due", "K4", action=str(action), waiting=self._waiting_for())
            if not any(action == outcome for outcome, _ in self.chance_outcomes()):
                raise IllegalActionError("tile-cannot-come", "K3", action=str(action),
                                         unseen=sorted(set(self.undrawn)))
            return
        if self.phase is Phase.DRAW:
            raise IllegalActionError("turn-up-tile-first", "K4", action=str(action))
        if isinstance(action, Choose):
            if self.phase is not Phase.CHOOSE:
                raise self._not_now(action)
            hand = self.hands[self.current]
            for card in sorted(set(action.cards)):
                need = action.cards.count(card)
                if hand[card] < need:
                    raise IllegalActionError("card-not-in-hand", "K4", action=str(action),
                                             card=Term(f"card.{card.key}"),
                                             where="camp" if self.camps[self.current][card] else "elsewhere")
            return
        if self.phase is not Phase.RECRUIT:
            raise self._not_now(action)
        camp = self.camps[self.current]
        if not camp[action.card]:
            raise IllegalActionError("card-not-in-camp", "K5", action=str(action), card=Term(f"card.{action.card.key}"),
                                     held=[Term(f"card.{c.key}") for c in ARMY if camp[c]])

    def _waiting_for(self) -> Message:
        """What the game waits for, as a message (``error.waiting.<key>``)."""
        return Message(f"error.waiting.{_WAITING.get(self.phase, ('nothing', None))[0]}")

    def _not_now(self, action: Action) -> IllegalActionError:
        """The refusal of an action that does not fit the moment: it says what the game waits for."""
        rule = _WAITING.get(self.phase, ("nothing", None))[1]
        return IllegalActionError("not-now", rule, action=str(action), waiting=self._waiting_for())

    def apply(self, action: Action) -> None:
        """Apply an action without checking it (fast; for search and trusted records)."""
        if isinstance(action, Choose | Recruit):
            self.pending[self.current] = action
            self._next_chooser()
        elif isinstance(action, Draw):
            self._draw(action.tile)
        else:
            raise MalformedActionError("not-an-action-value", value=repr(action))

    def apply_all(self, actions: Iterable[Action]) -> None:
        for action in actions:
            self.apply(action)

    def _draw(self, tile: str) -> None:
        self.undrawn.remove(tile)
        self.drawn.append(tile)
        self.round += 1
        self.tile = tile
        if self.log_events:
            self.events.append(TileRevealed(self.round, tile))
        self.phase = Phase.RECRUIT if tile == DRUM else Phase.CHOOSE
        self.current = -1
        self._next_chooser()

    def must_choose(self, player: int) -> bool:
        """Return whether ``player`` still has to make this round's secret choice."""
        if self.pending[player] is not None:
            return False
        return self.phase is Phase.CHOOSE or any(self.camps[player])

    def _next_chooser(self) -> None:
        for player in range(self.current + 1, self.players):
            if self.must_choose(player):
                self.current = player
                return
        if self.phase is Phase.CHOOSE:
            resolve_castle(self)
        else:
            resolve_recruitment(self)
        self.pending = [None] * self.players
        if self.round == ROUNDS:
            self._finish()
        else:
            self.phase = Phase.DRAW
            self.current = -1

    def _finish(self) -> None:
        self.phase = Phase.OVER
        self.current = -1
        self.tile = None
        if self.log_events:
            result = self.result()
            assert result is not None
            self.events.append(GameEnded(result.points, result.hand_sizes, result.ranking))
