/* Observations of a castle position for the research environment (zamek.env), from one seat's side.
 *
 * One flat int16 array: ZO_PLANES planes over the padded castle grid (ZO_SIDE x ZO_SIDE, row = y + 1,
 * column = x + 1, y growing to the north, so the wall and its start spaces fit), then ZO_VECTOR numbers.
 * "Mine" is the observing seat, "theirs" the other. Only what Z22 calls open information goes in: the draw
 * order and the kinds of face-down tokens never do. zamek/env/spec.py names every index range; a test
 * checks it against these numbers and against the position.
 */
#ifndef ZAMEK_OBS_H
#define ZAMEK_OBS_H

#include "zamek_core.h"

#define ZO_SIDE 13
#define ZO_AREA (ZO_SIDE * ZO_SIDE)

enum {
    ZO_INTERIOR, ZO_START, ZO_TAKEN, ZO_FRONTIER,
    ZO_KIND, /* 5 planes: road, house, pigsty, meadow, chapel */
    ZO_NEEDS_MATCH = ZO_KIND + 5, /* 4 planes, N E S W: an empty space's neighbour on that side is a tile */
    ZO_NEEDS_ROAD = ZO_NEEDS_MATCH + 4, /* 4 planes: ...and it brings a road to that side */
    ZO_FIGURES = ZO_NEEDS_ROAD + 4, /* 6 planes: my follower, prince, falconer; theirs */
    ZO_HELD = ZO_FIGURES + 6, /* 3 planes: an unfinished feature here that I hold, they hold, tied */
    ZO_STOCKS = ZO_HELD + 3, ZO_SHRINES, ZO_NESTS,
    ZO_FAMILY, /* 2 planes: my family house, theirs */
    ZO_LAST = ZO_FAMILY + 2,
    ZO_QUEUE, /* 1 + the place in the scoring queue of a complete feature here waiting to be scored */
    ZO_OPEN, /* 3 planes, road, house, pigsty: open edges of the unfinished feature of that kind here */
    ZO_SIZE_PLANES = ZO_OPEN + 3, /* 3 planes: the tiles of that feature */
    ZO_PLANES = ZO_SIZE_PLANES + 3
};

enum {
    ZO_V_SCORE = 0, ZO_V_TRACK = 2, ZO_V_SUPPLY = 4, ZO_V_PRINCES = 6, ZO_V_FALCONERS = 8, ZO_V_ON_GATE = 10,
    ZO_V_FAMILY_SIZE = 12, ZO_V_NESTS = 14,
    ZO_V_MY_TOKENS = 16, ZO_V_THEIR_TOKENS = 25, ZO_V_USABLE = 34, /* 9 each, kinds 1..9 */
    ZO_V_TOWERS = 43, /* 16: the tower still holds a face-down token */
    ZO_V_UNREVEALED = 59, /* 9: tokens of each kind not yet taken (on towers or in the box) */
    ZO_V_PHASE = 68, /* 8: one-hot */
    ZO_V_MY_TURN = 76, ZO_V_TURN = 77, ZO_V_TILES_LEFT = 78,
    ZO_V_DRAWN = 79, /* ZC_MAX_TILES: the tile to place, one-hot by tile index */
    ZO_V_PILE = ZO_V_DRAWN + ZC_MAX_TILES, /* ZC_MAX_TILES: 1 for each tile still in the pile */
    ZO_V_LAST_ROTATION = ZO_V_PILE + ZC_MAX_TILES, /* 4: one-hot */
    ZO_V_LAST_TILE = ZO_V_LAST_ROTATION + 4, /* ZC_MAX_TILES: the tile placed last, one-hot */
    ZO_V_LAST_FEATURES = ZO_V_LAST_TILE + ZC_MAX_TILES, /* ZO_FEATURE_SIZE for each feature of that tile */
    ZO_VECTOR = ZO_V_LAST_FEATURES + ZC_MAX_FEATURES * 10
};

#define ZO_SIZE (ZO_PLANES * ZO_AREA + ZO_VECTOR)
/* Each feature of the tile placed last (Follower actions name them by index): kind one-hot (5), then the whole
   feature it belongs to: tiles, open edges, my figures, their figures, complete. */
#define ZO_FEATURE_SIZE 10

/* regions.find without path compression: an observation leaves the position untouched */
static inline int zo_root(const zc_state *S, int node) {
    while (S->nodes[node].parent != node) node = S->nodes[node].parent;
    return node;
}

static inline int zo_square(const zc_rules *R, int cell) {
    int x = cell % R->stride - 1, y = cell / R->stride - 1;
    if (x < -1 || y < -1 || x + 1 >= ZO_SIDE || y + 1 >= ZO_SIDE) return -1;
    return (y + 1) * ZO_SIDE + (x + 1);
}

/* Write the observation of S for seat `me` into out[ZO_SIZE]. */
static void zo_observe(const zc_rules *R, const zc_state *S, int me, int16_t *out) {
    int them = 1 - me;
    memset(out, 0, sizeof(int16_t) * ZO_SIZE);
    int16_t *plane = out;
#define ZO_AT(p, sq) plane[(p) * ZO_AREA + (sq)]
    for (int cell = 0; cell < R->cell_count; cell++) {
        int interior = R->interior_index[cell] >= 0, space = R->space_of[cell] >= 0;
        if (!space) continue;
        int sq = zo_square(R, cell);
        if (sq < 0) continue;
        if (interior) ZO_AT(ZO_INTERIOR, sq) = 1; else ZO_AT(ZO_START, sq) = 1;
        if (S->status[cell] != ZC_TAKEN) {
            if (interior && S->need_mask[cell]) {
                ZO_AT(ZO_FRONTIER, sq) = 1;
                for (int side = 0; side < 4; side++) {
                    if (S->need_mask[cell] >> side & 1) ZO_AT(ZO_NEEDS_MATCH + side, sq) = 1;
                    if (S->need_road[cell] >> side & 1) ZO_AT(ZO_NEEDS_ROAD + side, sq) = 1;
                }
            }
            continue;
        }
        ZO_AT(ZO_TAKEN, sq) = 1;
        int tab = S->cell_tab[cell], base = S->cell_node[cell], n_features;
        const uint8_t *stocks, *shrines, *nests;
        if (tab < R->n_tiles * 4) {
            const zc_tile *t = &R->tiles[tab / 4];
            n_features = t->n_features; stocks = t->stocks; shrines = t->shrines; nests = t->nests;
        } else {
            const zc_start *st = &R->starts[tab - R->n_tiles * 4];
            n_features = st->n_features; stocks = st->stocks; shrines = st->shrines; nests = st->nests;
        }
        for (int f = 0; f < n_features; f++) {
            const zc_node *node = &S->nodes[base + f];
            ZO_AT(ZO_KIND + node->kind, sq) = 1;
            ZO_AT(ZO_STOCKS, sq) += stocks[f];
            ZO_AT(ZO_SHRINES, sq) += shrines[f];
            ZO_AT(ZO_NESTS, sq) += nests[f];
            const zc_node *root = &S->nodes[zo_root(S, base + f)];
            if (root->kind <= ZC_PIGSTY && root->open > 0) {  /* the larger where two such features meet here */
                int16_t *open = &ZO_AT(ZO_OPEN + root->kind, sq), *size = &ZO_AT(ZO_SIZE_PLANES + root->kind, sq);
                int tiles = zc_bits_count(root->cells);
                if (root->open > *open) *open = root->open;
                if (tiles > *size) *size = (int16_t)tiles;
            }
            int mine = me == 0 ? root->fol0 : root->fol1, theirs = me == 0 ? root->fol1 : root->fol0;
            if (mine + theirs == 0) continue;
            ZO_AT(ZO_HELD + (mine > theirs ? 0 : theirs > mine ? 1 : 2), sq) = 1;
        }
    }
    for (int i = 0; i < S->n_followers; i++) {
        const zc_follower *f = &S->followers[i];
        int sq = zo_square(R, f->cell);
        if (sq >= 0) ZO_AT(ZO_FIGURES + (f->player == me ? 0 : 3) + f->piece, sq)++;
    }
    for (int p = 0; p < 2; p++) {
        zc_bits b = S->family_cells[p];
        int plane_index = ZO_FAMILY + (p == me ? 0 : 1);
        for (int k = 0; k < 128; k++) {
            if (!(k < 64 ? b.lo >> k & 1 : b.hi >> (k - 64) & 1)) continue;
            int sq = zo_square(R, R->cell_of_space[k]);
            if (sq >= 0) ZO_AT(plane_index, sq) = 1;
        }
    }
    if (S->n_placed) {
        int sq = zo_square(R, S->placed_cell[S->n_placed - 1]);
        if (sq >= 0) ZO_AT(ZO_LAST, sq) = 1;
    }
    for (int q = 0; q < S->n_queue; q++) {
        zc_bits b = S->nodes[zo_root(S, S->queue[q])].cells;
        for (int k = 0; k < 128; k++) {
            if (!(k < 64 ? b.lo >> k & 1 : b.hi >> (k - 64) & 1)) continue;
            int sq = zo_square(R, R->cell_of_space[k]);
            if (sq >= 0 && !ZO_AT(ZO_QUEUE, sq)) ZO_AT(ZO_QUEUE, sq) = (int16_t)(q + 1);
        }
    }
#undef ZO_AT
    int16_t *v = out + ZO_PLANES * ZO_AREA;
    int seat[2] = {me, them};
    for (int i = 0; i < 2; i++) {
        int p = seat[i];
        v[ZO_V_SCORE + i] = (int16_t)S->scores[p];
        v[ZO_V_TRACK + i] = (int16_t)(((S->scores[p] % ZC_TRACK) + ZC_TRACK) % ZC_TRACK);
        v[ZO_V_SUPPLY + i] = S->supply[p];
        v[ZO_V_PRINCES + i] = S->princes[p];
        v[ZO_V_FALCONERS + i] = S->falconers[p];
        v[ZO_V_ON_GATE + i] = S->on_gate[p];
        v[ZO_V_FAMILY_SIZE + i] = S->family_size[p];
        v[ZO_V_NESTS + i] = S->nests[p];
        for (int k = 0; k < S->n_held[p]; k++) {
            int kind = S->held_kind[p][k];
            if (kind >= 1 && kind <= 9) v[(i ? ZO_V_THEIR_TOKENS : ZO_V_MY_TOKENS) + kind - 1]++;
        }
    }
    int my_turn = S->phase != ZC_OVER && !zc_is_chance(S) && S->current == me;
    if (my_turn)
        for (int kind = 1; kind <= 9; kind++) v[ZO_V_USABLE + kind - 1] = (int16_t)zc_usable(R, S, kind);
    for (int t = 0; t < R->n_towers && t < 16; t++) v[ZO_V_TOWERS + t] = S->tower_token[t] ? 1 : 0;
    for (int kind = 1; kind <= 9; kind++) v[ZO_V_UNREVEALED + kind - 1] = S->token_pool[kind];
    if (S->phase >= 0 && S->phase < 8) v[ZO_V_PHASE + S->phase] = 1;
    v[ZO_V_MY_TURN] = (int16_t)my_turn;
    v[ZO_V_TURN] = S->turn;
    v[ZO_V_TILES_LEFT] = S->n_remaining;
    if (S->drawn >= 0) v[ZO_V_DRAWN + S->drawn] = 1;
    for (int i = 0; i < S->n_remaining; i++) v[ZO_V_PILE + S->pile[i]] = 1;
    if (S->n_placed) {
        int last = S->n_placed - 1, cell = S->placed_cell[last], tile = S->placed_tile[last];
        v[ZO_V_LAST_ROTATION + S->placed_rot[last]] = 1;
        v[ZO_V_LAST_TILE + tile] = 1;
        for (int f = 0; f < R->tiles[tile].n_features && f < ZC_MAX_FEATURES; f++) {
            int16_t *d = v + ZO_V_LAST_FEATURES + f * ZO_FEATURE_SIZE;
            const zc_node *node = &S->nodes[S->cell_node[cell] + f];
            const zc_node *root = &S->nodes[zo_root(S, S->cell_node[cell] + f)];
            d[node->kind] = 1;
            d[5] = (int16_t)zc_bits_count(root->cells);
            d[6] = root->open;
            d[7] = me == 0 ? root->fol0 : root->fol1;
            d[8] = me == 0 ? root->fol1 : root->fol0;
            d[9] = root->open == 0 && root->kind != ZC_MEADOW;
        }
    }
}

#endif
