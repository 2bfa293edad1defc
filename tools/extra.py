"""The tools' own dependencies (httpx2, Playwright, py-spy) come with the ``tools`` extra, not with zamek itself nor
only with the whole development extra: ``pip install -e ".[tools]"``. A tool run without them says so."""

from __future__ import annotations

import sys
from typing import Final

INSTALL: Final = "pip install -e '.[tools]'"


def needs_extra(module: str) -> BaseException:
    """What to raise where a tool's dependency ``module`` is missing: run as a command (``python -m tools.X``), a
    message naming the extra and exit status 2, as the zamek commands do; imported, an ImportError saying it."""
    text = f"{module} is not installed: the project's tools need the tools extra ({INSTALL})"
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None and spec.name.startswith("tools."):
        print(f"error: {text}", file=sys.stderr)
        return SystemExit(2)
    return ImportError(text)
