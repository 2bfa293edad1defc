"""Files the long runs write (arena and ladder reports, learning curves, load tests): whole or not at all."""

from __future__ import annotations

import json
from pathlib import Path


def write_json_replacing(path: Path, data: object) -> None:
    """Write ``data`` to ``path`` through a temporary file, so a reader never sees half a file."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data, indent=1), encoding="utf-8")
    partial.replace(path)
