"""The summary of a server's profile (``python -m tools.cpu_profile``): py-spy's raw stacks summed up by function."""

from __future__ import annotations

from pathlib import Path

from tools.cpu_profile import read_stacks, summary


def test_the_summary_shares_the_samples_by_function_itself_and_under_it(tmp_path: Path) -> None:
    raw = tmp_path / "profile.txt"
    raw.write_text("run (app.py:1);view (views.py:2);dump (json.py:3) 6\n"
                   "run (app.py:1);view (views.py:2) 2\n"
                   "run (app.py:1);save (db.py:4) 2\n"
                   "not a stack\n")
    stacks = read_stacks(raw)
    assert sum(stacks.values()) == 10
    text = summary(stacks)
    own, under = text.split("inclusive:")
    assert "60.0%  dump (json.py:3)" in own and "20.0%  view (views.py:2)" in own
    assert "100.0%  run (app.py:1)" in under and "80.0%  view (views.py:2)" in under


def test_a_profile_with_no_samples_says_so(tmp_path: Path) -> None:
    raw = tmp_path / "empty.txt"
    raw.write_text("")
    assert summary(read_stacks(raw)) == "no samples"
