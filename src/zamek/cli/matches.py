"""The commands that measure computer players against each other: ``arena`` (one match, both seat orders) and
``ladder`` (every pair of a list, and their ratings). Both can write their games as they finish and resume an
interrupted run from that file (the bookkeeping is ``zamek.castle.arena``'s)."""

from __future__ import annotations

import time
from pathlib import Path

import click

from zamek.castle import arena as arenas
from zamek.castle.arena import ArenaReport, GameResult, ladder_pairs, ladder_table, pair_file_name, progress_line
from zamek.castle.rules.setup import Setup
from zamek.cli.options import COUNT, SEED, WORKERS, OutputFile, OutputFolder, check_bots, make_folder, rule_options
from zamek.cli.progress import Progress, watched
from zamek.kit.files import write_json_replacing


def games_to_resume(path: Path | None, players: tuple[str, str], rules: str, games: int, seed: int
                    ) -> list[GameResult]:
    """The games an interrupted run of this match left in ``path`` (``zamek.castle.arena.games_to_resume``),
    with a usage error where there is no file to resume from or it does not fit this match."""
    if path is None:
        raise click.UsageError("--resume needs --json FILE, the file the interrupted run wrote")
    try:
        return arenas.games_to_resume(path, players, rules, games, seed)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


@click.command()
@click.option("--players", required=True, help="Two bots or levels, e.g. hard,greedy (see 'zamek bots').")
@click.option("--games", type=COUNT, default=20, show_default=True, help="Games in all; seats alternate.")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="The first seed: games 2k and 2k+1 are played on seed SEED + k, one in each seat order.")
@click.option("--workers", type=WORKERS, default=1, show_default=True, help="Processes to play games in parallel.")
@click.option("--json", "json_path", type=OutputFile(), default=None,
              help="Also write the results, game by game, to this JSON file (kept up to date as games finish).")
@click.option("--resume", is_flag=True,
              help="Keep the games already in the --json file (an interrupted run of this match) and play the rest.")
@click.option("--quiet", is_flag=True, help="Do not print a line on standard error as each game finishes.")
@rule_options
def arena(players: str, games: int, seed: int, workers: int, json_path: Path | None, resume: bool, quiet: bool,
          setup: Setup) -> None:
    """Play two computer players against each other in both seat orders and report their strength."""
    names = [p.strip() for p in players.split(",")]
    if len(names) != 2:
        raise click.UsageError("--players takes two names separated by a comma, e.g. hard,greedy")
    check_bots(names)
    already = games_to_resume(json_path, (names[0], names[1]), setup.name, games, seed) if resume else []

    started = time.monotonic()
    lines = not quiet and not watched()  # where a person watches, the bar says it all

    def after_each_game(so_far: ArenaReport, result: GameResult) -> None:
        # A match can take hours: show it moving, say when it should end, and keep what it has if it is stopped.
        if lines:
            played_now = len(so_far.games) - len(already)
            left = (time.monotonic() - started) / played_now * (so_far.planned - len(so_far.games))
            click.echo(f"{progress_line(so_far, result)}; about {left / 60:.0f} min left", err=True)
        if json_path is not None:
            write_json_replacing(json_path, so_far.to_json())

    with Progress(f"{names[0]} vs {names[1]}", shown=not quiet and watched(), games=True):
        report = arenas.run_arena(names[0], names[1], games, seed, setup, workers, after_each_game, already)
    click.echo(report.text())
    if json_path is not None:
        write_json_replacing(json_path, report.to_json())


@click.command(name="ladder")
@click.option("--players", default="random,beginner,easy,medium,hard", show_default=True,
              help="The bots or levels, comma separated; each plays every one listed after it (see 'zamek bots').")
@click.option("--games", type=COUNT, default=200, show_default=True, help="Games per pair; seats alternate.")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="The first seed of every pair's match (as arena --seed).")
@click.option("--workers", type=WORKERS, default=1, show_default=True, help="Processes to play games in parallel.")
@click.option("--json-dir", type=OutputFolder(), default=None,
              help="Also write each pair's results, game by game, to A_vs_B.json in this folder (as arena --json).")
@click.option("--resume", is_flag=True,
              help="Keep the games already in the --json-dir files (an interrupted ladder) and play the rest.")
@click.option("--quiet", is_flag=True, help="Do not print a line on standard error as each game finishes.")
@rule_options
def ladder_command(players: str, games: int, seed: int, workers: int, json_dir: Path | None, resume: bool,
                   quiet: bool, setup: Setup) -> None:
    """Play every pair of levels and print the ladder table (row's win rate against column, 95% CI)."""
    names = [p.strip() for p in players.split(",")]
    check_bots(names)
    if resume and json_dir is None:
        raise click.UsageError("--resume needs --json-dir DIR, the folder the interrupted ladder wrote")
    files = {pair: json_dir / pair_file_name(*pair) for pair in ladder_pairs(names)} if json_dir else {}
    already = {pair: games_to_resume(path, pair, setup.name, games, seed)
               for pair, path in files.items()} if resume else {}
    if json_dir is not None:
        make_folder(json_dir)

    lines = not quiet and not watched()

    def after_each_game(so_far: ArenaReport, result: GameResult) -> None:
        if lines:
            click.echo(progress_line(so_far, result), err=True)
        if json_dir is not None:
            write_json_replacing(files[so_far.players], so_far.to_json())

    with Progress("ladder pair", shown=not quiet and watched(), games=True):
        reports = arenas.ladder(names, games, seed, setup, workers, after_each_game, already)
    for report in reports:
        if json_dir is not None:
            write_json_replacing(files[report.players], report.to_json())
        click.echo(report.text())
    click.echo()
    click.echo(ladder_table(names, reports))
