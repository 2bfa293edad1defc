"""The learned position value (zamek.castle.bots.value) and its fitting (zamek.castle.training.fit_value).

The board features are checked on the hand-made positions of ``test_bots`` (a pigsty open to one
space, a road with stocks open to the same space), the fit on samples whose answer is known, and
the shipped model on symmetry and on real games.
"""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.castle.bots.test_bots import trap_position
from zamek.castle.bots import value as value_module
from zamek.castle.bots.levels import make_bot
from zamek.castle.bots.mcts import MCTSBot
from zamek.castle.bots.network import load_estimate
from zamek.castle.bots.value import (
    FEATURES,
    INDEX,
    MODEL_FORMAT,
    MODEL_VERSION,
    ValueModel,
    default_model,
    model_from_json,
    position_features,
)
from zamek.castle.data.loader import new_game
from zamek.castle.rules.actions import parse_action
from zamek.castle.rules.editions import Edition
from zamek.castle.rules.setup import Phase, Setup
from zamek.castle.runner import sample_chance
from zamek.castle.training.fit_value import collect, fit, model_json, solve
from zamek.cli import main


def test_frontier_is_the_empty_space_an_open_feature_faces() -> None:
    g = trap_position()
    b5 = g.castle.cell_of("b5")
    assert g.frontier(g.feature_at("b6", 0)) == {b5}  # Black's pigsty (Z12: open only to b5)
    assert g.frontier(g.feature_at("a5", 0)) == {b5}  # White's road with stocks


def test_features_put_open_features_in_the_bucket_of_the_spaces_they_need() -> None:
    g = trap_position()
    white, black = position_features(g)
    assert black[INDEX["pigsty_one"]] == 8  # 4 tiles x 2 (Z14)
    assert white[INDEX["road_one"]] == 6  # 3 tiles x 2 with stocks (Z14)
    assert white[INDEX["held_one"]] == 1 and black[INDEX["held_one"]] == 1
    assert white[INDEX["to_move"]] == 1 and black[INDEX["to_move"]] == 0
    assert white[INDEX["supply"]] == 5 and black[INDEX["supply"]] == 5


def test_a_feature_no_tile_left_can_close_is_dead() -> None:
    g = trap_position()
    # White places PW away from b5; only the meadow tile M0 is left, and it has no road, so nothing
    # can fill b5 (a road must meet the road on its west, Z7): both features there are dead.
    g.play(next(a for a in g.legal_actions() if str(a)[:3] not in ("b5/", "e10")))
    g.play(parse_action("pass"))
    assert [g.tiles.tiles[t].id for t in g.remaining] == ["M0"]
    white, black = position_features(g)
    assert black[INDEX["pigsty_dead"]] == 8 and black[INDEX["pigsty_one"]] == 0
    assert white[INDEX["road_dead"]] == 6 and white[INDEX["held_dead"]] == 1


def test_the_value_is_symmetric_and_exact_at_the_end() -> None:
    model = default_model()
    rng = random.Random(4)
    state = new_game(Setup(first_player=0))
    bot = make_bot("greedy")
    while not state.is_over():
        if state.is_chance():
            state.apply(sample_chance(state, rng))
            continue
        assert model.lead(state, 0) == pytest.approx(-model.lead(state, 1))
        assert 0.0 < model.win_chance(state, 0) < 1.0
        state.apply(bot.choose(state, rng))
    assert model.lead(state, 0) == state.scores[0] - state.scores[1]
    assert model.win_chance(state, 0) in (0.0, 0.5, 1.0)


def test_features_are_computed_in_every_rule_set() -> None:
    for setup in (Setup(sokol=True), Setup(edition=Edition.CASTLE_2003, sokol=True, gate_guard=True)):
        rng = random.Random(2)
        state = new_game(setup)
        while not state.is_over():
            if state.is_chance():
                state.apply(sample_chance(state, rng))
            else:
                x0, x1 = position_features(state)
                assert len(x0) == len(x1) == len(FEATURES)
                state.apply(rng.choice(state.legal_actions()))


def test_solve_and_fit_recover_known_coefficients() -> None:
    assert solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0]) == pytest.approx([0.8, 1.4])
    rng = random.Random(1)
    truth = {INDEX["pigsty_one"]: 1.5, INDEX["supply"]: 2.0, INDEX["token_1"]: 4.0}
    samples = []
    for _ in range(400):
        diff = [0.0] * len(FEATURES)
        for i in truth:
            diff[i] = float(rng.randint(-6, 6))
        now = float(rng.randint(-20, 20))
        final = now + sum(truth[i] * diff[i] for i in truth)
        samples.append((diff, now, final))
    result = fit(samples, ridge=1e-6)
    for i, c in enumerate(result.model.coefficients):
        assert c == pytest.approx(truth.get(i, 0.0), abs=1e-6)
    assert result.residual_sd == pytest.approx(0.0, abs=1e-6)


def test_collected_samples_pair_each_turn_with_the_final_score() -> None:
    samples = collect("greedy:3", 2, 7, Setup())
    assert len(samples) >= 2 * 60  # a sample per drawn tile, discards included
    finals = {final for _, _, final in samples}
    assert len(finals) == 2  # one final score difference per game
    assert samples[0][1] == 0.0  # nobody has scored before the first draw


def test_model_json_round_trips_and_refuses_other_features() -> None:
    model = ValueModel(tuple(float(i) for i in range(len(FEATURES))), 9.0)
    text = model_json(fit([([0.0] * len(FEATURES), 0.0, 0.0)]), "greedy", [10], 1, Setup())
    assert model_from_json(text).coefficients == (0.0,) * len(FEATURES)
    data = json.loads(text)
    data["features"] = data["features"][:-1]
    with pytest.raises(ValueError, match="train-value"):
        model_from_json(json.dumps(data))
    assert model.win_scale == 9.0


def test_a_damaged_or_foreign_value_model_is_refused_saying_why() -> None:
    text = resources.files("zamek.castle.data").joinpath("value_model.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["format"] == MODEL_FORMAT and model_from_json(text) == default_model()
    edited = dict(data, coefficients=[c + 0.5 * (i == 3) for i, c in enumerate(data["coefficients"])])
    bad = {
        "digest": json.dumps(edited),
        "version": json.dumps(dict(data, version=MODEL_VERSION + 1)),
        "not a zamek-value-model": json.dumps(dict(data, format="zamek-value-net")),
        "finite numbers": json.dumps(dict(data, coefficients=["1"] * len(FEATURES))),
        "positive": json.dumps(dict(data, win_scale=0)),
        "not JSON": text[:-20],
    }
    for reason, broken in bad.items():
        with pytest.raises(ValueError, match=reason):
            model_from_json(broken)


def test_a_learned_value_file_plays_through_at_file(tmp_path: Path) -> None:
    # ``mcts:N@FILE`` takes a learned value as well as a network: the bot then judges by that file's weights.
    path = tmp_path / "value.json"
    text = model_json(fit([([0.0] * len(FEATURES), 0.0, 0.0)]), "greedy", [10], 1, Setup())
    path.write_text(text, encoding="utf-8")
    bot = make_bot(f"mcts:16@{path}")
    assert isinstance(bot, MCTSBot) and bot.evaluator == model_from_json(text) != default_model()
    other = tmp_path / "other.json"
    other.write_text("{}", encoding="utf-8")
    with pytest.raises(ValueError, match="not a zamek-value-net"):  # neither kind: named as a network file
        load_estimate(other)


def test_cli_train_value_writes_a_model_the_bots_can_load(tmp_path: Path) -> None:
    out = tmp_path / "model.json"
    result = CliRunner().invoke(main, ["train-value", "--bot", "greedy:3", "--games", "10,10", "--seed", "3",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "round 2:" in result.output and "written to" in result.output
    model = model_from_json(out.read_text(encoding="utf-8"))
    assert len(model.coefficients) == len(FEATURES)
    bad = CliRunner().invoke(main, ["train-value", "--bot", "nobody", "--out", str(out)])
    assert bad.exit_code == 2 and "unknown player" in bad.output
    bad = CliRunner().invoke(main, ["train-value", "--eval-against", "nobody", "--out", str(out)])
    assert bad.exit_code == 2 and "unknown player" in bad.output


@pytest.mark.heavy
def test_train_value_is_reproducible_and_measures_each_round_against_the_opponent(tmp_path: Path) -> None:
    texts = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.json"
        result = CliRunner().invoke(main, ["train-value", "--bot", "greedy:3", "--games", "10,10", "--seed", "3",
                                           "--eval-games", "2", "--eval-against", "medium", "--out", str(out),
                                           "--curve", str(tmp_path / f"{name}-curve")])
        assert result.exit_code == 0, result.output
        assert "round 2:" in result.output and "with it vs medium" in result.output
        texts.append(out.read_text(encoding="utf-8"))
    assert texts[0] == texts[1]
    curve = json.loads((tmp_path / "a-curve.json").read_text(encoding="utf-8"))
    assert [p["round"] for p in curve["curve"]] == [1, 2] and [p["games"] for p in curve["curve"]] == [10, 20]
    for point in curve["curve"]:
        assert point["played"] == 2 and point["wins"] + point["losses"] + point["draws"] == 2
        assert point["win_rate"] == (point["wins"] + point["draws"] / 2) / 2
    assert curve["eval"] == "mcts:128 with the value vs medium"


@pytest.mark.slow
def test_the_shipped_value_is_what_its_command_makes(tmp_path: Path) -> None:
    # The manual's command (docs/bots.md) for src/zamek/castle/data/value_model.json, from the settings it records.
    shipped = resources.files("zamek.castle.data").joinpath("value_model.json").read_text(encoding="utf-8")
    trained = json.loads(shipped)["trained"]
    out = tmp_path / "value_model.json"
    result = CliRunner().invoke(main, ["train-value", "--bot", trained["bot"], "--seed", str(trained["seed"]),
                                       "--games", ",".join(str(n) for n in trained["games per round"]),
                                       "--workers", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == shipped


def test_the_shipped_model_matches_the_features() -> None:
    model = value_module.default_model()
    assert len(model.coefficients) == len(FEATURES)
    assert model.win_scale > 0
    state = new_game(Setup(first_player=0))
    assert state.phase is Phase.DRAW
    assert model.lead(state, 0) > 0  # moving first is worth something (to_move)
