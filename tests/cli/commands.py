"""Every command of ``zamek``, found by walking the click group: the tests that hold for all of them use this, so
that a new command is covered as soon as it is added."""

from __future__ import annotations

from collections.abc import Iterator

import click

from zamek.cli import main


def walk(group: click.Group = main, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Every command and group below ``group`` (groups too), with the words that name it (``("knights", "replay")``)."""
    for name, command in sorted(group.commands.items()):
        yield (*path, name), command
        if isinstance(command, click.Group):
            yield from walk(command, (*path, name))


COMMANDS = {path: command for path, command in walk() if not isinstance(command, click.Group)}
"""The commands that run (not the groups), by the words that name them."""
GROUPS = {(): main, **{path: command for path, command in walk() if isinstance(command, click.Group)}}


def named(path: tuple[str, ...]) -> str:
    """The words that name a command, as typed after ``zamek``."""
    return " ".join(path)
