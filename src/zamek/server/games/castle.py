"""The castle game in the match service: its records, moves as messages, when chance is decided, who is to act,
undo, and the computer's thinking."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Final

from zamek import Action, Draw, GameState, Phase, Reveal, Setup, make_bot, new_game, parse_action
from zamek.castle import record as records
from zamek.castle.report import move_message
from zamek.castle.seeding import SeededChance, player_move_rng
from zamek.kit.play import Thinking
from zamek.kit.records import parse_moves
from zamek.server.errors import ServiceError
from zamek.server.games import GameKind, MoveInfo, Think, Thought

if TYPE_CHECKING:
    from zamek.server.live import LiveGame

COMPUTER: Final = "computer"
HOTSEAT: Final = "hotseat"
FRIEND: Final = "friend"
"""Two people, each on their own device: the creator's seat and a seat for the friend who opens the link."""


def step(state: GameState, action: Action) -> MoveInfo:
    """Play ``action`` with every check and return it as a message."""
    state.check(action)  # first: the message of an illegal move may not exist
    player: int | None = state.current
    if isinstance(action, Reveal):
        player = state.revealing_player()
    info = MoveInfo(action, player, move_message(state, action), isinstance(action, (Draw, Reveal)))
    state.apply(action)
    return info


def chance_for(seed: int, state: GameState) -> Action:
    """The chance event due now in a game of ``seed`` (``zamek.castle.seeding``): the same after a restart or an
    undo."""
    return SeededChance(seed, state.tiles).outcome(state)


def think(setup: dict[str, Any], moves: list[str], seed: int, level: str, human: int) -> Thought:
    """The computer's whole turn from a game's record: its moves in notation (chance included) until a person is
    to decide or the game ends, and how long it thought (by decision and by turn: an extra turn is a turn).
    Its moves are a pure function of its arguments; it runs in the pool."""
    state = new_game(records.setup_from_json(setup))
    for move in parse_moves({"moves": moves}, parse_action):
        state.apply(move)
    bot = make_bot(level)
    played: list[str] = []
    thinking = Thinking()
    while not state.is_over() and (state.is_chance() or state.current != human):
        if state.is_chance():
            action: Action = chance_for(seed, state)
        else:
            started = time.perf_counter()
            action = bot.choose(state, player_move_rng(seed, state.current, len(moves) + len(played)))
            thinking.record(state.turn, time.perf_counter() - started)
        state.apply(action)
        played.append(str(action))
    return Thought(played, thinking)


def players_for(mode: str, level: str | None, human: int | None) -> list[str]:
    """Who plays each seat of a castle game: 'person' (at the creator's screen), 'friend', or a computer level."""
    if mode == COMPUTER and human in (0, 1) and level is not None:
        return ["person" if seat == human else level for seat in (0, 1)]
    return ["person", "person"]


class CastleKind(GameKind):
    name = "castle"
    undo = True

    def setup_from_json(self, raw: Any) -> Setup:
        # A stored setup without a board was stored before board 2 (setup_from_json reads it as board 1).
        return records.setup_from_json(raw)

    def setup_to_json(self, setup: Any) -> dict[str, Any]:
        return records.setup_to_json(setup)

    def new_state(self, setup: Any) -> GameState:
        return new_game(setup)

    def parse(self, text: str) -> Action:
        return parse_action(text)

    def step(self, state: Any, action: Any) -> MoveInfo:
        return step(state, action)

    def is_chance(self, action: Any) -> bool:
        return isinstance(action, (Draw, Reveal))

    def chance(self, live: LiveGame, state: Any, moves: int) -> Action:
        return chance_for(live.seed, state)

    def seats(self, setup: Any) -> int:
        return 2

    def scores(self, state: Any) -> list[int]:
        return list(state.scores)

    def turn(self, state: Any) -> int:
        return int(state.turn)

    def human_to_act(self, live: LiveGame, state: GameState) -> bool:
        """Whether a person (not the computer, not chance) is to decide in ``state``."""
        if state.is_over() or state.is_chance() or (state is live.state and live.ended is not None):
            return False
        return live.mode != COMPUTER or state.current == live.human

    def seat_to_act(self, live: LiveGame, state: Any) -> int | None:
        if live.ended is not None or state.is_over() or live.waiting_for_friend:
            return None
        if state.is_chance() and not (live.mode == HOTSEAT and state.phase is Phase.DRAW):
            return None
        return int(state.current)

    def computer_to_move(self, live: LiveGame, state: Any) -> bool:
        over = live.ended is not None or state.is_over()
        return live.mode == COMPUTER and not over and not self.human_to_act(live, state)

    def person_chance(self, live: LiveGame, state: Any, moves: int) -> bool:
        if state.phase is Phase.DRAW:
            if live.mode == COMPUTER and state.current != live.human:
                return False  # the computer's draw starts its turn, in the worker
            if live.mode == HOTSEAT and moves > 0:
                return False  # the next player draws when they sit down (undo stays possible till then)
        return True

    def refuse_person_action(self, live: LiveGame, state: Any, action: Any) -> ServiceError | None:
        if isinstance(action, (Draw, Reveal)):
            return ServiceError(409, "illegal-move", "chance-not-chosen", action=str(action))
        if live.mode == HOTSEAT and state.phase is Phase.DRAW:
            return ServiceError(409, "illegal-move", "draw-first", action=str(action))
        return None

    def undo_refusal(self, live: LiveGame) -> str | None:
        if live.over:  # its final scoring is known (and its seed published): no second try
            return "game-over"
        if not live.actions:
            return "nothing-to-undo"
        info = live.infos[-1]
        if isinstance(info.action, Reveal):
            return "undo-revealed"
        if isinstance(info.action, Draw):
            return "undo-drawn"
        if live.mode == COMPUTER and info.player != live.human:
            return "undo-computer"
        return None

    def think(self) -> Think:
        return think

    def think_args(self, live: LiveGame) -> tuple[Any, ...]:
        assert live.level is not None and live.human is not None
        return (records.setup_to_json(live.setup), [str(a) for a in live.actions], live.seed, live.level,
                live.human)

    def record(self, live: LiveGame) -> dict[str, Any]:
        return records.make_record(live.setup, live.seed, live.actions, live.state)

    def rematch_players(self, live: LiveGame) -> list[str]:
        return list(reversed(live.players))


CASTLE: Final = CastleKind()
