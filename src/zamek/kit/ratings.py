"""Ratings from match results: a Bradley–Terry fit on the Elo scale (the ladder of computer levels).

Bradley–Terry gives each player a strength p so that i scores p_i / (p_i + p_j) of the points against j (a win
1, a draw or shared win 1/2). The fit is the maximum-likelihood one, by Hunter's minorisation–maximisation
iteration (Annals of Statistics 32, 2004). A rating is 400 log10 p, Elo's scale: 200 points apart means about
76% of the points, 400 apart 91%.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

PRIOR_POINTS = 0.5
"""Every pair that met also counts as if each had scored this much more in one more game: a perfect record
(200 of 200) then gives a large but finite gap (about 1,000 for 200 games) instead of an infinite one."""


def bradley_terry(players: Sequence[str], results: Mapping[tuple[str, str], tuple[float, int]],
                  iterations: int = 10_000, tolerance: float = 1e-10) -> dict[str, float]:
    """Ratings on the Elo scale, the first of ``players`` at 0. ``results[(a, b)]`` is (a's points against b,
    games they played); each pair once, in either order. Raises ValueError when the results do not link every
    player to every other (then no rating compares them) or name a player not in ``players``."""
    index = {name: i for i, name in enumerate(players)}
    if len(index) != len(players) or not players:
        raise ValueError("the players must be named once each, at least one")
    n = len(players)
    points = [0.0] * n
    games = [[0.0] * n for _ in range(n)]
    for (a, b), (scored, played) in results.items():
        if a not in index or b not in index or a == b:
            raise ValueError(f"a result between {a!r} and {b!r}: not two of the players")
        if played <= 0 or not 0 <= scored <= played:
            raise ValueError(f"{a!r} against {b!r}: {scored} points in {played} games")
        i, j = index[a], index[b]
        points[i] += scored + PRIOR_POINTS
        points[j] += played - scored + PRIOR_POINTS
        games[i][j] += played + 2 * PRIOR_POINTS
        games[j][i] += played + 2 * PRIOR_POINTS
    _check_linked(players, games)
    strength = [1.0] * n
    for _ in range(iterations):
        updated = [points[i] / sum(games[i][j] / (strength[i] + strength[j]) for j in range(n) if games[i][j])
                   if n > 1 else 1.0 for i in range(n)]
        scale = math.exp(sum(math.log(s) for s in updated) / n)  # the fit fixes only ratios: keep them near 1
        updated = [s / scale for s in updated]
        change = max(abs(math.log(u / s)) for u, s in zip(updated, strength, strict=True))
        strength = updated
        if change < tolerance:
            break
    anchor = math.log10(strength[0])
    return {name: 400 * (math.log10(strength[i]) - anchor) for name, i in index.items()}


def expected_share(rating: float, other: float) -> float:
    """The share of the points a player of ``rating`` is expected to score against one of ``other``."""
    return 1 / (1 + 10 ** ((other - rating) / 400))


def _check_linked(players: Sequence[str], games: list[list[float]]) -> None:
    reached, frontier = {0}, [0]
    while frontier:
        i = frontier.pop()
        for j, played in enumerate(games[i]):
            if played and j not in reached:
                reached.add(j)
                frontier.append(j)
    if len(reached) != len(players):
        apart = [players[i] for i in range(len(players)) if i not in reached]
        raise ValueError(f"no games link {', '.join(apart)} to {players[0]}: their ratings cannot be compared")
