"""Child processes of the tools (a server, a profiler): stopped as Ctrl+C stops them."""

from __future__ import annotations

import signal
import subprocess


def interrupt(process: subprocess.Popen[bytes], seconds: float) -> None:
    """Send SIGINT (what Ctrl+C sends: the child finishes its work, e.g. writes its file) and wait; kill it if it
    has not stopped in ``seconds``."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
