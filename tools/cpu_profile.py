"""Where a running server spends its CPU: a sampling profile of its process (``py-spy``, every thread, none paused)
while the load test plays, summed up by function.

``python -m tools.loadtest --start --profile FILE`` records one (``FILE`` holds py-spy's raw collapsed stacks;
``python -m tools.cpu_profile FILE`` prints the summary again). A sampling profiler measures the server as it runs:
a tracing one (cProfile) sees only the main thread and slows every call, the small ones most.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import click

from tools.extra import INSTALL
from tools.processes import interrupt

SAMPLES_PER_SECOND: Final = 100


@dataclass
class Profiler:
    """py-spy recording a process until :meth:`stop`."""

    process: subprocess.Popen[bytes]
    output: Path

    def stop(self) -> None:
        """End the recording (py-spy writes its file on SIGINT)."""
        interrupt(self.process, 30)


def start_profiler(pid: int, output: Path) -> Profiler:
    """Start sampling the process ``pid`` and its children (``zamek serve``'s workers) into ``output``."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        raise RuntimeError(f"py-spy is not installed: the project's tools need the tools extra ({INSTALL})")
    # --gil: only the samples of a thread holding the GIL (the Python work; a thread waiting on a lock or in a
    # query's C code is not working for Python). --nonblocking: the server is never paused to be sampled.
    command = [spy, "record", "--pid", str(pid), "--format", "raw", "--function", "--nonblocking", "--gil",
               "--subprocesses", "--rate", str(SAMPLES_PER_SECOND), "--output", str(output)]
    return Profiler(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), output)


def read_stacks(path: Path) -> Counter[tuple[str, ...]]:
    """py-spy's raw file: each line a stack, outermost frame first, ``;``-separated, then its number of samples."""
    stacks: Counter[tuple[str, ...]] = Counter()
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            stacks[tuple(stack.split(";"))] += int(count)
    return stacks


def summary(stacks: Counter[tuple[str, ...]], top: int = 30) -> str:
    """The functions where the samples were (self) and those under which they were (inclusive), as shares of all
    the samples, the largest first."""
    total = sum(stacks.values())
    if not total:
        return "no samples"
    own: Counter[str] = Counter()
    under: Counter[str] = Counter()
    for stack, count in stacks.items():
        own[stack[-1]] += count
        for frame in set(stack):
            under[frame] += count
    lines = [f"{total} samples ({total / SAMPLES_PER_SECOND:.1f} s of CPU at {SAMPLES_PER_SECOND} a second)",
             "", "self:"]
    lines += [f"{100 * n / total:6.1f}%  {frame}" for frame, n in own.most_common(top)]
    lines += ["", "inclusive:"]
    lines += [f"{100 * n / total:6.1f}%  {frame}" for frame, n in under.most_common(top)]
    return "\n".join(lines)


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--top", type=int, default=30, show_default=True, help="Functions listed in each table.")
def main(path: Path, top: int) -> None:
    """Print the summary of a profile the load test recorded (--profile)."""
    click.echo(summary(read_stacks(path), top))


if __name__ == "__main__":
    main()
