"""Fair shares of a public server: how much each client may ask (``WebConfig.fairness``, and the options of ``zamek
serve`` and ``zamek play``, each also from a ``ZAMEK_*`` environment variable).

A client is the address a request comes from (:func:`zamek.server.throttle.client_key`: behind a reverse proxy the
address it forwards, when ``--forwarded-allow-ips`` trusts it; an IPv6 client by its /64 network). A rate is
written as the ``limits`` library reads it: ``30/minute``, or several that must all hold, ``10/minute;100/hour``;
``off`` takes it away. A count of 0 is no limit. :mod:`zamek.server.throttle` enforces them (a refusal is 429 with
``Retry-After``); the computer shares its time between clients (:mod:`zamek.server.computer`) and the live-event
streams keep a share for seats (:mod:`zamek.server.events`) whatever these say.

This module holds only the settings (the command line reads it without the web stack).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any, Final, TypeVar

import click

__all__ = ["PUBLIC", "RATES", "SEAT_STREAM_RESERVE", "UNLIMITED", "Fairness", "fairness_from", "fairness_options"]

SEAT_STREAM_RESERVE: Final = 2_000
"""Of a process's live-event streams (``events.MAX_WATCHERS``), those that only a seat's page may take."""

RATES: Final = ("create", "join", "imports", "hints", "analysis", "computer", "players", "challenges")
"""The fields of :class:`Fairness` that are rates (the others are counts)."""


@dataclass(frozen=True)
class Fairness:
    """What one client may ask of one process. The defaults limit nothing but spectators' share of the streams
    (a program that builds the app, and the tests); ``zamek serve`` and ``zamek play`` start from :data:`PUBLIC`."""

    create: str | None = None
    """New matches started (either game; rematches and the computer's games included)."""
    join: str | None = None
    """Seats taken with an invitation code (a wrong code counts: guessing codes is slow)."""
    imports: str | None = None
    """Saved games imported."""
    hints: str | None = None
    """Hints asked."""
    analysis: str | None = None
    """Analyses asked (of a stored game or of a saved game sent)."""
    computer: str | None = None
    """New matches with a computer player (counted as ``create`` too)."""
    players: str | None = None
    """New player identities (``POST /api/players``)."""
    challenges: str | None = None
    """Challenges posted and quick pairings asked in the lobby (counted per address and per player)."""
    computer_queue: int = 0
    """The client's games waiting for the computer's reply at once; a move or a new game that would wait behind
    more is refused."""
    advice_at_once: int = 0
    """Hints and analyses of the client being worked out at once."""
    advice_slots: int = 0
    """Hints and analyses of all clients worked out at once in a process (they share the processor with every
    request); the others wait their turn, a few seconds at most. Analyses are then worked out in a pool of this
    many processes of their own (:class:`zamek.server.advice.Advisor`)."""
    spectators_per_client: int = 0
    """Spectators' live-event streams (without a seat's token) of the client open at once."""
    seat_pages_per_client: int = 0
    """Seats' live-event streams (with a seat's token: the pages of the games the client plays) of the client open at
    once: a client that makes games to hold their seats' streams never fills the process's."""
    seat_stream_reserve: int = SEAT_STREAM_RESERVE
    """Streams of the process kept for seats' pages: spectators together never take them."""


PUBLIC: Final = Fairness(
    create="30/minute;300/hour", join="30/minute", imports="10/minute;100/hour", hints="30/minute",
    analysis="10/minute;100/hour", computer="10/minute;100/hour", players="5/hour;20/day",
    challenges="10/minute;100/hour", computer_queue=8,
    advice_at_once=1, advice_slots=1, spectators_per_client=32, seat_pages_per_client=100,
)
"""The limits of ``zamek serve`` and ``zamek play`` unless their options say otherwise: a person never meets them
(a game takes minutes; a hint is asked once a turn), a script does."""

UNLIMITED: Final = Fairness()

OPTIONS: Final = {
    "create": "New matches a client may start (rematches and games with the computer included)",
    "join": "Seats a client may try to take with an invitation code",
    "imports": "Saved games a client may import",
    "hints": "Hints a client may ask",
    "analysis": "Analyses a client may ask",
    "computer": "New matches with a computer player a client may start",
    "players": "New player identities a client may create",
    "challenges": "Challenges and quick pairings a client (and each player) may post in the lobby",
    "computer_queue": "A client's games that may wait for the computer's reply at once (0: no limit)",
    "advice_at_once": "A client's hints and analyses worked out at once (0: no limit)",
    "advice_slots": "Hints and analyses of all clients worked out at once in a worker; others wait (0: no limit)",
    "spectators_per_client": "Spectators' live-event streams a client may have open (0: no limit)",
    "seat_pages_per_client": "Seats' live-event streams (pages of the games it plays) a client may have open "
                             "(0: no limit)",
    "seat_stream_reserve": "Of a process's 10,000 live-event streams, those kept for seats' pages",
}
"""Each setting's help on the command line: ``--limit-create`` (``ZAMEK_LIMIT_CREATE``), ``--computer-queue``
(``ZAMEK_COMPUTER_QUEUE``)..."""


def option_name(field: str) -> str:
    """A setting's option: a rate is ``--limit-<name>``, a count ``--<name>``."""
    name = field.replace("_", "-")
    return f"--limit-{name}" if field in RATES else f"--{name}"


def env_name(field: str) -> str:
    return "ZAMEK_" + option_name(field)[2:].replace("-", "_").upper()


def _rate(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """A rate as given (``off`` and an empty text: none), checked with the library that enforces it."""
    if value is None or value.strip().lower() in ("", "off", "none", "0"):
        return None
    from limits import parse_many  # the rate-limiting library loads only when a rate is given

    try:
        parse_many(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a rate such as 30/minute or 10/minute;100/hour") from None
    return value


Command = TypeVar("Command", bound=Callable[..., Any])


def fairness_options(command: Command) -> Command:
    """Add every setting of :class:`Fairness` to a command (default :data:`PUBLIC`), and ``--no-limits``; the
    command receives them as keyword arguments, for :func:`fairness_from`."""
    for field in reversed([f.name for f in fields(Fairness)]):
        default = getattr(PUBLIC, field)
        if field in RATES:
            option = click.option(option_name(field), field, default=default or "off", show_default=True,
                                  envvar=env_name(field), show_envvar=True, callback=_rate,
                                  help=f"{OPTIONS[field]}, e.g. 30/minute or 10/minute;100/hour ('off': any number).")
        else:
            option = click.option(option_name(field), field, type=click.IntRange(0, 1_000_000), default=default,
                                  show_default=True, envvar=env_name(field), show_envvar=True,
                                  help=f"{OPTIONS[field]}.")
        command = option(command)
    return click.option("--no-limits", is_flag=True, envvar="ZAMEK_NO_LIMITS", show_envvar=True,
                        help="No limit per client (a load test from one machine); the seats' share of the streams "
                             "stays.")(command)


def fairness_from(options: dict[str, Any]) -> Fairness:
    """The settings of a command's options (those :func:`fairness_options` added, taken out of ``options``)."""
    values = {f.name: options.pop(f.name) for f in fields(Fairness) if f.name in options}
    chosen = replace(UNLIMITED, **values)
    if options.pop("no_limits", False):
        return replace(UNLIMITED, seat_stream_reserve=chosen.seat_stream_reserve)
    return chosen
