"""The castle game as a PettingZoo AEC environment, and many games at once on the compiled core.

``env(rules="zamek", render_mode=None, chance="sampled", reward="win")`` is the AEC environment: agents
``player_0`` and ``player_1`` (seats 0 and 1), observations ``{"observation": int16[7178], "action_mask":
int8[1100]}`` (the layout: ``zamek.env.spec.CASTLE`` and docs/environment.md), actions the engine's stable
indices (``zamek.castle.rules.actions``). Chance (tile draws, token reveals) is played inside from the seed given to
``reset(seed=...)`` under the project's seeding convention, so seat choices never move the tiles and a game is
``zamek.castle.runner.play_game(seed)``'s game for the same actions; or, with ``chance="explicit"``, a third agent
``chance`` picks the outcome (OpenSpiel's convention): its mask marks the outcomes possible now, and
``infos["chance"]["probabilities"]`` gives their probabilities. Rewards: +1/-1/0 at the end, or with
``reward="score"`` each seat's change in lead at every step (they add up to the final score difference).

``vector_env(n, ...)`` steps ``n`` games in one call in C and returns stacked arrays (``CastleVectorEnv``).

Where the compiled core was not built, ``env`` plays on the Python engine (``zamek.env.python_core``): the same
games, observations and rewards, slower; ``vector_env`` needs the core and says how to build it.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import replace
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from zamek.castle import fast
from zamek.castle.fast import native as fast_core
from zamek.castle.rules import rulesets
from zamek.castle.rules.setup import Setup
from zamek.castle.seeding import first_player as seeded_first_player
from zamek.env.base import CHANCE_AGENT, Chance, Reward, TurnEnv, check_options
from zamek.env.python_core import PythonCoreState
from zamek.env.spec import CASTLE, CASTLE_ACTIONS, CASTLE_CHANCE_ACTIONS, CASTLE_SIDE, MAX_TILES

__all__ = ["RULE_SETS", "CastleEnv", "CastleVectorEnv", "VectorStep", "env", "raw_env", "setup_of", "vector_env"]

RULE_SETS: Final = {name: Setup.parse(name) for name in rulesets.RULE_SETS}
"""Every rule set by its name (``zamek+sokol``, :mod:`zamek.castle.rules.rulesets`)."""
_ALIASES: Final = {"castle2003-sokol": "castle2003+sokol", "gate-guard": "zamek+sokol+gate-guard"}
"""Names of earlier versions of this environment."""

RENDER_MODES: Final = ("ansi", "rgb_array")
_DRAW: Final = 2000  # the compiled core's chance codes (zamek.castle.fast._core.DRAW / REVEAL)
_REVEAL: Final = 3000


def setup_of(rules: str | Setup) -> Setup:
    """A rule set by name (``RULE_SETS``; the edition may be left out: ``sokol``) or a ``Setup`` as it is; a clear
    ValueError otherwise."""
    if isinstance(rules, Setup):
        return rules
    try:
        return Setup.parse(_ALIASES.get(rules, rules))
    except ValueError:
        raise ValueError(f"unknown rule set {rules!r}; choose from {', '.join(RULE_SETS)} or pass a Setup") from None


def _observation_space(actions: int) -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(0, np.iinfo(np.int16).max, (CASTLE.size,), np.int16),
        "action_mask": spaces.Box(0, 1, (actions,), np.int8),
    })


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment (``raw_env``'s arguments), wrapped so that it must be reset before use."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class CastleEnv(TurnEnv):
    """Two seats playing the castle game; see the module docstring."""

    metadata: Final = {"name": "zamek_castle_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(self, rules: str | Setup = "zamek", render_mode: str | None = None, chance: Chance = "sampled",
                 reward: Reward = "win", first_player: int | None = None) -> None:
        """``rules``: a name of ``RULE_SETS`` or a ``Setup``, whose own ``first_player`` gives way to this one's;
        ``first_player``: who starts every game (None: the seed chooses, Z5)."""
        super().__init__()
        check_options(chance, reward)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'ansi' or 'rgb_array', not {render_mode!r}")
        if first_player not in (None, 0, 1):
            raise ValueError(f"first_player must be 0, 1 or None, not {first_player!r}")
        self.compiled = fast_core.AVAILABLE
        """Whether the games play on the compiled core; else on the Python engine (``python_core``): slower, the
        same games."""
        self.setup = setup_of(rules)
        self.render_mode = render_mode
        self.chance_mode = chance
        self.reward_mode = reward
        self.first_player = first_player
        self.possible_agents = ["player_0", "player_1"] + ([CHANCE_AGENT] if chance == "explicit" else [])
        self._spaces = {a: _observation_space(CASTLE_CHANCE_ACTIONS if a == CHANCE_AGENT else CASTLE_ACTIONS)
                        for a in self.possible_agents}
        self._actions = {a: spaces.Discrete(CASTLE_CHANCE_ACTIONS if a == CHANCE_AGENT else CASTLE_ACTIONS)
                         for a in self.possible_agents}
        self.seed_used: int | None = None
        self.moves: list[int] = []
        """Every action and chance outcome so far, as the compiled core's integers (``CoreRules.decode``)."""
        self._state: Any = None

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._actions[agent]

    # ------------------------------------------------------------------ the game

    @property
    def state_core(self) -> Any:
        """The position (``zamek.castle.fast.CoreState``): for tools and tests; agents should use ``observe``."""
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.seed_used = int(seed) if seed is not None else secrets.randbits(62)
        first = self.first_player if self.first_player is not None else seeded_first_player(self.seed_used)
        self.game_setup = replace(self.setup, first_player=first)
        self._state = fast.new_state(self.game_setup) if self.compiled else PythonCoreState(self.game_setup)
        self.moves = []
        self._begin()
        self._play_chance()
        self._select()

    def _play_chance(self) -> None:
        """Play the chance events due now from the seed (sampled chance only)."""
        if self.chance_mode != "sampled":
            return
        state = self._state
        while state.is_chance():
            outcome = state.seeded_outcome(self.seed_used)
            state.apply(outcome)
            self.moves.append(outcome)

    def _select(self) -> None:
        state = self._state
        if state.is_over():
            self.agent_selection = self.agents[0] if self.agents else ""
        elif state.is_chance():
            outcomes = [(_chance_action(code), p) for code, p in state.chance_outcomes()]
            self._select_chance(outcomes, CASTLE_CHANCE_ACTIONS)
        else:
            self.agent_selection = f"player_{state.current}"

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if agent not in self.possible_agents:
            raise ValueError(f"no agent {agent!r}; the agents are {', '.join(self.possible_agents)}")
        seat = 0 if agent == CHANCE_AGENT else int(agent[-1])
        observation = np.zeros(CASTLE.size, np.int16)
        self._state.observe(seat, observation)
        return {"observation": observation, "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(CASTLE_CHANCE_ACTIONS if agent == CHANCE_AGENT else CASTLE_ACTIONS, np.int8)
        if agent == getattr(self, "agent_selection", None) and not self._state.is_over():
            mask[self.legal_actions()] = 1
        return mask

    def legal_actions(self) -> list[int]:
        """The actions of the agent to move (for the chance agent: its action numbers)."""
        if self.agent_selection == CHANCE_AGENT:
            return [_chance_action(code) for code, _ in self._state.chance_outcomes()]
        return list(self._state.legal_actions())

    def step(self, action: Any) -> None:
        index = self._checked(action)
        if index is None:
            return
        state = self._state
        code = _chance_code(index) if self.agent_selection == CHANCE_AGENT else index
        lead = state.scores[0] - state.scores[1]
        state.apply(code)
        self.moves.append(code)
        self._play_chance()
        scores = state.scores
        gain = float(scores[0] - scores[1] - lead)
        if state.is_over() and self.reward_mode == "win":
            gain = float((scores[0] > scores[1]) - (scores[0] < scores[1]))
        elif self.reward_mode == "win":
            gain = 0.0
        self._settle({"player_0": gain, "player_1": -gain}, state.is_over(), {"scores": scores})
        self._select()

    # ------------------------------------------------------------------ pictures

    def codec(self) -> Any:
        """What turns ``moves``' integers into actions and back (``decode``, ``encode``)."""
        return fast.core_rules(self.game_setup) if self.compiled else self._state.codec

    def python_state(self) -> Any:
        """The Python engine's ``GameState`` of the game so far (replayed: for bots, pictures and records)."""
        from zamek.castle.data.loader import new_game

        if not self.compiled:
            return self._state.game.copy()
        rules = self.codec()
        state = new_game(self.game_setup)
        for code in self.moves:
            state.apply(rules.decode(code))
        return state

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            from zamek.castle.render import render_castle

            scores = self._state.scores
            over = " (over)" if self._state.is_over() else f", {self.agent_selection} to move"
            return f"{render_castle(self.python_state())}\nscores {scores[0]}:{scores[1]}{over}\n"
        return castle_picture(self.game_setup, self._state)

    def close(self) -> None:
        self._state = None


raw_env = CastleEnv


def _chance_action(code: int) -> int:
    return code - _DRAW if code < _REVEAL else MAX_TILES + code - _REVEAL


def _chance_code(action: int) -> int:
    if 0 <= action < MAX_TILES:
        return _DRAW + action
    if MAX_TILES < action < CASTLE_CHANCE_ACTIONS:
        return _REVEAL + action - MAX_TILES
    return -1


# ---------------------------------------------------------------------------------------- pictures

_SQUARE: Final = 20  # pixels a castle space takes in rgb_array pictures: a 5 x 5 block of 4 x 4 pixels
_COLOURS: Final = {
    "wall": (96, 96, 96), "empty": (222, 206, 170), "start": (150, 110, 70),
    0: (200, 180, 140), 1: (190, 70, 60), 2: (230, 160, 170), 3: (120, 170, 80), 4: (240, 240, 240),
}
_PLAYERS: Final = ((40, 90, 200), (230, 200, 30))


def castle_picture(setup: Setup, state: Any) -> np.ndarray:
    """An RGB picture (uint8, height x width x 3) of a position: tiles by their features' kinds, figures as
    dots in their players' colours."""
    from zamek.castle.data.loader import rules_for
    from zamek.castle.render import INNER_CELLS, SEGMENT_CELLS

    rules = rules_for(setup)
    castle = rules.castle
    tiles = rules.tiles.tiles
    size = CASTLE_SIDE * _SQUARE
    picture = np.empty((size, size, 3), np.uint8)
    picture[:] = _COLOURS["wall"]
    pixel = _SQUARE // 5
    snapshot = state.snapshot()

    def block(cell: int) -> tuple[int, int]:
        x, y = castle.xy(cell)
        return (CASTLE_SIDE - 1 - (y + 1)) * _SQUARE, (x + 1) * _SQUARE  # north up

    def paint(top: int, left: int, row: int, column: int, colour: tuple[int, int, int]) -> None:
        picture[top + row * pixel: top + (row + 1) * pixel, left + column * pixel: left + (column + 1) * pixel] = colour

    for cell in castle.interior:
        top, left = block(cell)
        picture[top:top + _SQUARE, left:left + _SQUARE] = _COLOURS["empty"]
    for start in castle.starts:
        top, left = block(start.cell)
        picture[top:top + _SQUARE, left:left + _SQUARE] = _COLOURS["start"]
    placed: dict[int, tuple[int, ...]] = {}  # cell -> the feature of each of its 12 segments
    for cell, tile, rotation in snapshot["placements"]:
        top, left = block(cell)
        segment_feature = tiles[tile].orientations[rotation].segment_feature
        placed[cell] = segment_feature
        kinds = [int(tiles[tile].features[f].kind) for f in segment_feature]
        picture[top:top + _SQUARE, left:left + _SQUARE] = _COLOURS[max(set(kinds), key=kinds.count)]
        for segment, (row, column) in enumerate(SEGMENT_CELLS):
            paint(top, left, row, column, _COLOURS[kinds[segment]])
    for player, cell, feature, _node, _piece in snapshot["followers"]:
        top, left = block(cell)
        on_feature = [s for s, f in enumerate(placed.get(cell, ())) if f == feature]
        spot = INNER_CELLS[on_feature[0]] if on_feature else (2, 2)
        paint(top, left, spot[0], spot[1], _PLAYERS[player])
    return picture


# ---------------------------------------------------------------------------------------- many games

class VectorStep:
    """What one call of ``CastleVectorEnv.step`` returns (arrays shared with the environment unless it
    copies: see ``copy``)."""

    __slots__ = ("action_mask", "final_scores", "observation", "player", "rewards", "terminated")

    def __init__(self, observation: np.ndarray | None, action_mask: np.ndarray, player: np.ndarray,
                 rewards: np.ndarray, terminated: np.ndarray, final_scores: np.ndarray) -> None:
        self.observation = observation
        """(n, 7178) int16: each game's position as the player to move now sees it (None if not asked for)."""
        self.action_mask = action_mask
        """(n, 1100) int8: the legal actions of the player to move."""
        self.player = player
        """(n,) int8: the seat to move (0 or 1); after an automatic reset, in the new game."""
        self.rewards = rewards
        """(n, 2) float32: each seat's reward for this step (by seat, not by who moved)."""
        self.terminated = terminated
        """(n,) bool: the game in this slot ended with this step (and, with autoreset, a new one began)."""
        self.final_scores = final_scores
        """(n, 2) int32: the scores of each game that ended with this step (else left as they were)."""


class CastleVectorEnv:
    """``n`` castle games stepped together in the compiled core.

    ``reset()`` starts game ``i`` on seed ``seed + i`` (later games take the following seeds); ``step(actions)``
    plays one action per game (checked: an illegal one raises ValueError and changes nothing) and the chance
    that follows, and returns a ``VectorStep``. A game that ends is replaced at once by the next seed's game
    (``autoreset``, the usual convention of vector environments); its scores are in ``final_scores``. With
    ``observations=False`` only masks are made: the fastest way to play. Arrays are fresh copies unless
    ``copy=False``, where they are the environment's own buffers, overwritten by the next call.
    """

    def __init__(self, n: int, rules: str | Setup = "zamek", seed: int = 0, *, reward: Reward = "win",
                 observations: bool = True, copy: bool = True, first_player: int | None = None) -> None:
        check_options("sampled", reward)
        if n < 1:
            raise ValueError(f"a vector environment holds at least one game, not {n}")
        if first_player not in (None, 0, 1):
            raise ValueError(f"first_player must be 0, 1 or None, not {first_player!r}")
        fast_core._need()
        self.setup = setup_of(rules)
        self.n = n
        self.seed = seed
        self.reward_mode = reward
        self.observations = observations
        self.copy = copy
        self.first_player = first_player
        self._actions = np.zeros(n, np.intc)
        self._masks = np.zeros((n, CASTLE_ACTIONS), np.int8)
        self._obs = np.zeros((n, CASTLE.size), np.int16)
        self._player = np.zeros(n, np.int8)
        self._rewards = np.zeros((n, 2), np.float32)
        self._done = np.zeros(n, np.uint8)
        self._final = np.zeros((n, 2), np.intc)
        self._seats = np.full(n, -1, np.int8)
        self._core: Any = None

    def reset(self, seed: int | None = None) -> VectorStep:
        """Start ``n`` new games (on ``seed``, ``seed + 1``…; None: the constructor's seed)."""
        import zamek.castle.fast._core as _core

        if seed is not None:
            self.seed = seed
        first = -1 if self.first_player is None else self.first_player
        self._core = _core.BatchCore(fast.core_rules(self.setup), self.n, self.seed, first)
        self._rewards[:] = 0
        self._done[:] = 0
        self._final[:] = 0
        self._fill()
        return self._result()

    def _fill(self) -> np.ndarray:
        """Read the player to move of every game into ``_player``; return each game's seed."""
        scores = np.zeros(2 * self.n, np.intc)
        phase = np.zeros(self.n, np.int8)
        seeds = np.zeros(self.n, np.int64)
        self._started().fill(scores, self._player, phase, seeds)
        return seeds

    def _result(self) -> VectorStep:
        self._core.legal_masks(self._masks.reshape(-1).view(np.uint8))
        observation = None
        if self.observations:
            self._core.observe(self._obs.reshape(-1), self._seats)
            observation = self._obs
        result = VectorStep(observation, self._masks, self._player, self._rewards, self._done.view(bool), self._final)
        if self.copy:
            for name in VectorStep.__slots__:
                value = getattr(result, name)
                if value is not None:
                    setattr(result, name, value.copy())
        return result

    def step(self, actions: np.ndarray | list[int]) -> VectorStep:
        """Play one action in every game; see the class docstring."""
        core = self._started()
        chosen = np.asarray(actions)
        if chosen.shape != (self.n,) or chosen.dtype.kind not in "iu":
            raise ValueError(f"step takes one integer action per game: shape ({self.n},), not {chosen.shape} "
                             f"of {chosen.dtype}")
        if chosen.min() < 0 or chosen.max() >= CASTLE_ACTIONS:  # before the cast to C ints can wrap them
            raise ValueError(f"an action is an index from 0 to {CASTLE_ACTIONS - 1}")
        self._actions[:] = chosen
        core.play(self._actions, self.reward_mode == "score", True, self._rewards.reshape(-1), self._done,
                        self._final.reshape(-1), self._player)
        return self._result()

    def sample_actions(self) -> np.ndarray:
        """A legal action chosen uniformly at random in each game (the environment's own seeded generator)."""
        out = np.zeros(self.n, np.intc)
        self._started().sample(out)
        return out

    def _started(self) -> Any:
        if self._core is None:
            raise RuntimeError("reset the vector environment first")
        return self._core

    def state(self, i: int) -> Any:
        """A copy of game ``i``'s position (``zamek.castle.fast.CoreState``), e.g. for a bot to think on."""
        if not 0 <= i < self.n:
            raise ValueError(f"there is no game {i} in a vector environment of {self.n}")
        return self._started().state(i)

    def bot_action(self, i: int, level: str, rng: random.Random) -> int:
        """The action a computer level chooses in game ``i``, thinking in C on a copy of it: ``random``, or a
        greedy level (``greedy``, ``greedy:N``, ``beginner``, ``easy``, ``medium``), as ``zamek.make_bot(level)``
        would choose with ``rng`` (an opponent for training and for measuring an agent)."""
        import zamek.castle.fast._core as _core
        from zamek.castle.bots.compiled import compiled_estimate
        from zamek.castle.bots.evaluate import DEFAULT
        from zamek.castle.bots.levels import LEVELS

        state = self.state(i)
        spec = LEVELS.get(level, level)
        name, _, budget = spec.partition(":")
        if name == "random" and not budget:
            return int(rng.choice(state.legal_actions()))
        if name != "greedy" or (budget and not budget.isdigit()):
            raise ValueError(f"the vector environment plays random and the greedy levels (greedy, greedy:N, "
                             f"beginner, easy, medium), not {level!r}")
        estimate = compiled_estimate(DEFAULT)
        if estimate is None:  # never: the hand-set estimate always has its C form
            raise RuntimeError("the greedy estimate has no compiled form")
        return int(_core.greedy_choice(state, estimate, rng, int(budget or 0)))

    def seeds(self) -> np.ndarray:
        """The seed of the game in each slot."""
        return self._fill()


def vector_env(n: int, rules: str | Setup = "zamek", seed: int = 0, **kwargs: Any) -> CastleVectorEnv:
    """``n`` games stepped together in C (``CastleVectorEnv``); ``reset()`` starts them."""
    return CastleVectorEnv(n, rules, seed, **kwargs)
