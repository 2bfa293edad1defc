"""The tools' dependencies are the ``tools`` extra of pyproject.toml (issue 40: the load test needed the whole
development extra), and a tool run without them says which extra to install, with exit status 2."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions

import pytest
from packaging.requirements import Requirement

from tests.helpers import ROOT

OWN = {"zamek", "tools", "tests"}


def third_party_imports() -> dict[str, set[str]]:
    """The modules outside the standard library and the project that each tool imports, by top-level name."""
    found: dict[str, set[str]] = {}
    for file in sorted((ROOT / "tools").glob("*.py")):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top not in OWN:
                    found.setdefault(top, set()).add(file.name)
    return found


def names(requirements: list[str]) -> set[str]:
    return {Requirement(text).name.lower().replace("_", "-") for text in requirements}


def test_every_module_a_tool_imports_comes_with_zamek_or_the_tools_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    given = names(project["dependencies"]) | names(project["optional-dependencies"]["tools"])
    providers = packages_distributions()
    missing = {module: files for module, files in third_party_imports().items()
               if not {d.lower().replace("_", "-") for d in providers.get(module, [module])} & given}
    assert missing == {}
    assert {"httpx2", "py-spy"} <= names(project["optional-dependencies"]["tools"])  # the load test and --profile


@pytest.mark.parametrize(("tool", "module"), [("tools.loadtest", "httpx2"), ("tools.abuse", "httpx2"),
                                              ("tools.screenshots", "playwright")])
def test_a_tool_without_its_extra_names_it_and_exits_2(tool: str, module: str) -> None:
    hide_and_run = (f"import runpy, sys; sys.modules[{module!r}] = None; sys.argv = [{tool!r}, '--help']; "
                    f"runpy.run_module({tool!r}, run_name='__main__', alter_sys=True)")
    result = subprocess.run([sys.executable, "-c", hide_and_run], cwd=ROOT, capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert f"error: {module} is not installed" in result.stderr and "pip install -e '.[tools]'" in result.stderr


def test_imported_without_its_extra_a_tool_raises_import_error_naming_it() -> None:
    code = "import sys; sys.modules['httpx2'] = None; import tools.loadtest"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            check=False)
    assert result.returncode == 1 and "ImportError: httpx2 is not installed" in result.stderr
