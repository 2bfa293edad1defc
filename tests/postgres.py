"""A real PostgreSQL for the tests: a throwaway cluster (Debian's ``postgresql`` package) started once per test
process, and a fresh database for each test that asks for one (the fixtures ``postgres`` and ``pg_url`` of
``tests/conftest.py``; the tests that use them are marked ``pg``).

The cluster lives in a temporary folder, listens on 127.0.0.1 on a free port, trusts local connections and
skips fsync (the tests kill the app's processes, never the database). Run as root, the cluster runs as the
``postgres`` user (PostgreSQL refuses root). Skipped when PostgreSQL is missing, except under CI (the environment
variable CI set), where that fails: ``python3 dev.py test`` installs it.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

import psycopg

from tests.live_server import free_port


def binaries() -> Path | None:
    """The folder of PostgreSQL's server programs (the newest version installed), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


class Cluster:
    """A running PostgreSQL cluster of the tests'."""

    def __init__(self, bindir: Path, durable: bool = False) -> None:
        self.bindir = bindir
        self.folder = Path(tempfile.mkdtemp(prefix="zamek-pg-"))
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        data = self.folder / "data"
        self._run("initdb", "-D", str(data), "-U", "zamek", "--auth=trust", "-E", "UTF8", "--no-sync")
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=300"
        if not durable:  # the tests kill the app's processes, never the database: its own durability is not tested
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", str(data), "-o", options, "-l", str(self.folder / "log"), "-w", "start")

    def _run(self, program: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bindir / program), *args], check=True, capture_output=True)

    def url(self, database: str) -> str:
        return f"postgresql://zamek@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new empty database; its URL."""
        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def restart(self) -> None:
        """Stop the server (its connections are cut) and start it again, on the same port."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-l", str(self.folder / "log"), "-m", "fast", "-w",
                  "restart")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
