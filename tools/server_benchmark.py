"""The server benchmark of the manual (docs/server.md, ``python tools/server_benchmark.py --pg-url URL``): the load test
(``python -m tools.loadtest``) against ``zamek play`` on SQLite and ``zamek serve`` with 1 and 2 workers on
PostgreSQL, one after the other in one run,
for each load: online games against a friend at a person's pace, and games against the computer at once.

``--pg-url`` names a PostgreSQL server where the user may create databases (e.g.
``postgresql://zamek@127.0.0.1:5432/postgres``); each run gets a new empty database. Without it, the script starts
a throwaway PostgreSQL cluster of its own (Debian's ``postgresql``, as the tests do, with fsync on). Prints a
table, and the JSON of every run with ``--json FILE``.

Its steadiest figure is the server's CPU time per move (all that a move brings about: its answer, the events, each
page's view read again; against the computer its reply too): latencies vary with whatever else the machine runs,
CPU time hardly. ``--servers sqlite --loads "50 online"`` measures that alone in about a minute; a load is any
"N online" or "N vs computer".
"""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.loadtest import LoadReport, load_test

LOADS = ("200 online", "1000 online", "200 vs computer")
SERVERS = {"sqlite": ("SQLite, zamek play", None), "pg1": ("PostgreSQL, 1 worker", 1),
           "pg2": ("PostgreSQL, 2 workers", 2)}


def games_of(load: str) -> tuple[int, int]:
    """A load's games against a friend and games against the computer: "200 online", "200 vs computer"."""
    count, _, kind = load.strip().partition(" ")
    if not count.isdigit() or kind not in ("online", "vs computer"):
        raise ValueError(f"not a load: {load!r} (say e.g. '200 online' or '200 vs computer')")
    return (int(count), 0) if kind == "online" else (0, int(count))


def new_database(server: str) -> str:
    name = f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return server.rsplit("/", 1)[0] + "/" + name


def row(label: str, server: str, report: LoadReport) -> str:
    reply = f"{report.reply_ms['p50']:.0f} / {report.reply_ms['p99']:.0f}" if report.computer_games else "-"
    online = (f"{report.move_ms['p50']:.1f} / {report.move_ms['p99']:.1f}", f"{report.event_ms['p50']:.1f} / "
              f"{report.event_ms['p99']:.1f}") if report.games else ("-", "-")
    if report.computer_games and not report.games:
        online = (f"{report.move_ms['p50']:.1f} / {report.move_ms['p99']:.1f}", "-")
    per_move = f"{report.server_cpu_ms_per_move:.2f}" if report.server_cpu_ms_per_move is not None else "-"
    return (f"| {label} | {server} | {online[0]} | {online[1]} | {reply} | {report.error_count} | {report.lost} | "
            f"{report.server_cpu_percent or 0:.0f}% | {per_move} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pg-url", default=None)
    parser.add_argument("--pace", type=float, default=3.0)
    parser.add_argument("--moves-per-game", type=int, default=20)
    parser.add_argument("--level", default="easy")
    parser.add_argument("--loads", default=",".join(LOADS), help="Which loads, comma-separated ('N online', "
                        "'N vs computer').")
    parser.add_argument("--servers", default=",".join(SERVERS), help="Which servers, comma-separated: "
                        + ", ".join(f"{k} ({v[0]})" for k, v in SERVERS.items()) + ".")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    try:
        loads = [(label.strip(), games_of(label)) for label in args.loads.split(",")]
        servers = [SERVERS[name.strip()] for name in args.servers.split(",")]
    except ValueError as exc:
        parser.error(str(exc))
    except KeyError as exc:
        parser.error(f"no such server: {exc} (choose among {', '.join(SERVERS)})")
    cluster = None
    server = args.pg_url
    if server is None and any(workers is not None for _, workers in servers):
        from tests.postgres import Cluster, binaries

        bindir = binaries()
        if bindir is None:
            parser.error("no PostgreSQL here: give --pg-url, or apt-get install postgresql")
        cluster = Cluster(bindir, durable=True)
        server = cluster.url("postgres")
    results: list[dict[str, Any]] = []
    lines = ["| load | server | move p50 / p99 ms | event p50 / p99 ms | computer reply p50 / p99 ms | errors | lost "
             "| server CPU | server CPU ms per move |", "|---|---|---|---|---|---|---|---|---|"]
    try:
        for label, (games, computer) in loads:
            for name, workers in servers:
                db = None if workers is None or server is None else new_database(server)
                report = load_test(None, True, games, args.pace, args.moves_per_game, 1, computer, args.level, db,
                                   workers)
                lines.append(row(label, name, report))
                print(lines[-1], flush=True)
                results.append({"load": label, "server": name, **report.to_json()})
    finally:
        if cluster is not None:
            cluster.stop()
    print("\n".join(lines))
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
