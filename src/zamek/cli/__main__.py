"""``python -m zamek.cli``: the command line."""

from zamek.cli.main import main

main()
