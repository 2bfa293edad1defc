# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled core: Python's view of the C engine in ``zamek_core.h``.

``CoreRules`` turns the public values of a setup's rules (``zamek.rules_for(setup)``: the castle, the tiles,
the tower and start-space tables, the edition's switches) into the C tables; ``CoreState`` is a position
over flat C arrays that plays actions by their stable integer indices (``zamek.castle.rules.actions``), with chance
outcomes as ``DRAW + tile index`` and ``REVEAL + token kind``. ``run_playouts`` plays whole games in C
without the interpreter lock. ``zamek.castle.fast`` wraps all of this with types; use that.
"""

from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset
from libc.stdio cimport snprintf
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
        ZC_MAX_HELD
        ZC_MAX_FOLLOWERS
        ZC_MAX_QUEUE
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

    ctypedef struct zc_rates:
        int road, road_with_stocks, house, pigsty, shrine, meadow_token, family_token_tiles, five_points
        int open_house, open_pigsty, open_road, open_road_with_stocks, empty_space, prince_factor, token_factor
        int falconer_nests
        int n_chapel
        int chapel[16]

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
        zc_rates rates

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
        uint8_t held_kind[2][24]
        int16_t held_turn[2][24]
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
        zc_bits frontier
        uint8_t status[324]
        uint8_t need_mask[324]
        uint8_t need_road[324]
        int16_t cell_node[324]
        int16_t cell_tab[324]
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
        uint32_t mt[624]
        int mti

    ctypedef struct zc_outcome:
        int32_t scores[2]
        int32_t actions, placed, discarded, first_player

    void zc_init()
    void zc_bits_set(zc_bits *b, int i)
    size_t zc_state_size(const zc_state *S)
    void zc_copy(zc_state *dst, const zc_state *src)
    void zc_memcpy(void *dst, const void *src, size_t size)
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
    void zc_mt_init_by_array(zc_mt *m, const uint32_t *key, int len)

cdef extern from "zamek_bots.h" nogil:
    enum:
        ZB_NF
        ZB_WEIGHTS
        ZB_VALUE
        ZB_NET
        ZB_NH

    ctypedef struct zb_tables:
        pass

    ctypedef struct zb_eval:
        int kind, compensated
        double win_scale
        double free_follower, follower_cap, completion, completion_decay, horizon, tower_near, family_race, nest_race
        int tower_reach
        double token_values[10]
        double coef[53]
        int hidden
        double scale[53]
        double w1[106][32]
        double b1[32]
        double w2[32]

    ctypedef struct zb_move:
        int16_t a, b

    ctypedef struct zb_ctx:
        long long children
        int failed, depth

    ctypedef struct zb_search:
        int iterations, width, playout_turns, expand_after
        double exploration, seconds
        const zb_eval *mine
        const zb_eval *theirs

    ctypedef struct zb_result:
        zb_move move
        int iterations, searched
        long long children

    void zb_tables_init(const zc_rules *R, zb_tables *B)
    void zb_ctx_init(zb_ctx *c, const zc_rules *R, const zb_tables *B)
    void zb_ctx_free(zb_ctx *c)
    double zb_lead(const zc_rules *R, const zb_tables *B, zc_state *S, const zb_eval *E, int player)
    double zb_win_chance(const zc_rules *R, const zb_tables *B, zc_state *S, const zb_eval *E, int player)
    void zb_position_features(const zc_rules *R, const zb_tables *B, zc_state *S, double *x0, double *x1)
    int zb_greedy(zb_ctx *c, zc_state *S, zc_mt *m, const zb_eval *E, int limit)
    int zb_ranked_moves(zb_ctx *c, zc_state *S, zc_mt *m, int width, const zb_eval *E, zb_move *out,
                        double *out_values)
    int zb_mcts(zb_ctx *c, const zc_state *start, zc_mt *m, const zb_search *P, zb_result *out)
    int zb_sample_chance(const zc_rules *R, const zc_state *S, zc_mt *m)

cdef extern from *:
    int __builtin_popcountll(unsigned long long x) nogil

cdef extern from "zamek_obs.h" nogil:
    enum:
        ZO_SIDE
        ZO_PLANES
        ZO_VECTOR
        ZO_SIZE
    void zo_observe(const zc_rules *R, const zc_state *S, int me, int16_t *out)

from zamek.castle.rules.actions import Decline, Draw, Follower, Order, Pass, Piece, Place, Reveal, UseToken
from zamek.castle.rules.breakdown import ScoreItem
from zamek.castle.rules.setup import Phase
from zamek.castle.rules.tiles import FeatureKind

zc_init()

SOURCE_DIGEST = ZC_SOURCE_DIGEST.decode()
"""The SHA-256 of the sources this module was built from (``zamek.castle.fast.source_digest``); empty if unknown."""

DRAW = ZC_DRAW
"""A tile drawn: DRAW + the tile's index in the rule set's tiles."""
REVEAL = ZC_REVEAL
"""A token revealed: REVEAL + its kind (Zamek numbering)."""

OBSERVATION_SIZE = ZO_SIZE
"""Length of a castle observation (``zamek_obs.h``; ``zamek.env.spec`` names its parts)."""
OBSERVATION_SIDE = ZO_SIDE
OBSERVATION_PLANES = ZO_PLANES
OBSERVATION_VECTOR = ZO_VECTOR

_REASONS = ("road", "house", "pigsty", "meadow", "chapel", "family-house", "token", "nests")


class CoreLimitError(ValueError):
    """A rule set too large for the compiled core's fixed tables."""


RATE_FIELDS = ("road", "road_with_stocks", "house", "pigsty", "shrine", "meadow_token", "family_token_tiles",
               "five_points", "open_house", "open_pigsty", "open_road", "open_road_with_stocks", "empty_space",
               "prince_factor", "token_factor", "falconer_nests", "chapel")
"""The fields of ``zamek.castle.rules.rates.Rates`` that ``zc_rates`` holds (a test checks they are all of them)."""


cdef void _copy_rates(rates, zc_rates *T) except *:
    """Copy the rules' table of rates into the C rules: the compiled core states no rate of its own."""
    if len(rates.chapel) > 16 or not rates.chapel:
        raise CoreLimitError(f"{len(rates.chapel)} chapel sizes: 1 to 16 fit")
    T.road, T.road_with_stocks, T.house, T.pigsty = rates.road, rates.road_with_stocks, rates.house, rates.pigsty
    T.shrine, T.meadow_token, T.family_token_tiles = rates.shrine, rates.meadow_token, rates.family_token_tiles
    T.five_points, T.open_house, T.open_pigsty = rates.five_points, rates.open_house, rates.open_pigsty
    T.open_road, T.open_road_with_stocks, T.empty_space = rates.open_road, rates.open_road_with_stocks, rates.empty_space
    T.prince_factor, T.token_factor, T.falconer_nests = rates.prince_factor, rates.token_factor, rates.falconer_nests
    T.n_chapel = len(rates.chapel)
    for i, points in enumerate(rates.chapel):
        T.chapel[i] = points


cdef class CoreRules:
    """The C tables of one setup's rules, built from the public values of ``zamek.rules_for(setup)``."""

    cdef zc_rules *R
    cdef zb_tables *B
    cdef readonly object setup
    cdef readonly object rules
    cdef readonly tuple tile_ids
    cdef readonly dict tile_index
    cdef readonly int nodes_needed

    def __cinit__(self):
        self.R = <zc_rules *>malloc(sizeof(zc_rules))
        self.B = <zb_tables *>malloc(sizeof(zb_tables))
        if self.R == NULL or self.B == NULL:
            raise MemoryError()
        memset(self.R, 0, sizeof(zc_rules))

    def __dealloc__(self):
        free(self.R)
        free(self.B)

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
        if len(rules.tower_at) != ZC_TRACK:  # the score track's length is the board's (board.TRACK_LENGTH)
            raise CoreLimitError(f"a score track of {len(rules.tower_at)} numbers: the compiled core's has {ZC_TRACK}")
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
        _copy_rates(rules.rates, &R.rates)
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
        zb_tables_init(R, self.B)

    def encode(self, action):
        """Return the integer of an action: its index, or DRAW + tile index, or REVEAL + kind."""
        if isinstance(action, Draw):
            return ZC_DRAW + self.tile_index[action.tile]
        if isinstance(action, Reveal):
            return ZC_REVEAL + action.kind
        return action.index

    def decode(self, int code):
        """Return the action of an integer made by ``encode``."""
        from zamek.castle.rules.actions import action_from_index
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
    """A position in the compiled core. Mutable: ``apply`` changes it in place; ``copy`` is a memcpy."""

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
        """The chance outcome due now under the seeding convention of ``seed`` (``zamek.castle.seeding``)."""
        cdef zc_seeded c
        zc_seeded_init(&c, self.rules.R.n_tiles, seed)
        return zc_seeded_outcome(self.rules.R, self.S, &c)

    def observe(self, int player, short[::1] out):
        """Write what ``player`` sees of this position (``zamek_obs.h``) into ``out`` (OBSERVATION_SIZE int16)."""
        if out.shape[0] != ZO_SIZE:
            raise ValueError(f"an observation takes {ZO_SIZE} numbers, not {out.shape[0]}")
        if player not in (0, 1):
            raise ValueError(f"no player {player}")
        zo_observe(self.rules.R, self.S, player, <int16_t *>&out[0])

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
    """The tile order and the token order of ``seed`` (``zamek.castle.seeding.SeededChance``; tests)."""
    cdef zc_seeded c
    zc_seeded_init(&c, rules.R.n_tiles, seed)
    return tuple(c.tile_order[i] for i in range(c.n_tiles)), tuple(c.token_order[i] for i in range(18))


# ------------------------------------------------------------------------------------------- the bots

def _value_feature_names():
    names = []
    for kind in ("road", "house", "pigsty"):
        for reach in ("dead", "one", "two", "more"):
            names += [f"{kind}_{reach}", f"{kind}_{reach}_early"]
    names += [f"held_{reach}" for reach in ("dead", "one", "two", "more")]
    names += ["blocked", "meadow", "meadow_early", "meadow_monks", "meadow_blocked"]
    names += ["supply", "supply_early", "supply_empty", "supply_empty_early"]
    names += [f"token_{kind}" for kind in range(1, 10)] + ["token_1_early"]
    names += ["family_lead", "family_lead_area", "family_size", "tower_near", "nest_lead", "to_move"]
    return tuple(names)


VALUE_FEATURES = _value_feature_names()
"""The learned value's features in the order the C code computes them (``zamek.castle.bots.value.FEATURES``)."""
if len(VALUE_FEATURES) != ZB_NF:
    raise ImportError("zamek_bots.h and _core.pyx disagree on the learned value's features")


def _compensated_sum():
    """Whether this Python's sum() adds floats with compensation (3.12 and later), which the C estimates copy."""
    return sum([1e16, 1.0, -1e16]) != 0.0


_COMPENSATED = _compensated_sum()


cdef class CoreEval:
    """A position estimate in C: the hand-set weights (``zamek.castle.bots.evaluate.Weights``) or the learned value
    (``zamek.castle.bots.value.ValueModel``). Made by ``weights_eval`` or ``value_eval``."""

    cdef zb_eval E
    cdef readonly str kind

    def __cinit__(self):
        memset(&self.E, 0, sizeof(zb_eval))
        self.E.compensated = 1 if _COMPENSATED else 0


def weights_eval(double free_follower, double follower_cap, double completion, double completion_decay,
                 double horizon, int tower_reach, double tower_near, double family_race, double nest_race,
                 token_values, double win_scale):
    """The C form of ``Weights`` (every field; ``token_values`` has 10 entries)."""
    if len(token_values) != 10:
        raise CoreLimitError("token_values must have 10 entries")
    cdef CoreEval ev = CoreEval.__new__(CoreEval)
    ev.kind = "weights"
    ev.E.kind = ZB_WEIGHTS
    ev.E.free_follower = free_follower
    ev.E.follower_cap = follower_cap
    ev.E.completion = completion
    ev.E.completion_decay = completion_decay
    ev.E.horizon = horizon
    ev.E.tower_reach = tower_reach
    ev.E.tower_near = tower_near
    ev.E.family_race = family_race
    ev.E.nest_race = nest_race
    for k in range(10):
        ev.E.token_values[k] = token_values[k]
    ev.E.win_scale = win_scale
    return ev


def value_eval(coefficients, double win_scale):
    """The C form of ``ValueModel`` (its coefficients in the order of ``VALUE_FEATURES``)."""
    if len(coefficients) != ZB_NF:
        raise CoreLimitError(f"the learned value needs {ZB_NF} coefficients")
    cdef CoreEval ev = CoreEval.__new__(CoreEval)
    ev.kind = "value"
    ev.E.kind = ZB_VALUE
    for k in range(ZB_NF):
        ev.E.coef[k] = coefficients[k]
    ev.E.win_scale = win_scale
    return ev


NET_HIDDEN_MAX = ZB_NH
"""Hidden units the C form of the value network holds at most (``zamek.castle.bots.network``)."""


def net_eval(coefficients, double win_scale, scale, w1, b1, w2):
    """The C form of ``NetValue``: the linear value's coefficients, then the network's feature scale
    (``VALUE_FEATURES`` long), first layer (rows: the two players' scaled features; columns: hidden units),
    hidden biases and output weights."""
    cdef int hidden = len(b1)
    if len(coefficients) != ZB_NF or len(scale) != ZB_NF or len(w1) != 2 * ZB_NF:
        raise CoreLimitError(f"the value network needs {ZB_NF} features per player")
    if not 0 < hidden <= ZB_NH or len(w2) != hidden or any(len(row) != hidden for row in w1):
        raise CoreLimitError(f"the value network needs 1 to {ZB_NH} hidden units, the same in every layer")
    cdef CoreEval ev = CoreEval.__new__(CoreEval)
    ev.kind = "net"
    ev.E.kind = ZB_NET
    ev.E.hidden = hidden
    cdef int i, j
    for i in range(ZB_NF):
        ev.E.coef[i] = coefficients[i]
        ev.E.scale[i] = scale[i]
        if not scale[i] > 0:
            raise CoreLimitError("the value network's feature scales must be positive")
    for i in range(2 * ZB_NF):
        row = w1[i]
        for j in range(hidden):
            ev.E.w1[i][j] = row[j]
    for j in range(hidden):
        ev.E.b1[j] = b1[j]
        ev.E.w2[j] = w2[j]
    ev.E.win_scale = win_scale
    return ev


cdef zc_bits _space_bits(const zc_rules *R, object mask) except *:
    """The C space set of a Python engine cell mask."""
    cdef zc_bits bits
    bits.lo = 0
    bits.hi = 0
    cdef int cell, i, b, space
    cdef bytes raw
    cdef const unsigned char *p
    if not mask:
        return bits
    if not (mask & (mask - 1)):
        cell = mask.bit_length() - 1
        space = R.space_of[cell] if 0 <= cell < ZC_MAX_CELLS else -1
        if space < 0:
            raise CoreLimitError(f"cell {cell} is not a space")
        zc_bits_set(&bits, space)
        return bits
    raw = mask.to_bytes((mask.bit_length() + 7) // 8, "little")
    p = raw
    for i in range(len(raw)):
        if p[i]:
            for b in range(8):
                if p[i] >> b & 1:
                    cell = 8 * i + b
                    space = R.space_of[cell] if cell < ZC_MAX_CELLS else -1
                    if space < 0:
                        raise CoreLimitError(f"cell {cell} is not a space")
                    zc_bits_set(&bits, space)
    return bits


cdef inline void _limit(Py_ssize_t n, int most, str what) except *:
    if n > most:
        raise CoreLimitError(f"{n} {what}: more than the compiled core holds ({most})")


def mirror(CoreRules rules, state):
    """The compiled twin of a Python engine position (``zamek.castle.rules.state.GameState``) over ``rules`` (made from
    that position's own setup and rules), field by field: the bots think in C about the very position they
    are given, however it came about. Regions agree at their roots (what the engine reads); a node that was
    merged into another keeps only its parent and kind. Raises CoreLimitError where the position does not fit."""
    cdef CoreState core = CoreState.__new__(CoreState)
    core.rules = rules
    cdef zc_state *S = core.S
    cdef const zc_rules *R = rules.R
    cdef int p, i, c, n, t
    cdef list lst, parent, kind, open_, cells, fol0, fol1, prince, falconer, stocks, shrines, nests
    memset(S, 0, sizeof(zc_state))
    S.phase = <int>state.phase
    S.current = state.current
    S.head_chosen = 1 if state.head_chosen else 0
    S.turn = state.turn
    for p in range(2):
        S.scores[p] = state.scores[p]
        S.supply[p] = state.supply[p]
        S.princes[p] = state.princes[p]
        S.falconers[p] = state.falconers[p]
        S.on_gate[p] = 1 if state.on_gate[p] else 0
        S.family_size[p] = state.family_size[p]
        S.nests[p] = state.nests[p]
        S.family_cells[p] = _space_bits(R, state.family_cells[p])
        lst = state.tokens[p]
        _limit(len(lst), ZC_MAX_HELD, "tokens held")
        S.n_held[p] = len(lst)
        for i, token in enumerate(lst):
            S.held_kind[p][i] = token.kind
            S.held_turn[p][i] = token.turn_taken
    lst = state.tower_token
    _limit(len(lst), R.n_towers, "towers")
    for i in range(len(lst)):
        S.tower_token[i] = 1 if lst[i] else 0
    lst = state.token_pool
    for i in range(10):
        S.token_pool[i] = lst[i]
    lst = state.pending_reveals
    _limit(len(lst), ZC_MAX_TOWERS, "pending reveals")
    S.n_pending = len(lst)
    for i in range(len(lst)):
        S.pending[i] = lst[i]
    for t in range(ZC_MAX_TILES):
        S.pile_pos[t] = -1
    lst = state.remaining
    _limit(len(lst), R.n_tiles, "tiles left")
    S.n_remaining = len(lst)
    for i, t in enumerate(sorted(lst)):
        S.pile[i] = t
        S.pile_pos[t] = i
    S.draw_position = state.draw_position
    S.drawn = state.drawn
    lst = state.discarded
    S.n_discarded = len(lst)
    for i in range(len(lst)):
        S.discarded[i] = lst[i]
    for c in range(R.cell_count):
        S.cell_tab[c] = -1
    lst = state.placements
    _limit(len(lst), R.n_tiles, "placements")
    S.n_placed = len(lst)
    for i, (c, t, p) in enumerate(lst):
        S.placed_cell[i] = c
        S.placed_tile[i] = t
        S.placed_rot[i] = p
        S.cell_tab[c] = t * 4 + p
    for i in range(R.n_starts):
        S.cell_tab[R.starts[i].cell] = R.n_tiles * 4 + i
    cdef list status = state.status, cell_node = state.cell_node, need_mask = state.need_mask
    cdef list need_road = state.need_road
    if len(status) != R.cell_count:
        raise CoreLimitError("the position's castle is not the rules' castle")
    for c in range(R.cell_count):
        S.status[c] = status[c]
        S.cell_node[c] = cell_node[c]
        S.need_mask[c] = need_mask[c]
        S.need_road[c] = need_road[c]
    for i in range(R.n_interior):
        c = R.interior[i]
        if S.status[c] == 1 and S.need_mask[c]:
            zc_bits_set(&S.frontier, i)
    lst = state.followers
    _limit(len(lst), ZC_MAX_FOLLOWERS, "figures")
    S.n_followers = len(lst)
    for i, f in enumerate(lst):
        S.followers[i].player = f.player
        S.followers[i].piece = <int>f.piece
        S.followers[i].feature = f.feature
        S.followers[i].node = f.node
        S.followers[i].cell = f.cell
    lst = state.completed
    _limit(len(lst), ZC_MAX_QUEUE, "completed features")
    S.n_completed = len(lst)
    for i in range(len(lst)):
        S.completed[i] = lst[i]
    lst = state.queue
    _limit(len(lst), ZC_MAX_QUEUE, "features to score")
    S.n_queue = len(lst)
    for i in range(len(lst)):
        S.queue[i] = lst[i]
    parent, kind, open_, cells = state.parent, state.kind, state.open, state.cells
    fol0, fol1, prince, falconer = state.fol0, state.fol1, state.prince, state.falconer
    stocks, shrines, nests = state.stocks, state.shrines, state.region_nests
    n = len(parent)
    _limit(n, ZC_MAX_NODES, "feature nodes")
    S.n_nodes = n
    cdef zc_node *node
    for i in range(n):
        node = &S.nodes[i]
        node.parent = parent[i]
        node.kind = kind[i]
        if node.parent != i:
            continue
        node.open = open_[i]
        node.cells = _space_bits(R, cells[i])
        node.fol0 = fol0[i]
        node.fol1 = fol1[i]
        node.prince = prince[i]
        node.falconer = falconer[i]
        node.stocks = stocks[i]
        node.shrines = shrines[i]
        node.nests = nests[i]
    return core


cdef tuple _rng_load(object rng, zc_mt *m):
    """Load a random.Random's Mersenne Twister into ``m``; return what setstate needs besides it."""
    version, internal, gauss = rng.getstate()
    if version != 3 or len(internal) != 625:
        raise CoreLimitError("a generator of another kind than random.Random")
    cdef int i
    for i in range(624):
        m.mt[i] = internal[i]
    m.mti = internal[624]
    return (version, gauss)


cdef void _rng_store(object rng, zc_mt *m, tuple head) except *:
    """Leave the random.Random where the C code left ``m``: it goes on as if Python had drawn the numbers."""
    cdef int i
    rng.setstate((head[0], tuple([m.mt[i] for i in range(624)]) + (m.mti,), head[1]))


cdef class _Ctx:
    """Scratch space for one decision."""

    cdef zb_ctx c

    def __cinit__(self, CoreRules rules):
        zb_ctx_init(&self.c, rules.R, rules.B)

    def __dealloc__(self):
        zb_ctx_free(&self.c)


def _failed(str what):
    return RuntimeError(f"the compiled {what} broke on a position (it never should)")


def lead(CoreState state, CoreEval ev, int player):
    """``Evaluator.lead``: ``player``'s estimated final lead in points."""
    return zb_lead(state.rules.R, state.rules.B, state.S, &ev.E, player)


def win_chance(CoreState state, CoreEval ev, int player):
    """``Evaluator.win_chance``: exact at the end, estimated before."""
    return zb_win_chance(state.rules.R, state.rules.B, state.S, &ev.E, player)


def leads(list states, CoreEval ev, int player):
    """``lead`` of many positions in one call."""
    cdef CoreState state
    return [zb_lead(state.rules.R, state.rules.B, state.S, &ev.E, player) for state in states]


def value_features(CoreState state):
    """``zamek.castle.bots.value.position_features``: each player's feature vector."""
    cdef double x0[64]
    cdef double x1[64]
    zb_position_features(state.rules.R, state.rules.B, state.S, x0, x1)
    return [x0[i] for i in range(ZB_NF)], [x1[i] for i in range(ZB_NF)]


def sample_chance(CoreState state, rng):
    """``zamek.castle.runner.sample_chance`` with a random.Random, as an action integer (advances ``rng``)."""
    cdef zc_mt m
    head = _rng_load(rng, &m)
    outcome = zb_sample_chance(state.rules.R, state.S, &m)
    if outcome < 0:
        raise ValueError("no chance event is due")
    _rng_store(rng, &m, head)
    return outcome


def greedy_choice(CoreState state, CoreEval ev, rng, int limit=0):
    """``GreedyBot.choose`` (``limit`` > 0: look at that many placements): the action's integer. ``rng`` (a
    random.Random) goes on as it would in Python."""
    cdef zc_mt m
    head = _rng_load(rng, &m)
    cdef _Ctx ctx = _Ctx(state.rules)
    cdef int action
    cdef zb_eval *E = &ev.E
    with nogil:
        action = zb_greedy(&ctx.c, state.S, &m, E, limit)
    if action < 0 or ctx.c.failed:
        raise _failed("greedy bot")
    _rng_store(rng, &m, head)
    return action


def ranked_moves(CoreState state, CoreEval ev, rng, int width):
    """``mcts.ranked_moves``: the best ``width`` moves as (value, first action, second action or -1), best
    first; and how many positions were judged."""
    cdef zc_mt m
    head = _rng_load(rng, &m)
    cdef _Ctx ctx = _Ctx(state.rules)
    if width < 1:
        raise ValueError("width must be at least 1")
    cdef zb_move *out = <zb_move *>malloc(width * sizeof(zb_move))
    cdef double *values = <double *>malloc(width * sizeof(double))
    cdef int n
    cdef zb_eval *E = &ev.E
    try:
        if out == NULL or values == NULL:
            raise MemoryError()
        with nogil:
            n = zb_ranked_moves(&ctx.c, state.S, &m, width, E, out, values)
        if ctx.c.failed:
            raise _failed("one-turn look")
        _rng_store(rng, &m, head)
        return [(values[i], out[i].a, out[i].b) for i in range(n)], ctx.c.children
    finally:
        free(out)
        free(values)


def search(CoreState state, rng, int iterations, int width, int playout_turns, int expand_after,
           double exploration, double seconds, CoreEval mine, CoreEval theirs=None):
    """``MCTSBot.choose`` after its shortcuts: (first action, second action or -1, iterations, searched,
    positions judged). ``seconds`` > 0 caps the thinking time."""
    cdef zc_mt m
    head = _rng_load(rng, &m)
    cdef _Ctx ctx = _Ctx(state.rules)
    cdef zb_search P
    cdef zb_result out
    cdef int rc
    P.iterations = iterations
    P.width = width
    P.playout_turns = playout_turns
    P.expand_after = expand_after
    P.exploration = exploration
    P.seconds = seconds
    P.mine = &mine.E
    P.theirs = NULL if theirs is None else &theirs.E
    if not 1 <= width <= 1024 or iterations < 1:
        raise ValueError("width must be 1 to 1024 and iterations at least 1")
    with nogil:
        rc = zb_mcts(&ctx.c, state.S, &m, &P, &out)
    if rc < 0 or ctx.c.failed:
        raise _failed("search")
    _rng_store(rng, &m, head)
    return out.move.a, out.move.b, out.iterations, bool(out.searched), out.children


# -------------------------------------------------------------------------------------- many games at once

ACTIONS = ZC_MAX_LEGAL
"""The size of the player action space: an action's index is below it (``zamek.castle.rules.actions.ACTION_COUNT``)."""


cdef class BatchCore:
    """Many games of one rule set side by side in C, stepped together (``zamek.castle.fast.Batch`` and
    ``zamek.env``'s vector environment wrap it).

    Slot ``i`` plays a game of seed ``seeds[i]`` under the seeding convention (its first player, its tile
    and token orders); chance events are played inside, so a slot always waits for a player's decision or
    is over. Each slot's legal actions are kept as a row of bytes, brought up to date by every change: the
    masks are copied out from there and actions are checked against them."""

    cdef CoreRules rules
    cdef zc_state *states
    cdef zc_seeded *chance
    cdef long long *seeds
    cdef unsigned char *masks
    cdef int *counts
    cdef uint64_t rng
    cdef int n
    cdef int fixed_first
    cdef readonly long long next_seed

    def __cinit__(self):
        self.states = NULL
        self.chance = NULL
        self.seeds = NULL
        self.masks = NULL
        self.counts = NULL

    def __dealloc__(self):
        free(self.states)
        free(self.chance)
        free(self.seeds)
        free(self.masks)
        free(self.counts)

    def __init__(self, CoreRules rules, int n, long long seed, int first_player=-1):
        if n < 1:
            raise ValueError("a batch holds at least one game")
        if not -1 <= first_player <= 1:  # a seat beyond the two would index past the state's arrays
            raise ValueError(f"first_player must be -1 (each game's seed chooses), 0 or 1, not {first_player}")
        self.rules = rules
        self.n = n
        self.fixed_first = first_player
        # The sampler's generator: splitmix64 of the seed, never 0 (xorshift's one bad state).
        cdef uint64_t z = <uint64_t>seed + 0x9E3779B97F4A7C15ULL
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
        self.rng = (z ^ (z >> 31)) | 1
        self.states = <zc_state *>malloc(<size_t>n * sizeof(zc_state))
        self.chance = <zc_seeded *>malloc(<size_t>n * sizeof(zc_seeded))
        self.seeds = <long long *>malloc(<size_t>n * sizeof(long long))
        self.masks = <unsigned char *>malloc(<size_t>n * ZC_MAX_LEGAL)
        self.counts = <int *>malloc(<size_t>n * sizeof(int))
        if self.states == NULL or self.chance == NULL or self.seeds == NULL or self.masks == NULL \
                or self.counts == NULL:
            raise MemoryError()
        cdef int i
        cdef int failed = -1
        with nogil:
            for i in range(n):
                if self._start(i, seed + i) < 0:
                    failed = i
                    break
        if failed >= 0:
            raise RuntimeError(f"game {failed} of the batch broke at its start")
        self.next_seed = seed + n

    @property
    def size(self):
        return self.n

    cdef int _advance(self, int i) noexcept nogil:
        """Play chance events (by the slot's seed) until a decision or the end."""
        cdef zc_state *S = &self.states[i]
        cdef int outcome
        while zc_is_chance(S):
            outcome = zc_seeded_outcome(self.rules.R, S, &self.chance[i])
            if outcome < 0 or zc_apply(self.rules.R, S, NULL, outcome) < 0:
                return -1
        return 0

    cdef void _refresh(self, int i) noexcept nogil:
        """Bring slot ``i``'s row of legal actions up to date."""
        cdef int legal[ZC_MAX_LEGAL]
        cdef unsigned char *row = self.masks + <size_t>i * ZC_MAX_LEGAL
        cdef int k, count = zc_legal(self.rules.R, &self.states[i], legal)
        memset(row, 0, ZC_MAX_LEGAL)
        for k in range(count):
            row[legal[k]] = 1
        self.counts[i] = count

    cdef int _start(self, int i, long long seed) noexcept nogil:
        cdef char text[64]
        cdef zc_mt m
        zc_new(self.rules.R, &self.states[i])
        if self.fixed_first >= 0:
            self.states[i].current = self.fixed_first
        else:  # zamek.castle.seeding.first_player
            snprintf(text, 64, "zamek-first:%lld", seed)
            zc_mt_seed_text(&m, text)
            self.states[i].current = zc_mt_below(&m, 2)
        zc_seeded_init(&self.chance[i], self.rules.R.n_tiles, seed)
        self.seeds[i] = seed
        if self._advance(i) < 0:
            return -1
        self._refresh(i)
        return 0

    def reset(self, int i):
        """Start a new game in slot ``i``, on the next seed; return that seed."""
        if not 0 <= i < self.n:
            raise IndexError(i)
        seed = self.next_seed
        self.next_seed += 1
        if self._start(i, seed) < 0:
            raise RuntimeError(f"the game of seed {seed} broke at its start")
        return seed

    def legal_masks(self, unsigned char[::1] out):
        """Write each slot's legal actions as a row of ACTIONS bytes (1: legal); a finished game's row is 0."""
        if out.shape[0] != self.n * ZC_MAX_LEGAL:
            raise ValueError("the mask buffer must hold size * ACTIONS bytes")
        zc_memcpy(&out[0], self.masks, <size_t>self.n * ZC_MAX_LEGAL)

    cdef int _check(self, const int[::1] actions) noexcept nogil:
        """The first slot whose action is not legal (finished slots excepted), or -1."""
        cdef int i, a
        for i in range(self.n):
            if self.states[i].phase == ZC_OVER:
                continue
            a = actions[i]
            if a < 0 or a >= ZC_MAX_LEGAL or not self.masks[<size_t>i * ZC_MAX_LEGAL + a]:
                return i
        return -1

    def _refuse(self, int bad, const int[::1] actions):
        legal = [k for k in range(ZC_MAX_LEGAL) if self.masks[<size_t>bad * ZC_MAX_LEGAL + k]]
        raise ValueError(f"game {bad}: action {actions[bad]} is not legal (the legal ones: {legal})")

    def step(self, const int[::1] actions):
        """Play ``actions[i]`` in every slot still playing (finished slots ignore theirs), then the chance
        events that follow. Every action is checked first: an illegal one raises ValueError and changes
        nothing."""
        if actions.shape[0] != self.n:
            raise ValueError(f"step takes one action per game ({self.n}), not {actions.shape[0]}")
        cdef int i, bad, broke = -1
        with nogil:
            bad = self._check(actions)
            if bad < 0:
                for i in range(self.n):
                    if self.states[i].phase == ZC_OVER:
                        continue
                    if zc_apply(self.rules.R, &self.states[i], NULL, actions[i]) < 0 or self._advance(i) < 0:
                        broke = i
                        break
                    self._refresh(i)
        if bad >= 0:
            self._refuse(bad, actions)
        if broke >= 0:
            raise RuntimeError(f"game {broke} of the batch broke (it never should)")

    def play(self, const int[::1] actions, bint score_rewards, bint autoreset, float[::1] rewards,
             unsigned char[::1] done, int[::1] final_scores, signed char[::1] players):
        """The vector environment's step: play one action in every slot (checked first, as ``step``), then
        write each slot's rewards (2 a slot, by seat: +1/-1/0 at the end, or with ``score_rewards`` the
        change in each seat's lead), whether its game ended (``final_scores``: that game's scores) and the
        player to move next (-1: over). With ``autoreset`` a finished game is replaced at once by a new one
        on the next seed, and ``players`` speaks of the new game."""
        cdef int n = self.n
        if actions.shape[0] != n or rewards.shape[0] != 2 * n or done.shape[0] != n \
                or final_scores.shape[0] != 2 * n or players.shape[0] != n:
            raise ValueError(f"play takes one action per game ({n}) and buffers of n or 2n entries")
        cdef int i, bad, broke = -1, lead0
        cdef zc_state *S
        with nogil:
            bad = self._check(actions)
            if bad < 0:
                for i in range(n):
                    S = &self.states[i]
                    rewards[2 * i] = 0
                    rewards[2 * i + 1] = 0
                    done[i] = 0
                    if S.phase == ZC_OVER:
                        players[i] = -1
                        continue
                    lead0 = S.scores[0] - S.scores[1]
                    if zc_apply(self.rules.R, S, NULL, actions[i]) < 0 or self._advance(i) < 0:
                        broke = i
                        break
                    if score_rewards:
                        rewards[2 * i] = <float>(S.scores[0] - S.scores[1] - lead0)
                        rewards[2 * i + 1] = -rewards[2 * i]
                    if S.phase == ZC_OVER:
                        done[i] = 1
                        final_scores[2 * i] = S.scores[0]
                        final_scores[2 * i + 1] = S.scores[1]
                        if not score_rewards:
                            rewards[2 * i] = 1 if S.scores[0] > S.scores[1] else -1 if S.scores[0] < S.scores[1] else 0
                            rewards[2 * i + 1] = -rewards[2 * i]
                        if autoreset:
                            if self._start(i, self.next_seed) < 0:
                                broke = i
                                break
                            self.next_seed += 1
                            S = &self.states[i]
                        else:
                            memset(self.masks + <size_t>i * ZC_MAX_LEGAL, 0, ZC_MAX_LEGAL)
                            self.counts[i] = 0
                            players[i] = -1
                            continue
                    else:
                        self._refresh(i)
                    players[i] = S.current
        if bad >= 0:
            self._refuse(bad, actions)
        if broke >= 0:
            raise RuntimeError(f"game {broke} of the batch broke (it never should)")

    def observe(self, short[::1] out, const signed char[::1] seats):
        """Write each slot's observation (OBSERVATION_SIZE numbers a slot) as seat ``seats[i]`` sees it (-1:
        the player to move, or seat 0 once the game is over)."""
        cdef int n = self.n, i, seat
        if out.shape[0] != <Py_ssize_t>n * ZO_SIZE or seats.shape[0] != n:
            raise ValueError(f"observe takes a buffer of size * {ZO_SIZE} numbers and one seat per game")
        for i in range(n):
            if not -1 <= seats[i] <= 1:
                raise ValueError(f"a seat is -1 (the player to move), 0 or 1, not {seats[i]} (game {i})")
        with nogil:
            for i in range(n):
                seat = seats[i]
                if seat < 0:
                    seat = self.states[i].current if self.states[i].phase != ZC_OVER else 0
                zo_observe(self.rules.R, &self.states[i], seat, <int16_t *>&out[<Py_ssize_t>i * ZO_SIZE])

    def sample(self, int[::1] out):
        """Write a legal action chosen uniformly at random for every slot (-1 where a game is over), by the
        batch's own generator (seeded from the batch's seed)."""
        if out.shape[0] != self.n:
            raise ValueError(f"sample takes one entry per game ({self.n})")
        cdef int i, k, count, pick, ones
        cdef unsigned char *row
        cdef uint64_t word
        cdef uint64_t x = self.rng
        with nogil:
            for i in range(self.n):
                row = self.masks + <size_t>i * ZC_MAX_LEGAL
                count = self.counts[i]
                if count == 0:
                    out[i] = -1
                    continue
                x ^= x >> 12
                x ^= x << 25
                x ^= x >> 27
                pick = <int>(((x * 0x2545F4914F6CDD1DULL) >> 32) % <uint64_t>count)
                # Skip eight bytes at a time: a word of 0/1 bytes holds as many legal actions as set bits.
                k = 0
                while k + 8 <= ZC_MAX_LEGAL:
                    memcpy(&word, row + k, 8)
                    ones = __builtin_popcountll(word)
                    if pick < ones:
                        break
                    pick -= ones
                    k += 8
                while k < ZC_MAX_LEGAL:
                    if row[k]:
                        if pick == 0:
                            out[i] = k
                            break
                        pick -= 1
                    k += 1
        self.rng = x

    def fill(self, int[::1] scores, signed char[::1] current, signed char[::1] phase, long long[::1] seeds):
        """Write each slot's scores (2 a slot), player to move (-1 at the end), phase and seed."""
        cdef int i
        for i in range(self.n):
            scores[2 * i] = self.states[i].scores[0]
            scores[2 * i + 1] = self.states[i].scores[1]
            current[i] = -1 if self.states[i].phase == ZC_OVER else self.states[i].current
            phase[i] = self.states[i].phase
            seeds[i] = self.seeds[i]

    def state(self, int i):
        """A copy of slot ``i``'s position."""
        if not 0 <= i < self.n:
            raise IndexError(i)
        cdef CoreState other = CoreState.__new__(CoreState)
        other.rules = self.rules
        zc_copy(other.S, &self.states[i])
        return other
