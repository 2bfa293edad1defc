"""Pools of worker processes that end with the process that made them.

A process killed outright (``kill -9``, the out-of-memory killer) never shuts its pool down, and the pool's
processes, adopted by init, would wait for work forever. Every pool in Zamek (the server's computer player, the
arena and ladder, training) is made here, so each of its processes watches its parent and leaves when it is gone.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Final

PARENT_CHECK_SECONDS: Final = 1.0
"""How often a pool's process looks whether the process that started it is still alive."""


def process_pool(workers: int, spawn: bool = False) -> ProcessPoolExecutor:
    """Return a pool of ``workers`` processes, each ending soon after the process that made the pool dies.

    ``spawn`` starts them afresh rather than forked: a server must, as a fork of a process that runs threads
    may hold their locks forever.
    """
    context = multiprocessing.get_context("spawn") if spawn else None
    return ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=_exit_with_parent, initargs=(os.getpid(),))


def _exit_with_parent(parent: int) -> None:
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)  # an orphan: nobody is left to take its answers

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
