"""The learning example (``examples/ppo_castle.py``): its hand-written backward pass agrees with the loss it
claims to differentiate, and a tiny run goes through collection, update, measurement and the plot."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from tests.env.checks import require_env
from tests.helpers import load_example

require_env()

import numpy as np  # noqa: E402

from zamek.env import castle_v0  # noqa: E402


def example() -> ModuleType:
    return load_example("ppo_castle")


def test_the_gradients_are_the_loss_s_derivatives() -> None:
    """Finite differences (in float64) of PPO's loss against every parameter's analytic gradient."""
    ppo = example()
    venv = castle_v0.vector_env(6, seed=3)
    step = venv.reset()
    for _ in range(25):
        step = venv.step(venv.sample_actions())
    assert step.observation is not None
    rng = np.random.default_rng(0)
    net = ppo.Network.new(1)
    for name, value in net.params.items():
        net.params[name] = value.astype(np.float64) + rng.standard_normal(value.shape) * 0.05
    batch = ppo.Batch.of(step.observation, step.action_mask)
    batch.patches, batch.vector, batch.features = (x.astype(np.float64) for x in
                                                    (batch.patches, batch.vector, batch.features))
    actions, logp, _ = ppo.choose(net, step.observation, step.action_mask, rng, greedy=False)
    old = logp + rng.normal(0, 0.1, len(logp))
    returns, advantages = rng.normal(0, 1, len(logp)), rng.normal(0, 1, len(logp))

    def loss() -> float:
        logits, values, _ = net.forward(batch)
        logp_all = ppo.log_softmax(logits)
        p = np.exp(logp_all)
        ratio = np.exp(logp_all[np.arange(len(actions)), actions] - old)
        clipped = np.clip(ratio, 0.8, 1.2)
        entropy = -(p * np.where(batch.mask, logp_all, 0)).sum(axis=1)
        return float(-np.minimum(ratio * advantages, clipped * advantages).mean()
                     + 0.5 * ((values - returns) ** 2).mean() - 0.01 * entropy.mean())

    grads, _ = ppo.ppo_gradients(net, batch, actions, old, returns, advantages)
    assert set(grads) == set(net.params)
    checked = 0
    for name, grad in grads.items():
        flat = net.params[name].reshape(-1)
        for j in rng.choice(flat.size, min(8, flat.size), replace=False):
            saved = flat[j]
            flat[j] = saved + 1e-5
            up = loss()
            flat[j] = saved - 1e-5
            down = loss()
            flat[j] = saved
            numeric, analytic = (up - down) / 2e-5, grad.reshape(-1)[j]
            assert abs(numeric - analytic) <= 1e-6 + 1e-4 * abs(numeric), (name, j, numeric, analytic)
            checked += 1
    assert checked > 60


@pytest.mark.heavy
def test_a_tiny_run_measures_and_draws_its_curve(tmp_path: Path) -> None:
    ppo = example()
    lines: list[str] = []
    result = ppo.train(updates=1, slots=8, samples=64, eval_every=1, eval_games=4, seed=2, greedy_share=0.5,
                       log=lines.append)
    curve = result["curve"]
    assert [point["update"] for point in curve] == [0, 1]
    assert curve[1]["games"] >= 1 and curve[1]["decisions"] >= 64
    assert all(0 <= point[o] <= 1 for point in curve for o in ("random", "beginner", "greedy"))
    assert ppo.plot(result, tmp_path / "curve.png")
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
