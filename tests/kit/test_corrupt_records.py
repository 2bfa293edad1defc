"""A corrupt saved game is a RecordError in both games' readers, whatever is wrong with it (issue 40): never a
RecursionError, a ValueError of Python's own limits, an IndexError or a TypeError from deep in the engine. Its
message names what is wrong and can be printed in every language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.corrupt_records import corrupt_files, corrupt_records
from zamek.castle import record as castle_records
from zamek.i18n import languages
from zamek.kit.errors import RecordError
from zamek.kit.records import read_record_file
from zamek.knights import record as knights_records

READERS: dict[str, Any] = {"castle": castle_records, "knights": knights_records}
WHAT_IS_NAMED = {  # a word of the message for the cases the issue lists
    "nested 100,000 deep": "nested", "5,000-digit seed": "seed", "first_player 1.0": "first_player",
    "draw_order shorter than the draws": "draw_order", "draw_order naming a tile twice": "draw_order",
    "board of 5,000 digits": "board", "sword 1.0": "sword",
}


def cases() -> list[tuple[str, str]]:
    return [(game, name) for game in READERS for name in corrupt_records(game)]


@pytest.mark.parametrize(("game", "name"), cases())
def test_a_corrupt_record_is_a_record_error_naming_what_is_wrong(game: str, name: str) -> None:
    record = corrupt_records(game)[name]
    for upto in (None, 0):
        with pytest.raises(RecordError) as caught:
            READERS[game].replay(record, upto)
        for lang in languages():
            assert caught.value.text(lang)
    if name in WHAT_IS_NAMED:
        assert WHAT_IS_NAMED[name] in str(caught.value)


@pytest.mark.parametrize(("game", "name"), [(game, name) for game in READERS for name in corrupt_files(game)])
def test_a_corrupt_file_is_a_record_error(tmp_path: Path, game: str, name: str) -> None:
    file = tmp_path / "game.json"
    file.write_bytes(corrupt_files(game)[name])
    with pytest.raises(RecordError) as caught:
        READERS[game].replay(read_record_file(file))
    for lang in languages():
        assert caught.value.text(lang)


def test_a_record_nested_past_any_recursion_limit_is_refused_without_recursing() -> None:
    record = corrupt_records("castle")["nested 100,000 deep"]
    with pytest.raises(RecordError, match=r"seed(\[0\])+: lists and objects nested more than 16 deep"):
        castle_records.replay(record)


def test_the_spoilt_records_come_from_records_that_replay() -> None:
    from tests.corrupt_records import castle_record, knights_record

    assert castle_records.replay(castle_record()).is_over()
    assert knights_records.replay(knights_record()).is_over()


def test_a_file_with_a_5000_digit_number_names_the_file_and_the_digits(tmp_path: Path) -> None:
    file = tmp_path / "long.json"
    file.write_bytes(corrupt_files("castle")["a file with a 5,000-digit whole number"])
    with pytest.raises(RecordError, match=r"long\.json: a whole number of 5000 digits"):
        read_record_file(file)
