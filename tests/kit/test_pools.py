"""Every pool of worker processes ends with the process that made it, even one killed outright."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

OWNER = """
import multiprocessing, os, time
from {module} import {maker}
if {start!r}:
    multiprocessing.set_start_method({start!r})
pool = {maker}(1)
print(pool.submit(os.getpid).result(), flush=True)
time.sleep(120)
"""


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a dead process not yet reaped by whoever adopted it counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="looks at processes through /proc")
@pytest.mark.parametrize(("module", "maker", "start"), [
    ("zamek.kit.pools", "process_pool", ""),  # the platform's default start: the arena, the ladder, training
    ("zamek.kit.pools", "process_pool", "forkserver"),  # whose workers are the fork server's children
    ("zamek.server.computer", "computer_pool", ""),  # spawned: the server's computer player
])
def test_a_pool_ends_with_the_process_that_made_it_killed_outright(module: str, maker: str, start: str) -> None:
    owner = subprocess.Popen([sys.executable, "-c", OWNER.format(module=module, maker=maker, start=start)],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert owner.stdout is not None
        worker = int(owner.stdout.readline())
        assert alive(worker)
    finally:
        owner.kill()  # as the OOM killer would: no shutdown of the pool
        owner.wait()
    end = time.monotonic() + 15
    while alive(worker) and time.monotonic() < end:
        time.sleep(0.1)
    orphaned = alive(worker)
    if orphaned:
        os.kill(worker, signal.SIGKILL)
    assert not orphaned, "the pool's process outlived the process that started it"
