"""The code's layout: no Python module under src/ is over 600 lines, and no class over 400."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
MAX_MODULE_LINES = 600
MAX_CLASS_LINES = 400


def modules() -> list[Path]:
    found = sorted(SRC.rglob("*.py"))
    assert found, SRC
    return found


def test_no_module_is_over_600_lines() -> None:
    long = {str(p.relative_to(SRC)): n for p in modules() if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES}
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_no_class_is_over_400_lines() -> None:
    long = {}
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                size = node.end_lineno - node.lineno + 1
                if size > MAX_CLASS_LINES:
                    long[f"{path.relative_to(SRC)}:{node.name}"] = size
    assert not long, f"classes over {MAX_CLASS_LINES} lines: {long}"


def test_nothing_builds_a_setup_positionally() -> None:
    """A Setup is made by keyword, Setup.parse or dataclasses.replace: positional fields would silently take a value
    meant for another once a variant adds a field (docs/adding-a-variant.md)."""
    root = SRC.parent
    found = []
    for path in sorted([*SRC.rglob("*.py"), *(root / "tests").rglob("*.py"), *(root / "tools").rglob("*.py"),
                        *(root / "examples").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and node.args:
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                if name in ("Setup", "Rules"):
                    found.append(f"{path.relative_to(root)}:{node.lineno}")
    assert not found, f"positional Setup or Rules: {found}"
