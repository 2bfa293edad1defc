"""The commands for research on the game: ``env-bench`` measures the research environments (``zamek.env``,
the env extra), which load only when it runs."""

from __future__ import annotations

import json

import click

from zamek.cli.options import FiniteRange


@click.command(name="env-bench")
@click.option("--games", "n", type=click.IntRange(1, 65536), default=1024, show_default=True,
              help="Games the vector environment steps together.")
@click.option("--seconds", type=FiniteRange(0.1, 600), default=3.0, show_default=True,
              help="How long each figure is measured.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object instead.")
def env_bench(n: int, seconds: float, as_json: bool) -> None:
    """Measure the research environments' steps per second on one core (needs the env extra)."""
    try:
        from zamek.env import bench as env_bench_module
    except ImportError as exc:
        raise click.UsageError(str(exc)) from None
    with env_bench_module.one_core() as core:
        figures = env_bench_module.run(n, seconds)
    if as_json:
        click.echo(json.dumps({"core": core, "games": n, "seconds": seconds,
                               "figures": [f.as_dict() for f in figures]}))
        return
    click.echo(f"on one core ({'cpu ' + str(core) if core is not None else 'not pinned'}), {seconds:g} s a figure")
    click.echo("\n".join(env_bench_module.lines(figures)))
