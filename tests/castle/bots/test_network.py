"""The expert's value network (``zamek.castle.bots.network``): the C form, the weights file, ``zamek train``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.castle.bots.test_bots import RULE_IDS, RULE_SETS, random_decisions
from zamek.castle import fast
from zamek.castle.bots import compiled as players
from zamek.castle.bots.levels import make_bot
from zamek.castle.bots.mcts import MCTSBot
from zamek.castle.bots.network import MAX_HIDDEN, NetValue, load_net, net_from_json, net_to_json
from zamek.castle.bots.value import FEATURES, default_model
from zamek.castle.rules.setup import Setup
from zamek.castle.rules.state import GameState
from zamek.cli import main


def random_net(hidden: int = 8, seed: int = 1) -> NetValue:
    rng = random.Random(seed)
    n = len(FEATURES)
    return NetValue(default_model(), tuple(0.5 + rng.random() for _ in range(n)),
                    tuple(tuple(rng.gauss(0, 0.5) for _ in range(hidden)) for _ in range(2 * n)),
                    tuple(rng.gauss(0, 0.5) for _ in range(hidden)), tuple(rng.gauss(0, 3) for _ in range(hidden)))


def positions(setup: Setup) -> list[GameState]:
    return [s for seed in range(3) for s in random_decisions(setup, seed)[::7]]


@pytest.mark.parametrize("setup", RULE_SETS, ids=RULE_IDS)
def test_the_value_is_a_zero_sum_lead_that_the_network_corrects(setup: Setup) -> None:
    net = random_net()
    corrected = 0
    for state in positions(setup):
        assert net.lead(state, 0) == pytest.approx(-net.lead(state, 1))
        corrected += abs(net.lead(state, 0) - default_model().lead(state, 0)) > 0.5
        assert 0 < net.win_chance(state, 0) < 1
    assert corrected > 0


@pytest.mark.skipif(not fast.AVAILABLE, reason="the compiled core is not built")
@pytest.mark.parametrize("setup", RULE_SETS, ids=RULE_IDS)
def test_the_compiled_network_is_the_python_network(setup: Setup) -> None:
    for hidden in (1, 8, MAX_HIDDEN):
        net = random_net(hidden, seed=hidden)
        states = positions(setup)
        compiled = players.evaluate(states, net, 1)
        assert compiled is not None
        assert compiled == pytest.approx([net.lead(s, 1) for s in states], abs=1e-9)


def test_the_weights_file_round_trips_and_is_checked_when_loaded(tmp_path: Path) -> None:
    net = random_net()
    text = net_to_json(net)
    again = net_from_json(text)
    assert (again.w1, again.b1, again.w2, again.scale) == (net.w1, net.b1, net.w2, net.scale)
    data = json.loads(text)
    damaged = dict(data, w2=[*data["w2"][:-1], data["w2"][-1] + 1.0])
    bad_files = {
        "digest": json.dumps(damaged),
        "version": json.dumps(dict(data, version=99)),
        "other features": json.dumps(dict(data, features=data["features"][:-1])),
        "shape": json.dumps(dict(data, b1=data["b1"][:-1])),
        "not finite": json.dumps(dict(data, b1=[float("nan")] * len(data["b1"]))).replace("NaN", "1e999"),
        "too wide": json.dumps(dict(data, hidden=MAX_HIDDEN + 1)),
        "not json": "{",
        "other format": json.dumps({"format": "zamek-game"}),
    }
    for problem, bad in bad_files.items():
        with pytest.raises(ValueError, match="value network"):
            net_from_json(bad)
        path = tmp_path / f"{problem}.json"
        path.write_text(bad, encoding="utf-8")
        with pytest.raises(ValueError, match="value network"):
            make_bot(f"mcts:16@{path}")
    with pytest.raises(ValueError, match="cannot read"):
        load_net(tmp_path / "missing.json")


def test_a_bot_can_search_with_a_network_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "net.json"
    path.write_text(net_to_json(random_net()), encoding="utf-8")
    bot = make_bot(f"mcts:32@{path}")
    assert isinstance(bot, MCTSBot) and isinstance(bot.evaluator, NetValue)
    state = positions(Setup())[3]
    assert bot.choose(state.copy(), random.Random(1)) in state.legal_actions()
    with pytest.raises(ValueError, match="only learned"):
        make_bot(f"greedy@{path}")


@pytest.mark.long(45)
@pytest.mark.heavy
def test_training_from_scratch_is_reproducible(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    files = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.json"
        result = CliRunner().invoke(main, ["train", "--bot", "medium", "--games", "24", "--epochs", "2",
                                           "--hidden", "4", "--eval-games", "2", "--out", str(out),
                                           "--curve", str(tmp_path / f"{name}-curve")])
        assert result.exit_code == 0, result.output
        assert "epoch 2: error" in result.output
        files.append(out.read_text(encoding="utf-8"))
    assert files[0] == files[1]
    net = net_from_json(files[0])
    assert len(net.b1) == 4 and any(w != 0 for w in net.w2)
    curve = json.loads((tmp_path / "a-curve.json").read_text(encoding="utf-8"))
    assert [p["epoch"] for p in curve["curve"]] == [0, 1, 2] and all(p["games"] == 2 for p in curve["curve"])
