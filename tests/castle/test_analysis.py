"""Hints and post-game analysis (``zamek.castle.analysis``, ``zamek analyse``): moves judged by the expert's value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import FIXTURES, load_example, position
from zamek.castle import record as records
from zamek.castle.analysis import FLAGS, analyse, flag_for, hints, judge, timeline
from zamek.castle.bots.levels import make_bot
from zamek.castle.rules.actions import parse_action
from zamek.castle.rules.editions import Edition
from zamek.castle.rules.errors import RecordError
from zamek.castle.rules.position import Position
from zamek.castle.rules.setup import Setup
from zamek.castle.rules.tiles import FeatureKind
from zamek.castle.runner import play_game
from zamek.cli import main

FIXTURE = FIXTURES / "planted_blunder.json"
PIGSTY_HELD = (
    "zamek board=2 tiles=Z09@a3/180,Z01@j3/180,Z21@a4/270,Z29@j4/0,Z41@a5/180,Z15@i5/180,Z34@j5/0,Z25@a6/270,"
    "Z27@b6/180,Z36@c6/270,Z12@d6/270,Z20@e6/90,Z26@h6/0,Z37@i6/180,Z18@j6/270,Z54@a7/180,Z60@b7/270,Z51@c7/180,"
    "Z31@d7/180,Z02@f7/270,Z43@g7/270,Z06@h7/90,Z28@i7/180,Z56@j7/90,Z16@a8/270,Z55@b8/0,Z52@c8/180,Z30@d8/180,"
    "Z17@g8/270,Z14@h8/270,Z10@i8/270,Z22@j8/270,Z08@d9/90,Z45@e9/270,Z39@f9/90,Z35@g9/180,Z23@d10/180,Z59@e10/270,"
    "Z48@f10/270,Z38@g10/180 figures=0f:a3.0,1f:i5.0,0f:d6.5,0f:d7.2,1f:g7.0,1f:f9.1,1f:g9.0,0f:e10.1,1f:g10.2 "
    "score=42/42 supply=2f/1f tokens=4@32/6@29,9@19 towers=43,56,59,65,71,76,88,94 pool=112121221 "
    "family=j4.S5/j5.i6.j6 nests=0/0 left=Z03-Z05,Z07,Z11,Z13,Z19,Z24,Z33,Z40,Z42,Z44,Z46,Z47,Z49,Z50,Z53,Z57,Z58 "
    "out=- turn=41 player=1 phase=place:Z32"
)
"""Turn 41, 42 to 42: Player 2 holds (one follower on g10) a pigsty of 4 tiles with one edge open, and has
drawn Z32, which closes it on f8 (Z12, Z14)."""
CLOSES = ("f8/0", "follower:1")
LEAVES_OPEN = ("i4/270", "pass")
"""The tile played far away, the pigsty left unfinished: the planted blunder."""


def test_the_position_holds_a_large_open_pigsty_that_the_drawn_tile_closes() -> None:
    # Z12: complete when no edge faces an empty space; the test below relies on this being the situation.
    state = position(PIGSTY_HELD)
    pigsty = state.feature_at("g10", 2)
    assert (pigsty.kind, pigsty.tiles, pigsty.followers, pigsty.controller) == (FeatureKind.PIGSTY, 4, (0, 1), 1)
    assert pigsty.open_edges > 0
    closed = state.copy()
    closed.apply(parse_action(CLOSES[0]))
    assert closed.feature_at("g10", 2).open_edges == 0
    away = state.copy()
    away.apply(parse_action(LEAVES_OPEN[0]))
    assert away.feature_at("g10", 2).open_edges > 0


def test_leaving_the_held_pigsty_unfinished_is_a_blunder_and_the_best_move_is_not_flagged() -> None:
    state = position(PIGSTY_HELD)
    blunder = judge(state, [parse_action(a) for a in LEAVES_OPEN])
    best = judge(state, [parse_action(a) for a in CLOSES])
    assert blunder.flag == "blunder" and blunder.loss >= dict(FLAGS)["blunder"]
    assert best.best == CLOSES and best.played == CLOSES
    assert best.flag is None and best.loss == 0
    # Leads are seat 0's: Player 2 (seat 1) to move, so the best move lowers seat 0's expected lead most.
    assert best.lead_after == best.lead_before < blunder.lead_after


def test_the_analysis_of_a_saved_game_flags_the_planted_blunder() -> None:
    """The saved game of the fixture reaches ``PIGSTY_HELD``; played on with either move, the analysis of the
    whole record flags the blunder there and not the best move."""
    raw = json.loads(FIXTURE.read_text(encoding="utf-8"))
    at = len(raw["moves"])
    assert str(Position.from_state(records.replay(raw))) == PIGSTY_HELD
    for move, flag in ((LEAVES_OPEN, "blunder"), (CLOSES, None)):
        game = raw | {"moves": [*raw["moves"], *move]}
        decision = next(d for d in analyse(game).decisions if d.index == at)
        assert (decision.played, decision.best, decision.flag) == (move, CLOSES, flag)


def test_hints_are_the_three_best_legal_moves_best_first() -> None:
    state = position(PIGSTY_HELD)
    given_hints = hints(state)
    assert len(given_hints) == 3
    assert given_hints[0].move == CLOSES
    assert [h.lead for h in given_hints] == sorted((h.lead for h in given_hints), reverse=True)
    for hint in given_hints:
        played = state.copy()
        for text in hint.move:
            assert parse_action(text) in played.legal_actions()
            played.apply(parse_action(text))
    assert hints(state, count=5)[:3] == given_hints


def _record(spec: str, seed: int, setup: Setup | None = None) -> dict[str, object]:
    bots = [make_bot(spec), make_bot(spec)]
    game = play_game(seed, [bot.choose for bot in bots], setup=setup)
    return records.make_record(game.setup, game.seed, game.actions, game.state)


RULE_SETS = (Setup(), Setup(edition=Edition.CASTLE_2003), Setup(sokol=True), Setup(sokol=True, gate_guard=True))


@pytest.mark.long(60)
@pytest.mark.heavy
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), rules=st.sampled_from(RULE_SETS))
def test_every_decision_of_a_game_is_judged_consistently(seed: int, rules: Setup) -> None:
    raw = _record("random", seed, rules)
    result = analyse(raw)
    state = records.replay(raw)
    assert result.final_lead == state.scores[0] - state.scores[1]
    indices = [d.index for d in result.decisions]
    assert indices == sorted(set(indices)) and len(indices) >= 20
    for d in result.decisions:
        sign = 1 if d.player == 0 else -1
        assert d.loss >= 0 and d.flag == flag_for(d.loss)
        assert d.loss == pytest.approx(sign * (d.lead_before - d.lead_after), abs=0.02)
        if d.played == d.best:
            assert d.loss == 0
        moves = raw["moves"]
        assert isinstance(moves, list) and tuple(moves[d.index:d.index + len(d.played)]) == d.played
    assert timeline(result)[-1] == result.final_lead
    assert analyse(raw).to_json() == result.to_json()  # the same every time
    summary = result.summary(0)
    assert summary["blunders"] == sum(1 for d in result.decisions if d.player == 0 and d.flag == "blunder")


@pytest.mark.heavy
def test_the_best_level_loses_less_than_random_play() -> None:
    hard = analyse(_record("hard", 3))
    random_play = analyse(_record("random", 3))
    assert hard.summary(0)["mean_loss"] < random_play.summary(0)["mean_loss"]
    assert hard.summary(1)["mean_loss"] < random_play.summary(1)["mean_loss"]


def test_a_corrupt_record_is_refused() -> None:
    raw = json.loads(FIXTURE.read_text(encoding="utf-8"))
    with pytest.raises(RecordError):
        analyse(raw | {"moves": [*raw["moves"], "z99/0"]})
    with pytest.raises(RecordError):
        analyse({"format": "something else"})


def test_the_command_prints_the_flags_in_both_languages_and_json(tmp_path: Path) -> None:
    raw = json.loads(FIXTURE.read_text(encoding="utf-8"))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(raw | {"moves": [*raw["moves"], *LEAVES_OPEN]}), encoding="utf-8")
    english = CliRunner().invoke(main, ["analyse", str(path)])
    assert english.exit_code == 0, english.output
    move = len(raw["moves"]) + 1
    assert f"move {move}, blunder" in english.output
    assert "best: Player 2 places Z32 on f8" in english.output
    polish = CliRunner().invoke(main, ["analyse", str(path), "--lang", "pl"])
    assert f"ruch {move}, poważny błąd" in polish.output
    assert "najlepszy: Gracz 2 kładzie Z32 na polu f8" in polish.output
    as_json = json.loads(CliRunner().invoke(main, ["analyse", str(path), "--json"]).output)
    assert as_json["format"] == "zamek-analysis"
    assert as_json["decisions"][-1]["flag"] == "blunder" and as_json["decisions"][-1]["best"] == list(CLOSES)


def test_the_command_refuses_a_corrupt_file_with_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "zamek-game", "version": 3, "moves": ["nonsense"]}', encoding="utf-8")
    result = CliRunner().invoke(main, ["analyse", str(path)])
    assert result.exit_code == 2 and "error:" in result.output and "Traceback" not in result.output
    path.write_text("{not json", encoding="utf-8")
    assert CliRunner().invoke(main, ["analyse", str(path)]).exit_code == 2


@pytest.mark.heavy
def test_the_flag_rates_behind_the_thresholds_part_the_levels() -> None:
    """``examples/analysis_flags.py``, the manual's table of how often each level is flagged (docs/analysis.md): a
    searching player loses less per move than random play, and every share shrinks as the threshold grows."""
    module = load_example("analysis_flags")
    hard, anyhow = module.flag_rates("hard", 1), module.flag_rates("random", 1)
    for row in (hard, anyhow):
        assert row["decisions"] > 20
        assert row["blunder"] <= row["mistake"] <= row["inaccuracy"] <= 1
    assert hard["mean_loss"] < anyhow["mean_loss"] and hard["inaccuracy"] < anyhow["inaccuracy"]
