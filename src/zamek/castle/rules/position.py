"""Positions as text, like chess's FEN: ``Position.parse(str(p)) == p``.

A position is what decides how a game goes on, not how it came about. White to place Z24 in turn 3
(RULES Z16: the road S1-a6-b6 then takes White's marker from 53 onto the tower 56/57), on one line::

    zamek board=2 tiles=Z02@a6/90,Z45@e10/0 figures=0f:a6.0 score=53/17 supply=5f/6f tokens=-/-
    towers=12,19,23,32,36,43,56,59,65,71,76,88,94 pool=222222222 family=-/- nests=0/0
    left=Z01,Z03-Z23,Z25-Z44,Z46-Z60 out=- turn=3 player=0 phase=place:Z24

The rule set comes first, then ``key=value`` fields in any order; docs/positions.md
gives the grammar. Positions are taken between scoring steps: a state waiting for a scoring order, a
x2 token decision or a token's reveal (ORDER, DOUBLE, REVEAL) has none. Left out as history: the score
breakdown so far (``GameState.log``), the first player and a fixed draw order (a rebuilt state draws
at random from the tiles left). ``to_state`` places the tiles in board order (the tile just placed
last) and puts the figures on their features; only region node numbers differ from the original state,
and the engine never lets them decide anything (it breaks ties between features by the spaces they
cover), so the game goes on exactly as the original, breakdown included. ``parse`` also checks that
the position can arise in a game, and raises :class:`PositionError` naming the field and the problem.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from zamek.castle.rules.actions import Piece
from zamek.castle.rules.board import TAKEN, TRACK_LENGTH, CastleDef
from zamek.castle.rules.errors import PositionError, ZamekError
from zamek.castle.rules.geometry import FACING, MIDDLE_SEGMENTS, parse_space
from zamek.castle.rules.setup import TOKENS_PER_KIND, HeldToken, Phase, Rules, Setup
from zamek.castle.rules.state import GameState
from zamek.castle.rules.tiles import SCORED_KINDS, FeatureKind
from zamek.castle.rules.tokens import TokenKind
from zamek.i18n import Message, Term

RulesOf = Callable[[Setup], Rules]
"""Where a position finds the castle and tiles of its rule set (the core reads no files)."""

LETTERS: Final = {"f": Piece.FOLLOWER, "p": Piece.PRINCE, "h": Piece.FALCONER}
_LETTER: Final = {piece: key for key, piece in LETTERS.items()}
PHASES: Final = {Phase.DRAW: "draw", Phase.PLACE: "place", Phase.FOLLOWER: "follower",
                 Phase.EXTRA_TURN: "extra", Phase.OVER: "over"}
FIELDS: Final = ("board", "tiles", "figures", "score", "supply", "tokens", "towers", "pool", "family", "nests",
                 "left", "out", "turn", "player", "phase")

Tile = tuple[str, str, int]  # tile id, space, rotation in degrees clockwise
Figure = tuple[int, str, str, int]  # player, piece letter (f, p, h), space, feature index on that tile
Held = tuple[tuple[int, int], ...]  # (kind in Zamek numbering, turn taken) of each token held
Supply = tuple[int, int, int]  # followers, princes, falconers

_SPACE: Final = r"([a-z][0-9]{1,2})"
_TILE: Final = re.compile(rf"([A-Za-z0-9_]+)@{_SPACE}/([0-9]{{1,3}})")
_FIGURE: Final = re.compile(rf"([0-9])([a-z]):{_SPACE}\.([0-9]{{1,2}})")
_SCORE: Final = re.compile(r"([0-9]{1,6})(g?)")
_SUPPLY: Final = re.compile(r"([0-9]{1,2})f(?:([0-9])p([0-9])h)?")
_HELD: Final = re.compile(r"([0-9])@([0-9]{1,4})")
_NUMBER: Final = re.compile(r"[0-9]{1,6}")
_POOL: Final = re.compile(r"[0-9]{9}")
_ID: Final = re.compile(r"([A-Za-z_]*)([0-9]{1,9})|[A-Za-z0-9_]+")
_RUN: Final = re.compile(r"([A-Za-z_]*)([0-9]{1,9})-([A-Za-z_]*)([0-9]{1,9})")
_PHASE: Final = re.compile(rf"(draw|extra|over)|place:([A-Za-z0-9_]+)|follower:{_SPACE}")


@dataclass(frozen=True, slots=True)
class Position:
    """A whole position as plain values. ``from_state`` and ``parse`` put every list in its canonical
    order (tiles and figures by space, tile ids in tile-set order, tokens by kind), so equal positions
    compare equal however they were reached."""

    rules: str
    """The rule set's name (``zamek+sokol``, :mod:`zamek.castle.rules.rulesets`)."""
    board: int
    tiles: tuple[Tile, ...]
    figures: tuple[Figure, ...]
    scores: tuple[int, int]
    on_gate: tuple[bool, bool]
    """The marker stands on the gate after its score (F8)."""
    supply: tuple[Supply, Supply]
    tokens: tuple[Held, Held]
    towers: tuple[int, ...]
    """The first track number of each tower still holding a face-down token."""
    pool: tuple[int, ...]
    """Tokens of kinds 1..9 not yet revealed."""
    family: tuple[tuple[str, ...], tuple[str, ...]]
    """The spaces of each player's family house (start spaces by id); its size is their number."""
    nests: tuple[int, int]
    left: tuple[str, ...]
    out: tuple[str, ...]
    turn: int
    player: int
    phase: str
    """draw, place, follower, extra or over."""
    subject: str = ""
    """The drawn tile's id (place) or the space of the tile just placed (follower); empty otherwise."""

    @classmethod
    def from_state(cls, state: GameState) -> Position:
        """Return the position of a state; raise PositionError in the middle of scoring."""
        phase = PHASES.get(state.phase)
        if phase is None:
            raise PositionError("position-scoring-step", phase=state.phase.name.lower())
        setup = state.setup
        ids, names = state.tiles.ids(), _cell_names(state.castle)
        subject = ids[state.drawn] if phase == "place" else ""
        subject = names[state.placements[-1][0]] if phase == "follower" else subject
        figures = sorted((f.cell, f.feature, f.player, int(f.piece)) for f in state.followers)
        held = [tuple(sorted((t.kind, t.turn_taken) for t in state.tokens[p])) for p in (0, 1)]
        family = [tuple(names[c] for c in range(m.bit_length()) if m >> c & 1) for m in state.family_cells]
        return cls(
            setup.name, setup.board,
            tuple((ids[t], names[c], 90 * r) for c, t, r in sorted(state.placements)),
            tuple((p, _LETTER[Piece(k)], names[c], i) for c, i, p, k in figures),
            (state.scores[0], state.scores[1]),
            (state.on_gate[0] and phase != "over", state.on_gate[1] and phase != "over"),  # final points pass gates
            ((state.supply[0], state.princes[0], state.falconers[0]),
             (state.supply[1], state.princes[1], state.falconers[1])),
            (held[0], held[1]),
            tuple(t.track[0] for t in state.castle.towers if state.tower_token[t.index]),
            tuple(state.token_pool[1:]),
            (family[0], family[1]),
            (state.nests[0], state.nests[1]),
            tuple(ids[t] for t in sorted(state.remaining)), tuple(ids[t] for t in sorted(state.discarded)),
            state.turn, state.current, phase, subject,
        )

    @property
    def setup(self) -> Setup:
        """The rule set of the position (its first player and draw order are history, and left out)."""
        return Setup.parse(self.rules, board=self.board)

    @property
    def sokol(self) -> bool:
        return self.setup.sokol

    @property
    def gate_guard(self) -> bool:
        return self.setup.gate_guard

    def to_state(self, rules_of: RulesOf) -> GameState:
        """Return a playable state of this position; raise PositionError if it cannot arise in a game.

        ``rules_of`` gives the castle and tiles of a setup: ``zamek.castle.data.loader.rules_for`` for the shipped
        ones (``zamek.castle.data.loader.position_state`` does just that), or a test's own.
        """
        try:
            setup = self.setup
            state = GameState.new(setup, rules_of(setup))
        except ValueError as exc:
            raise PositionError("position-rules", reason=_reason(exc)) from None
        castle, tileset = state.castle, state.tiles
        index, names = {t.id: t.index for t in tileset.tiles}, _cell_names(castle)
        where: dict[str, tuple[str, str]] = {}  # each tile's place: ("on", space), ("drawn", ""), ("left", "")...

        def tile(tid: str, field: str, place: tuple[str, str]) -> int:
            if tid not in index:
                raise PositionError("position-unknown-tile", field=field, tile=tid, tiles=_runs(tileset.ids()))
            if tid in where:
                first, first_space = where[tid]
                second, second_space = place
                raise PositionError("position-tile-twice", field=field, tile=tid, first=first, first_space=first_space,
                                    second=second, second_space=second_space)
            where[tid] = place
            return index[tid]

        board: dict[int, tuple[int, int]] = {}
        for tid, space, degrees in self.tiles:
            cell = _cell(castle, space, "tiles")
            if cell in board:
                raise PositionError("position-two-tiles", "Z6", space=space)
            if degrees not in (0, 90, 180, 270):
                raise PositionError("position-rotation", "Z6", tile=tid, space=space, degrees=degrees)
            board[cell] = (tile(tid, "tiles", ("on", space)), degrees // 90)
        if self.phase not in PHASES.values() or (self.subject != "") != (self.phase in ("place", "follower")):
            raise PositionError("position-phase", phase=self.phase, subject=self.subject)
        drawn = tile(self.subject, "phase", ("drawn", "")) if self.phase == "place" else -1
        for field, ids in (("left", self.left), ("out", self.out)):
            for tid in ids:
                tile(tid, field, (field, ""))
        if missing := [t for t in tileset.ids() if t not in where]:
            raise PositionError("position-tiles-nowhere", tiles=_runs(missing))
        last = _cell(castle, self.subject, "phase") if self.phase == "follower" else -1
        if self.phase == "follower" and last not in board:
            raise PositionError("position-no-tile-for-figure", space=self.subject)
        figures: dict[int, list[tuple[int, Piece, int]]] = {}
        for player, letter, space, feature in self.figures:
            cell, piece = _cell(castle, space, "figures"), LETTERS.get(letter)
            figure = f"{player}{letter}:{space}.{feature}"
            if player > 1 or piece is None:
                raise PositionError("position-figure-who", figure=figure)
            if piece in (Piece.PRINCE, Piece.FALCONER) and not self.sokol:
                raise PositionError("position-figure-sokol", "F1", figure=figure)
            if cell not in board:
                raise PositionError("position-figure-no-tile", figure=figure, space=space)
            count = len(tileset.tiles[board[cell][0]].features)
            if not 0 <= feature < count:
                raise PositionError("position-figure-feature", figure=figure, space=space, last=count - 1)
            if cell == last:
                raise PositionError("position-figure-too-soon", "Z9", figure=figure)
            if any(i == feature for _, _, i in figures.get(cell, [])):
                raise PositionError("position-figure-twice", "Z9", figure=figure)
            figures.setdefault(cell, []).append((player, piece, feature))
        for cell in [c for c in sorted(board) if c != last] + ([last] if last >= 0 else []):
            state.drawn, rotation = board[cell]
            state._place(cell, rotation)
            for player, piece, feature in figures.get(cell, []):
                state.current = player
                state._put_follower(feature, piece)
        _check_board(state, board, names)
        done = {state.find(r) for r in state.completed} if self.phase == "follower" else set()
        for f in state.followers:
            root = state.find(f.node)
            if state.kind[root] in SCORED_KINDS and state.open[root] == 0 and root not in done:
                kind = FeatureKind(state.kind[root]).key
                raise PositionError("position-figure-home", "Z17", figure=f"{f.player}{_LETTER[f.piece]}:"
                                    f"{names[f.cell]}.{f.feature}", kind=Term(f"term.{kind}"))
        for p in (0, 1):
            have = (state.supply[p], state.princes[p], state.falconers[p])
            if self.supply[p] != have:
                raise PositionError("position-supply", player=p, has=_supply_text(have, True),
                                    given=_supply_text(self.supply[p], True))
            mask = sum({1 << _cell(castle, space, "family", starts=True) for space in self.family[p]})
            if mask and not any(state.kind[r] == FeatureKind.HOUSE and state.open[r] == 0 and state.cells[r] == mask
                                for r in state.roots()):
                raise PositionError("position-family", "Z18", player=p, spaces=".".join(self.family[p]))
            state.family_size[p], state.family_cells[p] = mask.bit_count(), mask
        self._set_tokens(state)
        self._set_scores(state)
        self._set_turn(state, drawn, len(board))
        state.remaining = sorted(index[t] for t in self.left)
        state.discarded = sorted(index[t] for t in self.out)
        state.draw_position = len(board) + len(self.out) + (drawn >= 0)
        return state

    def _set_tokens(self, state: GameState) -> None:
        if len(self.pool) != len(TokenKind):
            raise PositionError("position-pool-length", "Z4")
        held = [0] * (len(TokenKind) + 1)
        for p in (0, 1):
            for kind, taken in self.tokens[p]:
                if not 1 <= kind <= len(TokenKind) or not 1 <= taken <= self.turn:
                    raise PositionError("position-token", token=f"{kind}@{taken}", turn=self.turn)
                held[kind] += 1
            state.tokens[p] = [HeldToken(k, t) for k, t in sorted(self.tokens[p])]
        for kind in TokenKind:
            if self.pool[kind - 1] + held[kind] > TOKENS_PER_KIND:
                raise PositionError("position-pool-count", "Z4", down=self.pool[kind - 1], token=int(kind),
                                    held=held[kind], each=TOKENS_PER_KIND)
        towers = {t.track[0]: t.index for t in state.castle.towers if t.holds_token}
        if any(n not in towers for n in self.towers) or len(set(self.towers)) != len(self.towers):
            raise PositionError("position-towers", towers=_list(map(str, self.towers)), known=[str(n) for n in towers])
        emptied, revealed = len(towers) - len(self.towers), TOKENS_PER_KIND * len(TokenKind) - sum(self.pool)
        if self.phase == "over" and self.towers:
            raise PositionError("position-towers-at-end", "Z20")
        if self.phase != "over" and emptied != revealed:
            raise PositionError("position-towers-emptied", "Z16", emptied=emptied, revealed=revealed)
        state.tower_token = [t.index in {towers[n] for n in self.towers} for t in state.castle.towers]
        state.token_pool = [0, *self.pool]

    def _set_scores(self, state: GameState) -> None:
        gates = state.castle.gates
        for p in (0, 1):
            if self.on_gate[p] and not (self.gate_guard and self.scores[p] % TRACK_LENGTH in gates):
                raise PositionError("position-off-gate", "F8", player=p, score=self.scores[p], count=len(gates),
                                    gates=[str(g) for g in gates])
            if self.nests[p] and not self.sokol:
                raise PositionError("position-nests", "F5", player=p)
            tower = state.rules.tower_at[self.scores[p] % TRACK_LENGTH]
            if tower >= 0 and state.tower_token[tower]:
                raise PositionError("position-tower-token", "Z16", player=p, score=self.scores[p])
            state.scores[p], state.on_gate[p], state.nests[p] = self.scores[p], self.on_gate[p], self.nests[p]

    def _set_turn(self, state: GameState, drawn: int, placed: int) -> None:
        expected = {placed} if self.phase in ("follower", "extra") else {placed + 1}
        if self.phase == "over":
            expected.add(placed)
        if self.turn not in expected or self.player not in (0, 1):
            turns = sorted(expected)
            raise PositionError("position-turn", turn=self.turn, player=self.player, placed=placed, phase=self.phase,
                                choices=len(turns), first=turns[0], second=turns[-1])
        state.current, state.turn, state.drawn = self.player, self.turn, drawn
        state.phase = next(p for p, name in PHASES.items() if name == self.phase)
        if (self.phase == "over" and self.left) or (self.phase in ("draw", "extra") and not self.left):
            raise PositionError("position-game-over", "Z20")
        if self.phase != "follower":
            state.completed = []
        if self.phase == "place":
            state.drawn_placements = state.placements_for(drawn)
            if not state.drawn_placements:
                raise PositionError("position-fits-nowhere", "Z8", tile=self.subject)
        same_turn = state.rules.edition.tokens_usable_same_turn
        if self.phase == "extra" and not any(k == TokenKind.EXTRA_TURN and (t < self.turn or same_turn)
                                             for k, t in self.tokens[self.player]):
            raise PositionError("position-no-extra-turn", "Z19", player=self.player, turn=self.turn)

    def __str__(self) -> str:
        fields = {
            "board": str(self.board),
            "tiles": _list(f"{t}@{s}/{r}" for t, s, r in self.tiles),
            "figures": _list(f"{p}{k}:{s}.{i}" for p, k, s, i in self.figures),
            "score": "/".join(f"{s}{'g' if g else ''}" for s, g in zip(self.scores, self.on_gate, strict=True)),
            "supply": "/".join(_supply_text(s, self.sokol) for s in self.supply),
            "tokens": "/".join(_list(f"{k}@{t}" for k, t in held) for held in self.tokens),
            "towers": _list(map(str, self.towers)),
            "pool": "".join(map(str, self.pool)),
            "family": "/".join(_list(spaces, ".") for spaces in self.family),
            "nests": "/".join(map(str, self.nests)),
            "left": _list(_runs(self.left)),
            "out": _list(_runs(self.out)),
            "turn": str(self.turn),
            "player": str(self.player),
            "phase": f"{self.phase}:{self.subject}" if self.subject else self.phase,
        }
        return " ".join([self.rules, *(f"{key}={value}" for key, value in fields.items())])

    @classmethod
    def parse(cls, text: str, rules_of: RulesOf) -> Position:
        """Read a position from its text; raise PositionError if it is malformed or cannot arise in a game.

        ``rules_of`` as for ``to_state`` (``zamek.castle.data.loader.read_position`` passes the shipped rules).
        """
        if not isinstance(text, str) or not text.split():
            raise PositionError("position-not-text")
        rules, *words = text.split()
        values: dict[str, str] = {}
        for word in words:
            key, equals, value = word.partition("=")
            if not equals or key not in FIELDS:
                raise PositionError("position-unknown-field", word=word, fields=list(FIELDS))
            if key in values:
                raise PositionError("position-field-twice", field=key)
            values[key] = value
        if missing := [k for k in FIELDS if k not in values]:
            raise PositionError("position-missing-fields", count=len(missing), fields=missing)
        try:
            canonical = Setup.parse(rules).name
        except ValueError as exc:
            if isinstance(exc, ZamekError) and exc.params.get("name") == rules:
                raise PositionError("position-rules", reason=exc) from None
            raise PositionError("position-rules-named", rules=rules, reason=_reason(exc)) from None
        if rules != canonical:
            raise PositionError("position-rules-written", rules=rules, canonical=canonical)
        pair = {key: _pair(values[key], key) for key in ("score", "supply", "tokens", "family", "nests")}
        score = [_match(_SCORE, s, "score", "score") for s in pair["score"]]
        supply = [(int(m[1]), int(m[2] or 0), int(m[3] or 0))
                  for m in (_match(_SUPPLY, s, "supply", "supply") for s in pair["supply"])]
        tokens = [tuple((int(m[1]), int(m[2])) for m in _items(h, _HELD, "tokens", "tokens")) for h in pair["tokens"]]
        family = [tuple(_split(f, ".")) for f in pair["family"]]
        pool = _match(_POOL, values["pool"], "pool", "pool")[0]
        phase = _match(_PHASE, values["phase"], "phase", "phase")
        position = cls(
            rules, _number(values["board"], "board"),
            tuple((m[1], m[2], int(m[3])) for m in _items(values["tiles"], _TILE, "tiles", "tiles")),
            tuple((int(m[1]), m[2], m[3], int(m[4])) for m in _items(values["figures"], _FIGURE, "figures", "figures")),
            (int(score[0][1]), int(score[1][1])), (score[0][2] == "g", score[1][2] == "g"),
            (supply[0], supply[1]),
            (tokens[0], tokens[1]),
            tuple(_number(m[0], "towers") for m in _items(values["towers"], _NUMBER, "towers", "towers")),
            tuple(map(int, pool)),
            (family[0], family[1]),
            (_number(pair["nests"][0], "nests"), _number(pair["nests"][1], "nests")),
            _ids(values["left"], "left"), _ids(values["out"], "out"),
            _number(values["turn"], "turn"), _number(values["player"], "player"),
            phase[1] or ("place" if phase[2] else "follower"), phase[2] or phase[3] or "",
        )
        return cls.from_state(position.to_state(rules_of))


def _reason(exc: ValueError) -> ZamekError | str:
    """Why a rule set was refused: the rules' own error, or (never expected) another's text."""
    return exc if isinstance(exc, ZamekError) else str(exc)


def _cell_names(castle: CastleDef) -> dict[int, str]:
    return {c: castle.name_of(c) for c in castle.interior} | {s.cell: s.id for s in castle.starts}


def _cell(castle: CastleDef, name: str, field: str, starts: bool = False) -> int:
    for start in castle.starts if starts else ():
        if start.id == name:
            return start.cell
    ids = [s.id for s in castle.starts] if starts else []
    try:
        parse_space(name)
    except ValueError:
        raise PositionError("position-space-name", field=field, space=name, count=len(ids), starts=ids) from None
    try:
        return castle.cell_of(name)
    except ValueError:
        raise PositionError("position-space", field=field, space=name, count=len(ids), starts=ids) from None


def _check_board(state: GameState, board: dict[int, tuple[int, int]], names: dict[int, str]) -> None:
    """Refuse tiles cut off from the start spaces, and sides where a road meets no road (Z7)."""
    offsets = state.castle.offsets
    stack = [s.faces for s in state.castle.starts if s.faces in board]
    reached = set(stack)
    while stack:
        cell = stack.pop()
        for near in (cell + off for off in offsets):
            if near in board and near not in reached:
                reached.add(near)
                stack.append(near)
    for cell in board:
        if cell not in reached:
            raise PositionError("position-cut-off", "Z7", space=names[cell])
        for side, off in enumerate(offsets):
            other = cell + off
            theirs = state.cell_table[other][FACING[MIDDLE_SEGMENTS[side]]] if state.status[other] == TAKEN else -1
            if theirs < 0:
                continue
            mine = state.cell_table[cell][MIDDLE_SEGMENTS[side]]
            roads = [state.kind[state.cell_node[c] + f] == FeatureKind.ROAD for c, f in ((cell, mine), (other, theirs))]
            if roads[0] != roads[1]:
                raise PositionError("position-road-mismatch", "Z7", space=names[cell], other=names[other])


def _supply_text(supply: Supply, sokol: bool) -> str:
    return f"{supply[0]}f{supply[1]}p{supply[2]}h" if sokol else f"{supply[0]}f"


def _list(items: Iterable[str], sep: str = ",") -> str:
    return sep.join(items) or "-"


def _split(value: str, sep: str = ",") -> list[str]:
    return [] if value == "-" else value.split(sep)


def _pair(value: str, field: str) -> tuple[str, str]:
    parts = value.split("/")
    if len(parts) != 2:
        raise PositionError("position-pair", field=field, value=value)
    return parts[0], parts[1]


def _match(pattern: re.Pattern[str], text: str, field: str, example: str) -> re.Match[str]:
    """The match of ``text``; else a PositionError showing what it should look like (``error.example.<example>``)."""
    if (match := pattern.fullmatch(text)) is None:
        raise PositionError("position-not-like", field=field, text=text, example=Message(f"error.example.{example}"))
    return match


def _items(value: str, pattern: re.Pattern[str], field: str, example: str) -> list[re.Match[str]]:
    return [_match(pattern, item, field, example) for item in _split(value)]


def _number(text: str, field: str) -> int:
    return int(_match(_NUMBER, text, field, "number")[0])


def _ids(value: str, field: str) -> tuple[str, ...]:
    """Read tile ids, where ``Z02-Z14`` stands for the run Z02, Z03, ..., Z14."""
    ids: list[str] = []
    for item in _split(value):
        if m := _RUN.fullmatch(item):
            prefix, first, other, end = m.groups()
            if prefix != other or len(first) != len(end) or not 0 < int(end) - int(first) < 1000:
                raise PositionError("position-run", field=field, item=item)
            ids.extend(f"{prefix}{n:0{len(first)}d}" for n in range(int(first), int(end) + 1))
        else:
            ids.append(_match(_ID, item, field, "ids")[0])
    return tuple(ids)


def _runs(ids: Iterable[str]) -> list[str]:
    """Write runs of three or more consecutive ids (Z02, Z03, Z04) as Z02-Z04."""
    runs: list[list[str]] = []
    for tid in ids:
        if runs and _successor(runs[-1][-1]) == tid:
            runs[-1].append(tid)
        else:
            runs.append([tid])
    return [f"{r[0]}-{r[-1]}" if len(r) > 2 else ",".join(r) for r in runs]


def _successor(tile_id: str) -> str | None:
    if (m := _ID.fullmatch(tile_id)) is None or m[2] is None:
        return None
    following = f"{m[1]}{int(m[2]) + 1:0{len(m[2])}d}"
    return following if len(following) == len(tile_id) else None
