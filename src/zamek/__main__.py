"""``python -m zamek``: the command line."""

from zamek.cli.main import main

main()
