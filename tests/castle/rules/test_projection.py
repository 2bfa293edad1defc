"""What the scores would be if the game ended now (``zamek.castle.rules.projection``): the final scoring of
RULES.md Z20 (meadows with their shrines, the family house and the largest empty area), the end tokens of Z19
and the falcon nests' area of F6, applied to a position as it stands.

Player 0 is White, player 1 Black.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tests.helpers import changed, holding, snapshot
from zamek.castle.data.loader import new_game, position_state
from zamek.castle.rules.actions import Pass
from zamek.castle.rules.projection import projected_scores
from zamek.castle.rules.setup import Phase, Setup
from zamek.castle.rules.state import GameState
from zamek.castle.rules.tokens import TokenKind
from zamek.castle.runner import random_policy, sample_chance

# Turn 11, White to place Z19. White: a monk on the meadow a6 (3 tiles, 1 shrine), a herald on the unfinished road
# f3 (2 tiles), a family house of 1 tile (d3), score 1. Black: monks on meadows without shrines, a family house
# of 2 tiles (j4 and the start space S5), score 2. The largest empty area has 66 spaces.
MIDGAME = (
    "zamek board=2 tiles=Z53@c3/270,Z36@d3/0,Z55@e3/180,Z15@f3/180,Z38@d4/0,Z47@j4/90,Z44@a5/0,Z05@a6/180,"
    "Z04@a7/270,Z56@b7/90 figures=0f:c3.1,1f:e3.1,0f:f3.0,1f:d4.1,1f:a5.1,0f:a6.1,0f:a7.1,1f:b7.0 score=1/2 "
    "supply=2f/2f tokens=-/- towers=12,19,23,32,36,43,56,59,65,71,76,88,94 pool=222222222 family=d3/j4.S5 "
    "nests=0/0 left=Z01-Z03,Z06-Z14,Z16-Z18,Z20-Z35,Z37,Z39-Z43,Z45,Z46,Z48-Z52,Z54,Z57-Z60 out=- turn=11 "
    "player=0 phase=place:Z19"
)


def test_z20_the_projection_adds_the_meadows_and_the_bigger_family_houses_empty_area() -> None:
    state = position_state(MIDGAME)
    before = snapshot(state)
    assert state.largest_empty_area() == 66 and state.family_size == [1, 2]
    # White: 1 + 3 (one shrine under White's monk); Black: 2 + 66 (the bigger family house takes the area).
    assert projected_scores(state) == (1 + 3, 2 + 66)
    assert snapshot(state) == before  # the position is read, not changed


def test_z19_end_tokens_count_in_the_projection() -> None:
    # White holds the family house +2 (token 5) and the unfinished road (token 9); Black the 5 points (token 6).
    white = holding(position_state(MIDGAME), 0, TokenKind.FAMILY_PLUS_2, TokenKind.OPEN_ROAD, taken=7)
    state = holding(white, 1, TokenKind.FIVE_POINTS, taken=5)
    # White's family house now counts 1 + 2 = 3 tiles against Black's 2: the area of 66 is White's. White's road
    # f3 of 2 tiles scores 1 a tile. Black gets the 5 points.
    assert projected_scores(state) == (1 + 3 + 66 + 2, 2 + 5)


def test_f6_the_falcon_nests_area_counts_in_the_projection() -> None:
    start = new_game(Setup(sokol=True))
    assert projected_scores(start) == (0, 0)  # nothing on the castle: the end awards nothing
    state = changed(start, nests=(1, 0))
    # No family house on either side; White's one nest scores the largest empty area: the whole empty castle.
    assert projected_scores(state) == (state.largest_empty_area(), 0) and state.largest_empty_area() > 0


def test_z20_a_finished_games_projection_is_its_final_score() -> None:
    state = random_game(3, Setup(), until=GameState.is_over)
    assert state.is_over() and projected_scores(state) == tuple(state.scores)


def test_z20_the_projection_is_what_the_games_own_end_adds() -> None:
    """The last tile placed, no figure put down and nothing completed: the game's end then scores exactly what the
    projection said just before it (random games of Zamek and of Sokół)."""
    checked = 0
    for seed in range(40):
        setup = Setup(sokol=bool(seed % 2))
        state = random_game(seed, setup, until=lambda s: not s.remaining and s.phase is Phase.FOLLOWER)
        if state.is_over():
            continue  # the last tiles fitted nowhere (Z8)
        during = len(state.log)
        expected = projected_scores(state)
        state.play(Pass())
        if any(not item.final for item in state.log[during:]):
            continue  # the last tile completed a feature: scored in the turn, before the end
        assert state.is_over() and tuple(state.scores) == expected, seed
        checked += 1
    assert checked >= 10


def random_game(seed: int, setup: Setup, *, until: Callable[[GameState], bool]) -> GameState:
    """A random game of ``seed`` played until ``until(state)`` holds (or to its end)."""
    rng = random.Random(seed)
    state = new_game(setup)
    while not state.is_over() and not until(state):
        state.apply(sample_chance(state, rng) if state.is_chance() else random_policy(state, rng))
    return state
