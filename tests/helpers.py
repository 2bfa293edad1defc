"""Building test positions: custom tiles in the real castle, a fixed draw order, moves as text, and
positions written in the position notation (docs/positions.md)."""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from zamek.castle.data.loader import load_castle, parse_tileset, position_state
from zamek.castle.rules.actions import parse_action
from zamek.castle.rules.editions import edition_of
from zamek.castle.rules.position import Position
from zamek.castle.rules.setup import Rules, Setup, make_rules
from zamek.castle.rules.state import GameState

TESTS = Path(__file__).resolve().parent
"""The tests' folder; the test modules live in folders below it that mirror the code's (castle, knights, ...)."""
ROOT = TESTS.parent
"""The repository (README.md, pyproject.toml, src/, examples/)."""
SRC = ROOT / "src" / "zamek"
FIXTURES = TESTS / "fixtures"
"""Data the tests read: saved games, placement counts, tile shapes, schemas."""
GOLDEN = TESTS / "golden"
"""The golden playthroughs (``tests/castle/rules/test_golden.py``)."""
EXAMPLES = ROOT / "examples"
SHOTS = ROOT / "test-screenshots"
"""Where the browser tests save their screenshots (ignored by git)."""
_BASE_KINDS_TOML = """
[[tile]]
id = "{id}"
features = [{features}]
"""


ALL = tuple(range(12))
"""Every edge segment of a tile."""

SHORT_TILES = 10
"""The tiles of a short game (the ``short_games`` fixture of ``tests/castle/conftest.py``)."""


def feature(kind: str, segments: tuple[int, ...], **counts: int) -> str:
    """The inline TOML body of a feature: its kind, segments and counts (stocks, shrines, nests)."""
    body = f'kind = "{kind}", segments = [{", ".join(str(s) for s in segments)}]'
    return body + "".join(f", {name} = {n}" for name, n in counts.items() if n)


def road(*segments: int, stocks: int = 0, nests: int = 0) -> str:
    """A road feature for ``tile_toml`` (segments in board orientation)."""
    return feature("road", segments, stocks=stocks, nests=nests)


def house(*segments: int, nests: int = 0) -> str:
    return feature("house", segments, nests=nests)


def pigsty(*segments: int, nests: int = 0) -> str:
    return feature("pigsty", segments, nests=nests)


def chapel(*segments: int, nests: int = 0) -> str:
    return feature("chapel", segments, nests=nests)


def meadow(*segments: int, shrines: int = 0) -> str:
    return feature("meadow", segments, shrines=shrines)


def tile_toml(tile_id: str, *features: str, fountain: bool = False) -> str:
    """Return one [[tile]] block; each feature is an inline table body like 'kind = "road", segments = [1, 7]'."""
    body = ", ".join("{" + f + "}" for f in features)
    extra = "fountain = true\n" if fountain else ""
    return f'[[tile]]\nid = "{tile_id}"\n{extra}features = [{body}]\n'


def rules_with(*tiles: str) -> Rules:
    """Return rules for the real Zamek castle with the given tiles (TOML blocks from ``tile_toml``)."""
    return make_rules(load_castle("zamek"), parse_tileset("\n".join(tiles), "test"))


def game(rules: Rules, draw_order: list[str], first_player: int = 0) -> GameState:
    """Return a new game over ``rules`` whose draws follow ``draw_order``."""
    return GameState.new(Setup(first_player=first_player, draw_order=tuple(draw_order)), rules)


def play(state: GameState, *moves: str) -> GameState:
    """Play moves given in notation ('draw:T1', 'a6/90', 'follower:0', 'pass'), with full checks."""
    for move in moves:
        state.play(parse_action(move))
    return state


def turn(state: GameState, place: str, follower: str = "pass") -> GameState:
    """Draw the next tile of the fixed order, place it, then place a follower or pass."""
    (outcome, _), = state.chance_outcomes()
    state.play(outcome)
    state.play(parse_action(place))
    state.play(parse_action(follower))
    while state.is_chance() and state.phase.name == "REVEAL":
        state.play(state.chance_outcomes()[0][0])
    return state


def position(text: str, *tiles: str) -> GameState:
    """Return a playable state of a position written in the notation (docs/positions.md).

    Without ``tiles`` the position is one of the shipped castle and tiles (``position_state``). With
    ``tiles`` (TOML blocks from ``tile_toml``) the tile set is exactly those tiles, in the real castle of
    the position's rule set (the Sokół castle with ``+sokol``), as ``custom_game`` builds it. The text is
    checked as any position is: a position that cannot arise in a game raises ``PositionError``.
    """
    if not tiles:
        return position_state(text)
    tileset = parse_tileset("\n".join(tiles), "test")

    def rules_of(setup: Setup) -> Rules:
        return make_rules(load_castle("sokol" if setup.sokol else "zamek", setup.board), tileset, setup)

    return Position.parse(text, rules_of).to_state(rules_of)


def changed(state: GameState, **fields: Any) -> GameState:
    """Return a new state of ``state``'s position with ``fields`` of :class:`Position` replaced (``scores``,
    ``tokens``, ``towers``, ``pool``, ``nests``, ``left``, ``out``...), built through the position notation: the
    changed position is written as text, read back and set up, so it is checked as one that can arise in a game
    (``PositionError`` otherwise). The game keeps its own rules (its tiles) and its setup: a fixed draw order and
    the first player are history, which a position leaves out. The score breakdown so far starts afresh."""
    rules = state.rules
    position = dataclasses.replace(Position.from_state(state), **fields)
    rebuilt = Position.parse(str(position), lambda setup: rules).to_state(lambda setup: rules)
    rebuilt.setup = state.setup
    return rebuilt


def marker(state: GameState, player: int, points: int) -> GameState:
    """``state`` with ``player``'s marker moved to ``points`` on the score track (``changed``)."""
    scores = (points, state.scores[1]) if player == 0 else (state.scores[0], points)
    return changed(state, scores=scores)


def holding(state: GameState, player: int, *kinds: int, taken: int = 1, towers: tuple[int, ...] = ()) -> GameState:
    """``state`` with ``player`` holding tokens of ``kinds`` as well, each taken in turn ``taken`` from a tower
    (``changed``): one token of each kind leaves the face-down pool, and one tower is emptied for each, those of
    ``towers`` still holding one (their first track numbers) or else the farthest still holding one."""
    position = Position.from_state(state)
    named = [t for t in towers if t in position.towers]
    emptied = [*named, *(t for t in reversed(position.towers) if t not in named)][:len(kinds)]
    pool = list(position.pool)
    for kind in kinds:
        pool[kind - 1] -= 1
    tokens = list(position.tokens)
    tokens[player] = tuple(sorted([*tokens[player], *((int(k), taken) for k in kinds)]))
    return changed(state, tokens=(tokens[0], tokens[1]), pool=tuple(pool),
                   towers=tuple(t for t in position.towers if t not in emptied))


def with_fields(text: str, rules: str | None = None, **fields: str) -> str:
    """Return a position's text with its rule set and some fields replaced: ``with_fields(text, score="27g/0")``."""
    rule_set, *words = text.split()
    keys = [word.partition("=")[0] for word in words]
    unknown = set(fields) - set(keys)
    assert not unknown, f"no field {', '.join(sorted(unknown))} in {text!r}"
    words = [f"{key}={fields[key]}" if key in fields else word for key, word in zip(keys, words, strict=True)]
    return " ".join([rules or rule_set, *words])


def snapshot(state: GameState) -> dict[str, Any]:
    """Return every field of a state as plain, comparable data (for 'nothing changed' checks).

    ``parent`` is compared through each node's root, since ``find`` may compress paths (even while
    checking an action) without changing any region; ``rules`` by identity.
    """
    probe = state.copy()
    result: dict[str, Any] = {}
    for f in dataclasses.fields(state):
        value = getattr(state, f.name)
        if f.name == "rules":
            result[f.name] = id(value)
        elif f.name == "parent":
            result[f.name] = [probe.find(n) for n in range(len(probe.parent))]
        elif isinstance(value, list):
            result[f.name] = [_plain(v) for v in value]
        else:
            result[f.name] = value
    return result


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, dataclasses.astuple(value))
    return value


def custom_game(
    tiles: list[str],
    draw_order: list[str],
    *,
    edition: str = "zamek",
    sokol: bool = False,
    gate_guard: bool = False,
    first_player: int = 0,
) -> GameState:
    """Return a game over custom tiles (TOML blocks) under any rule set.

    The castle is the real Zamek castle, or the Sokół castle when ``sokol``; the setup given to
    ``make_rules`` decides the edition, the expansion and the gate-guard variant.
    """
    setup = Setup(
        edition=edition_of(edition), sokol=sokol, gate_guard=gate_guard, first_player=first_player,
        draw_order=tuple(draw_order),
    )
    castle = load_castle("sokol" if sokol else "zamek")
    return GameState.new(setup, make_rules(castle, parse_tileset("\n".join(tiles), "test"), setup))


def load_example(name: str) -> ModuleType:
    """Import ``examples/NAME.py`` (the examples are scripts, not a package) as the module ``NAME``."""
    path = EXAMPLES / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module
