"""A third language is a catalogue folder, not code: the pseudo-locale (every message of the English catalogue
accented, lengthened and wrapped in ⟦…⟧) is added by a folder alone, and whole games played through the command
line in it print no word outside a message (tile ids and space names aside). The page's game in the pseudo-locale
is tests/browser/test_pseudo_locale_browser.py."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from zamek.castle.record import make_record
from zamek.castle.render import render_castle
from zamek.castle.rules.setup import Setup
from zamek.castle.runner import play_game
from zamek.i18n import CATALOGUES_ENV
from zamek.i18n.pseudo import PSEUDO, pseudo_message, unwrapped, write_pseudo_locale


@pytest.fixture(scope="module")
def pseudo_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("catalogues")
    write_pseudo_locale(folder)
    return folder


def zamek(folder: Path, *args: str, given: str = "") -> str:
    env = {**os.environ, CATALOGUES_ENV: str(folder)}
    done = subprocess.run([sys.executable, "-m", "zamek", *args], input=given, capture_output=True, text=True,
                          env=env, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert not done.stderr.strip(), done.stderr
    return done.stdout


def bypassing(output: str, drawings: str = "") -> list[tuple[str, list[str]]]:
    """Lines of ``output`` with words outside the pseudo-locale's brackets (a drawing of the castle aside)."""
    drawn = set(drawings.splitlines())
    return [(line, words) for line in output.splitlines() if line not in drawn and (words := unwrapped(line))]


def test_the_pseudo_locale_wraps_lengthens_and_keeps_the_values() -> None:
    text = pseudo_message("{n, plural, one {# tile} other {# tiles}} on {space}")
    assert text.startswith("⟦") and text.endswith("⟧")
    assert "{space}" in text and "#" in text
    assert unwrapped("⟦1 tîlé~~ öñ e10⟧ Z53") == []
    assert unwrapped("⟦ök⟧ left over") == ["left", "over"]
    assert unwrapped("⟦àt ⟦thé⟧ road⟧") == ["road"]  # English put in as a value, inside the brackets


@pytest.mark.parametrize("rules", ["zamek+sokol+gate-guard", "castle2003+sokol"])
def test_a_watched_castle_game_says_everything_through_the_catalogue(pseudo_folder: Path, rules: str) -> None:
    out = zamek(pseudo_folder, "watch", "--seed", "5", "--rules", rules, "--lang", PSEUDO)
    game = play_game(5, setup=Setup.parse(rules))
    assert len(out.splitlines()) > 100
    assert bypassing(out, render_castle(game.state)) == []


def test_a_replayed_and_shown_record_says_everything_through_the_catalogue(pseudo_folder: Path,
                                                                            tmp_path: Path) -> None:
    game = play_game(7, setup=Setup.parse("zamek+sokol"))
    file = tmp_path / "game.json"
    file.write_text(json.dumps(make_record(game.setup, game.seed, game.actions, game.state)), encoding="utf-8")
    replayed = zamek(pseudo_folder, "replay", str(file), "--lang", PSEUDO).replace(str(file), "")  # a path is data
    assert bypassing(replayed) == []
    out = zamek(pseudo_folder, "show", str(file), "--lang", PSEUDO)
    assert bypassing(out, render_castle(game.state)) == []
    record = make_record(game.setup, game.seed, game.actions, game.state)
    record["moves"][5] = "z99/0"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(record), encoding="utf-8")
    refused = subprocess.run([sys.executable, "-m", "zamek", "replay", str(broken), "--lang", PSEUDO],
                             capture_output=True, text=True, env={**os.environ, CATALOGUES_ENV: str(pseudo_folder)},
                             timeout=120, check=False)
    assert refused.returncode == 2
    assert "⟦" in refused.stderr
    assert unwrapped(refused.stderr.replace("Error:", "")) == []


def test_a_card_game_played_at_the_terminal_says_everything_through_the_catalogue(pseudo_folder: Path) -> None:
    # Each choice is asked as two cards ("1 2", or "1 1" when only the shepherds are left) and each recruitment as
    # one ("1"): an answer that does not fit is refused (through the catalogue too) and the next one is taken.
    answers = "".join(itertools.repeat("1 2\n1 1\n1\n", 200))
    out = zamek(pseudo_folder, "knights", "play", "--players", "3", "--seed", "11", "--lang", PSEUDO, given=answers)
    assert len(out.splitlines()) > 50
    assert bypassing(out) == []
