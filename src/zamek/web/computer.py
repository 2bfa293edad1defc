"""The computer's worker: the threads that play the computer's turns of castle games, off the request path.

The computer works on a copy of the position and commits its whole turn at once (through
:meth:`zamek.web.sessions.Sessions.commit`), and only if nothing changed meanwhile: an undo in the
moment before it replies cancels its move. It starts after a short pause (``delay``) so that a person
can still take their last move back. Its choices come from the game's seed and the move number
(``zamek.seeding``), so a restarted server decides alike.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from zamek import Action, GameState, make_bot
from zamek.seeding import player_move_rng
from zamek.web.errors import ServiceError
from zamek.web.sessions import LiveGame, MoveInfo, chance_for, step

log = logging.getLogger("zamek.web")

Commit = Callable[[LiveGame, GameState, list[Action], list[MoveInfo]], None]
"""Stores a turn and puts it in memory (``Sessions.commit``); the caller holds the game's lock."""


class ComputerPlayer:
    """Plays the computer's turns in a pool of worker threads."""

    def __init__(self, commit: Commit, delay: float, workers: int) -> None:
        self._commit = commit
        self.delay = delay
        self._stopping = threading.Event()
        self._executor = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="zamek-bot")

    def close(self) -> None:
        """Stop thinking: pending turns are dropped (they are played again when the game is loaded next)."""
        self._stopping.set()
        self._executor.shutdown(wait=True, cancel_futures=True)

    def schedule(self, live: LiveGame, delay: float | None = None) -> None:
        """Give the computer its turn in the worker when it is to move (the caller holds ``live.lock``)."""
        if live.pending or live.deleted or live.bot_error or self._stopping.is_set():
            return
        if not live.computer_to_move():
            return
        live.pending = True
        self._executor.submit(self._turn, live, self.delay if delay is None else delay)

    def _turn(self, live: LiveGame, delay: float) -> None:
        try:
            if delay > 0 and self._stopping.wait(delay):
                return
            with live.lock:
                revision = live.revision
                state = live.state.copy()
                moves = len(live.actions)
            assert live.level is not None
            bot = make_bot(live.level)
            actions: list[Action] = []
            infos: list[MoveInfo] = []
            while not state.is_over() and (state.is_chance() or state.current != live.human):
                if self._stopping.is_set():
                    return
                n = moves + len(actions)
                if state.is_chance():
                    action: Action = chance_for(live.seed, state)
                else:
                    action = bot.choose(state, player_move_rng(live.seed, state.current, n))
                infos.append(step(state, action))
                actions.append(action)
            with live.lock:
                if live.revision != revision or live.deleted or not actions:
                    return  # the position changed while the computer thought (an undo): think again
                self._commit(live, state, actions, infos)
        except ServiceError:
            pass
        except Exception as exc:  # a bug must not kill the worker silently
            log.exception("computer player failed in game %s", live.id)
            live.bot_error = f"the computer player failed: {exc}"
        finally:
            with live.lock:
                live.pending = False
                self.schedule(live)
