"""One seat of the castle game against a computer level, as a Gymnasium environment (``zamek/Castle-v0``).

``gymnasium.make("zamek/Castle-v0", opponent="hard", rules="zamek", seat=None, reward="win")``: the
observation and action spaces are ``castle_v0``'s; the opponent (any name ``zamek.make_bot`` knows: random,
greedy, beginner, easy, medium, hard, deep…) moves inside ``step`` until it is the agent's turn again, with the
random stream ``zamek.castle.runner.play_game`` would give it, so a game against a bot on seed ``s`` is that bot's game
of ``play_game(s)``. ``seat=None`` lets the seed choose the agent's seat (else 0 or 1). The mask is in the
observation (``"action_mask"``) and in ``info["action_mask"]``. An illegal action ends the game as a loss
(reward -1, ``info["illegal_action"]``), as PettingZoo's ``TerminateIllegalWrapper`` does, so that unmasked
agents can be trained; ``illegal="raise"`` raises ValueError instead.
"""

from __future__ import annotations

import random
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from zamek.castle.bots.levels import make_bot
from zamek.castle.rules.setup import Setup
from zamek.castle.seeding import player_rng
from zamek.env.base import Reward
from zamek.env.castle_v0 import CastleEnv

__all__ = ["CastleGymEnv"]


class CastleGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """The agent plays one seat; a computer level plays the other (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}  # noqa: RUF012  (gymnasium's convention)

    def __init__(self, opponent: str = "hard", rules: str | Setup = "zamek", seat: int | None = None,
                 reward: Reward = "win", render_mode: str | None = None, illegal: str = "lose") -> None:
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        self.illegal = illegal
        self._lost = False
        if seat not in (None, 0, 1):
            raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
        self.opponent_name = opponent
        self.bot = make_bot(opponent)
        self.game = CastleEnv(rules=rules, render_mode=render_mode, reward=reward)
        self.render_mode = render_mode
        self.fixed_seat = seat
        self.seat = 0
        self.observation_space = self.game.observation_space("player_0")
        self.action_space = self.game.action_space("player_0")
        self._rng: random.Random | None = None
        self._python: Any = None
        self._carried = 0.0

    @property
    def agent(self) -> str:
        return f"player_{self.seat}"

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**62))
        self.game.reset(seed=seed)
        assert self.game.seed_used is not None
        if self.fixed_seat is not None:
            self.seat = self.fixed_seat
        else:
            self.seat = random.Random(f"zamek-env-seat:{seed}").randrange(2)
        self._rng = player_rng(self.game.seed_used, 1 - self.seat)
        # A fresh opponent each game: what a bot carries within one (the time its turn has spent, the figure it
        # planned) belongs to that game; a new game's first turn could otherwise look like the old game's.
        self.bot = make_bot(self.opponent_name)
        self._python = None
        self._lost = False
        # With the score reward, what the opponent's opening moves changed counts in the agent's first step: a
        # game's rewards add up to its final lead.
        self._carried = self._opponent_moves()
        observation = self.game.observe(self.agent)
        return observation, self._info(observation)

    def _opponent_moves(self) -> float:
        """Let the opponent move until the agent is to move or the game is over; the agent's reward meanwhile."""
        gained = 0.0
        while not self.game.state_core.is_over() and self.game.agent_selection != self.agent:
            state = self._python_state()
            assert self._rng is not None
            action = self.bot.choose(state, self._rng)
            self.game.step(action.index)
            gained += self.game.rewards[self.agent]
        return gained

    def _python_state(self) -> Any:
        """The Python engine's position, kept up to date move by move (the bots think on it)."""
        if self._python is None:
            self._python = self.game.python_state()
            self._synced = len(self.game.moves)
        else:
            rules = self.game.codec()
            for code in self.game.moves[self._synced:]:
                self._python.apply(rules.decode(code))
            self._synced = len(self.game.moves)
        return self._python

    def _info(self, observation: dict[str, np.ndarray]) -> dict[str, Any]:
        return {"action_mask": observation["action_mask"], "seat": self.seat,
                "scores": self.game.state_core.scores}

    def step(self, action: Any) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        if self.game.state_core is None or self.game.state_core.is_over() or self._lost:
            raise RuntimeError("the game is over: reset the environment")
        if self.illegal == "lose" and int(action) not in self.game.state_core.legal_actions():
            self._lost = True
            observation = self.game.observe(self.agent)
            info = self._info(observation)
            info["illegal_action"] = True
            return observation, -1.0, True, False, info
        self.game.step(int(action))
        reward = self._carried + self.game.rewards[self.agent]
        self._carried = 0.0
        reward += self._opponent_moves()
        observation = self.game.observe(self.agent)
        terminated = bool(self.game.state_core.is_over())
        return observation, float(reward), terminated, False, self._info(observation)

    def render(self) -> Any:
        return self.game.render()

    def close(self) -> None:
        self.game.close()
