"""The ``zamek`` command line: the group ``main`` (``from zamek.cli import main``), which gathers the commands of one
module per group.

==========================  ===================================================================
``zamek.cli.games``         watch, selfplay (play castle games); replay, show, analyse (a saved one)
``zamek.cli.info``          tiles, bots (what the program holds)
``zamek.cli.matches``       arena, ladder (computer players against each other)
``zamek.cli.training``      train, train-value (the computer players' estimates)
``zamek.cli.web``           play, serve, migrate (the web app)
``zamek.cli.stored``        games expired (the games a server stores: those past the limits of expiry)
``zamek.cli.research``      env-bench (the research environments)
``zamek.cli.knights``       knights ... (the card game Rycerze i zamki)
``zamek.cli.options``       what the castle commands share: --lang, --rules and its aliases
==========================  ===================================================================

Importing this module stays cheap: the web stack, the training, numpy and the analysis load inside the
commands that need them.
"""

from __future__ import annotations

import click

from zamek.cli import games, info, matches, research, stored, training, web
from zamek.cli.knights import knights

__all__ = ["main"]


@click.group()
@click.version_option(package_name="zamek")
def main() -> None:
    """Zamek: Carcassonne: The Castle, its rules engine and tools."""


for command in (
    games.watch, games.selfplay, games.replay, games.show, games.analyse,
    info.tiles, info.bots,
    matches.arena, matches.ladder_command,
    training.train_command, training.train_value,
    web.play, web.serve_command, web.migrate_command,
    stored.games_group,
    research.env_bench,
    knights,
):
    main.add_command(command)


if __name__ == "__main__":
    main()
