"""Golden playthroughs: whole saved games with their expected, human-readable breakdown.

In the spirit of OpenSpiel's playthrough tests. For every rule set, two games (fixed seeds) of the
``greedy`` bot (Player 1) against the ``random`` bot (Player 2) are stored under ``tests/golden/``:

- ``<rules>-<seed>.json``: the saved game (``zamek.castle.record.make_record``), so the game replays;
- ``<rules>-<seed>.txt``: a header (rules, seed, first player, the decisions that occur), then one line
  per action (its number, the phase before it, the player whose turn it is, its notation and the move
  in words), after every action that scored the new score lines in words and the scores, and at the
  end the final scoring, the totals and the result.

The tests replay every record with full checks (``zamek.castle.record.replay``), write the text again from
the replayed game and compare it with the stored text, showing a unified diff on a mismatch. A
difference means the rules, the scoring or the words changed: check the diff, and if the change is
meant, regenerate::

    .venv/bin/python -m tests.castle.rules.test_golden --regenerate

Regenerating plays the games again with the bots, so the stored games follow the bots as they are
then. The seeds were picked so that, for each rule set, the scoring order (ORDER), the x2 token
(DOUBLE) and the extra turn (EXTRA_TURN) are asked and tokens are taken;
``.venv/bin/python -m tests.castle.rules.test_golden --search 1 60`` prints these numbers for other seeds.
"""

from __future__ import annotations

import difflib
import json
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import pytest

from tests.helpers import GOLDEN
from zamek.castle.bots.levels import make_bot
from zamek.castle.data.loader import new_game
from zamek.castle.record import make_record, read_record, replay
from zamek.castle.report import describe_move, item_line, player_name
from zamek.castle.rules.actions import Action, Order, Reveal, UseToken
from zamek.castle.rules.editions import Edition
from zamek.castle.rules.setup import Phase, Setup
from zamek.castle.rules.state import GameState
from zamek.castle.runner import play_game
from zamek.i18n import NOBODY, Seat, say

REGENERATE: Final = ".venv/bin/python -m tests.castle.rules.test_golden --regenerate"
LANG: Final = "en"

RULES: Final[dict[str, Setup]] = {
    "zamek": Setup(),
    "castle2003": Setup(edition=Edition.CASTLE_2003),
    "zamek+sokol": Setup(sokol=True),
    "zamek+sokol+gate-guard": Setup(sokol=True, gate_guard=True),
}
"""The rule sets by their name (``Setup.name``)."""

SEEDS: Final[dict[str, tuple[int, int]]] = {
    "zamek": (1, 29),
    "castle2003": (6, 38),
    "zamek+sokol": (6, 16),
    "zamek+sokol+gate-guard": (13, 22),
}
"""Two seeds per rule set; the seed fixes the first player, the draws and both bots' choices."""

PLAYERS: Final = ("greedy", "random")
"""The bots in seat order: Player 1, Player 2."""

DECISIONS: Final = (Phase.ORDER, Phase.DOUBLE, Phase.EXTRA_TURN)


def stem(rules: str, seed: int) -> str:
    return f"{rules}-{seed}"


def expected_files() -> set[str]:
    """Return the names of every file the generator writes under ``tests/golden/``."""
    return {f"{stem(rules, seed)}{suffix}" for rules, seeds in SEEDS.items() for seed in seeds
            for suffix in (".txt", ".json")}


# ------------------------------------------------------------------- playing


def play(rules: str, seed: int) -> dict[str, Any]:
    """Play a game of greedy against random and return its record."""
    bots = [make_bot(name) for name in PLAYERS]
    game = play_game(seed, [bot.choose for bot in bots], setup=RULES[rules])
    return make_record(game.setup, seed, game.actions, game.state)


# ------------------------------------------------------------------ the text


@dataclass
class Decisions:
    """What happened in a game that a golden playthrough is meant to show."""

    asked: Counter[str] = field(default_factory=Counter)
    """Decisions asked, by phase (ORDER, DOUBLE, EXTRA_TURN)."""
    used: Counter[str] = field(default_factory=Counter)
    """Of those, the ones answered with a token used (DOUBLE, EXTRA_TURN) or a feature other than the
    first offered (ORDER)."""
    tokens_taken: int = 0
    discarded: int = 0
    ties: int = 0
    gate_lost: int = 0
    nests: int = 0

    def note(self, state: GameState, action: Action) -> None:
        """Count ``action``, about to be played in ``state``."""
        phase = state.phase
        if phase in DECISIONS:
            self.asked[phase.name] += 1
            if isinstance(action, UseToken) or (isinstance(action, Order) and action.choice != 0):
                self.used[phase.name] += 1
        if isinstance(action, Reveal):
            self.tokens_taken += 1

    def line(self) -> str:
        parts = []
        for phase in DECISIONS:
            how = "other than first" if phase is Phase.ORDER else "token used"
            parts.append(f"{phase.name} {self.asked[phase.name]} ({how} {self.used[phase.name]})")
        parts.append(f"tokens taken {self.tokens_taken}")
        return ", ".join(parts)

    def extras(self) -> str:
        return (f"discarded tiles {self.discarded}, unscored ties {self.ties}, "
                f"points lost at gates {self.gate_lost}, falcon nests taken {self.nests}")


def walk(record: dict[str, Any], on_action: Callable[[GameState, Action, GameState], None]) -> GameState:
    """Play a record's moves with checks, calling ``on_action(before, action, after)`` for each."""
    setup, actions = read_record(record)
    state = new_game(setup)
    for action in actions:
        before = state.copy()
        state.play(action)
        on_action(before, action, state)
    return state


def decisions_of(record: dict[str, Any]) -> Decisions:
    found = Decisions()
    state = walk(record, lambda before, action, _after: found.note(before, action))
    found.discarded = len(state.discarded)
    during = [item for item in state.log if not item.final]
    found.ties = sum(1 for item in during if item.player is None)
    found.gate_lost = sum(item.lost for item in during)
    found.nests = sum(item.nests for item in during)
    return found


def _scores(state: GameState) -> str:
    return ", ".join(f"{player_name(p, LANG)} {state.scores[p]}" for p in (0, 1))


def render(record: dict[str, Any], replayed: GameState) -> str:
    """Return the golden text of a game: the header, every action with what it scored, the end."""
    setup = replayed.setup
    edition = setup.edition
    found = decisions_of(record)
    lines = [
        f"Golden playthrough (written by '{REGENERATE}'; do not edit)",
        f"rules: {setup.name}",
        f"seed: {record['seed']}",
        f"first player: {player_name(setup.first_player, LANG)}",
        "players: " + ", ".join(f"{player_name(p, LANG)} {name}" for p, name in enumerate(PLAYERS)),
        f"moves: {len(record['moves'])}",
        f"decisions: {found.line()}",
        f"also: {found.extras()}",
        "",
        f"{'move':>5} {'phase':<10} {'turn of':<9} {'action':<12} in words",
    ]
    number = 0

    def on_action(before: GameState, action: Action, after: GameState) -> None:
        nonlocal number
        number += 1
        who = player_name(before.current, LANG)
        words = describe_move(before, action, LANG)
        lines.append(f"{number:>5} {before.phase.name:<10} {who:<9} {action!s:<12} {words}".rstrip())
        scored = [item for item in after.log[len(before.log):] if not item.final]
        for item in scored:
            lines.append(f"{'':>6}+ {item_line(item, LANG, edition)}")
        if scored:
            lines.append(f"{'':>6}= {_scores(after)}")
        if after.is_over():
            lines.append(f"{'':>6}game over")

    state = walk(record, on_action)
    assert [*state.log] == [*replayed.log] and state.scores == replayed.scores, "the walk and replay() differ"
    lines.append("")
    lines.append(say("report.final-scoring", LANG))
    lines.extend(f"  {item_line(item, LANG, edition)}" for item in state.log if item.final)
    lines.append("")
    for player in (0, 1):
        lines.append(say("report.total", LANG, edition, NOBODY, player=Seat(player), points=state.scores[player]))
    if state.discarded:
        ids = [state.tiles.tiles[t].id for t in state.discarded]
        lines.append(say("report.discarded", LANG, edition, NOBODY, tiles=ids))
    result = state.result()
    assert result is not None, "a golden game must be finished"
    if len(result.winners) == 2:
        lines.append(say("report.shared-victory", LANG))
    else:
        lines.append(say("report.winner", LANG, edition, NOBODY, player=Seat(result.winners[0])))
    return "\n".join(lines) + "\n"


def record_text(record: dict[str, Any]) -> str:
    return json.dumps(record, indent=1) + "\n"


# ------------------------------------------------------------------- tests


GAMES: Final = [(rules, seed) for rules, seeds in SEEDS.items() for seed in seeds]


def _load(rules: str, seed: int) -> tuple[dict[str, Any], str]:
    path = GOLDEN / stem(rules, seed)
    record: dict[str, Any] = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    return record, path.with_suffix(".txt").read_text(encoding="utf-8")


def test_the_fixtures_are_the_generated_set() -> None:
    found = {p.name for p in GOLDEN.iterdir()} if GOLDEN.is_dir() else set()
    expected = expected_files()
    assert found == expected, (
        f"tests/golden/ differs from what the generator writes (missing {sorted(expected - found)}, "
        f"unexpected {sorted(found - expected)}); run '{REGENERATE}'"
    )
    assert set(SEEDS) == set(RULES)
    assert all(RULES[name].name == name for name in RULES)
    assert all(len(set(seeds)) == 2 for seeds in SEEDS.values())


@pytest.mark.parametrize(("rules", "seed"), GAMES, ids=[stem(r, s) for r, s in GAMES])
def test_golden_playthrough(rules: str, seed: int) -> None:
    record, stored = _load(rules, seed)
    state = replay(record)  # every move checked, and the recorded result compared
    assert state.is_over()
    assert record["seed"] == seed
    setup, _ = read_record(record)
    assert setup.name == rules and setup.board == RULES[rules].board
    text = render(record, state)
    if text != stored:
        diff = difflib.unified_diff(stored.splitlines(keepends=True), text.splitlines(keepends=True),
                                    f"tests/golden/{stem(rules, seed)}.txt (stored)", "regenerated from the record")
        pytest.fail(f"the playthrough differs from the stored text (if meant: '{REGENERATE}'):\n" + "".join(diff),
                    pytrace=False)


@pytest.mark.parametrize("rules", list(SEEDS))
def test_each_rule_set_asks_the_decisions(rules: str) -> None:
    """The chosen games show what they are for: order and x2 questions, an extra turn, tokens taken."""
    found = [decisions_of(_load(rules, seed)[0]) for seed in SEEDS[rules]]
    asked = sum((f.asked for f in found), Counter[str]())
    assert asked["ORDER"] > 0 and asked["DOUBLE"] > 0 and asked["EXTRA_TURN"] > 0, asked
    assert all(f.tokens_taken > 0 for f in found)
    if RULES[rules].gate_guard:
        assert sum(f.gate_lost for f in found) > 0


# -------------------------------------------------------------- generating


def regenerate() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for rules, seed in GAMES:
        record = play(rules, seed)
        path = GOLDEN / stem(rules, seed)
        path.with_suffix(".json").write_text(record_text(record), encoding="utf-8")
        path.with_suffix(".txt").write_text(render(record, replay(record)), encoding="utf-8")
        print(f"wrote {path}.txt and .json: {decisions_of(record).line()}")
    for stale in sorted(set(p.name for p in GOLDEN.iterdir()) - expected_files()):
        (GOLDEN / stale).unlink()
        print(f"removed {GOLDEN / stale}")


def search(first: int, last: int) -> None:
    """Print what the games of seeds ``first``..``last`` show, per rule set (to choose seeds)."""
    for rules in RULES:
        for seed in range(first, last + 1):
            record = play(rules, seed)
            found = decisions_of(record)
            first_player = player_name(record["setup"]["first_player"], LANG)
            print(f"{rules} {seed}: first {first_player}; {found.line()}; {found.extras()}; "
                  f"scores {record['result']['scores']}")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments == ["--regenerate"]:
        regenerate()
    elif len(arguments) == 3 and arguments[0] == "--search" and all(a.isdigit() for a in arguments[1:]):
        search(int(arguments[1]), int(arguments[2]))
    else:
        sys.exit("usage: python -m tests.castle.rules.test_golden --regenerate | --search FIRST LAST")
