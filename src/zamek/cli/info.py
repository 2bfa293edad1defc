"""The commands that describe what the program holds: ``tiles`` (the tile sets and their statistics) and
``bots`` (the computer players and levels)."""

from __future__ import annotations

import click

from zamek.castle import fast
from zamek.castle.bots.levels import DEEP_WIDTH, LEVELS, OFFERED_LEVELS, STRONGER_CAPS, STRONGER_LEVELS
from zamek.castle.data.loader import load_tileset
from zamek.castle.render import render_tile
from zamek.castle.rules.errors import DataError
from zamek.castle.rules.setup import Setup
from zamek.castle.stats import format_table, random_play_table, structure_table, unplaceable_in_empty_castle
from zamek.cli.options import COUNT, SEED
from zamek.cli.progress import Progress


@click.command()
@click.option("--set", "set_name", type=click.Choice(["zamek", "sokol"]), default="zamek", show_default=True,
              help="zamek: the 60 base tiles; sokol: the 18 Sokół tiles (--stats plays them with the base set).")
@click.option("--stats", "games", type=COUNT, default=None, metavar="GAMES", help="Measure random play instead.")
@click.option("--seed", type=SEED, default=1, show_default=True, help="First seed for --stats.")
def tiles(set_name: str, games: int | None, seed: int) -> None:
    """Print every tile of a set, or (with --stats N) its statistics over N random games."""
    try:
        tileset = load_tileset(set_name)
    except DataError as exc:
        raise click.ClickException(str(exc)) from None
    if games is None:
        for tile in tileset.tiles:
            click.echo(render_tile(tile))
            click.echo()
        return
    click.echo(f"Tile set {set_name}")
    for label, count in structure_table(tileset):
        click.echo(f"  {label:<42} {count:>4}")
    setup = Setup.parse(set_name)  # the base set alone (zamek), or with the Sokół tiles (zamek+sokol)
    missing = unplaceable_in_empty_castle(setup)
    click.echo(f"  {'tiles with no placement in the empty castle':<42} {len(missing):>4} {' '.join(missing)}")
    click.echo()
    with Progress("random games", games) as bar:
        table = random_play_table(games, seed, setup, on_game=bar.advance)
    click.echo(format_table(table, games, seed, setup))


@click.command()
def bots() -> None:
    """List the computer players and the named levels."""
    click.echo("bots: random, greedy[:N placements examined], learned[:N placements examined], mcts[:N iterations]")
    for level, spec in LEVELS.items():
        click.echo(f"  {level:<9} = {spec}")
    click.echo("stronger:")
    for level, spec in STRONGER_LEVELS.items():
        offered = "" if level in OFFERED_LEVELS else "; not offered in the web app"
        click.echo(f"  {level:<9} = {spec}, {DEEP_WIDTH} candidate moves a node (hard: 8), "
                   f"at most {STRONGER_CAPS[level]:g} s a decision{offered}")
    click.echo(f"core: {fast.core_description()}")
