"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012: http://www.glicko.net/glicko/glicko2.pdf).

A rating is a value on Elo's scale (a newcomer 1500), its deviation ``rd`` (how unsure it is: a newcomer 350) and
its volatility (how erratic the player is: 0.06 to start). :func:`rate` applies one rating period's games to one
player, as the paper's steps 1 to 8 do; a server that rates each game as it ends calls it with one game (each game
its own period). The system's constant ``tau`` limits how fast the volatility changes (the paper suggests 0.3 to
1.2; its example uses 0.5).

Our own small module rather than a library: the Python packages found (``glicko2`` of 2016, ``pyglicko2``) are
untyped and no longer kept; these 80 lines are checked against the paper's worked example
(``tests/kit/test_glicko2.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

SCALE: Final = 173.7178
"""The factor between Elo's scale and Glicko-2's own (400 / ln 10)."""
CENTRE: Final = 1500.0
START_RD: Final = 350.0
START_VOLATILITY: Final = 0.06
TAU: Final = 0.5
CONVERGENCE: Final = 1e-6
"""The paper's ε of step 5.4's iteration."""


@dataclass(frozen=True)
class Rating:
    """A player's rating, its deviation and volatility."""

    rating: float = CENTRE
    rd: float = START_RD
    volatility: float = START_VOLATILITY


@dataclass(frozen=True)
class Game:
    """One game of the period: the opponent's rating before it, and the player's score (1 a win, 0.5 a draw, 0 a
    loss)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player: Rating, games: Sequence[Game], tau: float = TAU) -> Rating:
    """The player's rating after a period of ``games`` (none: only the deviation grows, step 6)."""
    mu, phi = (player.rating - CENTRE) / SCALE, player.rd / SCALE
    if not games:
        return Rating(player.rating, min(START_RD, math.sqrt(phi * phi + player.volatility ** 2) * SCALE),
                      player.volatility)
    opponents = [((g.opponent.rating - CENTRE) / SCALE, g.opponent.rd / SCALE, g.score) for g in games]
    v_inverse = 0.0
    improvement = 0.0
    for mu_j, phi_j, score in opponents:
        expected = _expected(mu, mu_j, phi_j)
        v_inverse += _g(phi_j) ** 2 * expected * (1 - expected)
        improvement += _g(phi_j) * (score - expected)
    v = 1 / v_inverse
    delta = v * improvement
    volatility = _new_volatility(delta, phi, v, player.volatility, tau)
    phi_star = math.sqrt(phi * phi + volatility * volatility)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(CENTRE + SCALE * new_mu, SCALE * new_phi, volatility)


def _new_volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm the paper gives."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    upper = a
    if delta * delta > phi * phi + v:
        lower = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        lower = a - k * tau
    f_upper, f_lower = f(upper), f(lower)
    while abs(lower - upper) > CONVERGENCE:
        c = upper + (upper - lower) * f_upper / (f_lower - f_upper)
        f_c = f(c)
        if f_c * f_lower <= 0:
            upper, f_upper = lower, f_lower
        else:
            f_upper /= 2
        lower, f_lower = c, f_c
    return math.exp(upper / 2)
