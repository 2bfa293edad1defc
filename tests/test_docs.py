"""The manual (docs/, a Sphinx + MyST site) and the README: the site builds with every warning an error, every relative
link and anchor of the Markdown resolves, every ``python`` example runs as written, and the README stays a front door.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = sorted(DOCS.glob("*.md"))
MARKDOWN = [README, ROOT / "results" / "README.md", ROOT / "CHANGELOG.md", *PAGES]
NOT_RUN = "# not run"
"""The first line of a ``python`` example that is shown, not run (one that needs a server or hours)."""
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1\s*$", re.MULTILINE | re.DOTALL)
EXAMPLE = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def need(module: str) -> None:
    """Skip without ``module`` (an extra not installed), except under CI, where that fails: dev.py test installs it."""
    if importlib.util.find_spec(module) is None:
        message = f"needs {module}: pip install -e '.[docs,env]' (python3 dev.py test installs it)"
        if os.environ.get("CI"):
            pytest.fail(f"{message}; CI is set, so this fails", pytrace=False)
        pytest.skip(message)


def slug(heading: str) -> str:
    """The anchor of a heading as MyST (``myst_heading_anchors``) and GitHub make it."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())  # a link's text only
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6} +(.+?) *$", text, re.MULTILINE)}


def test_the_manual_builds_without_a_warning(tmp_path: Path) -> None:
    """``sphinx-build -W``: a link to a page or heading that does not exist, a missing picture, a command whose help
    is not valid markup in the CLI reference, a page left out of every toctree: each is a warning, so a failure."""
    for module in ("sphinx", "myst_parser", "sphinx_click"):
        need(module)
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(tmp_path / "html"),
         "-d", str(tmp_path / "doctrees")],
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'src'}"},
    )
    assert build.returncode == 0, build.stdout + build.stderr
    reference = (tmp_path / "html" / "cli.html").read_text(encoding="utf-8")
    for command in ("zamek-play", "zamek-arena", "zamek-knights-play", "zamek-games-expired"):
        assert f'id="{command}"' in reference, command  # the reference is generated from every command


@pytest.mark.parametrize("page", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_anchor_resolves(page: Path) -> None:
    """The README, results/README.md and CHANGELOG.md are no part of the site: this checks their links as GitHub
    resolves them, and the pages' as well (a second check beside the build's)."""
    broken = []
    for target in LINK.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:: not checked offline
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.exists():
            broken.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target}: no heading with that anchor")
    assert not broken, broken


def examples() -> list[tuple[Path, int, str]]:
    found = []
    for page in [README, *PAGES]:
        text = page.read_text(encoding="utf-8")
        for match in EXAMPLE.finditer(text):
            if not match.group(1).startswith(NOT_RUN):
                found.append((page, text[:match.start()].count("\n") + 2, match.group(1)))
    return found


EXAMPLES = examples()


@pytest.mark.parametrize(("page", "line", "code"), EXAMPLES, ids=[f"{p.name}:{line}" for p, line, _ in EXAMPLES])
def test_every_python_example_runs(page: Path, line: int, code: str) -> None:
    """Each example runs in a fresh namespace, as a reader would paste it (its asserts check what it says)."""
    for module in ("numpy", "gymnasium", "pettingzoo"):
        if re.search(rf"^\s*(import|from) ({module}|zamek\.env)\b", code, re.MULTILINE):
            need(module)
    exec(compile("\n" * (line - 1) + code, str(page), "exec"), {"__name__": "__example__"})


def test_the_examples_are_found() -> None:
    """The library's, the research environments' and the card game's examples are among those run."""
    pages = {page.name for page, _, _ in EXAMPLES}
    assert {"README.md", "library.md", "research.md", "knights.md"} <= pages, pages


def test_the_readme_is_a_front_door() -> None:
    """At most 200 lines; its two commands come first; everything else is a page of the manual, in a toctree."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    first = text.split("```", 2)[1]
    assert first.splitlines()[1].startswith("python3 dev.py start") and "python3 dev.py test" in first
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^([a-z][a-z0-9-]*)$", index, re.MULTILINE))
    assert {p.stem for p in PAGES} - {"index"} <= listed, {p.stem for p in PAGES} - listed
