"""``--rules NAME`` on the castle commands, the older --edition/--sokol/--gate-guard as its aliases, a help text
for every option, and the command line's modules kept small."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import zamek.cli
from zamek.castle.rules.rulesets import OPTIONS, RULE_SETS, option
from zamek.castle.rules.setup import Setup
from zamek.cli import main
from zamek.cli.options import choose_setup

CLI_FOLDER = Path(zamek.cli.__file__).parent


def selfplay_rules(*arguments: str) -> tuple[str, str]:
    """The rules named on the game line and the summary of one selfplay game run with ``arguments``."""
    result = CliRunner().invoke(main, ["selfplay", "--games", "1", "--json", *arguments])
    assert result.exit_code == 0, result.output
    game, summary = (json.loads(line) for line in result.output.splitlines())
    return game["rules"], summary["summary"]["rules"]


def test_rules_names_the_rule_set_of_the_games() -> None:
    # F1-F7 (the Sokół expansion) under C1-C2 (The Castle 2003's own rules).
    assert selfplay_rules("--rules", "castle2003+sokol") == ("castle2003+sokol", "castle2003+sokol")
    assert selfplay_rules("--rules", "zamek+sokol+gate-guard")[0] == "zamek+sokol+gate-guard"  # F8


def test_rules_may_leave_the_edition_out() -> None:
    assert selfplay_rules("--rules", "sokol") == ("zamek+sokol", "zamek+sokol")
    assert selfplay_rules("--rules", "sokol+gate-guard")[0] == "zamek+sokol+gate-guard"
    assert selfplay_rules() == ("zamek", "zamek")  # no option at all: Zamek (Z1-Z22) alone


@pytest.mark.parametrize(("flags", "name"), [
    (["--edition", "castle2003"], "castle2003"),
    (["--sokol"], "zamek+sokol"),
    (["--edition", "castle2003", "--sokol"], "castle2003+sokol"),
    (["--sokol", "--gate-guard"], "zamek+sokol+gate-guard"),
])
def test_the_old_flags_give_what_rules_gives(flags: list[str], name: str) -> None:
    runner = CliRunner()
    by_flags = runner.invoke(main, ["selfplay", "--games", "2", "--json", *flags])
    by_name = runner.invoke(main, ["selfplay", "--games", "2", "--json", "--rules", name])
    assert by_flags.exit_code == by_name.exit_code == 0, by_flags.output + by_name.output
    assert by_flags.output == by_name.output
    assert f'"rules": "{name}"' in by_name.output


@pytest.mark.parametrize(("arguments", "name"), [
    (["--rules", "castle2003", "--sokol"], "castle2003+sokol"),  # a flag adds its option (F1-F7)
    (["--rules", "sokol", "--gate-guard"], "zamek+sokol+gate-guard"),  # F8 added to F1-F7
    (["--rules", "sokol", "--edition", "castle2003"], "castle2003+sokol"),  # the edition the name left out
    (["--rules", "castle2003+sokol", "--edition", "castle2003", "--sokol"], "castle2003+sokol"),  # said twice
])
def test_a_flag_adds_to_rules(arguments: list[str], name: str) -> None:
    assert selfplay_rules(*arguments) == (name, name)


@pytest.mark.parametrize(("arguments", "problem"), [
    (["--rules", "chess"], "unknown part 'chess'"),
    (["--rules", "zamek+falcon"], "unknown part 'falcon'"),
    (["--rules", "castle2003+zamek"], "one edition only"),
    (["--rules", "zamek+gate-guard"], "'gate-guard' needs 'sokol'"),  # F8 is a variant of the expansion F1-F7
    (["--gate-guard"], "'gate-guard' needs 'sokol'"),
    (["--rules", "zamek+sokol", "--edition", "castle2003"], "--edition castle2003 contradicts --rules zamek+sokol"),
    (["--rules", "castle2003", "--edition", "zamek"], "--edition zamek contradicts --rules castle2003"),
])
def test_a_bad_name_or_a_contradiction_is_a_usage_error(arguments: list[str], problem: str) -> None:
    for command in (["selfplay", "--games", "1"], ["watch", "--seed", "1"],
                    ["arena", "--players", "random,random", "--games", "1"]):
        result = CliRunner().invoke(main, [*command, *arguments])
        assert result.exit_code == 2, (command, result.output)
        assert problem in result.output
        assert "Traceback" not in result.output
        assert isinstance(result.exception, SystemExit)  # the usage error's exit, not an exception raised


def test_watch_and_arena_play_the_rules_named() -> None:
    watched = CliRunner().invoke(main, ["watch", "--seed", "3", "--rules", "sokol"])
    flagged = CliRunner().invoke(main, ["watch", "--seed", "3", "--sokol"])
    assert watched.exit_code == 0, watched.output
    assert watched.output == flagged.output
    assert watched.output != CliRunner().invoke(main, ["watch", "--seed", "3"]).output  # F1-F7 change the game
    match = CliRunner().invoke(main, ["arena", "--players", "random,random", "--games", "2", "--quiet",
                                      "--rules", "castle2003+sokol"])
    assert match.exit_code == 0, match.output
    assert "castle2003+sokol" in match.output


def test_arena_writes_the_rules_name_and_resumes_only_the_same_rules(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    match = ["arena", "--players", "random,random", "--games", "2", "--quiet", "--json", str(out)]
    assert CliRunner().invoke(main, [*match, "--rules", "sokol"]).exit_code == 0
    assert json.loads(out.read_text(encoding="utf-8"))["rules"] == "zamek+sokol"
    same = CliRunner().invoke(main, [*match, "--sokol", "--resume"])  # the old flag names the same rule set
    assert same.exit_code == 0, same.output
    other = CliRunner().invoke(main, [*match, "--rules", "castle2003+sokol", "--resume"])
    assert other.exit_code == 2 and "in zamek+sokol, not random,random in castle2003+sokol" in other.output


def test_every_rule_set_is_offered_and_chosen_by_its_name() -> None:
    help_text = " ".join(CliRunner().invoke(main, ["selfplay", "--help"]).output.split())
    for name in RULE_SETS:
        assert name in help_text
        assert choose_setup(name) == Setup.parse(name)
        assert str(choose_setup(name)) == name
    for entry in OPTIONS:  # one alias flag per expansion or variant, naming its rules
        assert f"--{entry.key}" in help_text
        assert entry.rule_ids[0] in help_text
    assert option("sokol").rule_ids[0] == "F1" and option("gate-guard").rule_ids == ("F8",)
    assert choose_setup(None) == Setup()


def commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    found: list[tuple[tuple[str, ...], click.Command]] = []
    for name, command in sorted(group.commands.items()):
        found.append(((*path, name), command))
        if isinstance(command, click.Group):
            found += commands(command, (*path, name))
    return found


def test_every_option_of_every_command_has_a_help_text() -> None:
    everything = commands(main)
    assert len(everything) > 20
    for path, command in everything:
        for parameter in command.params:
            if isinstance(parameter, click.Option):
                assert parameter.help, f"zamek {' '.join(path)} {parameter.opts[0]} has no help text"
        result = CliRunner().invoke(main, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)


@pytest.mark.parametrize("name", ["watch", "selfplay", "arena", "ladder", "train", "train-value"])
def test_the_commands_that_take_rules_take_rules(name: str) -> None:
    command = main.commands[name]
    assert {"--rules", "--edition", "--sokol", "--gate-guard"} <= {o for p in command.params for o in p.opts}


def test_no_module_of_the_command_line_is_over_600_lines() -> None:
    modules = sorted(CLI_FOLDER.glob("*.py"))
    assert len(modules) > 5
    for path in modules:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= 600, f"{path.name} has {lines} lines"
