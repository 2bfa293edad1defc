"""Geometry tables, and validation of the tile and castle data files (DATA.md, Z2, Z3)."""

from __future__ import annotations

from importlib import resources

import pytest

from tests.helpers import tile_toml
from zamek.castle.data.loader import TILESET_FILES, load_castle, load_tileset, new_game, parse_castle, parse_tileset
from zamek.castle.rules.board import CastleDef
from zamek.castle.rules.errors import DataError
from zamek.castle.rules.geometry import (
    FACING,
    MIDDLE_SEGMENTS,
    SEGMENTS,
    Side,
    facing_segment,
    parse_space,
    rotate_segment,
    side_of,
    side_segments,
    space_name,
)
from zamek.castle.rules.tiles import canonical_form

# ------------------------------------------------------------------ geometry


def test_facing_is_an_involution() -> None:
    assert len(FACING) == SEGMENTS
    for s in range(SEGMENTS):
        assert FACING[FACING[s]] == s
        assert FACING[s] == facing_segment(s)
    assert sorted(FACING) == list(range(SEGMENTS))


def test_facing_maps_side_k_to_side_k_plus_2() -> None:
    for s in range(SEGMENTS):
        assert side_of(FACING[s]) == (side_of(s) + 2) % 4
        assert side_of(FACING[s]) == side_of(s).opposite
    # Middles face middles; the west end of the north side faces the west end of the south side
    # (segment 8, which is the south side's west end when read clockwise).
    assert [FACING[m] for m in MIDDLE_SEGMENTS] == [7, 10, 1, 4]
    assert FACING[0] == 8 and FACING[2] == 6 and FACING[3] == 11 and FACING[5] == 9


def test_rotation_maps_segment_s_to_s_plus_3() -> None:
    for s in range(SEGMENTS):
        assert rotate_segment(s, 0) == s
        assert rotate_segment(s, 1) == (s + 3) % 12
        assert rotate_segment(s, 2) == rotate_segment(rotate_segment(s, 1), 1)
        assert rotate_segment(rotate_segment(s, 3), 1) == s
        # A quarter turn moves a segment to the next side clockwise, keeping its place on it.
        assert side_of(rotate_segment(s, 1)) == (side_of(s) + 1) % 4
        assert rotate_segment(s, 1) % 3 == s % 3


def test_side_segments_and_opposites() -> None:
    assert [side_segments(k) for k in range(4)] == [(0, 1, 2), (3, 4, 5), (6, 7, 8), (9, 10, 11)]
    assert [Side(k).opposite for k in range(4)] == [Side.S, Side.W, Side.N, Side.E]


@pytest.mark.parametrize(
    ("name", "xy"), [("a1", (0, 0)), ("e10", (4, 9)), ("j4", (9, 3)), ("p16", (15, 15)), ("b8", (1, 7))]
)
def test_space_names_round_trip(name: str, xy: tuple[int, int]) -> None:
    assert parse_space(name) == xy
    assert space_name(*xy) == name
    assert parse_space(name.upper()) == xy


def test_every_space_name_round_trips() -> None:
    for x in range(26):
        for y in range(99):
            assert parse_space(space_name(x, y)) == (x, y)


@pytest.mark.parametrize("bad", ["", "a", "10", "a0", "a01", "aa1", "e100", "e-1", "1a", "é1"])
def test_parse_space_rejects_non_names(bad: str) -> None:
    with pytest.raises(ValueError, match="not a space name"):
        parse_space(bad)


def test_orientation_tables_follow_the_rotation_rule() -> None:
    for tile in load_tileset("zamek").tiles:
        assert len(tile.orientations) == 4
        for rotation, orientation in enumerate(tile.orientations):
            assert orientation.rotation == rotation
            for index, feature in enumerate(tile.features):
                for s in feature.segments:
                    assert orientation.segment_feature[rotate_segment(s, rotation)] == index
            roads = sum(
                1 << side
                for side, middle in enumerate(MIDDLE_SEGMENTS)
                if tile.features[orientation.segment_feature[middle]].kind.key == "road"
            )
            assert orientation.road_sides == roads


# ------------------------------------------------------------- tile validation

MEADOW_ALL = 'kind = "meadow", segments = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]'
STRAIGHT = ('kind = "road", segments = [1, 7]', 'kind = "meadow", segments = [2, 3, 4, 5, 6]',
            'kind = "meadow", segments = [8, 9, 10, 11, 0]')


def _tileset_error(*blocks: str) -> str:
    with pytest.raises(DataError) as info:
        parse_tileset("\n".join(blocks), "test")
    return str(info.value)


def test_a_valid_tile_parses() -> None:
    tiles = parse_tileset(tile_toml("A1", *STRAIGHT) + tile_toml("A2", MEADOW_ALL), "test")
    assert tiles.ids() == ("A1", "A2")
    assert tiles.by_id("A1").features[0].segments == (1, 7)


def test_overlapping_segments_are_refused() -> None:
    message = _tileset_error(tile_toml(
        "X7", 'kind = "house", segments = [0, 1, 2, 3]', 'kind = "meadow", segments = [3, 4, 5, 6, 7, 8, 9, 10, 11]'
    ))
    assert "X7" in message
    assert "segment 3" in message and "partitioned" in message


def test_missing_segments_are_refused() -> None:
    message = _tileset_error(tile_toml(
        "X8", 'kind = "house", segments = [0, 1, 2]', 'kind = "meadow", segments = [3, 4, 5, 6, 7, 8, 9]'
    ))
    assert "X8" in message
    assert "[10, 11]" in message and "no feature" in message


def test_road_on_a_corner_segment_is_refused() -> None:
    message = _tileset_error(tile_toml(
        "X9", 'kind = "road", segments = [0, 7]', 'kind = "meadow", segments = [1, 2, 3, 4, 5, 6]',
        'kind = "meadow", segments = [8, 9, 10, 11]',
    ))
    assert "X9" in message
    assert "middle segments" in message


def test_crossing_features_are_refused() -> None:
    message = _tileset_error(tile_toml(
        "X10", 'kind = "house", segments = [0, 1, 2, 6, 7, 8]', 'kind = "meadow", segments = [3, 4, 5]',
        'kind = "meadow", segments = [9, 10, 11]',
    ) + "\n" + tile_toml(
        "X11", 'kind = "road", segments = [1, 7]', 'kind = "road", segments = [4, 10]',
        'kind = "meadow", segments = [2, 3]', 'kind = "meadow", segments = [5, 6]',
        'kind = "meadow", segments = [8, 9]', 'kind = "meadow", segments = [11, 0]',
    ))
    assert "X11" in message
    assert "cross" in message
    assert "road" in message


def test_a_one_segment_road_needs_a_fountain_or_a_building() -> None:
    message = _tileset_error(tile_toml(
        "X12", 'kind = "road", segments = [7]', 'kind = "meadow", segments = [8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6]'
    ))
    assert "X12" in message
    assert "fountain or a building" in message
    # The same road ending at a house is fine.
    parse_tileset(tile_toml(
        "OK", 'kind = "road", segments = [7]', 'kind = "house", segments = [0, 1, 2]',
        'kind = "meadow", segments = [3, 4, 5, 6]', 'kind = "meadow", segments = [8, 9, 10, 11]',
    ), "test")


def test_two_tiles_equal_under_rotation_are_refused() -> None:
    turned = ('kind = "road", segments = [4, 10]', 'kind = "meadow", segments = [5, 6, 7, 8, 9]',
              'kind = "meadow", segments = [11, 0, 1, 2, 3]')
    message = _tileset_error(tile_toml("R1", *STRAIGHT), tile_toml("R2", *turned))
    assert "R2" in message and "R1" in message
    assert "rotation" in message
    # The features in another order are still the same tile.
    message = _tileset_error(tile_toml("R1", *STRAIGHT), tile_toml("R3", *reversed(STRAIGHT)))
    assert "R3" in message and "R1" in message


def test_canonical_form_is_rotation_aware() -> None:
    tile = parse_tileset(tile_toml("A1", *STRAIGHT), "test").tiles[0]
    forms = [canonical_form(tile.features, tile.fountain, r) for r in range(4)]
    assert forms[0] == forms[2] and forms[1] == forms[3] and forms[0] != forms[1]


def test_stocks_must_stand_beside_a_road() -> None:
    message = _tileset_error(tile_toml(
        "X13", 'kind = "road", segments = [1, 7]', 'kind = "meadow", segments = [2, 3, 4, 5, 6], stocks = 1',
        'kind = "meadow", segments = [8, 9, 10, 11, 0]',
    ))
    assert "X13" in message
    assert "stocks" in message and "meadow" in message


def test_shrines_must_stand_on_a_meadow() -> None:
    message = _tileset_error(tile_toml(
        "X14", 'kind = "house", segments = [0, 1, 2], shrines = 1',
        'kind = "meadow", segments = [3, 4, 5, 6, 7, 8, 9, 10, 11]',
    ))
    assert "X14" in message
    assert "shrines" in message and "house" in message


def test_unknown_kind_is_refused() -> None:
    message = _tileset_error(tile_toml("X15", 'kind = "tower", segments = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]'))
    assert "X15" in message
    assert "tower" in message and "unknown" in message


def test_chapels_are_not_part_of_the_base_set() -> None:
    text = tile_toml(
        "X16", 'kind = "chapel", segments = [0, 1, 2]', 'kind = "meadow", segments = [3, 4, 5, 6, 7, 8, 9, 10, 11]'
    )
    with pytest.raises(DataError, match=r"X16.*chapel"):
        parse_tileset(text, "zamek", TILESET_FILES["zamek"][1])


def test_unknown_fields_are_refused() -> None:
    message = _tileset_error(f'[[tile]]\nid = "X17"\ncolour = "red"\nfeatures = [{{{MEADOW_ALL}}}]\n')
    assert "X17" in message and "colour" in message and "unknown" in message
    message = _tileset_error(tile_toml("X18", MEADOW_ALL + ', colour = "red"'))
    assert "X18" in message and "colour" in message and "unknown" in message


def test_duplicate_ids_are_refused() -> None:
    message = _tileset_error(tile_toml("D1", *STRAIGHT), tile_toml("D1", MEADOW_ALL))
    assert "D1" in message
    assert "twice" in message


def test_a_fountain_splits_three_or_four_arms() -> None:
    arms = ('kind = "road", segments = [1]', 'kind = "road", segments = [7]',
            'kind = "meadow", segments = [2, 3, 4, 5, 6]', 'kind = "meadow", segments = [8, 9, 10, 11, 0]')
    message = _tileset_error(tile_toml("X19", *arms, fountain=True))
    assert "X19" in message and "fountain" in message


# ------------------------------------------------------------ castle validation

CASTLE_TEXT = resources.files("zamek.castle.data").joinpath("zamek_castle.toml").read_text(encoding="utf-8")


def _castle_error(old: str, new: str) -> str:
    assert CASTLE_TEXT.count(old) == 1, old
    with pytest.raises(DataError) as info:
        parse_castle(CASTLE_TEXT.replace(old, new), "broken")
    return str(info.value)


def test_the_unmodified_castle_text_parses() -> None:
    castle = parse_castle(CASTLE_TEXT, "copy")
    assert len(castle.interior) == 76


def test_z2_wrong_space_count_is_refused() -> None:
    message = _castle_error("spaces = 76", "spaces = 75")
    assert "76" in message and "75" in message
    # Or: the rows lose a space while the count stays.
    message = _castle_error('"..     .. ",  # 1', '"..     .  ",  # 1')
    assert "75" in message and "76" in message


def test_z2_tower_must_sit_on_a_corner() -> None:
    message = _castle_error("{ track = [12, 13], corner = [0, 8] }", "{ track = [12, 13], corner = [0, 6] }")
    assert "tower 2" in message
    assert "not a corner" in message


def test_z2_start_space_must_lie_on_the_wall() -> None:
    message = _castle_error('faces = "a6"\nside = "W"', 'faces = "a6"\nside = "E"')
    assert "S1" in message
    assert "not on the wall" in message


def test_z2_start_features_must_cover_segments_0_to_2() -> None:
    message = _castle_error(
        'features = [{ kind = "pigsty", segments = [0, 1, 2] }]', 'features = [{ kind = "pigsty", segments = [0, 1] }]'
    )
    assert "S2" in message
    assert "0, 1, 2" in message
    house = 'features = [{ kind = "house", segments = [0, 1, 2] }]'
    message = _castle_error(house, house.replace("[0, 1, 2]", "[0, 1, 2, 3]"))
    assert "S5" in message


def test_z2_unknown_side_is_refused() -> None:
    message = _castle_error('faces = "e10"\nside = "N"', 'faces = "e10"\nside = "up"')
    assert "S3" in message
    assert "N, E, S or W" in message


def test_z2_a_corner_without_a_tower_is_refused() -> None:
    message = _castle_error("  { track = [59, 60], corner = [9, 2] },\n", "")
    assert "every corner of the wall" in message and "[9, 2]" in message


def _corners(castle: CastleDef) -> set[tuple[int, int]]:
    """The lattice points where the wall turns, found from the spaces alone."""
    inside = {castle.xy(c) for c in castle.interior}
    corners = set()
    for x in range(castle.width + 1):
        for y in range(castle.height + 1):
            around = [(x - 1, y - 1) in inside, (x, y - 1) in inside, (x - 1, y) in inside, (x, y) in inside]
            if sum(around) in (1, 3) or around in ([True, False, False, True], [False, True, True, False]):
                corners.add((x, y))
    return corners


@pytest.mark.parametrize(("name", "spaces"), [("zamek", 76), ("sokol", 95)])
def test_z2_z16_castles_keep_every_fact_of_the_rulebooks(name: str, spaces: int) -> None:
    castle = load_castle(name)
    assert len(castle.interior) == spaces
    tracks = [t.track for t in castle.towers]
    assert len(tracks) == 14 and sum(t.holds_token for t in castle.towers) == 13
    assert tracks[0] == (0, 1) and not castle.towers[0].holds_token  # Z4: 0/1 stays empty
    assert tracks[1] == (12, 13)  # the first corner after the start
    assert (32, 33) in tracks  # 2003: a marker moved 2 spaces onto 33 takes the tile there
    assert (56, 57) in tracks  # Zamek: from 53, 3 or 4 points stop on a tower
    # A tower on every corner of the wall, and nowhere else.
    assert {t.corner for t in castle.towers} == _corners(castle)
    assert len(castle.towers) == len(_corners(castle))
    if name == "sokol":  # F1: the gates sit between two track spaces of a straight stretch
        assert castle.gates == (27, 47, 69, 91)
        on_towers = {n for track in tracks for n in track}
        assert all(g not in on_towers and g + 1 not in on_towers for g in castle.gates)


def test_z2_real_castle() -> None:
    castle = load_castle("zamek")
    assert len(castle.interior) == 76
    assert len(castle.towers) == 14
    assert len(castle.starts) == 7
    # Z4: every tower but the one covering 0 and 1 holds a token.
    assert [t.holds_token for t in castle.towers] == [False] + [True] * 13
    assert castle.towers[0].track == (0, 1) and castle.towers[1].track == (12, 13)
    faces = {s.id: castle.name_of(s.faces) for s in castle.starts}
    assert faces == {"S1": "a6", "S2": "b8", "S3": "e10", "S4": "i8", "S5": "j4", "S6": "f3", "S7": "d3"}
    assert sum(f.shrines for s in castle.starts for f in s.features) >= 1
    assert castle.cell_of("e10") == castle.cell(4, 9)
    with pytest.raises(ValueError):
        castle.cell_of("c1")  # the gatehouse court


# ----------------------------------------------------------------- real tile set


def test_z3_real_tileset_has_60_distinct_tiles() -> None:
    tiles = load_tileset("zamek")
    assert len(tiles) == 60
    assert tiles.ids() == tuple(f"Z{i:02d}" for i in range(1, 61))
    assert [t.index for t in tiles.tiles] == list(range(60))
    forms: set[tuple[object, ...]] = set()
    for tile in tiles.tiles:
        mine = {canonical_form(tile.features, tile.fountain, r) for r in range(4)}
        assert not mine & forms, f"{tile.id} equals an earlier tile under rotation"
        forms |= mine
    assert not any(f.kind.key == "chapel" for t in tiles.tiles for f in t.features)


def test_z7_every_tile_has_a_placement_in_the_empty_castle() -> None:
    state = new_game()
    for tile in state.tiles.tiles:
        assert state.placements_for(tile.index), f"{tile.id} has no legal placement in the empty castle"
