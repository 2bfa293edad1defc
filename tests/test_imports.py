"""The house's structure: the rules load nothing but the rules, the package loads its names lazily, and no module
of src/ takes part in an import cycle."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

HEAVY = ("sqlalchemy", "fastapi", "uvicorn", "pydantic", "click", "numpy", "gymnasium", "alembic", "psycopg", "babel")
"""Libraries that a reader of the rules must not pay for (Babel's plural rules load when a message is said)."""
WORDS = ("zamek.i18n", "zamek.i18n.messageformat")
"""What the rules' errors need to be said: the catalogue's reader (no catalogue is read until one is)."""


def loaded_after(code: str) -> tuple[list[str], list[str]]:
    """The zamek modules, and the heavy libraries, that a fresh interpreter has loaded after ``code``."""
    probe = (f"{code}\nimport json, sys\n"
             f"heavy = {HEAVY!r}\n"
             "print(json.dumps([sorted(m for m in sys.modules if m == 'zamek' or m.startswith('zamek.')),"
             " sorted(m for m in sys.modules if m.split('.')[0] in heavy)]))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120)
    zamek, heavy = json.loads(done.stdout)
    return zamek, heavy


def test_importing_the_package_loads_nothing_else() -> None:
    zamek, heavy = loaded_after("import zamek")
    assert zamek == ["zamek"] and heavy == []


@pytest.mark.parametrize("code", ["import zamek.castle.rules.state", "import zamek; zamek.GameState; zamek.Setup"])
def test_the_castle_rules_load_only_the_rules(code: str) -> None:
    zamek, heavy = loaded_after(code)
    outside = [m for m in zamek if not m.startswith("zamek.castle.rules") and m not in (
        "zamek", "zamek.castle", "zamek.kit", "zamek.kit.errors", "zamek.kit.protocol", *WORDS)]
    assert not outside and not heavy, (outside, heavy)
    assert len(zamek) <= 27, zamek  # the rules' modules, their packages, the protocol both games implement, WORDS


def test_the_card_games_rules_load_only_its_rules() -> None:
    zamek, heavy = loaded_after("import zamek.knights.rules.engine")
    outside = [m for m in zamek if not m.startswith("zamek.knights") and not m.startswith("zamek.kit")
               and m != "zamek" and m not in WORDS]
    assert not outside and not heavy, (outside, heavy)
    assert not any(m.startswith("zamek.castle") for m in zamek)


def test_a_public_name_loads_its_module_on_first_use() -> None:
    import zamek

    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        zamek.nothing_here  # noqa: B018
    assert set(zamek.__all__) == set(zamek._MODULE_OF)
    assert set(dir(zamek)) >= set(zamek.__all__)
    assert zamek.new_game is __import__("zamek.castle.data.loader", fromlist=["new_game"]).new_game


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``path`` imports anywhere (functions included), but for ``TYPE_CHECKING``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {id(node) for block in ast.walk(tree)
               if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
               for node in ast.walk(block)}
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            for alias in node.names:
                target = f"{base}.{alias.name}"
                found.add(target if target in modules else base)
    return (found & modules) - {name}


def import_cycles() -> list[list[str]]:
    """Every group of modules of src/ that import each other round (Tarjan's strongly connected components)."""
    paths = {module_name(p): p for p in SRC.rglob("*.py")}
    graph = {name: imports_of(path, set(paths)) for name, path in paths.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def test_no_module_of_src_is_in_an_import_cycle() -> None:
    assert import_cycles() == []


def test_the_cycle_finder_finds_a_cycle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "loop"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from loop.b import x\n")
    (package / "b.py").write_text("def f():\n    from loop import a\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from loop import a\n")
    monkeypatch.setattr(sys.modules[__name__], "SRC", tmp_path)
    assert import_cycles() == [["loop.a", "loop.b"]]
