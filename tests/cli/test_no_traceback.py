"""No command of ``zamek`` answers bad input with a traceback (issue 40): a bad number, a missing or corrupt file,
a database URL it cannot use all end with exit status 2 and a message naming what is wrong.

The commands are found by walking the click group, so a new command or option is covered as soon as it exists:

* every option and argument is parsed with bad values of its type (``make_context``: the command does not run);
* every number option has a range (``IntRange``, ``FiniteRange``), so that nonsense such as ``--games -1`` is
  refused before the command starts;
* every command reading a saved game runs on each corrupt file of ``tests/corrupt_records.py``;
* every command taking a database runs with URLs it cannot use;
* and the cases the issue lists, run as a person would.
"""

from __future__ import annotations

import traceback
from collections.abc import Sequence
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from tests.cli.commands import COMMANDS, named
from tests.corrupt_records import corrupt_files
from zamek.cli import main
from zamek.cli.options import DatabaseURL, FiniteRange

BAD_NUMBERS = ("x", "", "1.5", "-1", "0", "9" * 5000, "-" + "9" * 30, "nan", "inf", "-inf", "1e999")
BAD_TEXT = ("", "\x00", "x" * 10_000, "bogus://x", ",", ",,", "nonsense", "-1", "9" * 5000)


def bad_values(param: click.Parameter, tmp: Path) -> Sequence[str]:
    """Values that a careless or hostile person could give ``param``."""
    kind = param.type
    if isinstance(kind, click.types.IntParamType | click.types.FloatParamType):
        return BAD_NUMBERS
    if isinstance(kind, click.Choice):
        return ("nonsense", "")
    if isinstance(kind, click.Path):
        return (str(tmp / "missing" / "file.json"), str(tmp), "")
    return BAD_TEXT


def plain_args(path: tuple[str, ...], command: click.Command, tmp: Path, but: click.Parameter) -> list[str]:
    """Values for the command's other required parameters, so that the one tried is not hidden behind them."""
    args: list[str] = []
    for param in command.params:
        if param is but or not param.required:
            continue
        if isinstance(param, click.Argument):
            args.append(str(tmp / "game.json"))
        elif isinstance(param, click.Option):
            value = {"db_url": f"sqlite:///{tmp / 'games.sqlite3'}"}.get(param.name or "", "random,random")
            args += [param.opts[0], value]
    return args


def parse_cases() -> list[tuple[tuple[str, ...], str]]:
    return [(path, param.name or "") for path, command in COMMANDS.items() for param in command.params
            if not getattr(param, "is_flag", False)]


@pytest.mark.parametrize(("path", "param_name"), parse_cases(), ids=lambda v: named(v) if isinstance(v, tuple) else v)
def test_bad_values_of_every_parameter_are_usage_errors(tmp_path: Path, path: tuple[str, ...],
                                                        param_name: str) -> None:
    command = COMMANDS[path]
    param = next(p for p in command.params if p.name == param_name)
    for value in bad_values(param, tmp_path):
        args = plain_args(path, command, tmp_path, param)
        args = [*args, value] if isinstance(param, click.Argument) else [*args, param.opts[0], value]
        try:
            with command.make_context(named(path), args, resilient_parsing=False) as ctx:
                assert ctx.params[param_name] is not None or value == ""
        except click.ClickException as exc:
            assert exc.exit_code == 2, (named(path), param_name, value[:20], exc.format_message())
        except Exception:
            pytest.fail(f"zamek {named(path)} {param_name}={value[:20]!r}: {traceback.format_exc()}")


def test_every_number_option_has_a_range() -> None:
    """A count, a port, a time: a range refuses -1 or nan before the command starts (selfplay --games -1 played
    no games and printed games: -1)."""
    loose = [f"zamek {named(path)} {param.name}" for path, command in COMMANDS.items() for param in command.params
             if (isinstance(param.type, click.types.IntParamType) and not isinstance(param.type, click.IntRange))
             or (isinstance(param.type, click.types.FloatParamType) and not isinstance(param.type, FiniteRange))]
    assert loose == []


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def assert_refused(result: Result, *words: str) -> None:
    """Exit status 2, a message, and no traceback."""
    shown = "".join(traceback.format_exception(result.exception)) if result.exception and \
        not isinstance(result.exception, SystemExit) else ""
    assert not shown, shown
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.stderr.strip(), "no message"
    for word in words:
        assert word in result.stderr, result.stderr


def file_commands() -> list[tuple[str, ...]]:
    return [path for path, command in COMMANDS.items()
            if any(isinstance(p, click.Argument) and isinstance(p.type, click.Path) for p in command.params)]


def file_cases() -> list[tuple[tuple[str, ...], str]]:
    return [(path, name) for path in file_commands()
            for name in corrupt_files("knights" if path[0] == "knights" else "castle")]


def test_the_commands_reading_saved_games_are_found() -> None:
    assert {"replay", "show", "analyse", "knights replay"} <= {named(path) for path in file_commands()}


@pytest.mark.parametrize(("path", "case"), file_cases(), ids=lambda v: named(v) if isinstance(v, tuple) else v)
def test_a_corrupt_saved_game_is_refused_with_a_message(tmp_path: Path, path: tuple[str, ...], case: str) -> None:
    file = tmp_path / "game.json"
    file.write_bytes(corrupt_files("knights" if path[0] == "knights" else "castle")[case])
    result = run(*path, str(file))
    assert_refused(result, "error: ")


@pytest.mark.parametrize("path", file_commands(), ids=named)
def test_a_missing_file_or_a_folder_is_refused_with_a_message(tmp_path: Path, path: tuple[str, ...]) -> None:
    assert_refused(run(*path, str(tmp_path / "missing.json")), "missing.json")
    assert_refused(run(*path, str(tmp_path)), str(tmp_path))


def database_commands() -> list[tuple[str, ...]]:
    return [path for path, command in COMMANDS.items()
            if any(isinstance(p.type, DatabaseURL) for p in command.params)]


def test_every_database_option_is_checked_as_a_database_url() -> None:
    """An option named --db is a DatabaseURL, so that bogus://x is refused before anything starts."""
    loose = [f"zamek {named(path)}" for path, command in COMMANDS.items() for param in command.params
             if isinstance(param, click.Option) and "--db" in param.opts and not isinstance(param.type, DatabaseURL)]
    assert loose == []
    assert {"play", "serve", "migrate", "games expired"} <= {named(path) for path in database_commands()}


UNUSABLE_DATABASES = {
    "bogus://x": "no such kind of database",
    "not a url": "not a database URL",
    "sqlite:////nonexistent-folder/games.sqlite3": "nonexistent-folder",
    "postgresql://nobody@127.0.0.1:1/zamek": "127.0.0.1",  # nothing listens on port 1: refused at once
}


@pytest.mark.parametrize("path", database_commands(), ids=named)
def test_a_database_that_cannot_be_used_is_refused_with_a_message(path: tuple[str, ...]) -> None:
    for url, words in UNUSABLE_DATABASES.items():
        extra: list[str] = {"play": ["--no-browser"], "serve": ["--workers", "1"]}.get(named(path), [])
        result = run(*path, "--db", url, *extra)
        assert_refused(result, words)


@pytest.mark.parametrize(("args", "words"), [
    (("tiles", "--stats", "0"), "--stats"),
    (("play", "--port", "99999"), "--port"),
    (("play", "--db", "bogus://x"), "bogus://x"),
    (("selfplay", "--games", "-1"), "--games"),
    (("serve", "--db", "bogus://x"), "bogus://x"),
    (("migrate", "--db", "bogus://x"), "bogus://x"),
    (("play", "--header-timeout", "nan"), "--header-timeout"),
    (("games", "expired", "--db", "sqlite://", "--expire-idle-days", "inf"), "--expire-idle-days"),
    (("show", "--move", "-1", "x.json"), "--move"),
    (("knights", "selfplay", "--games", "-1"), "--games"),
    (("knights", "play", "--seat", "0"), "--seat"),
    (("arena", "--players", "random,random", "--games", "0"), "--games"),
    (("arena", "--players", "random,random", "--workers", "0"), "--workers"),
    (("ladder", "--games", "-5"), "--games"),
    (("train-value", "--workers", "0"), "--workers"),
    (("train-value", "--games", "100,x"), "--games"),
    (("train-value", "--eval-against", "nobody"), "nobody"),
    (("arena", "--players", "random"), "--players"),
    (("arena", "--players", "random,nobody"), "nobody"),
    (("knights", "arena", "--players", "random"), "--players"),
    (("knights", "selfplay", "--bots", "nobody"), "nobody"),
    (("watch", "--seed", "9" * 5000), "--seed"),
    (("selfplay", "--rules", "nonsense"), "nonsense"),
    (("env-bench", "--seconds", "nan"), "--seconds"),
    # found by running the commands: files written after the work, budgets too large for the compiled search
    (("arena", "--players", "random,random", "--json", "/nonexistent/match.json"), "/nonexistent"),
    (("knights", "arena", "--players", "random,random", "--json", "/nonexistent/match.json"), "/nonexistent"),
    (("train", "--out", "/nonexistent/net.json"), "/nonexistent"),
    (("train", "--curve", "/nonexistent/curve"), "/nonexistent"),
    (("train-value", "--out", "/nonexistent/value.json"), "/nonexistent"),
    (("knights", "play", "--save", "/nonexistent/game.json"), "/nonexistent"),
    (("selfplay", "--save", "/proc/games"), "/proc/games"),
    (("play", "--host", "nonexistent.invalid"), "nonexistent.invalid"),  # uvicorn logged it, then exit status 3
    (("serve", "--db", "sqlite://", "--host", "999.1.1.1"), "999.1.1.1"),
    (("arena", "--players", "mcts:" + "9" * 30 + ",random"), "budget"),
    (("knights", "selfplay", "--bots", "mc:" + "9" * 30), "budget"),
], ids=lambda args: " ".join(a[:12] for a in args) if isinstance(args, tuple) else None)
def test_the_bad_inputs_the_issue_lists_are_refused_with_a_message(args: tuple[str, ...], words: str) -> None:
    assert_refused(run(*args), words)


def test_a_corrupt_file_to_resume_an_arena_from_is_refused(tmp_path: Path) -> None:
    for text in ("{not json", "[" * 100_000, '{"games": ' + "9" * 5000 + "}", '{"games": [1]}', "[]"):
        file = tmp_path / "match.json"
        file.write_text(text, encoding="utf-8")
        assert_refused(run("arena", "--players", "random,random", "--games", "2", "--json", str(file), "--resume"))


@pytest.mark.parametrize("case", ["a file nested 100,000 deep", "a file with a 5,000-digit whole number",
                                  "a file that is not JSON", "a file of bytes that are not UTF-8"])
def test_a_corrupt_value_file_given_to_a_bot_is_refused(tmp_path: Path, case: str) -> None:
    file = tmp_path / "value.json"
    file.write_bytes(corrupt_files("castle")[case])
    for bot in (f"mcts:8@{file}", f"learned@{file}"):
        assert_refused(run("arena", "--players", f"{bot},random", "--games", "2"), "value")
