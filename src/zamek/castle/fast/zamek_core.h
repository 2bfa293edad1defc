/* The compiled core of Zamek: the rules of zamek/castle/rules/ over flat C arrays.
 *
 * A port of the Python engine (src/zamek/castle/rules/, the reference) that plays every rule set: Zamek (2020),
 * The Castle (2003), Sokół, and the gate guard. It is checked against the Python engine action by action
 * (tests/castle/fast/test_fast_core.py). Everything here mirrors a Python function; the comments name it.
 *
 * - zc_rules: the castle, the tiles and the options, built by _core.pyx from the public values of
 *   zamek.rules_for(setup) (read-only, shared by every state of a rule set).
 * - zc_state: a position, flat and self-contained; a copy is a memcpy (zc_copy copies only the nodes
 *   in use). Node numbers are the Python engine's (start spaces first, then each placed tile's features),
 *   and a region's root is its smallest node, as in the Python union-find, so roots agree too.
 * - Actions are the engine's stable integer indices (zamek/castle/rules/actions.py): Place 0..1023, Follower
 *   1024..1059, Pass 1060, Order 1061..1076, UseToken 1077..1085, Decline 1086; chance outcomes are
 *   ZC_DRAW + tile index and ZC_REVEAL + token kind.
 * - zc_log: the itemised breakdown (ScoreItem), written only when a log is given (NULL: none, in playouts).
 * - The seeding convention of zamek/seeding.py, exactly: CPython's Mersenne Twister seeded from a string
 *   (SHA-512, as random.Random(str) does), shuffles and choices as random.shuffle / random.choice.
 *
 * Nothing here allocates except the order question's outcome sets and the log; nothing touches Python.
 */
#ifndef ZAMEK_CORE_H
#define ZAMEK_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#ifndef ZC_SOURCE_DIGEST
#define ZC_SOURCE_DIGEST "" /* setup.py defines it: the digest of the sources this module was built from */
#endif

#define ZC_MAX_CELLS 324 /* an 16x16 grid padded by one cell of wall on every side */
#define ZC_MAX_NODES 512
#define ZC_MAX_TILES 128
#define ZC_MAX_FEATURES 12
#define ZC_MAX_STARTS 16
#define ZC_MAX_TOWERS 16
#define ZC_MAX_SPACES 128 /* interior and start spaces: a region's spaces are a 128-bit set */
#define ZC_MAX_FOLLOWERS 32
#define ZC_MAX_HELD 24 /* 18 tokens, and room for tests that hand out more */
#define ZC_MAX_QUEUE 32
#define ZC_MAX_INTERIOR 128 /* the frontier is a 128-bit set over them */
#define ZC_TRACK 100
#define ZC_GRID 16
#define ZC_MAX_LEGAL 1100

/* phases: zamek.castle.rules.setup.Phase */
enum { ZC_DRAW_PHASE = 0, ZC_PLACE = 1, ZC_FOLLOWER = 2, ZC_REVEAL_PHASE = 3, ZC_OVER = 4, ZC_ORDER = 5,
       ZC_DOUBLE = 6, ZC_EXTRA = 7 };
/* feature kinds: zamek.castle.rules.tiles.FeatureKind */
enum { ZC_ROAD = 0, ZC_HOUSE = 1, ZC_PIGSTY = 2, ZC_MEADOW = 3, ZC_CHAPEL = 4 };
/* cell status: zamek.castle.rules.board */
enum { ZC_WALL = 0, ZC_EMPTY = 1, ZC_TAKEN = 2 };
/* pieces: zamek.castle.rules.actions.Piece */
enum { ZC_FOLLOWER_PIECE = 0, ZC_PRINCE = 1, ZC_FALCONER = 2 };
/* token kinds (Zamek numbering): zamek.castle.rules.tokens.TokenKind */
enum { ZC_EXTRA_TURN = 1, ZC_HOUSE_X2 = 2, ZC_PIGSTY_X2 = 3, ZC_MEADOW_4 = 4, ZC_FAMILY_PLUS_2 = 5,
       ZC_FIVE_POINTS = 6, ZC_OPEN_HOUSE = 7, ZC_OPEN_PIGSTY = 8, ZC_OPEN_ROAD = 9 };
/* action indices: zamek.castle.rules.actions */
enum { ZC_FOLLOWER_BASE = 1024, ZC_PASS = 1060, ZC_ORDER_BASE = 1061, ZC_USE_BASE = 1077, ZC_DECLINE = 1086,
       ZC_DRAW = 2000, ZC_REVEAL = 3000 };
/* score item reasons beyond the feature kinds */
enum { ZC_R_FAMILY = 5, ZC_R_TOKEN = 6, ZC_R_NESTS = 7 };
/* score item detail flags, in the order the Python engine writes them */
enum { ZC_D_UNFINISHED = 1, ZC_D_CHAPEL = 2, ZC_D_STOCKS = 4, ZC_D_PRINCE = 8 };

typedef struct { uint64_t lo, hi; } zc_bits;

static inline void zc_bits_set(zc_bits *b, int i) { if (i < 64) b->lo |= 1ULL << i; else b->hi |= 1ULL << (i - 64); }
static inline int zc_bits_count(zc_bits b) { return __builtin_popcountll(b.lo) + __builtin_popcountll(b.hi); }
static inline int zc_bits_lowest(zc_bits b) { return b.lo ? __builtin_ctzll(b.lo) : b.hi ? 64 + __builtin_ctzll(b.hi) : -1; }
/* Compare as integers (spaces are numbered in cell order, so this orders as the Python cell masks do). */
static inline int zc_bits_cmp(zc_bits a, zc_bits b) {
    if (a.hi != b.hi) return a.hi < b.hi ? -1 : 1;
    if (a.lo != b.lo) return a.lo < b.lo ? -1 : 1;
    return 0;
}

typedef struct {
    int n_features;
    uint8_t kind[ZC_MAX_FEATURES], stocks[ZC_MAX_FEATURES], shrines[ZC_MAX_FEATURES], nests[ZC_MAX_FEATURES];
    uint8_t road_sides[4];
} zc_tile;

typedef struct {
    int cell, faces, side, n_features;
    uint8_t kind[ZC_MAX_FEATURES], stocks[ZC_MAX_FEATURES], shrines[ZC_MAX_FEATURES], nests[ZC_MAX_FEATURES];
    uint8_t open[ZC_MAX_FEATURES];
} zc_start;

/* The rates of scoring: zamek.castle.rules.rates.Rates, copied in by _core.pyx from the rules' own table. */
#define ZC_MAX_CHAPEL 16
typedef struct {
    int road, road_with_stocks, house, pigsty, shrine, meadow_token, family_token_tiles, five_points;
    int open_house, open_pigsty, open_road, open_road_with_stocks, empty_space, prince_factor, token_factor;
    int falconer_nests;
    int n_chapel; /* chapel[min(tiles, n_chapel - 1)] */
    int chapel[ZC_MAX_CHAPEL];
} zc_rates;

typedef struct {
    int cell_count, stride, offsets[4];
    int n_interior;
    int16_t interior[ZC_MAX_INTERIOR];
    int16_t interior_index[ZC_MAX_CELLS]; /* position of a cell in interior (reading order), -1 elsewhere */
    int n_spaces;
    int16_t space_of[ZC_MAX_CELLS]; /* compact index of an interior or start space, -1 for other cells */
    int16_t cell_of_space[ZC_MAX_SPACES];
    int16_t cell_place[ZC_MAX_CELLS]; /* Place index of rotation 0 on a cell, -1 outside the grid */
    int16_t place_cell[ZC_GRID * ZC_GRID]; /* cell of a grid square (y * 16 + x) */
    int n_starts;
    zc_start starts[ZC_MAX_STARTS];
    int n_tiles;
    zc_tile tiles[ZC_MAX_TILES];
    /* segment -> feature tables: tile t turned r is table t * 4 + r; start space s is n_tiles * 4 + s */
    int8_t tables[ZC_MAX_TILES * 4 + ZC_MAX_STARTS][12];
    int8_t table_parts[ZC_MAX_TILES * 4 + ZC_MAX_STARTS]; /* max(table) + 1 */
    int8_t tower_at[ZC_TRACK];
    int n_towers;
    uint8_t tower_holds[ZC_MAX_TOWERS];
    uint8_t gate_after[ZC_TRACK]; /* a gate sits after this track number (Sokół) */
    int sokol, gate_guard, same_turn, road_token_stocks, first_player;
    int n_draw_order; /* -1: draws at random */
    int16_t draw_order[ZC_MAX_TILES];
    zc_rates rates;
} zc_rules;

typedef struct { uint8_t player, piece, feature; int16_t node, cell; } zc_follower;

typedef struct {
    int16_t parent;
    uint8_t kind, fol0, fol1, prince, falconer, stocks, shrines, nests;
    int16_t open;
    zc_bits cells;
} zc_node;

typedef struct {
    int8_t phase, current, head_chosen;
    int16_t turn;
    int32_t scores[2];
    int8_t supply[2], princes[2], falconers[2], on_gate[2];
    int16_t family_size[2], nests[2];
    zc_bits family_cells[2];
    int8_t n_held[2];
    uint8_t held_kind[2][ZC_MAX_HELD];
    int16_t held_turn[2][ZC_MAX_HELD];
    uint8_t tower_token[ZC_MAX_TOWERS];
    int8_t token_pool[10];
    int8_t n_pending;
    int8_t pending[ZC_MAX_TOWERS];
    int16_t n_remaining, draw_position, drawn, n_discarded, n_placed;
    int16_t pile[ZC_MAX_TILES]; /* the tiles left, in no particular order (pile_pos: where each one is) */
    int16_t pile_pos[ZC_MAX_TILES];
    uint8_t discarded[ZC_MAX_TILES];
    int16_t placed_cell[ZC_MAX_TILES];
    uint8_t placed_tile[ZC_MAX_TILES], placed_rot[ZC_MAX_TILES];
    zc_bits frontier; /* interior spaces, by interior index, that are empty and touch a tile or start space */
    uint8_t status[ZC_MAX_CELLS], need_mask[ZC_MAX_CELLS], need_road[ZC_MAX_CELLS];
    int16_t cell_node[ZC_MAX_CELLS], cell_tab[ZC_MAX_CELLS];
    int8_t n_followers, n_completed, n_queue;
    zc_follower followers[ZC_MAX_FOLLOWERS];
    int16_t completed[ZC_MAX_QUEUE], queue[ZC_MAX_QUEUE];
    int16_t n_nodes;
    zc_node nodes[ZC_MAX_NODES]; /* last: a copy takes only the nodes in use */
} zc_state;

typedef struct {
    int8_t reason, player, flags, token, multiplier, final;
    int16_t count, rate, turn, chapel_size, lost, nests;
    int32_t points;
    zc_bits cells;
} zc_item;

typedef struct { int n, cap; zc_item *items; } zc_log;

/* ------------------------------------------------------------------------------------------ basics */

static inline size_t zc_state_size(const zc_state *S) {
    return offsetof(zc_state, nodes) + (size_t)S->n_nodes * sizeof(zc_node);
}

/* memcpy a kilobyte at a time, always through the C library's memcpy. glibc copies larger blocks with `rep movsb`,
 * and compilers expand a copy of known size inline with `rep movsq`; some AMD processors (seen on an EPYC, glibc
 * 2.36) run both many times slower when the two blocks share their offset within a page, as equal-sized
 * allocations do: whole searches ran ten times slower. Smaller blocks glibc copies with vector moves; the
 * volatile pointer keeps the compiler from expanding the calls inline. */
#define ZC_COPY_CHUNK ((size_t)1024)

static void *(*volatile zc_libc_memcpy)(void *, const void *, size_t) = memcpy;

static inline void zc_memcpy(void *dst, const void *src, size_t size) {
    char *d = (char *)dst;
    const char *s = (const char *)src;
    for (size_t at = 0; at < size; at += ZC_COPY_CHUNK)
        zc_libc_memcpy(d + at, s + at, size - at < ZC_COPY_CHUNK ? size - at : ZC_COPY_CHUNK);
}

static inline void zc_copy(zc_state *dst, const zc_state *src) { zc_memcpy(dst, src, zc_state_size(src)); }

/* memset to zero through the C library, likewise: the compiler expands a clearing of a few hundred bytes (a loop,
 * or memset of a known size) inline as `rep stosq`, which the same processors also run slowly */
static void *(*volatile zc_libc_memset)(void *, int, size_t) = memset;

static inline void zc_zero(void *dst, size_t size) { zc_libc_memset(dst, 0, size); }

static int zc_log_add(zc_log *L, zc_item item) {
    if (!L) return 0;
    if (L->n == L->cap) {
        int cap = L->cap ? 2 * L->cap : 64;
        zc_item *grown = (zc_item *)realloc(L->items, (size_t)cap * sizeof(zc_item));
        if (!grown) return -1;
        L->items = grown;
        L->cap = cap;
    }
    L->items[L->n++] = item;
    return 0;
}

static inline zc_item zc_new_item(int reason, int player, int count, int rate, int points, int turn) {
    zc_item it;
    memset(&it, 0, sizeof it);
    it.reason = (int8_t)reason; it.player = (int8_t)player; it.count = (int16_t)count; it.rate = (int16_t)rate;
    it.points = points; it.turn = (int16_t)turn; it.multiplier = 1;
    return it;
}

/* regions.find, with path compression */
static inline int zc_find(zc_state *S, int node) {
    zc_node *n = S->nodes;
    int root = node;
    while (n[root].parent != root) root = n[root].parent;
    while (n[node].parent != root) { int next = n[node].parent; n[node].parent = (int16_t)root; node = next; }
    return root;
}

/* regions._union: the smaller node becomes the root */
static inline int zc_union(zc_state *S, int a, int b) {
    int ra = zc_find(S, a), rb = zc_find(S, b);
    if (ra == rb) return ra;
    if (rb < ra) { int t = ra; ra = rb; rb = t; }
    zc_node *A = &S->nodes[ra], *B = &S->nodes[rb];
    B->parent = (int16_t)ra;
    A->open += B->open;
    A->cells.lo |= B->cells.lo; A->cells.hi |= B->cells.hi;
    A->fol0 += B->fol0; A->fol1 += B->fol1;
    A->prince |= B->prince; A->falconer |= B->falconer;
    A->stocks += B->stocks; A->shrines += B->shrines; A->nests += B->nests;
    return ra;
}

/* regions.region_owner (Z13): -1 on a tie */
static inline int zc_owner(const zc_state *S, int root) {
    int a = S->nodes[root].fol0, b = S->nodes[root].fol1;
    return a > b ? 0 : b > a ? 1 : -1;
}

static inline int zc_majority(int a, int b) { return a > b ? 0 : b > a ? 1 : -1; }

static inline int zc_add_node(zc_state *S, int kind, int space, int stocks, int shrines, int nests) {
    int id = S->n_nodes++;
    zc_node *n = &S->nodes[id];
    memset(n, 0, sizeof *n);
    n->parent = (int16_t)id; n->kind = (uint8_t)kind; n->stocks = (uint8_t)stocks; n->shrines = (uint8_t)shrines;
    n->nests = (uint8_t)nests;
    zc_bits_set(&n->cells, space);
    return id;
}

static inline int zc_in_list(const int16_t *list, int n, int x) {
    for (int i = 0; i < n; i++) if (list[i] == x) return 1;
    return 0;
}

/* features.place_key: (cells, first part in the lowest cell) orders features by where they lie */
static void zc_place_key(const zc_rules *R, zc_state *S, int root, zc_bits *cells, int *part) {
    *cells = S->nodes[root].cells;
    *part = -1;
    int space = zc_bits_lowest(*cells);
    if (space < 0) return;
    int cell = R->cell_of_space[space];
    int base = S->cell_node[cell], parts = R->table_parts[S->cell_tab[cell]];
    for (int p = 0; p < parts; p++) if (zc_find(S, base + p) == root) { *part = p; return; }
}

static inline int zc_key_cmp(zc_bits ca, int pa, zc_bits cb, int pb) {
    int c = zc_bits_cmp(ca, cb);
    return c ? c : (pa > pb) - (pa < pb);
}

/* --------------------------------------------------------------------------------- new game */

static void zc_pile_remove(zc_state *S, int tile) {
    int pos = S->pile_pos[tile];
    int last = S->pile[--S->n_remaining];
    S->pile[pos] = (int16_t)last;
    S->pile_pos[last] = (int16_t)pos;
    S->pile_pos[tile] = -1;
}

/* state.GameState.new */
static void zc_new(const zc_rules *R, zc_state *S) {
    memset(S, 0, offsetof(zc_state, nodes));
    S->phase = ZC_DRAW_PHASE;
    S->current = (int8_t)R->first_player;
    S->turn = 1;
    int extra = R->sokol ? 1 : 0;
    for (int p = 0; p < 2; p++) { S->supply[p] = 6; S->princes[p] = (int8_t)extra; S->falconers[p] = (int8_t)extra; }
    for (int t = 0; t < R->n_towers; t++) S->tower_token[t] = R->tower_holds[t];
    for (int k = 1; k <= 9; k++) S->token_pool[k] = 2;
    S->n_remaining = (int16_t)R->n_tiles;
    for (int t = 0; t < R->n_tiles; t++) { S->pile[t] = (int16_t)t; S->pile_pos[t] = (int16_t)t; }
    S->drawn = -1;
    for (int c = 0; c < R->cell_count; c++) { S->status[c] = ZC_WALL; S->cell_node[c] = -1; S->cell_tab[c] = -1; }
    for (int i = 0; i < R->n_interior; i++) S->status[R->interior[i]] = ZC_EMPTY;
    S->n_nodes = 0;
    for (int s = 0; s < R->n_starts; s++) {
        const zc_start *st = &R->starts[s];
        int base = S->n_nodes;
        for (int f = 0; f < st->n_features; f++) {
            int id = zc_add_node(S, st->kind[f], R->space_of[st->cell], st->stocks[f], st->shrines[f], st->nests[f]);
            S->nodes[id].open = st->open[f];
        }
        S->status[st->cell] = ZC_TAKEN;
        S->cell_node[st->cell] = (int16_t)base;
        int tab = R->n_tiles * 4 + s;
        S->cell_tab[st->cell] = (int16_t)tab;
        int middle = 3 * ((st->side + 2) % 4) + 1;
        S->need_mask[st->faces] |= (uint8_t)(1 << st->side);
        if (R->interior_index[st->faces] >= 0) zc_bits_set(&S->frontier, R->interior_index[st->faces]);
        if (st->kind[R->tables[tab][middle]] == ZC_ROAD) S->need_road[st->faces] |= (uint8_t)(1 << st->side);
    }
}

/* ------------------------------------------------------------------------------------- tokens */

/* tokens.usable_tokens (Z19, C3) */
static inline int zc_usable(const zc_rules *R, const zc_state *S, int kind) {
    int p = S->current, n = 0;
    for (int i = 0; i < S->n_held[p]; i++)
        if (S->held_kind[p][i] == kind && (R->same_turn || S->held_turn[p][i] < S->turn)) n++;
    return n;
}

static inline int zc_held(const zc_state *S, int player, int kind) {
    int n = 0;
    for (int i = 0; i < S->n_held[player]; i++) if (S->held_kind[player][i] == kind) n++;
    return n;
}

static int zc_spend(const zc_rules *R, zc_state *S, int kind) {
    int p = S->current;
    for (int i = 0; i < S->n_held[p]; i++) {
        if (S->held_kind[p][i] == kind && (R->same_turn || S->held_turn[p][i] < S->turn)) {
            for (int j = i + 1; j < S->n_held[p]; j++) {
                S->held_kind[p][j - 1] = S->held_kind[p][j];
                S->held_turn[p][j - 1] = S->held_turn[p][j];
            }
            S->n_held[p]--;
            return 0;
        }
    }
    return -1;
}

static inline int zc_doubling_kind(int kind) {
    return kind == ZC_HOUSE ? ZC_HOUSE_X2 : kind == ZC_PIGSTY ? ZC_PIGSTY_X2 : 0;
}

/* tokens.doubling_token: the x2 token the current player may use on the head of the queue, 0 if none */
static int zc_doubling_token(const zc_rules *R, const zc_state *S) {
    int root = S->queue[0];
    int owner = zc_owner(S, root);
    int token = zc_doubling_kind(S->nodes[root].kind);
    if (!token || owner != S->current || (S->nodes[root].prince >> owner & 1)) return 0;
    return zc_usable(R, S, token) ? token : 0;
}

/* ------------------------------------------------------------------------------------ legality */

/* legality.placements_for: writes cell * 4 + rotation, in the Python order (the interior's reading order) */
static int zc_placements(const zc_rules *R, const zc_state *S, int tile, int16_t *out) {
    const uint8_t *road = R->tiles[tile].road_sides;
    int n = 0;
    uint64_t words[2] = {S->frontier.lo, S->frontier.hi};
    for (int w = 0; w < 2; w++) {
        uint64_t bits = words[w];
        while (bits) {
            int cell = R->interior[64 * w + __builtin_ctzll(bits)];
            bits &= bits - 1;
            int mask = S->need_mask[cell], want = S->need_road[cell];
            for (int r = 0; r < 4; r++)
                if (((road[r] ^ want) & mask) == 0) out[n++] = (int16_t)(cell * 4 + r);
        }
    }
    return n;
}

static int zc_has_placement(const zc_rules *R, const zc_state *S, int tile) {
    const uint8_t *road = R->tiles[tile].road_sides;
    uint64_t words[2] = {S->frontier.lo, S->frontier.hi};
    for (int w = 0; w < 2; w++) {
        uint64_t bits = words[w];
        while (bits) {
            int cell = R->interior[64 * w + __builtin_ctzll(bits)];
            bits &= bits - 1;
            int mask = S->need_mask[cell], want = S->need_road[cell];
            for (int r = 0; r < 4; r++) if (((road[r] ^ want) & mask) == 0) return 1;
        }
    }
    return 0;
}

/* legality._free_features: (feature, root) of each region of the new tile without figures */
static int zc_free_features(const zc_rules *R, zc_state *S, int8_t *features, int16_t *roots) {
    int cell = S->placed_cell[S->n_placed - 1], tile = S->placed_tile[S->n_placed - 1];
    int base = S->cell_node[cell], n = 0;
    int16_t seen[ZC_MAX_FEATURES];
    int n_seen = 0;
    for (int i = 0; i < R->tiles[tile].n_features; i++) {
        int root = zc_find(S, base + i);
        if (zc_in_list(seen, n_seen, root)) continue;
        seen[n_seen++] = (int16_t)root;
        if (S->nodes[root].fol0 + S->nodes[root].fol1 == 0) { features[n] = (int8_t)i; roots[n] = (int16_t)root; n++; }
    }
    return n;
}

/* legality.order_group (Z15) */
static int zc_order_group(const zc_state *S, int16_t *group) {
    if (!S->n_queue) return 0;
    int owner = zc_owner(S, S->queue[0]);
    if (owner < 0) return 0;
    int n = 0;
    for (int i = 0; i < S->n_queue; i++) {
        if (zc_owner(S, S->queue[i]) != owner) break;
        group[n++] = S->queue[i];
    }
    return n;
}

/* legality.legal_actions: the action indices, in the Python order */
static int zc_legal(const zc_rules *R, zc_state *S, int *out) {
    int n = 0;
    switch (S->phase) {
    case ZC_PLACE: {
        int16_t places[ZC_MAX_INTERIOR * 4];
        int k = zc_placements(R, S, S->drawn, places);
        for (int i = 0; i < k; i++) out[n++] = R->cell_place[places[i] >> 2] + (places[i] & 3);
        return n;
    }
    case ZC_FOLLOWER: {
        int8_t features[ZC_MAX_FEATURES];
        int16_t roots[ZC_MAX_FEATURES];
        int k = zc_free_features(R, S, features, roots);
        int p = S->current;
        for (int i = 0; i < k; i++) {
            int base = ZC_FOLLOWER_BASE + 3 * features[i];
            if (S->supply[p]) out[n++] = base + ZC_FOLLOWER_PIECE;
            if (!zc_in_list(S->completed, S->n_completed, roots[i])) {
                if (S->princes[p]) out[n++] = base + ZC_PRINCE;
                if (S->falconers[p]) out[n++] = base + ZC_FALCONER;
            }
        }
        out[n++] = ZC_PASS;
        return n;
    }
    case ZC_ORDER: {
        int16_t group[ZC_MAX_QUEUE];
        int k = zc_order_group(S, group);
        for (int i = 0; i < k; i++) out[n++] = ZC_ORDER_BASE + i;
        return n;
    }
    case ZC_DOUBLE: {
        int token = zc_doubling_token(R, S);
        if (token) out[n++] = ZC_USE_BASE + token - 1;
        out[n++] = ZC_DECLINE;
        return n;
    }
    case ZC_EXTRA:
        out[n++] = ZC_USE_BASE + ZC_EXTRA_TURN - 1;
        out[n++] = ZC_DECLINE;
        return n;
    default:
        return 0;
    }
}

static inline int zc_is_chance(const zc_state *S) { return S->phase == ZC_DRAW_PHASE || S->phase == ZC_REVEAL_PHASE; }

/* ------------------------------------------------------------------------------------- scoring */

/* Rates.chapel_points (F2) */
static inline int zc_chapel_points(const zc_rates *T, int tiles) {
    return T->chapel[tiles < T->n_chapel - 1 ? tiles : T->n_chapel - 1];
}

/* Rates.complete_points (Z14, F2): a complete road, house, pigsty or chapel before a prince or a x2 token */
static inline int zc_complete_points(const zc_rates *T, int kind, int tiles, int stocks) {
    if (kind == ZC_CHAPEL) return zc_chapel_points(T, tiles);
    if (kind == ZC_ROAD) return tiles * (stocks ? T->road_with_stocks : T->road);
    return tiles * (kind == ZC_HOUSE ? T->house : T->pigsty);
}

/* scoring._base_points (Z14, F2, F4): count, rate, multiplier, detail flags of a complete region */
static inline void zc_base_points(const zc_rates *T, const zc_state *S, int root, int owner, int *count, int *rate,
                                  int *mult, int *flags, int *size) {
    const zc_node *n = &S->nodes[root];
    int tiles = zc_bits_count(n->cells);
    *flags = 0; *size = tiles;
    if (n->kind == ZC_CHAPEL) {
        *count = 1; *rate = zc_chapel_points(T, tiles); *flags |= ZC_D_CHAPEL;
    } else {
        *count = tiles;
        if (n->kind == ZC_ROAD) { *rate = n->stocks ? T->road_with_stocks : T->road; if (n->stocks) *flags |= ZC_D_STOCKS; }
        else *rate = n->kind == ZC_HOUSE ? T->house : T->pigsty;
    }
    *mult = 1;
    if (owner >= 0 && (n->prince >> owner & 1)) { *mult = T->prince_factor; *flags |= ZC_D_PRINCE; }
}

/* scoring.advance_marker (F8) */
static inline int32_t zc_advance(int32_t score, int *on_gate, int points, const uint8_t *gates) {
    if (!gates) return score + points;
    if (*on_gate && points > 0) { score++; points--; *on_gate = 0; }
    while (points > 0) {
        if (gates[score % ZC_TRACK]) { *on_gate = 1; return score; }
        score++; points--;
    }
    return score;
}

/* The order question (Z15): scoring._order_matters and _order_outcomes. */
typedef struct { uint64_t *v; int n, cap; } zc_set;

static int zc_set_add(zc_set *s, uint64_t x) {
    for (int i = 0; i < s->n; i++) if (s->v[i] == x) return 0;
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 64;
        uint64_t *grown = (uint64_t *)realloc(s->v, (size_t)cap * sizeof(uint64_t));
        if (!grown) return -1;
        s->v = grown; s->cap = cap;
    }
    s->v[s->n++] = x;
    return 0;
}

typedef struct {
    const zc_rules *R;
    int n, same_turn;
    int points[ZC_MAX_QUEUE], doubling[ZC_MAX_QUEUE];
    const uint8_t *gates;
    zc_set *out;
} zc_walk_ctx;

static void zc_walk(zc_walk_ctx *c, int i, int32_t score, int on_gate, uint32_t towers, int house, int pigsty,
                    const int8_t *pool, uint32_t emptied, int others) {
    if (i == c->n) {
        uint64_t key = (uint64_t)(uint32_t)score | (uint64_t)(on_gate ? 1 : 0) << 20 | (uint64_t)emptied << 21
                       | (uint64_t)house << 37 | (uint64_t)pigsty << 43 | (uint64_t)others << 49;
        zc_set_add(c->out, key);
        return;
    }
    int token = c->doubling[i];
    int usable = token == ZC_HOUSE_X2 ? house : token == ZC_PIGSTY_X2 ? pigsty : 0;
    int choices = 1 + (token && usable ? 1 : 0);
    for (int ch = 0; ch < choices; ch++) {
        int gain = ch ? c->R->rates.token_factor * c->points[i] : c->points[i];
        int h = house, pg = pigsty;
        if (gain != c->points[i]) { if (token == ZC_HOUSE_X2) h--; else pg--; }
        int gated = on_gate;
        int32_t moved = zc_advance(score, &gated, gain, c->gates);
        int tower = c->R->tower_at[moved % ZC_TRACK];
        if (moved == score || gated || tower < 0 || !(towers >> tower & 1)) {
            zc_walk(c, i + 1, moved, gated, towers, h, pg, pool, emptied, others);
            continue;
        }
        uint32_t left = towers & ~(1u << tower), now = emptied | 1u << tower;
        if (!c->same_turn) { zc_walk(c, i + 1, moved, gated, left, h, pg, pool, now, others + 1); continue; }
        for (int kind = ZC_HOUSE_X2; kind <= ZC_PIGSTY_X2; kind++) {
            if (!pool[kind]) continue;
            int8_t revealed[10];
            memcpy(revealed, pool, 10);
            revealed[kind]--;
            zc_walk(c, i + 1, moved, gated, left, h + (kind == ZC_HOUSE_X2), pg + (kind == ZC_PIGSTY_X2), revealed,
                    now, others);
        }
        int total = 0;
        for (int k = 1; k <= 9; k++) total += pool[k];
        if (total > pool[ZC_HOUSE_X2] + pool[ZC_PIGSTY_X2])
            zc_walk(c, i + 1, moved, gated, left, h, pg, pool, now, others + 1);
    }
}

static int zc_cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Heap's algorithm over rest[k..]: every order of the rest after ``first``. */
static void zc_permute(zc_walk_ctx *c, const zc_state *S, int owner, int16_t *order, int k, uint32_t towers,
                       int house, int pigsty) {
    if (k == c->n) {
        for (int i = 0; i < c->n; i++) {
            int count, rate, mult, flags, size, root = order[i];
            zc_base_points(&c->R->rates, S, root, owner, &count, &rate, &mult, &flags, &size);
            c->points[i] = count * rate * mult;
            int token = zc_doubling_kind(S->nodes[root].kind);
            int eligible = owner == S->current && token && !(S->nodes[root].prince >> owner & 1);
            c->doubling[i] = eligible ? token : 0;
        }
        zc_walk(c, 0, S->scores[owner], S->on_gate[owner], towers, house, pigsty, S->token_pool, 0, 0);
        return;
    }
    for (int i = k; i < c->n; i++) {
        int16_t t = order[k]; order[k] = order[i]; order[i] = t;
        zc_permute(c, S, owner, order, k + 1, towers, house, pigsty);
        t = order[k]; order[k] = order[i]; order[i] = t;
    }
}

static int zc_order_matters(const zc_rules *R, const zc_state *S) {
    int16_t group[ZC_MAX_QUEUE];
    int g = zc_order_group(S, group);
    if (g < 2) return 0;
    int owner = zc_owner(S, group[0]);
    zc_walk_ctx c;
    zc_zero(&c, sizeof c);
    c.R = R; c.n = g;
    c.same_turn = owner == S->current && R->same_turn;
    c.gates = R->gate_guard ? R->gate_after : NULL;
    uint32_t towers = 0;
    for (int t = 0; t < R->n_towers; t++) if (S->tower_token[t]) towers |= 1u << t;
    int house = zc_usable(R, S, ZC_HOUSE_X2), pigsty = zc_usable(R, S, ZC_PIGSTY_X2);
    zc_set first = {0}, other = {0};
    int differs = 0;
    for (int f = 0; f < g && !differs; f++) {
        int16_t order[ZC_MAX_QUEUE];
        int n = 0;
        order[n++] = group[f];
        for (int i = 0; i < g; i++) if (i != f) order[n++] = group[i];
        zc_set *reach = f == 0 ? &first : &other;
        reach->n = 0;
        c.out = reach;
        zc_permute(&c, S, owner, order, 1, towers, house, pigsty);
        if (f == 0) { qsort(first.v, (size_t)first.n, sizeof(uint64_t), zc_cmp_u64); continue; }
        qsort(other.v, (size_t)other.n, sizeof(uint64_t), zc_cmp_u64);
        if (other.n != first.n || memcmp(other.v, first.v, (size_t)first.n * sizeof(uint64_t))) differs = 1;
    }
    free(first.v);
    free(other.v);
    return differs;
}

/* scoring._move_marker (Z16, F8): returns the points gained */
static int zc_move_marker(const zc_rules *R, zc_state *S, int player, int points) {
    int32_t before = S->scores[player], score;
    if (R->gate_guard) {
        int on_gate = S->on_gate[player];
        score = zc_advance(before, &on_gate, points, R->gate_after);
        S->on_gate[player] = (int8_t)on_gate;
    } else {
        score = before + points;
    }
    S->scores[player] = score;
    if (score != before && !S->on_gate[player]) {
        int tower = R->tower_at[score % ZC_TRACK];
        if (tower >= 0 && S->tower_token[tower]) {
            S->tower_token[tower] = 0;
            S->pending[S->n_pending++] = (int8_t)player;
        }
    }
    return score - before;
}

/* scoring._score_head (Z13, Z14, Z18, F2, F4, F5) */
static void zc_score_head(const zc_rules *R, zc_state *S, zc_log *L, int doubled_by) {
    int root = S->queue[0];
    memmove(S->queue, S->queue + 1, (size_t)(S->n_queue - 1) * sizeof(int16_t));
    S->n_queue--;
    S->head_chosen = 0;
    int owner = zc_owner(S, root);
    zc_node *n = &S->nodes[root];
    int count, rate, mult, flags, size;
    zc_base_points(&R->rates, S, root, owner, &count, &rate, &mult, &flags, &size);
    if (doubled_by) mult *= R->rates.token_factor;
    if (owner < 0) {
        if (n->fol0 + n->fol1 == 0) return;
        if (L) {
            zc_item it = zc_new_item(n->kind, -1, count, rate, 0, S->turn);
            it.cells = n->cells; it.flags = (int8_t)flags; it.chapel_size = (int16_t)size;
            zc_log_add(L, it);
        }
        return;
    }
    int points = count * rate * mult;
    int nests = n->nests + ((n->falconer >> owner & 1) ? R->rates.falconer_nests : 0);
    int gained = zc_move_marker(R, S, owner, points);
    S->nests[owner] += (int16_t)nests;
    if (L) {
        zc_item it = zc_new_item(n->kind, owner, count, rate, gained, S->turn);
        it.cells = n->cells; it.flags = (int8_t)flags; it.chapel_size = (int16_t)size; it.token = (int8_t)doubled_by;
        it.multiplier = (int8_t)mult; it.lost = (int16_t)(points - gained); it.nests = (int16_t)nests;
        zc_log_add(L, it);
    }
    int tiles = zc_bits_count(n->cells);
    if (n->kind == ZC_HOUSE && tiles > S->family_size[owner]) {
        S->family_size[owner] = (int16_t)tiles;
        S->family_cells[owner] = n->cells;
    }
}

/* scoring._return_followers (Z17) */
static void zc_return_followers(zc_state *S) {
    if (!S->n_completed) return;
    int16_t done[ZC_MAX_QUEUE];
    int n_done = 0;
    for (int i = 0; i < S->n_completed; i++) {
        int r = zc_find(S, S->completed[i]);
        if (!zc_in_list(done, n_done, r)) done[n_done++] = (int16_t)r;
    }
    int keep = 0;
    for (int i = 0; i < S->n_followers; i++) {
        zc_follower f = S->followers[i];
        int root = zc_find(S, f.node);
        if (!zc_in_list(done, n_done, root)) { S->followers[keep++] = f; continue; }
        zc_node *n = &S->nodes[root];
        if (f.player == 0) n->fol0--; else n->fol1--;
        if (f.piece == ZC_PRINCE) { n->prince &= (uint8_t)~(1u << f.player); S->princes[f.player]++; }
        else if (f.piece == ZC_FALCONER) { n->falconer &= (uint8_t)~(1u << f.player); S->falconers[f.player]++; }
        else S->supply[f.player]++;
    }
    S->n_followers = (int8_t)keep;
    S->n_completed = 0;
}

/* scoring.largest_empty_area (Z20), or ``cap`` as soon as an area reaches it (the learned value counts areas only
 * up to a size, and the first area of an early board is most of it) */
static int zc_largest_empty_area_upto(const zc_rules *R, const zc_state *S, int cap) {
    uint8_t seen[ZC_MAX_CELLS];
    int16_t stack[ZC_MAX_CELLS];
    memset(seen, 0, (size_t)R->cell_count);
    int best = 0;
    for (int i = 0; i < R->n_interior; i++) {
        int start = R->interior[i];
        if (S->status[start] != ZC_EMPTY || seen[start]) continue;
        seen[start] = 1;
        int top = 0, size = 0;
        stack[top++] = (int16_t)start;
        while (top) {
            int c = stack[--top];
            if (++size >= cap) return cap;
            for (int k = 0; k < 4; k++) {
                int m = c + R->offsets[k];
                if (S->status[m] == ZC_EMPTY && !seen[m]) { seen[m] = 1; stack[top++] = (int16_t)m; }
            }
        }
        if (size > best) best = size;
    }
    return best;
}

static int zc_largest_empty_area(const zc_rules *R, const zc_state *S) {
    return zc_largest_empty_area_upto(R, S, ZC_MAX_CELLS);
}

typedef struct { int root, part, value, index; zc_bits cells; } zc_ranked;

/* sort by (-value, place key), as the Python end tokens do */
static void zc_rank(zc_ranked *a, int n) {
    for (int i = 1; i < n; i++) {
        zc_ranked x = a[i];
        int j = i - 1;
        while (j >= 0) {
            int c = a[j].value != x.value ? (a[j].value < x.value ? 1 : -1) : zc_key_cmp(a[j].cells, a[j].part, x.cells, x.part);
            if (c <= 0) break;
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
}

/* scoring.final_items and _finish (Z20, Z19 end tokens, C4, F4, F6) */
static void zc_finish(const zc_rules *R, zc_state *S, zc_log *L) {
    for (int t = 0; t < R->n_towers; t++) S->tower_token[t] = 0;
    int turn = S->turn;
    int32_t gain[2] = {0, 0};
    /* meadows with a monk, by place */
    zc_ranked meadows[ZC_MAX_FOLLOWERS];
    int n_meadows = 0;
    for (int i = 0; i < S->n_followers; i++) {
        if (S->nodes[S->followers[i].node].kind != ZC_MEADOW) continue;
        int root = zc_find(S, S->followers[i].node);
        int dup = 0;
        for (int j = 0; j < n_meadows; j++) if (meadows[j].root == root) dup = 1;
        if (dup) continue;
        zc_ranked m;
        m.root = root; m.value = 0;
        zc_place_key(R, S, root, &m.cells, &m.part);
        meadows[n_meadows++] = m;
    }
    zc_rank(meadows, n_meadows);
    /* token 4: on the owner's meadows worth most */
    uint8_t upgraded[ZC_MAX_FOLLOWERS];
    memset(upgraded, 0, sizeof upgraded);
    for (int p = 0; p < 2; p++) {
        int held = zc_held(S, p, ZC_MEADOW_4);
        if (!held) continue;
        zc_ranked mine[ZC_MAX_FOLLOWERS];
        int n = 0;
        for (int j = 0; j < n_meadows; j++) {
            int r = meadows[j].root;
            if (zc_owner(S, r) != p || !S->nodes[r].shrines) continue;
            mine[n] = meadows[j];
            mine[n].value = S->nodes[r].shrines * ((S->nodes[r].prince >> p & 1) ? R->rates.prince_factor : 1);
            mine[n].index = j;
            n++;
        }
        zc_rank(mine, n);
        for (int j = 0; j < n && j < held; j++) upgraded[mine[j].index] = 1;
    }
    for (int j = 0; j < n_meadows; j++) {
        int root = meadows[j].root, owner = zc_owner(S, root);
        int shrines = S->nodes[root].shrines, rate = R->rates.shrine, mult = 1, flags = 0, token = 0;
        if (owner >= 0) {
            if (S->nodes[root].prince >> owner & 1) { mult = R->rates.prince_factor; flags |= ZC_D_PRINCE; }
            if (upgraded[j]) { rate = R->rates.meadow_token; token = ZC_MEADOW_4; }
        }
        int points = owner >= 0 ? shrines * rate * mult : 0;
        if (owner >= 0) gain[owner] += points;
        if (L) {
            zc_item it = zc_new_item(ZC_MEADOW, owner, shrines, rate, points, turn);
            it.cells = S->nodes[root].cells; it.flags = (int8_t)flags; it.token = (int8_t)token;
            it.multiplier = (int8_t)mult; it.final = 1;
            zc_log_add(L, it);
        }
    }
    int area = zc_largest_empty_area(R, S);
    int sizes[2];
    for (int p = 0; p < 2; p++) {
        sizes[p] = S->family_size[p];
        if (sizes[p]) sizes[p] += R->rates.family_token_tiles * zc_held(S, p, ZC_FAMILY_PLUS_2);
    }
    int owner = zc_majority(sizes[0], sizes[1]), worth = area * R->rates.empty_space;
    if (owner >= 0) gain[owner] += worth;
    if (L) {
        zc_item it = zc_new_item(ZC_R_FAMILY, owner, area, R->rates.empty_space, owner >= 0 ? worth : 0, turn);
        if (owner >= 0) {
            it.cells = S->family_cells[owner];
            if (sizes[owner] != S->family_size[owner]) it.token = ZC_FAMILY_PLUS_2;
        }
        it.final = 1;
        zc_log_add(L, it);
    }
    for (int p = 0; p < 2; p++) {
        static const int open_tokens[3] = {ZC_OPEN_HOUSE, ZC_OPEN_PIGSTY, ZC_OPEN_ROAD};
        static const int open_kinds[3] = {ZC_HOUSE, ZC_PIGSTY, ZC_ROAD};
        const int open_rates[3] = {R->rates.open_house, R->rates.open_pigsty, R->rates.open_road};
        for (int t = 0; t < 3; t++) {
            int held = zc_held(S, p, open_tokens[t]);
            if (!held) continue;
            zc_ranked options[ZC_MAX_NODES];
            int n = 0;
            for (int r = 0; r < S->n_nodes; r++) {
                const zc_node *node = &S->nodes[r];
                if (node->parent != r || node->kind != open_kinds[t] || node->open == 0 || zc_owner(S, r) != p) continue;
                int rate = open_rates[t];
                if (open_kinds[t] == ZC_ROAD && R->road_token_stocks && node->stocks) rate = R->rates.open_road_with_stocks;
                int mult = (node->prince >> p & 1) ? R->rates.prince_factor : 1;
                options[n].root = r;
                options[n].value = zc_bits_count(node->cells) * rate * mult;
                zc_place_key(R, S, r, &options[n].cells, &options[n].part);
                n++;
            }
            zc_rank(options, n);
            for (int j = 0; j < n && j < held; j++) {
                const zc_node *node = &S->nodes[options[j].root];
                int rate = open_rates[t], flags = ZC_D_UNFINISHED;
                if (open_kinds[t] == ZC_ROAD && R->road_token_stocks && node->stocks) {
                    rate = R->rates.open_road_with_stocks; flags |= ZC_D_STOCKS;
                }
                int mult = (node->prince >> p & 1) ? R->rates.prince_factor : 1;
                if (node->prince >> p & 1) flags |= ZC_D_PRINCE;
                int tiles = zc_bits_count(node->cells);
                gain[p] += options[j].value;
                if (L) {
                    zc_item it = zc_new_item(open_kinds[t], p, tiles, rate, options[j].value, turn);
                    it.cells = node->cells; it.flags = (int8_t)flags; it.token = (int8_t)open_tokens[t];
                    it.multiplier = (int8_t)mult; it.final = 1;
                    zc_log_add(L, it);
                }
            }
        }
        int fives = zc_held(S, p, ZC_FIVE_POINTS);
        for (int j = 0; j < fives; j++) {
            gain[p] += R->rates.five_points;
            if (L) {
                zc_item it = zc_new_item(ZC_R_TOKEN, p, 1, R->rates.five_points, R->rates.five_points, turn);
                it.token = ZC_FIVE_POINTS; it.final = 1;
                zc_log_add(L, it);
            }
        }
    }
    if (R->sokol) {
        int o = zc_majority(S->nests[0], S->nests[1]);
        if (o >= 0) gain[o] += worth;
        if (L) {
            zc_item it = zc_new_item(ZC_R_NESTS, o, area, R->rates.empty_space, o >= 0 ? worth : 0, turn);
            it.final = 1;
            zc_log_add(L, it);
        }
    }
    S->scores[0] += gain[0];
    S->scores[1] += gain[1];
    S->drawn = -1;
    S->n_queue = 0;
    S->phase = ZC_OVER;
}

/* scoring._end_turn */
static void zc_end_turn(const zc_rules *R, zc_state *S, zc_log *L) {
    if (!S->n_remaining) { zc_finish(R, S, L); return; }
    S->current = (int8_t)(1 - S->current);
    S->turn++;
    S->phase = ZC_DRAW_PHASE;
}

/* scoring._continue_scoring */
static void zc_continue_scoring(const zc_rules *R, zc_state *S, zc_log *L) {
    for (;;) {
        if (S->n_pending) { S->phase = ZC_REVEAL_PHASE; return; }
        if (!S->n_queue) break;
        if (!S->head_chosen && zc_order_matters(R, S)) { S->phase = ZC_ORDER; return; }
        if (zc_doubling_token(R, S)) { S->phase = ZC_DOUBLE; return; }
        zc_score_head(R, S, L, 0);
    }
    zc_return_followers(S);
    if (S->n_remaining && zc_usable(R, S, ZC_EXTRA_TURN)) { S->phase = ZC_EXTRA; return; }
    zc_end_turn(R, S, L);
}

/* scoring._start_scoring: the current player's regions first, then the opponent's, then the others (Z15) */
static void zc_start_scoring(const zc_rules *R, zc_state *S, zc_log *L) {
    int n = 0;
    for (int g = 0; g < 3; g++) {
        for (int i = 0; i < S->n_completed; i++) {
            int root = zc_find(S, S->completed[i]);
            int owner = zc_owner(S, root);
            int group = owner == S->current ? 0 : owner >= 0 ? 1 : 2;
            if (group == g) S->queue[n++] = (int16_t)root;
        }
    }
    S->n_queue = (int8_t)n;
    S->head_chosen = 0;
    zc_continue_scoring(R, S, L);
}

/* ------------------------------------------------------------------------------------ the turn */

/* state._place */
static void zc_place(const zc_rules *R, zc_state *S, int cell, int rotation) {
    int tile_index = S->drawn;
    const zc_tile *tile = &R->tiles[tile_index];
    int tab = tile_index * 4 + rotation;
    const int8_t *table = R->tables[tab];
    int base = S->n_nodes, space = R->space_of[cell];
    for (int f = 0; f < tile->n_features; f++)
        zc_add_node(S, tile->kind[f], space, tile->stocks[f], tile->shrines[f], tile->nests[f]);
    S->status[cell] = ZC_TAKEN;
    S->cell_node[cell] = (int16_t)base;
    S->cell_tab[cell] = (int16_t)tab;
    S->need_mask[cell] = 0;
    int here = R->interior_index[cell];
    if (here < 64) S->frontier.lo &= ~(1ULL << here); else S->frontier.hi &= ~(1ULL << (here - 64));
    S->placed_cell[S->n_placed] = (int16_t)cell;
    S->placed_tile[S->n_placed] = (uint8_t)tile_index;
    S->placed_rot[S->n_placed] = (uint8_t)rotation;
    S->n_placed++;
    S->drawn = -1;
    int16_t touched[ZC_MAX_FEATURES + 12];
    int n_touched = 0;
    for (int f = 0; f < tile->n_features; f++) touched[n_touched++] = (int16_t)(base + f);
    zc_node *nodes = S->nodes;
    for (int side = 0; side < 4; side++) {
        int neighbour = cell + R->offsets[side];
        int state = S->status[neighbour];
        if (state == ZC_WALL) continue;
        if (state == ZC_EMPTY) {
            for (int s = 3 * side; s < 3 * side + 3; s++) nodes[zc_find(S, base + table[s])].open++;
            int back = (side + 2) % 4;
            S->need_mask[neighbour] |= (uint8_t)(1 << back);
            zc_bits_set(&S->frontier, R->interior_index[neighbour]);
            if (nodes[base + table[3 * side + 1]].kind == ZC_ROAD) S->need_road[neighbour] |= (uint8_t)(1 << back);
            continue;
        }
        int their_base = S->cell_node[neighbour];
        const int8_t *their_table = R->tables[S->cell_tab[neighbour]];
        for (int i = 0; i < 3; i++) {
            int s = 3 * side + i;
            int facing = 3 * ((side + 2) % 4) + (2 - i);
            int their_feature = their_table[facing];
            if (their_feature < 0) continue;
            int theirs = their_base + their_feature;
            int root = zc_find(S, theirs);
            nodes[root].open--;
            int mine = base + table[s];
            if (nodes[mine].kind == nodes[theirs].kind) zc_union(S, mine, root);
            else touched[n_touched++] = (int16_t)root;
        }
    }
    int n = 0;
    for (int i = 0; i < n_touched; i++) {
        int root = zc_find(S, touched[i]);
        if (nodes[root].open == 0 && nodes[root].kind != ZC_MEADOW && !zc_in_list(S->completed, n, root))
            S->completed[n++] = (int16_t)root;
    }
    S->n_completed = (int8_t)n;
    S->phase = ZC_FOLLOWER;
}

/* state._put_follower */
static void zc_put_follower(zc_state *S, int feature, int piece) {
    int player = S->current, cell = S->placed_cell[S->n_placed - 1];
    int node = S->cell_node[cell] + feature, root = zc_find(S, node);
    zc_node *n = &S->nodes[root];
    if (player == 0) n->fol0++; else n->fol1++;
    if (piece == ZC_PRINCE) { S->princes[player]--; n->prince |= (uint8_t)(1 << player); }
    else if (piece == ZC_FALCONER) { S->falconers[player]--; n->falconer |= (uint8_t)(1 << player); }
    else S->supply[player]--;
    zc_follower f;
    f.player = (uint8_t)player; f.piece = (uint8_t)piece; f.feature = (uint8_t)feature; f.node = (int16_t)node;
    f.cell = (int16_t)cell;
    S->followers[S->n_followers++] = f;
}

/* state._draw (Z8) */
static void zc_draw(const zc_rules *R, zc_state *S, zc_log *L, int tile) {
    zc_pile_remove(S, tile);
    S->draw_position++;
    if (zc_has_placement(R, S, tile)) { S->drawn = (int16_t)tile; S->phase = ZC_PLACE; return; }
    S->discarded[S->n_discarded++] = (uint8_t)tile;
    if (!S->n_remaining) zc_finish(R, S, L);
}

/* state._reveal */
static void zc_reveal(const zc_rules *R, zc_state *S, zc_log *L, int kind) {
    int player = S->pending[0];
    memmove(S->pending, S->pending + 1, (size_t)(S->n_pending - 1));
    S->n_pending--;
    S->token_pool[kind]--;
    int i = S->n_held[player]++;
    S->held_kind[player][i] = (uint8_t)kind;
    S->held_turn[player][i] = S->turn;
    zc_continue_scoring(R, S, L);
}

/* state.apply: trusted, checks nothing (as the Python apply); returns -1 on an action of the wrong shape */
static int zc_apply(const zc_rules *R, zc_state *S, zc_log *L, int action) {
    if (action >= ZC_REVEAL) { zc_reveal(R, S, L, action - ZC_REVEAL); return 0; }
    if (action >= ZC_DRAW) { zc_draw(R, S, L, action - ZC_DRAW); return 0; }
    if (action < ZC_FOLLOWER_BASE) {
        int cell = R->place_cell[action >> 2];
        if (cell < 0) return -1;
        zc_place(R, S, cell, action & 3);
        return 0;
    }
    if (action < ZC_PASS) {
        int k = action - ZC_FOLLOWER_BASE;
        zc_put_follower(S, k / 3, k % 3);
        zc_start_scoring(R, S, L);
        return 0;
    }
    if (action == ZC_PASS) { zc_start_scoring(R, S, L); return 0; }
    if (action < ZC_USE_BASE) {
        int16_t group[ZC_MAX_QUEUE];
        int g = zc_order_group(S, group), k = action - ZC_ORDER_BASE;
        if (k >= g) return -1;
        int root = group[k], at = 0;
        while (S->queue[at] != root) at++;
        memmove(S->queue + 1, S->queue, (size_t)at * sizeof(int16_t));
        S->queue[0] = (int16_t)root;
        S->head_chosen = 1;
        zc_continue_scoring(R, S, L);
        return 0;
    }
    if (action < ZC_DECLINE) {
        int kind = action - ZC_USE_BASE + 1;
        if (S->phase == ZC_EXTRA) {
            if (zc_spend(R, S, ZC_EXTRA_TURN)) return -1;
            S->turn++;
            S->phase = ZC_DRAW_PHASE;
        } else {
            if (zc_spend(R, S, kind)) return -1;
            zc_score_head(R, S, L, kind);
            zc_continue_scoring(R, S, L);
        }
        return 0;
    }
    if (action == ZC_DECLINE) {
        if (S->phase == ZC_EXTRA) zc_end_turn(R, S, L);
        else { zc_score_head(R, S, L, 0); zc_continue_scoring(R, S, L); }
        return 0;
    }
    return -1;
}

/* ------------------------------------------------------------------- CPython's random, exactly */

typedef struct { uint32_t mt[624]; int mti; } zc_mt;

static void zc_mt_init_genrand(zc_mt *m, uint32_t s) {
    m->mt[0] = s;
    for (int i = 1; i < 624; i++) m->mt[i] = 1812433253U * (m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) + (uint32_t)i;
    m->mti = 624;
}

/* init_genrand(19650218), the start of every init_by_array: made once by zc_init (call it before any seeding) */
static zc_mt zc_mt_base;

static void zc_init(void) { zc_mt_init_genrand(&zc_mt_base, 19650218U); }

static void zc_mt_init_by_array(zc_mt *m, const uint32_t *key, int len) {
    zc_memcpy(m, &zc_mt_base, sizeof *m);
    int i = 1, j = 0;
    for (int k = 624 > len ? 624 : len; k; k--) {
        m->mt[i] = (m->mt[i] ^ ((m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++; j++;
        if (i >= 624) { m->mt[0] = m->mt[623]; i = 1; }
        if (j >= len) j = 0;
    }
    for (int k = 623; k; k--) {
        m->mt[i] = (m->mt[i] ^ ((m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) { m->mt[0] = m->mt[623]; i = 1; }
    }
    m->mt[0] = 0x80000000U;
}

static uint32_t zc_mt_next(zc_mt *m) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    if (m->mti >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (m->mt[kk] & 0x80000000U) | (m->mt[kk + 1] & 0x7fffffffU);
            m->mt[kk] = m->mt[kk + 397] ^ (y >> 1) ^ mag01[y & 1U];
        }
        for (; kk < 623; kk++) {
            y = (m->mt[kk] & 0x80000000U) | (m->mt[kk + 1] & 0x7fffffffU);
            m->mt[kk] = m->mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 1U];
        }
        y = (m->mt[623] & 0x80000000U) | (m->mt[0] & 0x7fffffffU);
        m->mt[623] = m->mt[396] ^ (y >> 1) ^ mag01[y & 1U];
        m->mti = 0;
    }
    y = m->mt[m->mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.Random._randbelow_with_getrandbits, for n < 2**32 */
static uint32_t zc_mt_below(zc_mt *m, uint32_t n) {
    int k = 32 - __builtin_clz(n);
    uint32_t r = zc_mt_next(m) >> (32 - k);
    while (r >= n) r = zc_mt_next(m) >> (32 - k);
    return r;
}

/* SHA-512 (FIPS 180-4), for seeding from a string as random.Random(str) does */
static const uint64_t zc_sha_k[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL, 0x3956c25bf348b538ULL,
    0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL, 0xd807aa98a3030242ULL, 0x12835b0145706fbeULL,
    0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL, 0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL,
    0xc19bf174cf692694ULL, 0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL, 0x983e5152ee66dfabULL,
    0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL, 0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL,
    0x06ca6351e003826fULL, 0x142929670a0e6e70ULL, 0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL,
    0x53380d139d95b3dfULL, 0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL, 0xd192e819d6ef5218ULL,
    0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL, 0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL,
    0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL, 0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL,
    0x682e6ff3d6b2b8a3ULL, 0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL, 0xca273eceea26619cULL,
    0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL, 0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL,
    0x113f9804bef90daeULL, 0x1b710b35131c471bULL, 0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL,
    0x431d67c49c100d4cULL, 0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL};

static inline uint64_t zc_ror(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

static void zc_sha512_block(uint64_t *h, const uint8_t *p) {
    uint64_t w[80];
    for (int i = 0; i < 16; i++) {
        uint64_t x = 0;
        for (int b = 0; b < 8; b++) x = x << 8 | p[8 * i + b];
        w[i] = x;
    }
    for (int i = 16; i < 80; i++) {
        uint64_t s0 = zc_ror(w[i - 15], 1) ^ zc_ror(w[i - 15], 8) ^ (w[i - 15] >> 7);
        uint64_t s1 = zc_ror(w[i - 2], 19) ^ zc_ror(w[i - 2], 61) ^ (w[i - 2] >> 6);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 80; i++) {
        uint64_t S1 = zc_ror(e, 14) ^ zc_ror(e, 18) ^ zc_ror(e, 41);
        uint64_t ch = (e & f) ^ (~e & g);
        uint64_t t1 = hh + S1 + ch + zc_sha_k[i] + w[i];
        uint64_t S0 = zc_ror(a, 28) ^ zc_ror(a, 34) ^ zc_ror(a, 39);
        uint64_t mj = (a & b) ^ (a & c) ^ (b & c);
        uint64_t t2 = S0 + mj;
        hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

/* len < 112 bytes (one or two blocks): all our seed strings are short */
static void zc_sha512(const uint8_t *msg, int len, uint8_t *out) {
    uint64_t h[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
                     0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
    uint8_t buf[256];
    memset(buf, 0, sizeof buf);
    memcpy(buf, msg, (size_t)len);
    buf[len] = 0x80;
    int total = len + 1 + 16 <= 128 ? 128 : 256;
    uint64_t bits = (uint64_t)len * 8;
    for (int b = 0; b < 8; b++) buf[total - 1 - b] = (uint8_t)(bits >> (8 * b));
    for (int off = 0; off < total; off += 128) zc_sha512_block(h, buf + off);
    for (int i = 0; i < 8; i++) for (int b = 0; b < 8; b++) out[8 * i + b] = (uint8_t)(h[i] >> (56 - 8 * b));
}

/* random.Random(text): the seed is int.from_bytes(text + sha512(text)), split into 32-bit words */
static void zc_mt_seed_text(zc_mt *m, const char *text) {
    uint8_t bytes[256];
    int len = (int)strlen(text);
    if (len > 100) len = 100;
    memcpy(bytes, text, (size_t)len);
    zc_sha512((const uint8_t *)text, len, bytes + len);
    int total = len + 64;
    int lead = 0; /* big-endian: skip leading zero bytes, as the integer does */
    while (lead < total - 1 && bytes[lead] == 0) lead++;
    int used = total - lead;
    int bits = used * 8 - __builtin_clz((unsigned)bytes[lead]) + 24;
    int words = bits == 0 ? 1 : (bits - 1) / 32 + 1;
    uint32_t key[64];
    memset(key, 0, sizeof key);
    for (int i = 0; i < used; i++) { /* byte i from the least significant end */
        uint8_t byte = bytes[total - 1 - i];
        key[i / 4] |= (uint32_t)byte << (8 * (i % 4));
    }
    zc_mt_init_by_array(m, key, words);
}

/* zamek.castle.seeding.SeededChance: the tile order and the token order of a seed */
typedef struct {
    int n_tiles;
    int16_t tile_order[ZC_MAX_TILES];
    uint8_t token_order[18];
} zc_seeded;

static void zc_seeded_init(zc_seeded *c, int n_tiles, long long seed) {
    char text[64];
    zc_mt m;
    c->n_tiles = n_tiles;
    for (int i = 0; i < n_tiles; i++) c->tile_order[i] = (int16_t)i;
    snprintf(text, sizeof text, "zamek-tiles:%lld", seed);
    zc_mt_seed_text(&m, text);
    for (int i = n_tiles - 1; i > 0; i--) {
        int j = (int)zc_mt_below(&m, (uint32_t)(i + 1));
        int16_t t = c->tile_order[i]; c->tile_order[i] = c->tile_order[j]; c->tile_order[j] = t;
    }
    for (int i = 0; i < 18; i++) c->token_order[i] = (uint8_t)(i / 2 + 1);
    snprintf(text, sizeof text, "zamek-tokens:%lld", seed);
    zc_mt_seed_text(&m, text);
    for (int i = 17; i > 0; i--) {
        int j = (int)zc_mt_below(&m, (uint32_t)(i + 1));
        uint8_t t = c->token_order[i]; c->token_order[i] = c->token_order[j]; c->token_order[j] = t;
    }
}

static void zc_player_rng(zc_mt *m, long long seed, int seat) {
    char text[64];
    snprintf(text, sizeof text, "zamek-player:%lld:%d", seed, seat);
    zc_mt_seed_text(m, text);
}

/* SeededChance.outcome: the chance outcome due now, as an action */
static int zc_seeded_outcome(const zc_rules *R, const zc_state *S, const zc_seeded *c) {
    if (S->phase == ZC_DRAW_PHASE) {
        if (R->n_draw_order >= 0) return ZC_DRAW + R->draw_order[S->draw_position];
        for (int i = 0; i < c->n_tiles; i++) {
            int t = c->tile_order[i];
            if (S->pile_pos[t] >= 0) return ZC_DRAW + t;
        }
        return -1;
    }
    if (S->phase == ZC_REVEAL_PHASE) {
        int passed[10] = {0};
        for (int i = 0; i < 18; i++) {
            int kind = c->token_order[i];
            if (passed[kind] >= 2 - S->token_pool[kind]) return ZC_REVEAL + kind;
            passed[kind]++;
        }
    }
    return -1;
}

/* --------------------------------------------------------------------------------- playouts */

typedef struct { int32_t scores[2]; int32_t actions, placed, discarded, first_player; } zc_outcome;

/* Play on to the end with the seeding convention of ``seed`` (chance) and random players whose choices are
 * random.Random("zamek-player:seed:P").choice(legal_actions): from the start of a game, exactly
 * zamek.castle.runner.play_game(seed). Returns the actions played, or -1 on an error. */
static int zc_playout(const zc_rules *R, zc_state *S, long long seed, zc_outcome *out) {
    zc_seeded chance;
    zc_mt rng[2];
    zc_seeded_init(&chance, R->n_tiles, seed);
    zc_player_rng(&rng[0], seed, 0);
    zc_player_rng(&rng[1], seed, 1);
    int legal[ZC_MAX_LEGAL];
    int actions = 0;
    while (S->phase != ZC_OVER) {
        int action;
        if (zc_is_chance(S)) {
            action = zc_seeded_outcome(R, S, &chance);
        } else {
            int n = zc_legal(R, S, legal);
            if (n <= 0) return -1;
            action = legal[zc_mt_below(&rng[(int)S->current], (uint32_t)n)];
        }
        if (action < 0 || zc_apply(R, S, NULL, action) < 0) return -1;
        actions++;
    }
    if (out) {
        out->scores[0] = S->scores[0]; out->scores[1] = S->scores[1];
        out->actions = actions; out->placed = S->n_placed; out->discarded = S->n_discarded;
        out->first_player = R->first_player;
    }
    return actions;
}

#endif
