"""The ``zamek`` command line: ``main`` is the click group (``zamek.cli.group``), one module per group of commands.

``from zamek.cli import main; main(["selfplay", "--games", "2"])`` runs a command as the shell would.
"""

from zamek.cli.group import main

__all__ = ["main"]
