"""Bots by name, and the named levels people play against."""

from __future__ import annotations

from typing import Final

from zamek.castle.bots.base import Bot
from zamek.castle.bots.evaluate import DEFAULT
from zamek.castle.bots.mcts import MCTSBot
from zamek.castle.bots.simple import GreedyBot, RandomBot
from zamek.castle.bots.value import default_model

LEVELS: Final = {
    "beginner": "greedy:3",
    "easy": "greedy:8",
    "medium": "greedy",
    "hard": "mcts:128",
}
"""Each level is a bot and its budget: greedy:N looks at N placements, mcts:N runs N iterations."""
STRONGER_LEVELS: Final = {
    "deep": "mcts:4096",
    "expert": "mcts:8192",
}
"""Named players beyond the levels the web app offers: ``deep`` is the hard level's search run 32 times
longer and twice as wide (``DEEP_WIDTH``), ``expert`` 64 times longer and as wide, with a tighter cap
(``EXPERT_CAP_SECONDS``): a few tenths of a second a decision on one core in the compiled core, far too slow
without it."""
DEEP_WIDTH: Final = 16
"""Candidate moves the deep and expert levels search at each decision node (hard: 8)."""
HARD_CAP_SECONDS: Final = 4.0
"""The hard level's cap on one turn, all its decisions together (its budget normally ends far sooner); the
second below the promised 5 s leaves room for the iteration in progress and a busy machine."""
DEEP_CAP_SECONDS: Final = 5.0
"""The deep level's cap on one turn (it ends by its budget well before, in the compiled core)."""
EXPERT_CAP_SECONDS: Final = 2.0
"""The expert's cap on one turn, all its decisions together (the placement, the order of scoring, a x2
token…): its longest turns reach it. A second below the promised 3 s leaves room for a busy machine, and keeps
its mean turn under the promised 1.5 s on one core of this workplace's machine (1.29 s over six games against
hard; 1.54 s with a 2.5 s cap)."""
STRONGER_CAPS: Final = {"deep": DEEP_CAP_SECONDS, "expert": EXPERT_CAP_SECONDS}
STRONGER_PLAYOUTS: Final = {"deep": 1, "expert": 2}
"""Turns each leaf of the search is played on before it is judged. Two turns let a leaf see the opponent's
answer and its own next tile: at the hard level's budget (mcts:128) two turns won 61.8% against hard, one
turn (hard itself) 50%, three 58.5%, none 32.8% (200 games each, seeds 1-100 both seat orders)."""

OFFERED_LEVELS: Final = (*LEVELS, "expert")
"""The levels the web app offers people to play against: the four levels and the expert, whose turns the
server thinks out in its pool of processes (about a second a turn, at most its cap)."""

BOT_NAMES: Final = ("random", "greedy", "learned", "mcts", *LEVELS, *STRONGER_LEVELS)


def make_bot(spec: str) -> Bot:
    """Return a bot from a name: random, greedy[:N], learned[:N], mcts[:N], a level (beginner, easy,
    medium, hard) or a stronger level (deep, expert). ``learned[:N]@FILE`` and ``mcts[:N]@FILE`` judge
    positions by the value in FILE (a network of ``zamek train`` or a learned value of ``zamek train-value``)
    instead of the shipped value."""
    spec, at, value_file = spec.partition("@")
    if at:
        return _with_value(spec, value_file)
    name, _, budget = spec.strip().lower().partition(":")
    if name in LEVELS and not budget:
        bot = make_bot(LEVELS[name])
        bot.name = name
        if isinstance(bot, MCTSBot):
            bot.max_seconds = bot.turn_seconds = HARD_CAP_SECONDS
        return bot
    if name in STRONGER_LEVELS and not budget:
        bot = make_bot(STRONGER_LEVELS[name])
        bot.name = name
        if isinstance(bot, MCTSBot):
            bot.max_seconds = bot.turn_seconds = STRONGER_CAPS[name]
            bot.width = DEEP_WIDTH
            bot.playout_turns = STRONGER_PLAYOUTS[name]
            bot.scaled_questions = True
        return bot
    number: int | None = None
    if budget:
        # At most nine digits: the compiled search counts its iterations in a C long, and no more would ever end.
        if not (budget.isascii() and budget.isdigit() and len(budget) <= 9) or int(budget) < 1:
            raise ValueError(f"{spec[:40]!r}: the budget after ':' must be a whole number of iterations, 1 to "
                             "999999999")
        number = int(budget)
    if name == "random" and number is None:
        return RandomBot()
    if name == "greedy":
        bot = GreedyBot(placements=number)
        bot.name = spec
        return bot
    if name == "learned":
        bot = GreedyBot(placements=number, evaluator=default_model())
        bot.name = spec
        return bot
    if name == "mcts":
        # Its own moves and its leaves by the learned value; the opponent assumed to play like greedy
        # (cheaper to simulate, and the way most opponents judge a move: by what it gains now).
        return MCTSBot(name=spec, iterations=number or MCTSBot.iterations, evaluator=default_model(),
                       opponent=DEFAULT)
    raise ValueError(f"unknown player {spec!r}; choose from {', '.join(BOT_NAMES)} "
                     "(greedy, learned and mcts take :N)")


def _with_value(spec: str, value_file: str) -> Bot:
    """``spec`` (learned or mcts, with its budget) judging by the value in ``value_file``: a value network
    (``zamek train``) or a learned value (``zamek train-value``)."""
    from pathlib import Path

    from zamek.castle.bots.network import load_estimate
    bot = make_bot(spec)
    if not isinstance(bot, MCTSBot | GreedyBot) or spec.strip().lower().startswith("greedy"):
        raise ValueError(f"{spec!r}: only learned[:N] and mcts[:N] can take a value file (@FILE)")
    bot.evaluator = load_estimate(Path(value_file))
    bot.name = f"{spec}@{value_file}"
    return bot
