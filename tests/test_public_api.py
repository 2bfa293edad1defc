"""The public API: what ``zamek`` exports, the manual's table of it (docs/library.md), and the README's example of
using it, run as written (tests/test_docs.py runs every example of the manual too)."""

from __future__ import annotations

import re

import zamek
from tests.helpers import ROOT

README = ROOT / "README.md"
LIBRARY = ROOT / "docs" / "library.md"


def test_every_listed_name_is_exported() -> None:
    assert len(zamek.__all__) == len(set(zamek.__all__))
    for name in zamek.__all__:
        assert getattr(zamek, name, None) is not None, name


def test_the_manual_table_names_every_exported_thing_and_nothing_else() -> None:
    section = LIBRARY.read_text(encoding="utf-8")
    table = section[section.index("| what | names |"):]
    named = set(re.findall(r"`([A-Za-z_][A-Za-z_0-9]*)`", table.split("\n\n", 1)[0]))
    methods = {"legal_actions", "play", "apply", "copy", "is_chance", "chance_outcomes", "result", "final_items",
               "log", "features", "occupied_features", "completed_features", "order_choices", "feature_being_scored"}
    assert named - methods <= set(zamek.__all__), sorted(named - methods - set(zamek.__all__))
    assert set(zamek.__all__) <= named, sorted(set(zamek.__all__) - named)


def test_the_readme_example_runs() -> None:
    section = README.read_text(encoding="utf-8").split("## Using the library", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)  # the assert at its end checks the replay
    game = namespace["game"]
    assert isinstance(game, zamek.GameState) and game.is_over()


def test_every_file_the_readme_links_to_is_in_the_repository() -> None:
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(((?!https?:|#)[^)#\s]+)", text)
    assert {"docs/environment.md", "docs/library.md", "docs/cli.md"} <= set(targets)
    missing = [t for t in targets if not (README.parent / t).exists()]
    assert not missing, missing
