"""Sphinx settings of Zamek's manual: Markdown pages (MyST) and the command line's reference (sphinx-click).

Build it with ``python -m sphinx -W --keep-going -b html docs build/docs`` (``tests/test_docs.py`` does, warnings as
errors).
"""

from __future__ import annotations

project = "Zamek"
author = "The Zamek authors"
copyright = "the Zamek authors"

extensions = ["myst_parser", "sphinx_click"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "build"]

# `page.md#a-heading` links resolve to headings down to ### (checked: a missing anchor is a warning, so an error).
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

# The default theme: a plain manual needs nothing more, and it comes with Sphinx (no extra dependency).
html_theme = "alabaster"
html_title = "Zamek"
html_theme_options = {"description": "Carcassonne: The Castle, its rules engine, computer players and web app"}
