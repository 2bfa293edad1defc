"""What the castle game's commands share: the language option, the rule-set options (``--rules NAME`` and the
older ``--edition``, ``--sokol``, ``--gate-guard``, which the command receives as one ``setup: Setup``), and the
helpers that turn a bad argument or file into a usage error."""

from __future__ import annotations

import functools
import math
import os
import socket
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from zamek.castle.bots.levels import make_bot
from zamek.castle.rules.editions import EDITIONS
from zamek.castle.rules.rulesets import OPTIONS, RULE_SETS, RuleOption, parse_rule_set, rule_set_name
from zamek.castle.rules.setup import Setup
from zamek.i18n import BASE, languages, say
from zamek.kit.files import write_json_replacing

__all__ = ["COUNT", "LANG", "PORT", "SEED", "WORKERS", "DatabaseURL", "FiniteRange", "Host", "OutputFile",
           "OutputFolder", "RuleSetName", "check_bots", "choose_setup", "database_errors", "database_reason", "fail",
           "make_folder", "rule_options", "write_json_replacing"]

T = TypeVar("T")

LANG = click.option("--lang", type=click.Choice(languages()), default=BASE, show_default=True,
                    help="The language of what the game says (a catalogue of zamek.i18n).")


PORT = click.IntRange(1, 65535)
"""A TCP port to listen on (0 would be any free one, which the page's address could not name)."""
COUNT = click.IntRange(1)
"""How many games, matches, positions: at least one (none would report means of nothing)."""
WORKERS = click.IntRange(1, 64)
"""Processes to play games in parallel."""


class Seed(click.IntRange):
    """A game's seed: any whole number that, with the games counted from it, a saved game still holds (64 bits;
    ``zamek.kit.records``)."""

    name = "seed"

    def __init__(self) -> None:
        super().__init__(-(2**62), 2**62)

    def _describe_range(self) -> str:
        return "-2**62<=x<=2**62"


SEED = Seed()


class FiniteRange(click.FloatRange):
    """A number of seconds, hours or days: click's FloatRange, less nan and infinity (which its bounds let through
    and which no timer or date can take)."""

    name = "float range"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


class Host(click.ParamType[str]):
    """An address to listen on (a name or a number): one this machine can resolve, checked before the server starts
    (the server would log the failure and stop with its own exit status)."""

    name = "host"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value)
        try:
            socket.getaddrinfo(text, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        except (OSError, UnicodeError, ValueError) as exc:  # UnicodeError: a name IDNA cannot encode
            self.fail(f"cannot listen on {text[:60]!r}: {getattr(exc, 'strerror', None) or exc}", param, ctx)
        return text


class OutputFile(click.Path):
    """A file a command writes: refused at once where its folder does not exist or cannot be written, not after
    the hour of games or training that comes before the writing."""

    def __init__(self) -> None:
        super().__init__(path_type=Path, dir_okay=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        path = Path(os.fsdecode(super().convert(value, param, ctx)))
        folder = path.absolute().parent
        if not folder.is_dir():
            self.fail(f"{str(path)!r}: there is no folder {str(folder)!r} to write it in", param, ctx)
        if not os.access(folder, os.W_OK):
            self.fail(f"{str(path)!r}: the folder {str(folder)!r} cannot be written", param, ctx)
        return path


class OutputFolder(click.Path):
    """A folder a command writes its files in, made if missing: refused at once where it cannot be made."""

    def __init__(self) -> None:
        super().__init__(path_type=Path, file_okay=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        path = Path(os.fsdecode(super().convert(value, param, ctx)))
        existing = next(p for p in (path.absolute(), *path.absolute().parents) if p.exists())
        if not existing.is_dir() or not os.access(existing, os.W_OK):
            self.fail(f"{str(path)!r}: {str(existing)!r} is not a folder that can be written", param, ctx)
        return path


def make_folder(path: Path) -> None:
    """Make the folder ``path`` (and those above it), or exit 2 saying why it cannot be made."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot make the folder {path}: {exc.strerror or exc}")


class DatabaseURL(click.ParamType[str]):
    """A SQLAlchemy database URL whose kind of database this installation can use: checked before anything
    starts, without connecting (a database that cannot be reached is told when it is used: database_errors)."""

    name = "url"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError, NoSuchModuleError

        from zamek.server.tables import driver_url

        try:
            url = make_url(driver_url(str(value)))
        except ArgumentError:  # not repeated: it may hold a password
            self.fail("not a database URL (e.g. postgresql://zamek@localhost/zamek or sqlite:////path/games.sqlite3)",
                      param, ctx)
        shown = url.render_as_string(hide_password=True)
        try:
            url.get_dialect().import_dbapi()
        except NoSuchModuleError:
            self.fail(f"{shown}: no such kind of database (postgresql or sqlite)", param, ctx)
        except ImportError as exc:
            self.fail(f"{shown}: its driver is not installed ({exc})", param, ctx)
        return str(value)


@contextmanager
def database_errors(url: str, doing: str = "use") -> Iterator[None]:
    """Turn a failure to reach or read the database at ``url`` into ``error: cannot use the database ...`` (exit
    2), without SQLAlchemy's statement and link."""
    from sqlalchemy.exc import SQLAlchemyError

    from zamek.server.db import Repository

    try:
        yield
    except SQLAlchemyError as exc:
        fail(f"cannot {doing} the database {Repository.describe(url)}: {database_reason(exc)}")


def database_reason(exc: BaseException) -> str:
    """What went wrong with a database, in one line, without SQLAlchemy's statement and link."""
    original = getattr(exc, "orig", None)
    text = str(original if original is not None else exc).strip().splitlines()
    return f"{type(original or exc).__name__}: {text[0] if text else ''}"


class RuleSetName(click.ParamType[str]):
    """A rule set's name (``rulesets.RULE_SETS``), the edition perhaps left out: checked, and kept as given."""

    name = "rules"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        try:
            parse_rule_set(value)
        except ValueError as exc:
            message = str(exc)
            self.fail(message if message.startswith(repr(value)) else f"{value!r}: {message}", param, ctx)
        return str(value).strip().lower()

    def shell_complete(self, ctx: click.Context, param: click.Parameter,
                       incomplete: str) -> list[click.shell_completion.CompletionItem]:
        from click.shell_completion import CompletionItem
        return [CompletionItem(name) for name in RULE_SETS if name.startswith(incomplete)]


def _rule_ids(option: RuleOption) -> str:
    """The rules an option brings, as RULES.md numbers them: ``F1-F7``, ``F8``."""
    ids = option.rule_ids
    if not ids:
        return "no rules of its own"
    first, last = ids[0], ids[-1]
    prefix = first.rstrip("0123456789")
    numbers = [rule[len(prefix):] for rule in ids]
    if len(ids) > 2 and all(rule.startswith(prefix) for rule in ids) and all(n.isdigit() for n in numbers) and \
            [int(n) for n in numbers] == list(range(int(numbers[0]), int(numbers[-1]) + 1)):
        return f"rules {first}-{last}"
    return ("rule " if len(ids) == 1 else "rules ") + ", ".join(ids)


def _flag_parameter(option: RuleOption) -> str:
    return "rule_flag_" + option.key.replace("-", "_")


def choose_setup(rules: str | None, edition: str | None = None, flags: Iterable[str] = ()) -> Setup:
    """The setup the rule-set options name: ``--rules`` (default: the first edition alone), with the edition
    ``--edition`` where the name leaves it out and the options of the flags (``--sokol``…) added. A UsageError
    names a contradiction (an edition other than the name's) or an option missing one it needs."""
    keys = set(flags)
    chosen = edition or EDITIONS[0]
    if rules is not None:
        named, named_keys = parse_rule_set(rules)
        written = rules.strip().lower().split("+")[0].strip() in EDITIONS  # "sokol" leaves the edition out
        if written and edition is not None and edition != named.value:
            raise click.BadOptionUsage("edition", f"--edition {edition} contradicts --rules {rules} (the "
                                                  f"edition {named.value}): give the edition once")
        if written or edition is None:
            chosen = named.value
        keys |= named_keys
    try:
        return Setup.parse(rule_set_name(chosen, keys))
    except ValueError as exc:
        flags_given = " ".join(f"--{key}" for key in sorted(set(flags)))
        given = " ".join(part for part in (f"--rules {rules}" if rules else "", flags_given) if part)
        raise click.UsageError(f"{given}: {exc}" if given else str(exc)) from None


def rule_options(command: Callable[..., T]) -> Callable[..., T]:
    """Add ``--rules NAME`` to a command, and the older ``--edition``, ``--sokol`` and ``--gate-guard`` (one flag
    per expansion or variant of ``rulesets.OPTIONS``) as aliases; the command receives ``setup: Setup``."""

    @functools.wraps(command)
    def with_setup(*args: Any, rule_set: str | None, rule_edition: str | None, **kwargs: Any) -> T:
        flags = [option.key for option in OPTIONS if kwargs.pop(_flag_parameter(option))]
        return command(*args, setup=choose_setup(rule_set, rule_edition, flags), **kwargs)

    decorated: Callable[..., T] = with_setup
    for option in reversed(OPTIONS):
        needs = f"; needs {', '.join(option.requires)}" if option.requires else ""
        decorated = click.option(
            f"--{option.key}", _flag_parameter(option), is_flag=True,
            help=f"Add the {option.key} {option.kind} ({_rule_ids(option)}{needs}) to --rules "
                 f"(the same as --rules ...+{option.key}).",
        )(decorated)
    decorated = click.option(
        "--edition", "rule_edition", type=click.Choice(EDITIONS), default=None,
        help=f"The edition, where --rules leaves it out: {' or '.join(EDITIONS)} (default {EDITIONS[0]}); "
             f"--edition {EDITIONS[-1]} --{OPTIONS[0].key} is --rules {EDITIONS[-1]}+{OPTIONS[0].key}.",
    )(decorated)
    return click.option(
        "--rules", "rule_set", type=RuleSetName(), default=None, metavar="NAME",
        help=f"The rule set: {', '.join(RULE_SETS)}. The edition may be left out ({OPTIONS[0].key} is "
             f"{EDITIONS[0]}+{OPTIONS[0].key}). Default: {EDITIONS[0]}.",
    )(decorated)


def check_bots(names: Sequence[str]) -> None:
    """A usage error naming the first name that is not a computer player (``zamek bots``)."""
    for name in names:
        try:
            make_bot(name)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None


def fail(message: str, lang: str = BASE) -> NoReturn:
    """Print ``error: message`` (in ``lang``) on standard error and exit with status 2 (a bad file given)."""
    click.echo(say("cli.error", lang, message=message), err=True)
    sys.exit(2)
