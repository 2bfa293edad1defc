"""Fixtures of the castle game's tests."""

from __future__ import annotations

import dataclasses

import pytest

from tests.helpers import SHORT_TILES
from zamek.castle.data import loader as datafiles
from zamek.castle.rules.setup import Rules, Setup, make_rules
from zamek.castle.rules.tiles import TileSet, merge_tilesets


@pytest.fixture
def short_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every game started from a Setup a short one: only the first tiles of the set."""
    real = datafiles.rules_for
    cache: dict[Setup, Rules] = {}

    def short_rules(setup: Setup) -> Rules:
        key = dataclasses.replace(setup, first_player=0, draw_order=None)
        if key not in cache:
            rules = real(key)
            tiles = merge_tilesets("short", TileSet("short", rules.tiles.tiles[:SHORT_TILES]))
            cache[key] = make_rules(rules.castle, tiles, key)
        return cache[key]

    monkeypatch.setattr(datafiles, "rules_for", short_rules)
