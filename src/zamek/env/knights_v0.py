"""Rycerze i zamki as a PettingZoo AEC environment, for 2 to 4 players.

``env(players=3, render_mode=None, chance="sampled", reward="win")``: agents ``player_0``… in seat order,
observations ``{"observation": int8[...], "action_mask": int8[28]}`` (layout: ``zamek.env.knights_spec.KNIGHTS``
and docs/environment.md), actions the game's stable indices (``zamek.knights.rules.actions``: ``Choose`` 0..21,
``Recruit`` 22..27). The secret choice of a round (K4) is asked seat by seat, and a seat's observation never
holds another's choice, hand or hidden recruitment (K8): only what ``KnightsState.view`` shows it, and what that
lets it deduce (``zamek.knights.rules.knowledge``). Tiles are turned up by the seeding convention
(``zamek.knights.seeding``), as ``zamek.knights.runner.play_game(seed)`` turns them, or by a ``chance`` agent
with ``chance="explicit"`` (its action k turns up tile ``KNIGHTS_TILES[k]``). Rewards: +1 to the winner and -1
to the others at the end (K6 leaves no tie), or with ``reward="score"`` the change of each seat's castle points
minus the mean of the others' at every step.
"""

from __future__ import annotations

import secrets
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from zamek.env.base import CHANCE_AGENT, Chance, Reward, TurnEnv, check_options
from zamek.env.knights_spec import KNIGHTS, KNIGHTS_TILES, MAX_SEATS
from zamek.knights.rules.actions import ACTION_COUNT, Draw, action_from_index
from zamek.knights.rules.cards import ARMY, TILES, Card
from zamek.knights.rules.engine import KnightsSetup, KnightsState, Phase, View
from zamek.knights.rules.knowledge import deduce
from zamek.knights.seeding import SeededTiles

__all__ = ["KnightsEnv", "encode_view", "env", "raw_env"]

_INDEX: Final = {name: KNIGHTS.span(name).start for name in
                 ("phase", "round", "tile", "unseen", "strength", "hand", "camp", "my_choice")}
_SEAT_FIELDS: Final = ("present", "points", "hand_size", "camp_size", "sword", "chosen", "to_move", "castles",
                       "in_hand", "in_camp", "unsure")
_SEAT: Final = [{f: KNIGHTS.span(f"seat{k}.{f}").start for f in _SEAT_FIELDS} for k in range(MAX_SEATS)]
_TILE_INDEX: Final = {tile: i for i, tile in enumerate(KNIGHTS_TILES)}


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment (``raw_env``'s arguments), wrapped so that it must be reset before use."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


def encode_view(view: View | None, state: KnightsState, observer: int | None) -> np.ndarray:
    """The observation of ``observer`` (None: the chance agent, who sees only what is open to all), made from
    ``view`` (``state.view(observer)``) alone; ``state`` gives only the open table for the chance agent."""
    out = np.zeros(KNIGHTS.size, np.int8)
    source: View | KnightsState = view if view is not None else state
    n = state.players
    phase = source.phase
    out[_INDEX["phase"] + int(phase)] = 1
    out[_INDEX["round"]] = source.round
    tile = source.tile
    if tile is not None:
        out[_INDEX["tile"] + _TILE_INDEX[tile]] = 1
        kind = TILES[tile].kind
        if kind is not None:
            for card in ARMY:
                out[_INDEX["strength"] + card] = state.table.of(card, kind)
    unseen = view.unseen if view is not None else state.undrawn
    for t in unseen:
        out[_INDEX["unseen"] + _TILE_INDEX[t]] += 1
    me = observer if observer is not None else 0
    if view is not None:
        out[_INDEX["hand"]: _INDEX["hand"] + len(Card)] = view.hand
        out[_INDEX["camp"]: _INDEX["camp"] + len(Card)] = view.camp
        if view.my_choice is not None:
            out[_INDEX["my_choice"] + view.my_choice.index] = 1
    chosen = view.chosen if view is not None else tuple(c is not None for c in state.pending)
    for k in range(n):
        seat = (me + k) % n
        block = _SEAT[k]
        out[block["present"]] = 1
        out[block["points"]] = source.points[seat]
        out[block["hand_size"]] = view.hand_sizes[seat] if view is not None else state.hand_size(seat)
        out[block["camp_size"]] = view.camp_sizes[seat] if view is not None else state.camp_size(seat)
        out[block["sword"]] = int(source.sword == seat)
        out[block["chosen"]] = int(chosen[seat])
        out[block["to_move"]] = int(source.current == seat and phase in (Phase.CHOOSE, Phase.RECRUIT))
        for t in source.castles[seat]:
            out[block["castles"] + _TILE_INDEX[t]] += 1
        if view is not None:
            known = deduce(view, seat)
            for card in known.in_hand:
                out[block["in_hand"] + card] = 1
            for card in known.in_camp:
                out[block["in_camp"] + card] = 1
            for card in known.either:
                out[block["unsure"] + card] = 1
    return out


class KnightsEnv(TurnEnv):
    """2 to 4 seats playing Rycerze i zamki; see the module docstring."""

    metadata: Final = {"name": "zamek_knights_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, players: int = 3, render_mode: str | None = None, chance: Chance = "sampled",
                 reward: Reward = "win") -> None:
        super().__init__()
        check_options(chance, reward)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.setup = KnightsSetup(players=players)  # raises a clear ValueError outside 2..4
        self.render_mode = render_mode
        self.chance_mode = chance
        self.reward_mode = reward
        self.possible_agents = [f"player_{p}" for p in range(players)]
        if chance == "explicit":
            self.possible_agents.append(CHANCE_AGENT)
        sizes = {a: len(KNIGHTS_TILES) if a == CHANCE_AGENT else ACTION_COUNT for a in self.possible_agents}
        self._spaces = {a: spaces.Dict({
            "observation": spaces.Box(0, np.iinfo(np.int8).max, (KNIGHTS.size,), np.int8),
            "action_mask": spaces.Box(0, 1, (sizes[a],), np.int8),
        }) for a in self.possible_agents}
        self._actions = {a: spaces.Discrete(sizes[a]) for a in self.possible_agents}
        self.seed_used: int | None = None
        self.state: KnightsState | None = None
        self._tiles = SeededTiles(0, self.setup)

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._actions[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.seed_used = int(seed) if seed is not None else secrets.randbits(62)
        self._tiles = SeededTiles(self.seed_used, self.setup)  # the seeding convention: as play_game
        self.state = KnightsState.new(self.setup)
        self._begin()
        self._play_chance()
        self._select()

    def _game(self) -> KnightsState:
        if self.state is None:
            raise RuntimeError("reset the environment first")
        return self.state

    def _play_chance(self) -> None:
        state = self._game()
        while self.chance_mode == "sampled" and state.is_chance():
            state.apply(self._tiles.outcome(state))

    def _select(self) -> None:
        state = self._game()
        if state.is_over():
            self.agent_selection = self.agents[0] if self.agents else ""
        elif state.is_chance():
            outcomes = [(_TILE_INDEX[draw.tile], p) for draw, p in state.chance_outcomes()]
            self._select_chance(outcomes, len(KNIGHTS_TILES))
        else:
            self.agent_selection = f"player_{state.current}"

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if agent not in self.possible_agents:
            raise ValueError(f"no agent {agent!r}; the agents are {', '.join(self.possible_agents)}")
        state = self._game()
        if agent == CHANCE_AGENT:
            observation = encode_view(None, state, None)
        else:
            seat = int(agent.rsplit("_", 1)[1])
            observation = encode_view(state.view(seat), state, seat)
        return {"observation": observation, "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str) -> np.ndarray:
        state = self._game()
        if agent == CHANCE_AGENT:
            mask = np.zeros(len(KNIGHTS_TILES), np.int8)
            if agent == self.agent_selection:
                mask[[_TILE_INDEX[draw.tile] for draw, _ in state.chance_outcomes()]] = 1
            return mask
        mask = np.zeros(ACTION_COUNT, np.int8)
        if agent == self.agent_selection and not state.is_over():
            mask[[a.index for a in state.legal_actions()]] = 1
        return mask

    def step(self, action: Any) -> None:
        index = self._checked(action)
        if index is None:
            return
        state = self._game()
        before = self._margins(state)
        state.apply(Draw(KNIGHTS_TILES[index]) if self.agent_selection == CHANCE_AGENT else action_from_index(index))
        self._play_chance()
        seats = [f"player_{seat}" for seat in range(state.players)]
        gains = {}
        if self.reward_mode == "score":
            gains = {a: new - old for a, old, new in zip(seats, before, self._margins(state), strict=True)}
        result = state.result()
        if result is not None and self.reward_mode == "win":
            gains = {a: 1.0 if seat == result.winner else -1.0 for seat, a in enumerate(seats)}
        info = {} if result is None else {"points": tuple(state.points), "winner": result.winner}
        self._settle(gains, result is not None, info)
        self._select()

    @staticmethod
    def _margins(state: KnightsState) -> list[float]:
        """Each seat's castle points minus the mean of the others'."""
        n, total = state.players, sum(state.points)
        return [p - (total - p) / (n - 1) for p in state.points]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self._game()
        lines = [f"round {state.round}, tile {state.tile or '-'}, sword: player_{state.sword}"]
        for seat in range(state.players):
            castles = ", ".join(state.castles[seat]) or "-"
            lines.append(f"player_{seat}: {state.points[seat]} points, castles {castles}, "
                         f"{state.hand_size(seat)} in hand, {state.camp_size(seat)} in camp")
        return "\n".join(lines) + "\n"

    def close(self) -> None:
        self.state = None


raw_env = KnightsEnv
