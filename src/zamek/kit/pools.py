"""Pools of worker processes that end with the process that made them.

A process killed outright (``kill -9``, the out-of-memory killer) never shuts its pool down, and the pool's
processes, adopted by init, would wait for work forever. Every pool in Zamek (the server's computer player, the
arena and ladder, training) is made here, so each of its processes watches its parent and leaves when it is gone.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading
from concurrent.futures import ProcessPoolExecutor


def process_pool(workers: int, spawn: bool = False) -> ProcessPoolExecutor:
    """Return a pool of ``workers`` processes, each ending as soon as the process that made the pool dies.

    The processes start as the platform's default has them unless ``spawn`` asks for fresh ones: a server must,
    as a fork of a process that runs threads may hold their locks forever.
    """
    context = multiprocessing.get_context("spawn") if spawn else None
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_exit_with_parent)


def _exit_with_parent() -> None:
    # The parent's sentinel, not its process id: a worker started by a fork server has that server as its parent.
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)  # an orphan: nobody is left to take its answers

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
