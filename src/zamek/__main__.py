"""``python -m zamek``: the command line."""

from zamek.cli import main

main()
