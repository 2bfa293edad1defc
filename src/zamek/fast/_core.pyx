# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled core: Python's view of the C engine in ``zamek_core.h``.

``CoreRules`` turns the public values of a setup's rules (``zamek.rules_for(setup)``: the castle, the tiles,
the tower and start-space tables, the edition's switches) into the C tables; ``CoreState`` is a position
over flat C arrays that plays actions by their stable integer indices (``zamek.core.actions``), with chance
outcomes as ``DRAW + tile index`` and ``REVEAL + token kind``. ``run_playouts`` plays whole games in C
without the interpreter lock. ``zamek.fast`` wraps all of this with types; use that.
"""

from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint32_t, uint64_t

cdef extern from "zamek_core.h" nogil:
    const char *ZC_SOURCE_DIGEST
    enum:
        ZC_MAX_CELLS
        ZC_MAX_NODES
        ZC_MAX_TILES
        ZC_MAX_FEATURES
        ZC_MAX_STARTS
        ZC_MAX_TOWERS
        ZC_MAX_SPACES
        ZC_MAX_INTERIOR
        ZC_MAX_LEGAL
        ZC_TRACK
        ZC_GRID
        ZC_DRAW
        ZC_REVEAL
        ZC_DRAW_PHASE
        ZC_REVEAL_PHASE
        ZC_OVER
        ZC_D_UNFINISHED
        ZC_D_CHAPEL
        ZC_D_STOCKS
        ZC_D_PRINCE

    ctypedef struct zc_bits:
        uint64_t lo
        uint64_t hi

    ctypedef struct zc_tile:
        int n_features
        uint8_t kind[12]
        uint8_t stocks[12]
        uint8_t shrines[12]
        uint8_t nests[12]
        uint8_t road_sides[4]

    ctypedef struct zc_start:
        int cell, faces, side, n_features
        uint8_t kind[12]
        uint8_t stocks[12]
        uint8_t shrines[12]
        uint8_t nests[12]
        uint8_t open[12]

    ctypedef struct zc_rules:
        int cell_count, stride
        int offsets[4]
        int n_interior
        int16_t interior[128]
        int16_t interior_index[324]
        int n_spaces
        int16_t space_of[324]
        int16_t cell_of_space[128]
        int16_t cell_place[324]
        int16_t place_cell[256]
        int n_starts
        zc_start starts[16]
        int n_tiles
        zc_tile tiles[128]
        int8_t tables[528][12]
        int8_t table_parts[528]
        int8_t tower_at[100]
        int n_towers
        uint8_t tower_holds[16]
        uint8_t gate_after[100]
        int sokol, gate_guard, same_turn, road_token_stocks, first_player
        int n_draw_order
        int16_t draw_order[128]

    ctypedef struct zc_follower:
        uint8_t player, piece, feature
        int16_t node, cell

    ctypedef struct zc_node:
        int16_t parent
        uint8_t kind, fol0, fol1, prince, falconer, stocks, shrines, nests
        int16_t open
        zc_bits cells

    ctypedef struct zc_state:
        int8_t phase, current, head_chosen
        int16_t turn
        int32_t scores[2]
        int8_t supply[2]
        int8_t princes[2]
        int8_t falconers[2]
        int8_t on_gate[2]
        int16_t family_size[2]
        int16_t nests[2]
        zc_bits family_cells[2]
        int8_t n_held[2]
        uint8_t held_kind[2][18]
        int16_t held_turn[2][18]
        uint8_t tower_token[16]
        int8_t token_pool[10]
        int8_t n_pending
        int8_t pending[16]
        int16_t n_remaining, draw_position, drawn, n_discarded, n_placed
        int16_t pile[128]
        int16_t pile_pos[128]
        uint8_t discarded[128]
        int16_t placed_cell[128]
        uint8_t placed_tile[128]
        uint8_t placed_rot[128]
        uint8_t status[324]
        int16_t cell_node[324]
        int8_t n_followers, n_completed, n_queue
        zc_follower followers[32]
        int16_t completed[32]
        int16_t queue[32]
        int16_t n_nodes
        zc_node nodes[512]

    ctypedef struct zc_item:
        int8_t reason, player, flags, token, multiplier, final
        int16_t count, rate, turn, chapel_size, lost, nests
        int32_t points
        zc_bits cells

    ctypedef struct zc_log:
        int n, cap
        zc_item *items

    ctypedef struct zc_seeded:
        int n_tiles
        int16_t tile_order[128]
        uint8_t token_order[18]

    ctypedef struct zc_mt:
        int mti

    ctypedef struct zc_outcome:
        int32_t scores[2]
        int32_t actions, placed, discarded, first_player

    void zc_init()
    size_t zc_state_size(const zc_state *S)
    void zc_copy(zc_state *dst, const zc_state *src)
    void zc_new(const zc_rules *R, zc_state *S)
    int zc_apply(const zc_rules *R, zc_state *S, zc_log *L, int action)
    int zc_legal(const zc_rules *R, zc_state *S, int *out)
    int zc_is_chance(const zc_state *S)
    int zc_find(zc_state *S, int node)
    int zc_largest_empty_area(const zc_rules *R, const zc_state *S)
    void zc_seeded_init(zc_seeded *c, int n_tiles, long long seed)
    int zc_seeded_outcome(const zc_rules *R, const zc_state *S, const zc_seeded *c)
    void zc_mt_seed_text(zc_mt *m, const char *text)
    uint32_t zc_mt_next(zc_mt *m)
    uint32_t zc_mt_below(zc_mt *m, uint32_t n)
    void zc_sha512(const uint8_t *msg, int len, uint8_t *out)
    int zc_playout(const zc_rules *R, zc_state *S, long long seed, zc_outcome *out)

from zamek.core.actions import Decline, Draw, Follower, Order, Pass, Piece, Place, Reveal, UseToken
from zamek.core.breakdown import ScoreItem
from zamek.core.setup import Phase
from zamek.core.tiles import FeatureKind

zc_init()

SOURCE_DIGEST = ZC_SOURCE_DIGEST.decode()
"""The SHA-256 of the sources this module was built from (``zamek.fast.source_digest``); empty if unknown."""

DRAW = ZC_DRAW
"""A tile drawn: DRAW + the tile's index in the rule set's tiles."""
REVEAL = ZC_REVEAL
"""A token revealed: REVEAL + its kind (Zamek numbering)."""

_REASONS = ("road", "house", "pigsty", "meadow", "chapel", "family-house", "token", "nests")


class CoreLimitError(ValueError):
    """A rule set too large for the compiled core's fixed tables."""


cdef class CoreRules:
    """The C tables of one setup's rules, built from the public values of ``zamek.rules_for(setup)``."""

    cdef zc_rules *R
    cdef readonly object setup
    cdef readonly object rules
    cdef readonly tuple tile_ids
    cdef readonly dict tile_index
    cdef readonly int nodes_needed

    def __cinit__(self):
        self.R = <zc_rules *>malloc(sizeof(zc_rules))
        if self.R == NULL:
            raise MemoryError()
        memset(self.R, 0, sizeof(zc_rules))

    def __dealloc__(self):
        free(self.R)

    def __init__(self, setup, rules):
        self.setup = setup
        self.rules = rules
        cdef zc_rules *R = self.R
        castle = rules.castle
        if castle.width > ZC_GRID or castle.height > ZC_GRID or castle.cell_count > ZC_MAX_CELLS:
            raise CoreLimitError(f"castle {castle.name}: larger than {ZC_GRID}x{ZC_GRID}")
        R.cell_count = castle.cell_count
        R.stride = castle.stride
        for side in range(4):
            R.offsets[side] = castle.offsets[side]
        if len(castle.interior) > ZC_MAX_INTERIOR:
            raise CoreLimitError("too many interior spaces")
        R.n_interior = len(castle.interior)
        for i, cell in enumerate(castle.interior):
            R.interior[i] = cell
        spaces = sorted(set(castle.interior) | {start.cell for start in castle.starts})
        if len(spaces) > ZC_MAX_SPACES:
            raise CoreLimitError(f"more than {ZC_MAX_SPACES} interior and start spaces")
        R.n_spaces = len(spaces)
        for cell in range(ZC_MAX_CELLS):
            R.space_of[cell] = -1
            R.cell_place[cell] = -1
            R.interior_index[cell] = -1
        for i, cell in enumerate(castle.interior):
            R.interior_index[cell] = i
        for square in range(ZC_GRID * ZC_GRID):
            R.place_cell[square] = -1
        for i, cell in enumerate(spaces):
            R.space_of[cell] = i
            R.cell_of_space[i] = cell
        for cell in castle.interior:
            x, y = castle.xy(cell)
            R.cell_place[cell] = (y * ZC_GRID + x) * 4
            R.place_cell[y * ZC_GRID + x] = cell
        tiles = rules.tiles.tiles
        if len(tiles) > ZC_MAX_TILES or len(castle.starts) > ZC_MAX_STARTS:
            raise CoreLimitError("too many tiles or start spaces")
        R.n_tiles = len(tiles)
        nodes = 0
        for t, tile in enumerate(tiles):
            if tile.index != t:
                raise ValueError(f"tile {tile.id}: index {tile.index} at position {t}")
            if len(tile.features) > ZC_MAX_FEATURES:
                raise CoreLimitError(f"tile {tile.id}: more than {ZC_MAX_FEATURES} features")
            R.tiles[t].n_features = len(tile.features)
            nodes += len(tile.features)
            for f, feature in enumerate(tile.features):
                R.tiles[t].kind[f] = int(feature.kind)
                R.tiles[t].stocks[f] = feature.stocks
                R.tiles[t].shrines[f] = feature.shrines
                R.tiles[t].nests[f] = feature.nests
            for r, orientation in enumerate(tile.orientations):
                R.tiles[t].road_sides[r] = orientation.road_sides
                for s in range(12):
                    R.tables[t * 4 + r][s] = orientation.segment_feature[s]
                R.table_parts[t * 4 + r] = max(orientation.segment_feature) + 1
        R.n_starts = len(castle.starts)
        for s, start in enumerate(castle.starts):
            R.starts[s].cell = start.cell
            R.starts[s].faces = start.faces
            R.starts[s].side = int(start.side)
            R.starts[s].n_features = len(start.features)
            nodes += len(start.features)
            for f, feature in enumerate(start.features):
                R.starts[s].kind[f] = int(feature.kind)
                R.starts[s].stocks[f] = feature.stocks
                R.starts[s].shrines[f] = feature.shrines
                R.starts[s].nests[f] = feature.nests
                R.starts[s].open[f] = len(feature.segments)
            table = rules.start_tables[s]
            for seg in range(12):
                R.tables[R.n_tiles * 4 + s][seg] = table[seg]
            R.table_parts[R.n_tiles * 4 + s] = max(table) + 1
        if nodes > ZC_MAX_NODES:
            raise CoreLimitError(f"{nodes} features in all: more than {ZC_MAX_NODES}")
        self.nodes_needed = nodes
        for position in range(ZC_TRACK):
            R.tower_at[position] = rules.tower_at[position]
            R.gate_after[position] = 0
        if len(castle.towers) > ZC_MAX_TOWERS:
            raise CoreLimitError(f"more than {ZC_MAX_TOWERS} towers")
        R.n_towers = len(castle.towers)
        for t, tower in enumerate(castle.towers):
            if tower.index != t:
                raise ValueError(f"tower {tower.index} at position {t}")
            R.tower_holds[t] = 1 if tower.holds_token else 0
        for gate in castle.gates:
            R.gate_after[gate % ZC_TRACK] = 1
        R.sokol = 1 if rules.sokol else 0
        R.gate_guard = 1 if rules.gate_guard else 0
        R.same_turn = 1 if rules.edition.tokens_usable_same_turn else 0
        R.road_token_stocks = 1 if rules.edition.open_road_token_counts_stocks else 0
        R.first_player = setup.first_player
        self.tile_ids = tuple(tile.id for tile in tiles)
        self.tile_index = {tile.id: t for t, tile in enumerate(tiles)}
        if setup.draw_order is None:
            R.n_draw_order = -1
        else:
            if len(setup.draw_order) > ZC_MAX_TILES:
                raise CoreLimitError("draw order longer than the tile set")
            R.n_draw_order = len(setup.draw_order)
            for i, tile_id in enumerate(setup.draw_order):
                R.draw_order[i] = self.tile_index[tile_id]

    def encode(self, action):
        """Return the integer of an action: its index, or DRAW + tile index, or REVEAL + kind."""
        if isinstance(action, Draw):
            return ZC_DRAW + self.tile_index[action.tile]
        if isinstance(action, Reveal):
            return ZC_REVEAL + action.kind
        return action.index

    def decode(self, int code):
        """Return the action of an integer made by ``encode``."""
        from zamek.core.actions import action_from_index
        if code >= ZC_REVEAL:
            return Reveal(code - ZC_REVEAL)
        if code >= ZC_DRAW:
            return Draw(self.tile_ids[code - ZC_DRAW])
        return action_from_index(code)

    cdef object cell_mask(self, zc_bits bits):
        """The Python engine's cell mask of a set of spaces."""
        cdef object mask = 0, one = 1
        cdef int i
        for i in range(64):
            if bits.lo >> i & 1:
                mask |= one << <object>self.R.cell_of_space[i]
            if bits.hi >> i & 1:
                mask |= one << <object>self.R.cell_of_space[64 + i]
        return mask


cdef class CoreState:
    """A position in the compiled core. Mutable: ``apply`` changes it in place; ``copy`` is one memcpy."""

    cdef zc_state *S
    cdef zc_log *L
    cdef readonly CoreRules rules

    def __cinit__(self):
        self.S = <zc_state *>malloc(sizeof(zc_state))
        if self.S == NULL:
            raise MemoryError()
        self.L = NULL

    def __dealloc__(self):
        free(self.S)
        if self.L != NULL:
            free(self.L.items)
            free(self.L)

    def __init__(self, CoreRules rules, bint log=False):
        self.rules = rules
        zc_new(rules.R, self.S)
        if log:
            self.L = <zc_log *>malloc(sizeof(zc_log))
            if self.L == NULL:
                raise MemoryError()
            self.L.n = 0
            self.L.cap = 0
            self.L.items = NULL

    def copy(self, bint log=False):
        """Return an independent copy; with ``log`` it keeps a breakdown from here (empty so far)."""
        cdef CoreState other = CoreState.__new__(CoreState)
        other.rules = self.rules
        zc_copy(other.S, self.S)
        if log:
            other.L = <zc_log *>malloc(sizeof(zc_log))
            other.L.n = 0
            other.L.cap = 0
            other.L.items = NULL
        return other

    @property
    def log_length(self):
        """Items in the breakdown so far (0 without a log)."""
        return self.L.n if self.L != NULL else 0

    @property
    def nbytes(self):
        """The bytes a copy takes now."""
        return zc_state_size(self.S)

    cpdef apply(self, int action):
        """Apply an action by its integer, unchecked (as ``GameState.apply``)."""
        if zc_apply(self.rules.R, self.S, self.L, action) < 0:
            raise ValueError(f"{action} cannot be applied in phase {self.S.phase}")

    cpdef list legal_actions(self):
        """The legal player actions' indices, in the Python engine's order."""
        cdef int buf[1100]
        cdef int n = zc_legal(self.rules.R, self.S, buf)
        return [buf[i] for i in range(n)]

    def is_chance(self):
        return zc_is_chance(self.S) != 0

    def is_over(self):
        return self.S.phase == ZC_OVER

    @property
    def phase(self):
        return Phase(self.S.phase)

    @property
    def current(self):
        return self.S.current

    @property
    def turn(self):
        return self.S.turn

    @property
    def scores(self):
        return (self.S.scores[0], self.S.scores[1])

    def chance_outcomes(self):
        """The chance outcomes due now with their probabilities, as (integer, probability)."""
        cdef int k, total
        if self.S.phase == ZC_DRAW_PHASE:
            if self.rules.R.n_draw_order >= 0:
                return [(ZC_DRAW + self.rules.R.draw_order[self.S.draw_position], 1.0)]
            p = 1.0 / self.S.n_remaining
            return [(ZC_DRAW + t, p) for t in sorted(self.S.pile[i] for i in range(self.S.n_remaining))]
        if self.S.phase == ZC_REVEAL_PHASE:
            total = 0
            for k in range(1, 10):
                total += self.S.token_pool[k]
            return [(ZC_REVEAL + k, <double>self.S.token_pool[k] / total) for k in range(1, 10) if self.S.token_pool[k]]
        return []

    def seeded_outcome(self, long long seed):
        """The chance outcome due now under the seeding convention of ``seed`` (``zamek.seeding``)."""
        cdef zc_seeded c
        zc_seeded_init(&c, self.rules.R.n_tiles, seed)
        return zc_seeded_outcome(self.rules.R, self.S, &c)

    def largest_empty_area(self):
        return zc_largest_empty_area(self.rules.R, self.S)

    def log_items(self, int start=0):
        """The itemised breakdown since the log began (from item ``start`` on), as the Python engine's ScoreItem
        values."""
        if self.L == NULL:
            raise ValueError("this state keeps no breakdown (make it with log=True)")
        cdef int i
        cdef zc_item it
        items = []
        for i in range(max(0, start), self.L.n):
            it = self.L.items[i]
            details = []
            if it.flags & ZC_D_UNFINISHED:
                details.append("unfinished")
            if it.flags & ZC_D_CHAPEL:
                details.append(f"chapel-size:{it.chapel_size}")
            if it.flags & ZC_D_STOCKS:
                details.append("stocks")
            if it.flags & ZC_D_PRINCE:
                details.append("prince")
            if it.token:
                details.append(f"token:{it.token}")
            items.append(ScoreItem(
                _REASONS[it.reason], None if it.player < 0 else it.player, it.count, it.rate, it.points, it.turn,
                self.rules.cell_mask(it.cells), ",".join(details), it.multiplier, it.lost, it.nests, bool(it.final),
            ))
        return items

    def features(self):
        """Every region as (root, kind, cell mask, open edges, (figures of each player), princes, falconers,
        stocks, shrines, nests), in node order: the Python engine's ``features()`` in the same order."""
        cdef int n
        cdef zc_node *node
        result = []
        for n in range(self.S.n_nodes):
            node = &self.S.nodes[n]
            if node.parent != n:
                continue
            result.append((n, FeatureKind(node.kind), self.rules.cell_mask(node.cells), node.open,
                           (node.fol0, node.fol1), node.prince, node.falconer, node.stocks, node.shrines, node.nests))
        return result

    def snapshot(self):
        """Every field of the position as plain values, named as the Python engine's fields."""
        cdef zc_state *S = self.S
        cdef int p, i
        return {
            "phase": int(S.phase),
            "current": S.current,
            "turn": S.turn,
            "scores": [S.scores[0], S.scores[1]],
            "supply": [S.supply[0], S.supply[1]],
            "princes": [S.princes[0], S.princes[1]],
            "falconers": [S.falconers[0], S.falconers[1]],
            "family_size": [S.family_size[0], S.family_size[1]],
            "family_cells": [self.rules.cell_mask(S.family_cells[0]), self.rules.cell_mask(S.family_cells[1])],
            "nests": [S.nests[0], S.nests[1]],
            "on_gate": [bool(S.on_gate[0]), bool(S.on_gate[1])],
            "tokens": [[(S.held_kind[p][i], S.held_turn[p][i]) for i in range(S.n_held[p])] for p in range(2)],
            "tower_token": [bool(S.tower_token[i]) for i in range(self.rules.R.n_towers)],
            "token_pool": [S.token_pool[i] for i in range(10)],
            "pending_reveals": [S.pending[i] for i in range(S.n_pending)],
            "remaining": sorted(S.pile[i] for i in range(S.n_remaining)),
            "draw_position": S.draw_position,
            "drawn": S.drawn,
            "discarded": [S.discarded[i] for i in range(S.n_discarded)],
            "placements": [(S.placed_cell[i], S.placed_tile[i], S.placed_rot[i]) for i in range(S.n_placed)],
            "followers": [(S.followers[i].player, S.followers[i].cell, S.followers[i].feature,
                           S.followers[i].node, S.followers[i].piece) for i in range(S.n_followers)],
            "completed": [S.completed[i] for i in range(S.n_completed)],
            "queue": [S.queue[i] for i in range(S.n_queue)],
            "head_chosen": bool(S.head_chosen),
        }


def run_playouts(CoreState start, long long seed, int n):
    """Play ``n`` games on from ``start`` in C, game k under the seeding convention of ``seed + k`` with random
    players (``random.Random("zamek-player:S:P").choice``); return (scores0, scores1, actions, placed,
    discarded) per game. Raises RuntimeError if a game breaks (it never should)."""
    if n < 0:
        raise ValueError("n must be >= 0")
    cdef zc_outcome *out = <zc_outcome *>malloc(sizeof(zc_outcome) * (n if n > 0 else 1))
    cdef zc_state *S = <zc_state *>malloc(sizeof(zc_state))
    cdef const zc_rules *R = start.rules.R
    cdef const zc_state *root = start.S
    cdef int k, failed = -1
    if out == NULL or S == NULL:
        free(out)
        free(S)
        raise MemoryError()
    try:
        with nogil:
            for k in range(n):
                zc_copy(S, root)
                if zc_playout(R, S, seed + k, &out[k]) < 0:
                    failed = k
                    break
        if failed >= 0:
            raise RuntimeError(f"the compiled playout of seed {seed + failed} broke")
        return [(out[k].scores[0], out[k].scores[1], out[k].actions, out[k].placed, out[k].discarded)
                for k in range(n)]
    finally:
        free(out)
        free(S)


def python_random_stream(str text, int count, int below=0):
    """The first ``count`` numbers of random.Random(text): getrandbits(32), or randbelow(below) if given (tests)."""
    cdef zc_mt m
    data = text.encode()
    zc_mt_seed_text(&m, data)
    if below > 0:
        return [zc_mt_below(&m, below) for _ in range(count)]
    return [zc_mt_next(&m) for _ in range(count)]


def sha512(bytes data):
    """SHA-512 of a short byte string (under 112 bytes; tests)."""
    if len(data) >= 112:
        raise ValueError("too long")
    cdef uint8_t out[64]
    zc_sha512(data, len(data), out)
    return bytes(out[:64])


def seeded_orders(CoreRules rules, long long seed):
    """The tile order and the token order of ``seed`` (``zamek.seeding.SeededChance``; tests)."""
    cdef zc_seeded c
    zc_seeded_init(&c, rules.R.n_tiles, seed)
    return tuple(c.tile_order[i] for i in range(c.n_tiles)), tuple(c.token_order[i] for i in range(18))
