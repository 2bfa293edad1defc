"""Every command, group and option of ``zamek`` says what it is for in ``--help`` (issue 40): the group is walked,
so a new option without help fails here. The help is what a person reads in a terminal: no reST markup, no path
into the source tree (which an installed package does not have), and every argument named."""

from __future__ import annotations

import re

import click
import pytest
from click.testing import CliRunner

from tests.cli.commands import COMMANDS, GROUPS, named
from zamek.cli import main

EVERYTHING = {**GROUPS, **COMMANDS}


def help_text(path: tuple[str, ...]) -> str:
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("path", list(EVERYTHING), ids=lambda path: named(path) or "zamek")
def test_every_command_and_option_has_help(path: tuple[str, ...]) -> None:
    command = EVERYTHING[path]
    assert (command.help or "").strip(), f"zamek {named(path)} has no help"
    bare = [param.opts[0] for param in command.params
            if isinstance(param, click.Option) and not param.hidden and not (param.help or "").strip()]
    assert bare == [], f"zamek {named(path)}: options without help"


@pytest.mark.parametrize("path", list(EVERYTHING), ids=lambda path: named(path) or "zamek")
def test_the_help_is_plain_text_that_names_no_file_of_the_source_tree(path: tuple[str, ...]) -> None:
    text = help_text(path)
    assert not re.search(r"``|:(mod|func|class|data):`", text), text  # migrate --help showed ``zamek serve``
    assert not re.search(r"\bsrc/|\btests/|\btools/", text), text  # train-value named src/zamek/castle/data/...


@pytest.mark.parametrize("path", list(COMMANDS), ids=named)
def test_every_argument_is_named_in_its_commands_help(path: tuple[str, ...]) -> None:
    command = COMMANDS[path]
    text = help_text(path)
    arguments = [param.human_readable_name for param in command.params if isinstance(param, click.Argument)]
    unnamed = [name for name in arguments if text.count(name) < 2]  # once in the usage line, once in the text
    assert unnamed == [], f"zamek {named(path)}: the help does not say what {unnamed} is"
