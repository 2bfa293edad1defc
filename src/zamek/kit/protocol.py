"""The game protocol both games implement, and a conformance check that runs on any of them.

In the spirit of pgx's ``api_test`` and OpenSpiel's game checks: a game is a mutable state with
players, the player to move (or chance, or the end), legal actions, a checked ``play`` and a fast
``apply``, chance outcomes with their probabilities, a per-player view, and a result. The castle game
(``zamek.GameState``) and Rycerze i zamki (``zamek.knights.KnightsState``) both satisfy it, so one
runner (:mod:`zamek.kit.play`) drives both.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, Protocol, Self, runtime_checkable

from zamek.kit.errors import ZamekError

CHANCE: Final = -1
"""``current_player`` at a chance node (a tile drawn, a token revealed)."""
TERMINAL: Final = -2
"""``current_player`` once the game is over."""


@runtime_checkable
class Game(Protocol):
    """A game state as both games offer it."""

    @property
    def num_players(self) -> int: ...

    @property
    def current_player(self) -> int:
        """The player to move; ``CHANCE`` at a chance node; ``TERMINAL`` at the end."""
        ...

    def is_chance(self) -> bool: ...

    def is_over(self) -> bool: ...

    def chance_outcomes(self) -> Sequence[tuple[Any, float]]: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def play(self, action: Any) -> None:
        """Apply an action after checking it; raise a ``ZamekError`` that explains a refusal."""
        ...

    def apply(self, action: Any) -> None:
        """Apply an action without checking it (fast; search and trusted records)."""
        ...

    def copy(self) -> Self: ...

    def returns(self) -> tuple[float, ...]:
        """Per player at the end: 1 for a win (shared by the winners of a tie), else 0."""
        ...

    def view(self, player: int) -> object:
        """What ``player`` may see: nothing hidden from them leaves the state through it."""
        ...


def check_game(make: Callable[[int], Game], seeds: Iterable[int], *, max_actions: int = 5000,
               every: int = 1) -> int:
    """Play a random game for each seed from ``make(seed)`` and check the protocol at every step.

    Returns how many states were checked. Raises AssertionError naming the seed, step and property.
    """
    checked = 0
    for seed in seeds:
        game = make(seed)
        rng = random.Random(f"conformance:{seed}")
        seen_actions: dict[str, Any] = {}  # actions legal somewhere earlier: most are illegal later
        assert isinstance(game, Game), f"seed {seed}: {type(game).__name__} does not implement the protocol"
        n = game.num_players
        assert n >= 1
        for step in range(max_actions):
            where = f"seed {seed}, step {step}"
            if step % every == 0:
                _check_state(game, where)
                checked += 1
            if game.is_over():
                break
            if game.is_chance():
                outcomes = list(game.chance_outcomes())
                action = rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
            else:
                legal = list(game.legal_actions())
                _check_refusals(game, legal, seen_actions, where)
                seen_actions.update((str(a), a) for a in legal)
                action = rng.choice(legal)
            before = game.copy()
            checked_copy = game.copy()
            checked_copy.play(action)  # the checked play accepts what is legal...
            game.apply(action)  # ...and agrees with the fast apply
            assert _fingerprint(checked_copy) == _fingerprint(game), f"{where}: play and apply differ"
            changed = _fingerprint(before) != _fingerprint(game)
            assert changed, f"{where}: the action changed nothing the players can see"
        else:
            raise AssertionError(f"seed {seed}: no end after {max_actions} actions")
    return checked


def _check_refusals(game: Game, legal: list[Any], seen: dict[str, Any], where: str) -> None:
    """The checked ``play`` refuses what is not an action, and an action that was legal earlier but is not
    now, with a ``ZamekError``, and leaves the state as it was."""
    now = {str(a) for a in legal}
    strangers: list[Any] = [object()]
    strangers += [a for text, a in seen.items() if text not in now][:3]
    for stranger in strangers:
        probe = game.copy()
        try:
            probe.play(stranger)
        except ZamekError:
            assert _fingerprint(probe) == _fingerprint(game), f"{where}: a refused {stranger!r} changed the state"
            continue
        raise AssertionError(f"{where}: play accepted {stranger!r}, which is not legal now")


def _check_state(game: Game, where: str) -> None:
    n = game.num_players
    player = game.current_player
    if game.is_over():
        assert player == TERMINAL, f"{where}: over, yet player {player} is to move"
        assert not game.is_chance() and not list(game.legal_actions()), f"{where}: moves after the end"
        returns = game.returns()
        assert len(returns) == n and all(r >= 0 for r in returns), f"{where}: returns {returns}"
        assert abs(sum(returns) - 1.0) < 1e-9, f"{where}: returns {returns} do not share one win"
        return
    if game.is_chance():
        assert player == CHANCE, f"{where}: a chance node, yet player {player} is to move"
        outcomes = list(game.chance_outcomes())
        assert outcomes, f"{where}: a chance node without outcomes"
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9, f"{where}: probabilities do not add up to 1"
        assert all(p > 0 for _, p in outcomes), f"{where}: an outcome of probability 0"
        assert not list(game.legal_actions()), f"{where}: player actions at a chance node"
    else:
        assert 0 <= player < n, f"{where}: player {player} of {n}"
        legal = list(game.legal_actions())
        assert legal, f"{where}: no legal action for player {player}"
        assert len(set(map(str, legal))) == len(legal), f"{where}: an action listed twice"
        assert not list(game.chance_outcomes()), f"{where}: chance outcomes at a decision"
    copy = game.copy()
    assert copy is not game and _fingerprint(copy) == _fingerprint(game), f"{where}: a copy differs"
    for seat in range(n):
        game.view(seat)  # every player has a view at every step


def _fingerprint(game: Game) -> tuple[object, ...]:
    """What the protocol lets anyone see of a state, to compare two states by."""
    return (
        game.current_player, game.is_over(),
        tuple(map(str, game.legal_actions())),
        tuple((str(o), round(p, 12)) for o, p in game.chance_outcomes()),
        game.returns() if game.is_over() else (),
    )
