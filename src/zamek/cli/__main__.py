"""``python -m zamek.cli``: the command line."""

from zamek.cli import main

main()
