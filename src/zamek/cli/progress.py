"""Progress bars for the commands that run for more than a moment (``tiles --stats``, ``selfplay``, ``arena``,
``ladder``, ``train``, ``train-value``, ``analyse``, ``knights selfplay`` and ``knights arena``): click's own bar,
on standard error, shown only where a person watches.

A person watches when standard output and standard error are both a terminal and the command does not print JSON:
a bar in a pipe or a log file is noise, and a bar on the terminal while the output goes through a pager (``zamek
selfplay | less``) would be drawn over its screen. The games played deep inside a library (a training's
self-play, a ladder's matches) reach the bar through ``zamek.kit.arena.counting_games``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from zamek.kit.arena import counting_games

CLEAR_LINE = "\r\x1b[2K"


def watched(as_json: bool = False) -> bool:
    """Whether a person watches the command (see the module's text)."""
    return not as_json and sys.stdout.isatty() and sys.stderr.isatty()


class Progress:
    """One bar at a time on standard error, started again for each stage (a training's self-play, then each pass's
    games); nothing at all where nobody watches. Used as a context: the bar is ended on the way out, and with
    ``games`` every ``play_all`` inside is a stage of its own."""

    def __init__(self, label: str, total: int | None = None, *, shown: bool | None = None,
                 games: bool = False) -> None:
        self.label = label
        self.shown = watched() if shown is None else shown
        self._total = total
        self._games = counting_games(self._stage_of_games) if games else None
        self._bar: Any = None  # click's ProgressBar, whose class click does not export

    def __enter__(self) -> Progress:
        if self._games is not None:
            self._games.__enter__()
        if self._total is not None:
            self.start(self._total)
        return self

    def __exit__(self, *exc: object) -> None:
        self.finish()
        if self._games is not None:
            self._games.__exit__(None, None, None)

    def start(self, total: int, label: str | None = None) -> None:
        """Begin a stage of ``total`` steps (the bar before it, if any, is finished)."""
        self.finish()
        if self.shown and total > 0:
            self._bar = click.progressbar(length=total, label=label or self.label, file=sys.stderr,
                                          show_eta=True, show_pos=True, show_percent=False)
            self._bar.__enter__()

    def advance(self, steps: int = 1) -> None:
        """Count ``steps`` more steps of the stage."""
        if self._bar is not None:
            self._bar.update(steps)

    def to(self, done: int, total: int) -> None:
        """Move the bar to ``done`` steps of ``total`` (starting the stage if none is running)."""
        if self._bar is None:
            self.start(total)
        if self._bar is not None and done > self._bar.pos:
            self._bar.update(done - self._bar.pos)

    def echo(self, line: str, err: bool = False) -> None:
        """Print a line of the command's output above the bar, which is drawn again at its next step."""
        if self._bar is not None:
            click.echo(CLEAR_LINE, nl=False, err=True)
        click.echo(line, err=err)

    def finish(self) -> None:
        """End the stage's bar, leaving its last line."""
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None

    def _stage_of_games(self, total: int) -> Callable[[], None]:
        self.start(total)
        return self.advance
