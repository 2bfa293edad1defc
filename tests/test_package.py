"""The package an index takes: its metadata, its version, dependency ranges pinned by constraints.txt, the index's
description, and (heavy) the sdist and manylinux wheel that ``python3 dev.py wheel`` makes, installed into a fresh
virtual environment without the development extra and played through the command line and the web app."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import re
import subprocess
import sys
import tarfile
import time
import tomllib
import urllib.error
import urllib.request
import venv
import zipfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from packaging.requirements import Requirement

import zamek
from tests.helpers import ROOT
from tests.live_server import free_port
from zamek.cli import main

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
CONSTRAINTS = ROOT / "constraints.txt"
PINNED = ("release",)
"""The extras pinned with ==: what a release is made with. Everything else a user may install gets ranges."""


def requirements() -> list[tuple[str, Requirement]]:
    """Every requirement of the project and of its extras, with where it is listed (``dependencies`` or the extra)."""
    found = [("dependencies", Requirement(r)) for r in PROJECT["dependencies"]]
    for extra, listed in PROJECT["optional-dependencies"].items():
        found += [(extra, Requirement(r)) for r in listed if not r.startswith("zamek[")]
    return found


def pinned() -> dict[str, str]:
    """constraints.txt: distribution name (normalised) -> version."""
    versions = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            versions[normalised(name)] = version.strip()
    return versions


def normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_the_version_is_the_installed_distribution_s_and_the_command_line_says_it() -> None:
    assert zamek.__version__ == importlib.metadata.version("zamek") == PROJECT["version"]
    answer = CliRunner().invoke(main, ["--version"])
    assert answer.exit_code == 0 and answer.output.strip().endswith(f"version {PROJECT['version']}"), answer.output


def test_the_licence_file_is_the_one_the_metadata_names() -> None:
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "The Zamek authors" in text
    assert "Topic :: Games/Entertainment :: Board Games" in PROJECT["classifiers"] and PROJECT["keywords"]


def test_every_dependency_is_a_range_and_constraints_txt_pins_a_version_inside_it() -> None:
    versions = pinned()
    for where, requirement in requirements():
        version = versions.get(normalised(requirement.name))
        assert version is not None, f"constraints.txt has no version of {requirement.name}: python3 dev.py lock"
        assert requirement.specifier.contains(version), f"{requirement} ({where}) leaves out the tested {version}"
        operators = {spec.operator for spec in requirement.specifier}
        if where in PINNED:
            assert operators == {"=="}, f"{requirement} ({where}): the release tools are pinned"
        else:
            assert operators == {">=", "<"}, f"{requirement} ({where}): from the tested version to the next major"


def test_the_index_s_description_has_no_relative_links_or_images_and_its_library_example_runs() -> None:
    assert PROJECT["readme"] == "PACKAGE.md"
    text = (ROOT / "PACKAGE.md").read_text(encoding="utf-8")
    assert "![" not in text and "<img" not in text
    targets = re.findall(r"\]\(([^)]*)\)", text)
    assert all(t.startswith("https://") for t in targets), targets
    library = text.split("## The library", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, Any] = {}
    exec(compile(library, "PACKAGE.md", "exec"), namespace)  # its assert checks the replay
    assert namespace["game"].is_over()


# ------------------------------------------------------------------ the built files, in a fresh environment


def run(*command: str | Path, timeout: float = 600, **options: Any) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=timeout, check=False,
                          **options)
    assert done.returncode == 0, f"{' '.join(map(str, command))}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def missing(why: str) -> None:
    """Skip where the machine cannot do this; under CI (which installs everything) fail instead."""
    if os.environ.get("CI"):
        pytest.fail(f"CI builds the package, but {why}", pytrace=False)
    pytest.skip(why)


def call(url: str, body: dict[str, Any] | None = None, token: str | None = None) -> tuple[int, Any]:
    """A request to the web API: (status, the JSON answer)."""
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers, method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def play_through_the_web_app(zamek_command: Path, home: Path, env: dict[str, str]) -> None:
    """Start ``zamek play``, create a game against the computer, place the drawn tile, stop the server."""
    port = free_port()
    server = subprocess.Popen([str(zamek_command), "play", "--no-browser", "--port", str(port),
                               "--db", f"sqlite:///{home / 'games.db'}"], env=env, cwd=home,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.communicate()[0]
            try:
                with urllib.request.urlopen(f"{base}/", timeout=5) as page:
                    assert page.status == 200
                    break
            except OSError:
                assert time.monotonic() < end, "zamek play did not answer within a minute"
                time.sleep(0.3)
        status, view = call(f"{base}/api/games", {"mode": "computer", "level": "beginner", "seat": "first", "seed": 5})
        assert status == 201, view
        token = next(held["token"] for held in view["tokens"] if held["seat"] == view["human"])
        move = {"action": view["drawn"]["places"][0]["action"], "revision": view["revision"]}
        status, after = call(f"{base}/api/games/{view['id']}/actions", move, token)
        assert status == 200, after
        assert after["revision"] > view["revision"], after
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.long(290)
@pytest.mark.heavy
def test_the_wheel_installs_alone_and_plays_and_the_sdist_runs_the_tests(tmp_path: Path) -> None:
    """``python3 dev.py wheel`` (a C build: about two minutes), then what a user does with its files."""
    if not sys.platform.startswith("linux"):
        pytest.skip("manylinux wheels are built on Linux")
    absent = [name for name in ("build", "auditwheel", "Cython") if importlib.util.find_spec(name) is None]
    if absent:
        missing(f"the release extra is not installed ({', '.join(absent)})")
    dev = importlib.util.spec_from_file_location("dev", ROOT / "dev.py")
    assert dev is not None and dev.loader is not None
    module = importlib.util.module_from_spec(dev)
    dev.loader.exec_module(module)
    dist = tmp_path / "dist"
    assert module.wheel(Path(sys.executable), dist) == 0

    (wheel,) = dist.glob("zamek-*.whl")
    (sdist,) = dist.glob("zamek-*.tar.gz")
    assert re.search(r"-cp3\d+-cp3\d+-manylinux[_0-9]+_x86_64\.", wheel.name), wheel.name
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (core,) = [n for n in names if re.fullmatch(r"zamek/castle/fast/_core\..*\.so", n)]
        (tmp_path / "core.so").write_bytes(archive.read(core))
    assert not [n for n in names if n.endswith((".c", ".pyx", ".h"))], "C sources in the wheel"
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    from elftools.elf.elffile import ELFFile  # auditwheel's own ELF reader

    with (tmp_path / "core.so").open("rb") as elf:
        assert ELFFile(elf).get_section_by_name(".symtab") is None, "the compiled core is not stripped"
    with tarfile.open(sdist) as archive:
        members = {m.name.split("/", 1)[1] for m in archive.getmembers() if "/" in m.name}
        archive.extractall(tmp_path / "sdist", filter="data")
    assert {"tests/test_public_api.py", "tests/conftest.py", "docs/conf.py", "docs/index.md", "dev.py", "LICENSE",
            "constraints.txt", "PACKAGE.md", "README.md", "src/zamek/castle/fast/_core.pyx",
            "src/zamek/castle/fast/zamek_core.h"} <= members
    assert not [m for m in members if m.endswith((".so", "_core.c"))]

    # A wheelhouse of the wheel's dependencies at constraints.txt's versions (pip's cache or the index), then an
    # install from it alone: no development extra, nothing from the network.
    wheelhouse = tmp_path / "wheelhouse"
    fetched = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--dest", str(wheelhouse), "-c",
                              str(CONSTRAINTS), str(wheel), "pytest"], capture_output=True, text=True, timeout=600)
    if fetched.returncode:
        missing(f"pip could not fetch the dependencies: {fetched.stderr[-500:]}")
    fresh = tmp_path / "fresh"
    venv.create(fresh, with_pip=True)
    python, zamek_command = fresh / "bin" / "python", fresh / "bin" / "zamek"
    home = tmp_path / "home"
    home.mkdir()
    # Without PYTHONPATH: pip would take the checkout's src/ (and its egg-info) for an installed zamek.
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env |= {"HOME": str(home), "XDG_DATA_HOME": str(home / "data")}
    run(python, "-m", "pip", "install", "--quiet", "--no-index", "--find-links", wheelhouse, wheel, env=env, cwd=home)
    installed = run(python, "-m", "pip", "list", "--format=freeze", env=env).stdout
    assert "zamek==" in installed and "pytest==" not in installed and "playwright" not in installed.lower()

    assert run(zamek_command, "--version", env=env).stdout.strip() == f"zamek, version {PROJECT['version']}"
    compiled = run(python, "-c", "import zamek.castle.fast as f; print(f.AVAILABLE)", env=env, cwd=home)
    assert compiled.stdout.strip() == "True", "the wheel's compiled core does not load"
    played = run(zamek_command, "selfplay", "--games", "1", env=env, cwd=home)
    assert "game 1: " in played.stdout and "'games': 1" in played.stdout, played.stdout
    play_through_the_web_app(zamek_command, home, env)

    # The sdist's tests run against the installed package (pytest added now; PYTHONPATH unset).
    run(python, "-m", "pip", "install", "--quiet", "--no-index", "--find-links", wheelhouse, "-c", CONSTRAINTS,
        "pytest", env=env, cwd=home)
    unpacked = next((tmp_path / "sdist").iterdir())
    tested = run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_public_api.py", env=env,
                 cwd=unpacked)
    assert " passed" in tested.stdout and "failed" not in tested.stdout, tested.stdout
