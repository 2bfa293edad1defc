"""What the two AEC environments share: the options, the bookkeeping of agents, rewards and ends, the checking
of an action, and the chance agent's probabilities. Each game says only how it masks, applies and scores."""

from __future__ import annotations

from typing import Any, Final, Literal

import numpy as np
from pettingzoo import AECEnv

Chance = Literal["sampled", "explicit"]
Reward = Literal["win", "score"]
CHANCE_AGENT: Final = "chance"


def check_options(chance: str, reward: str) -> None:
    if chance not in ("sampled", "explicit"):
        raise ValueError(f"chance must be 'sampled' or 'explicit', not {chance!r}")
    if reward not in ("win", "score"):
        raise ValueError(f"reward must be 'win' or 'score', not {reward!r}")


class TurnEnv(AECEnv):  # type: ignore[misc]  # pettingzoo's base class is untyped
    """A turn-based game with seats ``player_0``…, and with ``chance="explicit"`` a ``chance`` agent."""

    def _begin(self) -> None:
        """Every agent in play, nothing gained, nothing ended (``reset``)."""
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}

    def action_mask(self, agent: str) -> np.ndarray:
        """The agent's legal actions now (all 0 unless it is to move)."""
        raise NotImplementedError

    def _checked(self, action: Any) -> int | None:
        """The action of the agent to move as an index, after checking it (a clear ValueError otherwise);
        None when the agent's game is over and the step was its last (PettingZoo's dead step)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return None
        if action is None:
            raise ValueError(f"{agent} is to move and must act (None is only for an agent whose game is over)")
        try:
            index = int(action)
        except (TypeError, ValueError):
            raise ValueError(f"an action is an integer index, not {action!r}") from None
        mask = self.action_mask(agent)
        if not 0 <= index < len(mask) or not mask[index]:
            legal = np.flatnonzero(mask).tolist()
            more = "…" if len(legal) > 20 else ""
            raise ValueError(f"action {index} is not legal for {agent} now (legal: {legal[:20]}{more})")
        self._cumulative_rewards[agent] = 0.0
        if agent == CHANCE_AGENT:
            self.infos[agent] = {}  # the probabilities were this event's; the next event brings its own
        return index

    def _settle(self, gains: dict[str, float], over: bool, info: dict[str, Any]) -> None:
        """Give this step's rewards (0 to any agent not in ``gains``) and, at the end, end every agent."""
        self.rewards = {a: gains.get(a, 0.0) for a in self.agents}
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = dict(info)
        self._accumulate_rewards()

    def _select_chance(self, outcomes: list[tuple[int, float]], size: int) -> None:
        """The chance agent is to move: its probabilities over its ``size`` actions go in its info."""
        self.agent_selection = CHANCE_AGENT
        probabilities = np.zeros(size, np.float64)
        for action, p in outcomes:
            probabilities[action] = p
        self.infos[CHANCE_AGENT] = {"chance": {"probabilities": probabilities}}
