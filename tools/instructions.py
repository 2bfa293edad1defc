"""Instructions, not seconds: the engines' cost on fixed workloads, counted by valgrind's callgrind.

Timings on a shared machine vary by 20% from one run to the next; the count of instructions executed for the same
work does not. Each workload runs twice in a fresh interpreter, once with ``--reps 1`` and once with ``--reps 3``;
the difference is the cost of two repetitions of the work alone (imports and start-up cancel out). Compare two
versions of the program by running this with each one's interpreter (``--python``), e.g. a checkout of an earlier
commit with its own virtual environment::

    python tools/instructions.py --json                          # this checkout
    python tools/instructions.py --python ../old/.venv/bin/python --json   # another one

The workload script (``--print-workload``) imports through ``zamek``'s public API where it can and falls back to
the module paths of earlier versions, so the same work is counted in both.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import click

WORKLOAD = '''
import random, sys
import zamek
try:
    from zamek.castle.runner import sample_chance
    from zamek.castle import fast
except ImportError:  # before the layout by game
    from zamek.runner import sample_chance
    from zamek import fast
what, reps = sys.argv[1], int(sys.argv[2])
setup = zamek.Setup(sokol=True)
root = zamek.new_game(setup)
bot = zamek.make_bot("hard")
for rep in range(reps):
    if what == "python-games":  # 10 random games in the Python engine, chance by one generator
        rng = random.Random(0)
        for _ in range(10):
            state = root.copy()
            while not state.is_over():
                state.apply(sample_chance(state, rng) if state.is_chance() else rng.choice(state.legal_actions()))
    elif what == "compiled-playouts":  # 2,000 random games in the compiled core
        fast.playouts(setup, n=2000, seed=0)
    elif what == "hard-decisions":  # the hard level's first 4 placements of a game
        rng = random.Random(1)
        state = root.copy()
        decisions = 0
        while decisions < 4:
            if state.is_chance():
                state.apply(sample_chance(state, rng))
            elif state.phase is zamek.Phase.PLACE:
                state.apply(bot.choose(state.copy(), random.Random(decisions)))
                decisions += 1
            else:
                state.apply(state.legal_actions()[0])
'''
WORKLOADS = ("python-games", "compiled-playouts", "hard-decisions")


def count(python: str, script: Path, workload: str, reps: int) -> int:
    """Instructions executed by ``python script workload reps``."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, str(script),
                           workload, str(reps)], capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise click.ClickException(f"{workload}: {done.stderr.strip()[-500:]}")
    return int(found.group(1))


@click.command()
@click.option("--python", "python", default=sys.executable, show_default=True,
              help="The interpreter (and so the version of zamek) to count.")
@click.option("--workload", "chosen", type=click.Choice(WORKLOADS), multiple=True,
              help="A workload to count (repeat the option; default: every one).")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as one JSON object.")
@click.option("--print-workload", is_flag=True, help="Print the workload script and stop.")
def main(python: str, chosen: tuple[str, ...], as_json: bool, print_workload: bool) -> None:
    """Count the instructions of fixed workloads (two repetitions, start-up excluded) under valgrind."""
    if print_workload:
        click.echo(WORKLOAD)
        return
    if shutil.which("valgrind") is None:
        raise click.ClickException("valgrind is not installed (apt-get install valgrind)")
    figures = {}
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "workload.py"
        script.write_text(WORKLOAD, encoding="utf-8")
        for workload in chosen or WORKLOADS:
            figures[workload] = count(python, script, workload, 3) - count(python, script, workload, 1)
            if not as_json:
                click.echo(f"{workload:<18} {figures[workload]:>15,} instructions for two repetitions")
    if as_json:
        click.echo(json.dumps({"python": python, "instructions": figures}))


if __name__ == "__main__":
    main()
