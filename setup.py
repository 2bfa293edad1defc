"""The compiled core (``zamek.castle.fast._core``, Cython over ``zamek_core.h``); everything else is in pyproject.toml.

Where no C compiler (or no Cython) is found the package still installs, and everything runs on the
Python engine. With ``ZAMEK_REQUIRE_COMPILED=1`` or ``CI`` set in the environment a build that fails is
an error instead.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
FAST = Path("src", "zamek", "castle", "fast")


def required() -> bool:
    """Whether a missing compiled core is an error (CI, or asked for)."""
    flag = os.environ.get("ZAMEK_REQUIRE_COMPILED", "")
    return flag not in ("", "0") or bool(os.environ.get("CI"))


def source_digest() -> str:
    """The SHA-256 of the compiled core's sources, built into the module: zamek.castle.fast refuses a stale build."""
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update((HERE / FAST / name).read_bytes())
    return digest.hexdigest()


SOURCES = ("_core.pyx", "zamek_core.h", "zamek_bots.h", "zamek_obs.h")
"""The compiled core's sources (zamek.castle.fast.SOURCES names the same)."""


def extensions() -> list[Extension]:
    """The compiled core, from the .pyx through Cython, or from a .c that Cython wrote earlier."""
    # No debug information and a stripped module (-g0, -s: 0.6 MB where it was 3.9 MB): a user's wheel has no use for
    # them, and a debugger can build its own with CFLAGS=-g.
    flags = ["-O3", "-g0"] if os.name != "nt" else ["/O2"]
    link = ["-s"] if sys.platform.startswith("linux") else []
    macros = [("ZC_SOURCE_DIGEST", f'"{source_digest()}"')]
    source = FAST / "_core.pyx"
    try:
        from Cython.Build import cythonize
    except ImportError:
        cythonize = None
    if cythonize is None:
        generated = FAST / "_core.c"
        if (HERE / generated).exists():
            return [Extension("zamek.castle.fast._core", [str(generated)], include_dirs=[str(FAST)],
                              extra_compile_args=flags, extra_link_args=link, define_macros=macros)]
        if required():
            raise RuntimeError("Cython is needed to build the compiled core (ZAMEK_REQUIRE_COMPILED/CI is set)")
        print("warning: Cython not found: zamek installs without its compiled core", file=sys.stderr)
        return []
    extension = Extension("zamek.castle.fast._core", [str(source)], include_dirs=[str(FAST)], extra_compile_args=flags,
                          extra_link_args=link, define_macros=macros, depends=[str(FAST / name) for name in SOURCES if name.endswith(".h")])
    try:
        return list(cythonize([extension], compiler_directives={"language_level": "3"}, quiet=True))
    except Exception as exc:
        if required():
            raise RuntimeError(f"Cython could not translate the compiled core (required): {exc}") from exc
        print(f"warning: Cython could not translate the compiled core ({exc}): zamek installs without it",
              file=sys.stderr)
        return []


class OptionalBuildExt(build_ext):
    """Build the compiled core if a compiler is there; without one, warn and go on (unless it is required)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            self._failed(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._failed(exc)

    def _failed(self, exc: Exception) -> None:
        if required():
            raise RuntimeError(f"building the compiled core failed (ZAMEK_REQUIRE_COMPILED/CI is set): {exc}") from exc
        print(f"warning: the compiled core was not built ({exc}); zamek runs on its Python engine", file=sys.stderr)


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
