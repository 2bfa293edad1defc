"""One game protocol for both games (``zamek.kit``): conformance, one runner, shared helpers."""

from __future__ import annotations

import ast
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import SRC, custom_game, meadow, tile_toml
from zamek.castle.data.loader import new_game
from zamek.castle.rules.editions import Edition
from zamek.castle.rules.setup import Phase, Setup
from zamek.castle.rules.state import GameState
from zamek.kit.arena import play_all, schedule, seating
from zamek.kit.play import run, sample_chance
from zamek.kit.protocol import CHANCE, TERMINAL, Game, check_game
from zamek.knights.rules.engine import KnightsSetup, KnightsState

RULE_SETS = [Setup(), Setup(edition=Edition.CASTLE_2003), Setup(sokol=True), Setup(sokol=True, gate_guard=True)]


@pytest.mark.parametrize("setup", RULE_SETS, ids=lambda s: s.name)
def test_the_castle_game_keeps_the_protocol(setup: Setup) -> None:
    assert check_game(lambda seed: new_game(replace(setup, first_player=seed % 2)), range(2)) > 300


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rycerze_i_zamki_keeps_the_protocol(players: int) -> None:
    assert check_game(lambda seed: KnightsState.new(KnightsSetup(players=players)), range(3)) > 30


class SharedCopy(GameState):
    """A broken game: its copies are the state itself."""

    __slots__ = ()

    def copy(self) -> SharedCopy:
        return self


class LopsidedChance(GameState):
    """A broken game: its chance probabilities add up to more than 1."""

    __slots__ = ()

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        return [(outcome, 2 * p) for outcome, p in super().chance_outcomes()]


class UncheckedPlay(GameState):
    """A broken game: its checked play checks nothing."""

    __slots__ = ()

    def play(self, action: Any) -> None:
        self.apply(action)


@pytest.mark.parametrize("broken", [SharedCopy, LopsidedChance, UncheckedPlay])
def test_the_check_fails_a_game_that_breaks_the_protocol(broken: type[GameState]) -> None:
    def make(seed: int) -> GameState:
        good = new_game()
        return broken.new(good.setup, good.rules)

    with pytest.raises(AssertionError):
        check_game(make, [0])


def any_legal(game: Game, rng: random.Random) -> Any:
    return rng.choice(list(game.legal_actions()))


def chance_from(rng: random.Random) -> Callable[[Game], Any]:
    return lambda game: sample_chance(game, rng)


def test_the_players_and_the_end_are_named_alike_in_both_games() -> None:
    castle, knights = new_game(), KnightsState.new(KnightsSetup(players=3))
    assert castle.current_player == CHANCE and knights.current_player == CHANCE
    for game in (castle, knights):
        assert isinstance(game, Game)
        run(game, [any_legal] * game.num_players, [random.Random(p) for p in range(game.num_players)],
            chance_from(random.Random(1)))
        assert game.is_over() and game.current_player == TERMINAL
        assert sum(game.returns()) == pytest.approx(1.0)


def test_one_runner_plays_both_games_and_counts_each_seats_decisions() -> None:
    for game in (new_game(Setup(sokol=True)), KnightsState.new(KnightsSetup(players=4))):
        seen: list[Any] = []

        def note(_game: Game, action: Any, log: list[Any] = seen) -> None:
            log.append(action)

        played = run(game, [any_legal] * game.num_players, [random.Random(p) for p in range(game.num_players)],
                     chance_from(random.Random(3)), on_action=note)
        assert played.actions == seen and game.is_over()
        assert len(played.decisions) == game.num_players and all(n > 0 for n in played.decisions)
        assert sum(played.decisions) < len(played.actions)  # the rest are chance events


def test_the_runner_times_each_turn_as_well_as_each_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """A castle turn (Z6-Z9) places one tile: the runner counts a seat's turns by its placements, an extra turn
    (Z19) as a turn of its own, and its longest turn is all that turn's decisions together."""
    import zamek.kit.play as play_module

    class Clock:
        now = 0.0

        @classmethod
        def perf_counter(cls) -> float:
            return cls.now

    monkeypatch.setattr(play_module, "time", Clock)

    def slow_placements(game: Any, rng: random.Random) -> Any:
        # a placement takes 1 s and every other decision 0.5 s, so a turn of placement and figure takes 1.5 s
        Clock.now += 1.0 if isinstance(game, GameState) and game.phase is Phase.PLACE else 0.5
        return any_legal(game, rng)

    game = new_game(Setup(sokol=True))
    placements = [0, 0]

    def count(state: Any, action: Any) -> None:
        if not state.is_chance() and state.phase is Phase.PLACE:
            placements[state.current] += 1

    played = run(game, [slow_placements] * 2, [random.Random(p) for p in range(2)], chance_from(random.Random(4)),
                 on_action=count, turn_of=lambda state: state.turn)
    assert played.turns == placements
    assert played.max_seconds == [1.0, 1.0]
    assert all(longest >= 1.5 for longest in played.max_turn_seconds)  # a placement and its figure, at least
    plain = run(new_game(Setup(sokol=True)), [slow_placements] * 2, [random.Random(p) for p in range(2)],
                chance_from(random.Random(4)))
    assert sum(plain.turns) <= sum(played.turns)  # without turn numbers, an extra turn joins the one before


def test_z22_the_castle_view_holds_the_board_but_not_a_fixed_draw_order() -> None:
    game = custom_game([tile_toml("A", meadow(*range(12))), tile_toml("B", meadow(*range(12), shrines=1))],
                       ["B", "A"])
    assert game.chance_outcomes() == [(game.chance_outcomes()[0][0], 1.0)]  # the test's fixed order
    seen = game.view(0)
    assert seen.setup.draw_order is None
    assert sorted(str(o) for o, _ in seen.chance_outcomes()) == ["draw:A", "draw:B"]
    assert seen.scores == game.scores and seen.legal_actions() == game.legal_actions()


def test_k8_a_knights_view_holds_no_other_hand() -> None:
    game = KnightsState.new(KnightsSetup(players=3))
    rng = random.Random(5)
    while game.is_chance():
        game.play(sample_chance(game, rng))
    view = game.view(1)
    assert not hasattr(view, "hands")
    assert sum(view.hand) == game.hand_size(1)


def _imports(folder: Path) -> set[tuple[str, str]]:
    found = set()
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add((path.name, node.module))
    return found


def _outside(imports: set[tuple[str, str]], allowed: Sequence[str]) -> list[tuple[str, str]]:
    return sorted((f, m) for f, m in imports if m.startswith("zamek") and not m.startswith(tuple(allowed)))


def test_neither_game_borrows_from_the_others_files() -> None:
    # Rycerze i zamki uses the shared modules (the kit, the catalogue of words), never the castle game's.
    for folder in (SRC / "knights", SRC / "knights" / "rules", SRC / "knights" / "data"):
        assert _outside(_imports(folder), ["zamek.knights", "zamek.kit", "zamek.i18n"]) == []
    # The castle game's core and its drivers, and the shared modules, know nothing of the card game.
    for folder in (SRC / "castle" / "rules", SRC / "castle" / "bots", SRC / "kit"):
        assert [m for _, m in _imports(folder) if m.startswith("zamek.knights")] == []
    # The core stands on itself and the shared modules only (its errors' words are the catalogue's).
    assert _outside(_imports(SRC / "castle" / "rules"),
                    ["zamek.castle.rules", "zamek.kit.protocol", "zamek.kit.errors", "zamek.i18n"]) == []


def square(n: int) -> int:
    return n * n


def test_one_arena_schedules_and_plays_both_games_matches() -> None:
    # Seeds and rotations: n games a seed, each listed player once in every seat.
    assert schedule(2, 5, 10) == [(10, 0), (10, 1), (11, 0), (11, 1), (12, 0)]
    assert schedule(3, 4, 1) == [(1, 0), (1, 1), (1, 2), (2, 0)]
    assert [seating(3, r) for r in range(3)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    heard: list[tuple[int, int]] = []
    assert play_all(square, [3, 1, 2], 1, lambda index, result: heard.append((index, result))) == [9, 1, 4]
    assert heard == [(0, 9), (1, 1), (2, 4)]
    assert play_all(square, list(range(8)), 2) == [n * n for n in range(8)]  # on two processes, in order
