"""The ``zamek`` command line: ``main`` is the group, one module per group of commands."""
