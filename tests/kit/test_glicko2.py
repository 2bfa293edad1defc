"""Glicko-2 against the worked example of Glickman's paper (http://www.glicko.net/glicko/glicko2.pdf, section 3)."""

from __future__ import annotations

import pytest

from zamek.kit.glicko2 import Game, Rating, rate


def test_the_papers_worked_example() -> None:
    player = Rating(1500, 200, 0.06)
    games = [Game(Rating(1400, 30), 1), Game(Rating(1550, 100), 0), Game(Rating(1700, 300), 0)]
    after = rate(player, games, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = rate(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500
    assert after.rd == pytest.approx((200 ** 2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_a_win_raises_and_a_loss_lowers_both_newcomers_alike() -> None:
    won = rate(Rating(), [Game(Rating(), 1)])
    lost = rate(Rating(), [Game(Rating(), 0)])
    assert won.rating > 1500 > lost.rating
    assert won.rating - 1500 == pytest.approx(1500 - lost.rating)
    assert won.rd < 350
    drawn = rate(Rating(), [Game(Rating(), 0.5)])
    assert drawn.rating == pytest.approx(1500)
