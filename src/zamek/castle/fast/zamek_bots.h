/* The computer players of zamek/castle/bots/ over the compiled core: the same decisions, made in C.
 *
 * A port of the Python bots (src/zamek/castle/bots/, the reference), function by function, so that a bot given
 * the same position and a generator in the same state makes the same decision and leaves the generator in
 * the same state (tests/castle/fast/test_fast_bots.py checks both over many positions of every rule set):
 *
 * - the estimates: evaluate.player_values / lead / win_chance (the hand-set Weights) and
 *   value.position_features / ValueModel.lead / win_chance (the learned value), their floating-point
 *   operations in the Python order, and sum() as the running Python adds floats (plainly before 3.12,
 *   with Neumaier's compensation from 3.12 on: zb_eval.compensated);
 * - chance inside a search: runner.sample_chance, i.e. random.choices over the outcomes in the Python
 *   engine's order, on CPython's Mersenne Twister (zc_mt of zamek_core.h), the bot's own generator;
 * - simple.settle, best_immediate and GreedyBot.choose (random.sample when it looks at N placements);
 * - mcts.ranked_moves and MCTSBot.choose: sequential halving at the root on common random numbers
 *   (random.Random(futures ^ visits * K) per iteration), UCT below, explicit chance nodes, one turn of
 *   greedy play after a leaf. Ties break as Python's stable sorts and max() break them.
 *
 * Floating-point contraction is off: a fused multiply-add would round differently from Python.
 * Scratch positions live on a stack of whole states (zb_ctx) that grows as needed and is reused.
 */
#ifndef ZAMEK_BOTS_H
#define ZAMEK_BOTS_H

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <math.h>
#include <time.h>
#include "zamek_core.h"

/* ------------------------------------------------------------------------------ rule-set tables */

typedef struct {
    zc_bits fit[256];             /* value._fit_table: tiles (bits) that fit a space needing (mask, roads) */
    int8_t inward[ZC_MAX_CELLS];  /* Rules.start_inward_side */
} zb_tables;

static void zb_tables_init(const zc_rules *R, zb_tables *B) {
    memset(B, 0, sizeof *B);
    for (int mask = 0; mask < 16; mask++)
        for (int want = 0; want < 16; want++) {
            if (want & ~mask) continue;
            zc_bits bits = {0, 0};
            for (int t = 0; t < R->n_tiles; t++)
                for (int r = 0; r < 4; r++)
                    if (((R->tiles[t].road_sides[r] ^ want) & mask) == 0) { zc_bits_set(&bits, t); break; }
            B->fit[mask * 16 + want] = bits;
        }
    for (int c = 0; c < ZC_MAX_CELLS; c++) B->inward[c] = -1;
    for (int s = 0; s < R->n_starts; s++) B->inward[R->starts[s].cell] = (int8_t)((R->starts[s].side + 2) % 4);
}

/* ---------------------------------------------------------------------------------- estimates */

enum { ZB_WEIGHTS = 0, ZB_VALUE = 1, ZB_NET = 2 };
#define ZB_NH 32 /* network.MAX_HIDDEN: hidden units of the value network at most */

/* value.FEATURES, in order (_core.pyx checks the names against the Python list) */
enum {
    ZB_HELD = 24, ZB_BLOCKED = 28, ZB_MEADOW = 29, ZB_MEADOW_EARLY = 30, ZB_MEADOW_MONKS = 31,
    ZB_MEADOW_BLOCKED = 32, ZB_SUPPLY = 33, ZB_SUPPLY_EARLY = 34, ZB_SUPPLY_EMPTY = 35, ZB_SUPPLY_EMPTY_EARLY = 36,
    ZB_TOKEN = 36 /* + kind */, ZB_TOKEN_1_EARLY = 46, ZB_FAMILY_LEAD = 47, ZB_FAMILY_LEAD_AREA = 48,
    ZB_FAMILY_SIZE = 49, ZB_TOWER_NEAR = 50, ZB_NEST_LEAD = 51, ZB_TO_MOVE = 52, ZB_NF = 53
};
#define ZB_TOWER_REACH 6 /* value.TOWER_REACH */
#define ZB_AREA_CAP 20 /* value.AREA_CAP */

typedef struct {
    int kind;         /* ZB_WEIGHTS or ZB_VALUE */
    int compensated;  /* sum() of floats is compensated (Python 3.12 and later) */
    double win_scale;
    /* evaluate.Weights */
    double free_follower, follower_cap, completion, completion_decay, horizon, tower_near, family_race, nest_race;
    int tower_reach;
    double token_values[10];
    /* value.ValueModel (and the network's linear part) */
    double coef[ZB_NF];
    /* network.NetValue: g(a, b) = w2 . relu(W1 [a / scale, b / scale] + b1), added as g(x0, x1) - g(x1, x0) */
    int hidden;
    double scale[ZB_NF];
    double w1[2 * ZB_NF][ZB_NH];
    double b1[ZB_NH];
    double w2[ZB_NH];
} zb_eval;

/* sum() of floats from the int 0, as the running Python adds them */
typedef struct { double f, c; int n, compensated; } zb_sum;

static inline void zb_sum_add(zb_sum *s, double x) {
    if (s->n++ == 0) { s->f = 0.0 + x; return; }
    if (!s->compensated) { s->f += x; return; }
    double t = s->f + x;
    if (fabs(s->f) >= fabs(x)) s->c += (s->f - t) + x;
    else s->c += (x - t) + s->f;
    s->f = t;
}

static inline double zb_sum_total(const zb_sum *s) { return s->compensated && s->c != 0.0 ? s->f + s->c : s->f; }

/* GameState.worth (Z14, F2, Z20, F4): what a feature is worth to its owner, complete or at the end */
static inline int zb_worth(const zc_rates *T, const zc_node *f, int owner) {
    int dbl = owner >= 0 && (f->prince >> owner & 1) ? T->prince_factor : 1;
    if (f->kind == ZC_MEADOW) return f->shrines * T->shrine * dbl;
    return zc_complete_points(T, f->kind, zc_bits_count(f->cells), f->stocks) * dbl;
}

/* Features.occupied_features: the roots holding figures, each once, in the order the figures came */
static int zb_occupied(zc_state *S, int16_t *roots) {
    int n = 0;
    for (int i = 0; i < S->n_followers; i++) {
        int root = zc_find(S, S->followers[i].node);
        if (!zc_in_list(roots, n, root)) roots[n++] = (int16_t)root;
    }
    return n;
}

/* evaluate.completion_chance */
static inline double zb_completion_chance(int open, int left, const zb_eval *E) {
    if (open == 0) return 1.0;
    if (left == 0) return 0.0;
    double share = (double)left / E->horizon;
    double fading = share < 1.0 ? share : 1.0;
    return E->completion / (1 + E->completion_decay * (open - 1)) * fading;
}

/* evaluate.player_values */
static void zb_player_values(const zc_rules *R, zc_state *S, const zb_eval *E, double *values) {
    if (S->phase == ZC_OVER) { values[0] = (double)S->scores[0]; values[1] = (double)S->scores[1]; return; }
    values[0] = (double)S->scores[0];
    values[1] = (double)S->scores[1];
    int left = S->n_remaining;
    int16_t roots[ZC_MAX_FOLLOWERS];
    int n = zb_occupied(S, roots);
    for (int i = 0; i < n; i++) {
        const zc_node *f = &S->nodes[roots[i]];
        int owner = zc_owner(S, roots[i]);
        if (owner < 0) continue;
        if (f->kind == ZC_MEADOW) { values[owner] += (double)zb_worth(&R->rates, f, owner); continue; }
        values[owner] += (double)zb_worth(&R->rates, f, owner) * zb_completion_chance(f->open, left, E);
    }
    for (int p = 0; p < 2; p++) {
        int position = S->scores[p];
        for (int step = 1; step <= E->tower_reach; step++) {
            int tower = R->tower_at[(position + step) % ZC_TRACK];
            if (tower >= 0 && S->tower_token[tower]) { values[p] += E->tower_near; break; }
        }
        double supply = (double)S->supply[p];
        values[p] += E->free_follower * (E->follower_cap < supply ? E->follower_cap : supply);
        zb_sum tokens = {0.0, 0.0, 0, E->compensated};
        for (int i = 0; i < S->n_held[p]; i++) zb_sum_add(&tokens, E->token_values[S->held_kind[p][i]]);
        values[p] += zb_sum_total(&tokens);
    }
    int family = zc_majority(S->family_size[0], S->family_size[1]);
    if (family >= 0) values[family] += E->family_race;
    if (R->sokol) {
        int nests = zc_majority(S->nests[0], S->nests[1]);
        if (nests >= 0) values[nests] += E->nest_race;
    }
}

/* Features.frontier: the empty cells the open edges of a region face; returns how many, and whether one of
 * them can be filled by no tile in ``left`` (value.position_features: a dead feature) */
static int zb_frontier(const zc_rules *R, const zb_tables *B, zc_state *S, int root, zc_bits left, int *dead) {
    int16_t seen[4 * ZC_MAX_SPACES];
    int n = 0;
    *dead = 0;
    zc_bits cells = S->nodes[root].cells;
    uint64_t words[2] = {cells.lo, cells.hi};
    for (int w = 0; w < 2; w++) {
        uint64_t bits = words[w];
        while (bits) {
            int cell = R->cell_of_space[64 * w + __builtin_ctzll(bits)];
            bits &= bits - 1;
            int base = S->cell_node[cell];
            const int8_t *table = R->tables[S->cell_tab[cell]];
            int inward = B->inward[cell];
            for (int side = inward >= 0 ? inward : 0; side < (inward >= 0 ? inward + 1 : 4); side++) {
                int neighbour = cell + R->offsets[side];
                if (S->status[neighbour] != ZC_EMPTY) continue;
                for (int s = 3 * side; s < 3 * side + 3; s++) {
                    if (table[s] >= 0 && zc_find(S, base + table[s]) == root) {
                        if (!zc_in_list(seen, n, neighbour)) {
                            seen[n++] = (int16_t)neighbour;
                            zc_bits fits = B->fit[S->need_mask[neighbour] * 16 + S->need_road[neighbour]];
                            if (!(fits.lo & left.lo) && !(fits.hi & left.hi)) *dead = 1;
                        }
                        break;
                    }
                }
            }
        }
    }
    return n;
}

/* value.position_features: each player's feature vector (x0 and x1, ZB_NF each) */
static void zb_position_features(const zc_rules *R, const zb_tables *B, zc_state *S, double *x0, double *x1) {
    double *x[2] = {x0, x1};
    zc_zero(x0, ZB_NF * sizeof *x0);
    zc_zero(x1, ZB_NF * sizeof *x1);
    int total = R->n_tiles, left = S->n_remaining;
    double early = (double)left / (double)total;
    zc_bits remaining = {0, 0};
    for (int i = 0; i < S->n_remaining; i++) zc_bits_set(&remaining, S->pile[i]);
    if (S->drawn >= 0) zc_bits_set(&remaining, S->drawn);
    int16_t roots[ZC_MAX_FOLLOWERS];
    int n = zb_occupied(S, roots);
    for (int i = 0; i < n; i++) {
        int root = roots[i];
        const zc_node *f = &S->nodes[root];
        int counts[2] = {f->fol0, f->fol1};
        int owner = zc_owner(S, root);
        if (f->kind == ZC_MEADOW) {
            if (owner < 0) {
                for (int p = 0; p < 2; p++) x[p][ZB_MEADOW_BLOCKED] += counts[p];
                continue;
            }
            int points = zb_worth(&R->rates, f, owner);
            x[owner][ZB_MEADOW] += points;
            x[owner][ZB_MEADOW_EARLY] += points * early;
            x[owner][ZB_MEADOW_MONKS] += counts[owner];
            x[1 - owner][ZB_MEADOW_BLOCKED] += counts[1 - owner];
            continue;
        }
        if (owner < 0) {
            for (int p = 0; p < 2; p++) x[p][ZB_BLOCKED] += counts[p];
            continue;
        }
        x[1 - owner][ZB_BLOCKED] += counts[1 - owner];
        double worth = (double)zb_worth(&R->rates, f, owner);
        int dead;
        int spaces = zb_frontier(R, B, S, root, remaining, &dead);
        int reach = left == 0 || dead ? 0 : spaces < 3 ? spaces : 3;
        int kind = f->kind == ZC_ROAD ? 0 : f->kind == ZC_PIGSTY ? 2 : 1; /* a chapel counts as a house */
        int at = kind * 8 + reach * 2;
        double *xo = x[owner];
        xo[at] += worth;
        xo[at + 1] += worth * early;
        xo[ZB_HELD + reach] += counts[owner];
    }
    int family = zc_majority(S->family_size[0], S->family_size[1]);
    int nests = R->sokol ? zc_majority(S->nests[0], S->nests[1]) : -1;
    int area = -1;
    for (int p = 0; p < 2; p++) {
        double *xp = x[p];
        int supply = S->supply[p];
        xp[ZB_SUPPLY] = supply;
        xp[ZB_SUPPLY_EARLY] = supply * early;
        xp[ZB_SUPPLY_EMPTY] = supply == 0 ? 1.0 : 0.0;
        xp[ZB_SUPPLY_EMPTY_EARLY] = supply == 0 ? early : 0.0;
        for (int i = 0; i < S->n_held[p]; i++) {
            int kind = S->held_kind[p][i];
            xp[ZB_TOKEN + kind] += 1;
            if (kind == 1) xp[ZB_TOKEN_1_EARLY] += early;
        }
        if (family == p) {
            if (area < 0) area = zc_largest_empty_area_upto(R, S, ZB_AREA_CAP);
            xp[ZB_FAMILY_LEAD] = 1.0;
            xp[ZB_FAMILY_LEAD_AREA] = area * (1 - early);
        }
        xp[ZB_FAMILY_SIZE] = S->family_size[p];
        int position = S->scores[p];
        for (int step = 1; step <= ZB_TOWER_REACH; step++) {
            int tower = R->tower_at[(position + step) % ZC_TRACK];
            if (tower >= 0 && S->tower_token[tower]) { xp[ZB_TOWER_NEAR] = 1.0; break; }
        }
        if (nests == p) xp[ZB_NEST_LEAD] = 1.0;
    }
    x[(int)S->current][ZB_TO_MOVE] = 1.0;
}

/* network.NetValue's correction g(a, b) to the linear value (numpy computes the same to rounding) */
static double zb_net_part(const zb_eval *E, const double *a, const double *b) {
    double u[2 * ZB_NF], h[ZB_NH];
    for (int i = 0; i < ZB_NF; i++) { u[i] = a[i] / E->scale[i]; u[ZB_NF + i] = b[i] / E->scale[i]; }
    for (int j = 0; j < E->hidden; j++) h[j] = E->b1[j];
    for (int i = 0; i < 2 * ZB_NF; i++) {
        if (u[i] == 0.0) continue;  /* most features are 0: skip their rows */
        const double *row = E->w1[i];
        for (int j = 0; j < E->hidden; j++) h[j] += u[i] * row[j];
    }
    double out = 0.0;
    for (int j = 0; j < E->hidden; j++) if (h[j] > 0.0) out += E->w2[j] * h[j];
    return out;
}

/* Evaluator.lead: ``player``'s estimated final lead in points */
static double zb_lead(const zc_rules *R, const zb_tables *B, zc_state *S, const zb_eval *E, int player) {
    if (E->kind == ZB_WEIGHTS) {
        double v[2];
        zb_player_values(R, S, E, v);
        return player == 0 ? v[0] - v[1] : v[1] - v[0];
    }
    if (S->phase == ZC_OVER) return (double)(S->scores[player] - S->scores[1 - player]);
    double x0[ZB_NF], x1[ZB_NF];
    zb_position_features(R, B, S, x0, x1);
    zb_sum sum = {0.0, 0.0, 0, E->compensated};
    for (int i = 0; i < ZB_NF; i++) zb_sum_add(&sum, E->coef[i] * (x0[i] - x1[i]));
    double value = (double)(S->scores[0] - S->scores[1]) + zb_sum_total(&sum);
    if (E->kind == ZB_NET) value += zb_net_part(E, x0, x1) - zb_net_part(E, x1, x0);
    return player == 0 ? value : -value;
}

/* Evaluator.win_chance: exact at the end, estimated before */
static double zb_win_chance(const zc_rules *R, const zb_tables *B, zc_state *S, const zb_eval *E, int player) {
    if (S->phase == ZC_OVER) {
        int32_t mine = S->scores[player], theirs = S->scores[1 - player];
        return mine > theirs ? 1.0 : mine < theirs ? 0.0 : 0.5;
    }
    return 1.0 / (1.0 + exp(-zb_lead(R, B, S, E, player) / E->win_scale));
}

/* ------------------------------------------------------------------------ Python's random, more */

/* random.random() */
static inline double zb_random(zc_mt *m) {
    uint32_t a = zc_mt_next(m) >> 5, b = zc_mt_next(m) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random.Random(n) for 0 <= n < 2**128, n given as four 32-bit words from the least significant */
static void zb_mt_seed_words(zc_mt *m, const uint32_t *words) {
    int used = 4;
    while (used > 1 && words[used - 1] == 0) used--;
    zc_mt_init_by_array(m, words, used);
}

/* random.Random(futures ^ (visits * 0x9E3779B97F4A7C15)): mcts._iterate's generator */
static void zb_mt_seed_visit(zc_mt *m, uint64_t futures, uint32_t visits) {
    const uint64_t K = 0x9E3779B97F4A7C15ULL;
    uint64_t lo = (K & 0xffffffffULL) * visits, hi = (K >> 32) * visits;
    uint64_t low = lo + (hi << 32);
    uint64_t high = (hi >> 32) + (low < lo ? 1 : 0);
    low ^= futures;
    uint32_t words[4] = {(uint32_t)low, (uint32_t)(low >> 32), (uint32_t)high, (uint32_t)(high >> 32)};
    zb_mt_seed_words(m, words);
}

/* random.choices(population, weights)[0] as an index: bisect over the accumulated weights */
static int zb_choose_weighted(zc_mt *m, const double *weights, int n) {
    double cum[ZC_MAX_TILES];
    double acc = 0.0;
    for (int i = 0; i < n; i++) { acc = i ? acc + weights[i] : weights[i]; cum[i] = acc; }
    double total = cum[n - 1] + 0.0;
    double x = zb_random(m) * total;
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (x < cum[mid]) hi = mid; else lo = mid + 1;
    }
    return lo;
}

/* runner.sample_chance: a chance outcome with its probability, the outcomes in the Python engine's order */
static int zb_sample_chance(const zc_rules *R, const zc_state *S, zc_mt *m) {
    double weights[ZC_MAX_TILES];
    int outcomes[ZC_MAX_TILES];
    int n = 0;
    if (S->phase == ZC_DRAW_PHASE) {
        if (R->n_draw_order >= 0) return ZC_DRAW + R->draw_order[S->draw_position];
        double p = 1.0 / S->n_remaining;
        for (int t = 0; t < R->n_tiles; t++)
            if (S->pile_pos[t] >= 0) { outcomes[n] = ZC_DRAW + t; weights[n] = p; n++; }
    } else if (S->phase == ZC_REVEAL_PHASE) {
        int total = 0;
        for (int k = 1; k <= 9; k++) total += S->token_pool[k];
        for (int k = 1; k <= 9; k++)
            if (S->token_pool[k]) { outcomes[n] = ZC_REVEAL + k; weights[n] = (double)S->token_pool[k] / total; n++; }
    }
    if (n == 0) return -1;
    if (n == 1) return outcomes[0];
    return outcomes[zb_choose_weighted(m, weights, n)];
}

/* ---------------------------------------------------------------------------- scratch positions */

typedef struct { int16_t a, b; } zb_move; /* one action, or a placement and its figure choice (b: -1 none) */

typedef struct {
    int64_t key;
    int32_t first_child, next;   /* children, a list (-1 ends it) */
    int32_t cand, n_cand;        /* candidate moves in zb_ctx.cands; n_cand -1: not ranked yet */
    int32_t visits;
    int32_t mover;
    double value;
} zb_node;

typedef struct {
    const zc_rules *R;
    const zb_tables *B;
    zc_state **stack;            /* scratch positions, allocated as the depth first needs them */
    int depth, allocated, stack_cap;
    zb_move *moves; double *values; int moves_cap;   /* ranked_moves' list */
    zb_node *nodes; int n_nodes, nodes_cap;          /* the search tree */
    zb_move *cands; int n_cands, cands_cap;
    long long children;                              /* one-turn look: positions judged (benchmarks) */
    int failed;                                      /* out of memory, or an action that did not apply */
} zb_ctx;

static void zb_ctx_init(zb_ctx *c, const zc_rules *R, const zb_tables *B) {
    memset(c, 0, sizeof *c);
    c->R = R;
    c->B = B;
}

static void zb_ctx_free(zb_ctx *c) {
    for (int i = 0; i < c->allocated; i++) free(c->stack[i]);
    free(c->stack);
    free(c->moves);
    free(c->values);
    free(c->nodes);
    free(c->cands);
    memset(c, 0, sizeof *c);
}

/* A scratch copy of ``src`` on the stack (NULL when out of memory); zb_pop gives it back. */
static zc_state *zb_push(zb_ctx *c, const zc_state *src) {
    if (c->depth == c->allocated) {
        if (c->allocated == c->stack_cap) {
            int cap = c->stack_cap ? 2 * c->stack_cap : 16;
            zc_state **grown = (zc_state **)realloc(c->stack, (size_t)cap * sizeof(zc_state *));
            if (!grown) { c->failed = 1; return NULL; }
            c->stack = grown;
            c->stack_cap = cap;
        }
        zc_state *s = (zc_state *)malloc(sizeof(zc_state));
        if (!s) { c->failed = 1; return NULL; }
        c->stack[c->allocated++] = s;
    }
    zc_state *s = c->stack[c->depth++];
    zc_copy(s, src);
    return s;
}

static inline void zb_pop(zb_ctx *c) { c->depth--; }

static inline void zb_apply(zb_ctx *c, zc_state *S, int action) {
    if (action < 0 || zc_apply(c->R, S, NULL, action) < 0) c->failed = 1;
}

/* --------------------------------------------------------------------------- greedy play */

static int zb_best_immediate(zb_ctx *c, zc_state *S, zc_mt *m, int player, const zb_eval *E);

/* simple.settle: play out the rest of the turn, chance by sampling, decisions greedily */
static void zb_settle(zb_ctx *c, zc_state *S, zc_mt *m, const zb_eval *E) {
    int player = S->current;
    while (S->phase != ZC_OVER && S->phase != ZC_DRAW_PHASE && !c->failed) {
        if (S->phase == ZC_REVEAL_PHASE) zb_apply(c, S, zb_sample_chance(c->R, S, m));
        else if (S->phase == ZC_PLACE) return;
        else zb_apply(c, S, zb_best_immediate(c, S, m, player, E));
    }
}

/* simple.best_immediate: the scoring-time decision that looks best right after it (an extra turn always) */
static int zb_best_immediate(zb_ctx *c, zc_state *S, zc_mt *m, int player, const zb_eval *E) {
    int legal[ZC_MAX_LEGAL];
    int n = zc_legal(c->R, S, legal);
    if (n <= 0) { c->failed = 1; return -1; }
    if (n == 1) return legal[0];
    if (S->phase == ZC_EXTRA) return ZC_USE_BASE + ZC_EXTRA_TURN - 1;
    int best = legal[0];
    double best_value = -1e9;
    for (int i = 0; i < n; i++) {
        zc_state *child = zb_push(c, S);
        if (!child) return -1;
        zb_apply(c, child, legal[i]);
        zb_settle(c, child, m, E);
        double value = zb_lead(c->R, c->B, child, E, player);
        c->children++;
        zb_pop(c);
        if (value > best_value) { best = legal[i]; best_value = value; }
    }
    return best;
}

/* GreedyBot._best_follower: the figure choice (among ``actions``) whose settled turn looks best */
static int zb_best_follower(zb_ctx *c, zc_state *S, const int *actions, int n, zc_mt *m, int player,
                            const zb_eval *E, double *value_out) {
    int best = actions[n - 1];
    double best_value = -1e9;
    for (int i = 0; i < n; i++) {
        zc_state *child = zb_push(c, S);
        if (!child) return -1;
        zb_apply(c, child, actions[i]);
        zb_settle(c, child, m, E);
        double value = zb_lead(c->R, c->B, child, E, player);
        c->children++;
        zb_pop(c);
        if (value > best_value) { best = actions[i]; best_value = value; }
    }
    if (value_out) *value_out = best_value;
    return best;
}

/* math.ceil(math.log(x, 4)) as CPython computes it */
static inline int zb_ceil_log4(int x) { return (int)ceil(log((double)x) / log(4.0)); }

/* random.sample(population, k), in place of ``out`` (k entries) */
static void zb_sample(zc_mt *m, const int *population, int n, int k, int *out) {
    int setsize = 21;
    if (k > 5) {
        int e = zb_ceil_log4(k * 3), power = 1;
        while (e-- > 0) power *= 4;
        setsize += power;
    }
    if (n <= setsize) {
        int pool[ZC_MAX_LEGAL];
        memcpy(pool, population, (size_t)n * sizeof(int));
        for (int i = 0; i < k; i++) {
            int j = (int)zc_mt_below(m, (uint32_t)(n - i));
            out[i] = pool[j];
            pool[j] = pool[n - i - 1];
        }
        return;
    }
    uint8_t selected[ZC_MAX_LEGAL];
    memset(selected, 0, (size_t)n);
    for (int i = 0; i < k; i++) {
        int j = (int)zc_mt_below(m, (uint32_t)n);
        while (selected[j]) j = (int)zc_mt_below(m, (uint32_t)n);
        selected[j] = 1;
        out[i] = population[j];
    }
}

/* GreedyBot.choose: ``limit`` > 0 looks at that many placements, drawn with the generator */
static int zb_greedy(zb_ctx *c, zc_state *S, zc_mt *m, const zb_eval *E, int limit) {
    int player = S->current;
    int legal[ZC_MAX_LEGAL];
    int n = zc_legal(c->R, S, legal);
    if (n <= 0) { c->failed = 1; return -1; }
    if (n == 1) return legal[0];
    if (S->phase == ZC_PLACE) {
        int actions[ZC_MAX_LEGAL];
        if (limit > 0 && limit < n) { zb_sample(m, legal, n, limit, actions); n = limit; }
        else memcpy(actions, legal, (size_t)n * sizeof(int));
        int best = 0;
        double best_value = 0.0;
        for (int i = 0; i < n; i++) {
            zc_state *placed = zb_push(c, S);
            if (!placed) return -1;
            zb_apply(c, placed, actions[i]);
            int follow[ZC_MAX_LEGAL];
            int k = zc_legal(c->R, placed, follow);
            double value;
            zb_best_follower(c, placed, follow, k, m, player, E, &value);
            zb_pop(c);
            if (i == 0 || value >= best_value) { best = i; best_value = value; } /* max((value, i)): the last */
        }
        return actions[best];
    }
    if (S->phase == ZC_FOLLOWER) return zb_best_follower(c, S, legal, n, m, player, E, NULL);
    return zb_best_immediate(c, S, m, player, E);
}

/* -------------------------------------------------------------------------- the one-turn look */

static int zb_reserve_moves(zb_ctx *c, int n) {
    if (n <= c->moves_cap) return 0;
    int cap = c->moves_cap ? c->moves_cap : 256;
    while (cap < n) cap *= 2;
    zb_move *moves = (zb_move *)realloc(c->moves, (size_t)cap * sizeof(zb_move));
    if (moves) c->moves = moves;
    double *values = (double *)realloc(c->values, (size_t)cap * sizeof(double));
    if (values) c->values = values;
    if (!moves || !values) { c->failed = 1; return -1; }
    c->moves_cap = cap;
    return 0;
}

/* mcts.apply_move: the move's actions, then the rest of the turn settled greedily */
static void zb_apply_move(zb_ctx *c, zc_state *S, zb_move move, zc_mt *m, const zb_eval *E) {
    zb_apply(c, S, move.a);
    if (move.b >= 0) zb_apply(c, S, move.b);
    zb_settle(c, S, m, E);
}

/* mcts.ranked_moves: every move (a placement with each figure choice) judged by ``E`` after its settled turn;
 * the best ``width`` in ``out`` (values in ``out_values``), best first, ties in the order generated (a stable
 * sort). Returns how many. */
static int zb_ranked_moves(zb_ctx *c, zc_state *S, zc_mt *m, int width, const zb_eval *E, zb_move *out,
                           double *out_values) {
    int player = S->current;
    int legal[ZC_MAX_LEGAL];
    int n = zc_legal(c->R, S, legal), total = 0;
    if (n <= 0) { c->failed = 1; return 0; }
    if (S->phase != ZC_PLACE) {
        if (zb_reserve_moves(c, n)) return 0;
        for (int i = 0; i < n; i++) {
            zc_state *child = zb_push(c, S);
            if (!child) return 0;
            zb_move move = {(int16_t)legal[i], -1};
            zb_apply_move(c, child, move, m, E);
            c->moves[total] = move;
            c->values[total++] = zb_lead(c->R, c->B, child, E, player);
            c->children++;
            zb_pop(c);
        }
    } else {
        for (int i = 0; i < n; i++) {
            zc_state *placed = zb_push(c, S);
            if (!placed) return 0;
            zb_apply(c, placed, legal[i]);
            int figures[ZC_MAX_LEGAL];
            int k = zc_legal(c->R, placed, figures);
            if (zb_reserve_moves(c, total + k)) return 0;
            for (int j = 0; j < k; j++) {
                zc_state *child = zb_push(c, placed);
                if (!child) return 0;
                zb_move move = {(int16_t)legal[i], (int16_t)figures[j]};
                zb_apply(c, child, figures[j]);
                zb_settle(c, child, m, E);
                c->moves[total] = move;
                c->values[total++] = zb_lead(c->R, c->B, child, E, player);
                c->children++;
                zb_pop(c);
            }
            zb_pop(c);
        }
    }
    /* The first ``width`` of a stable sort by value, descending: each time the earliest of the best left. */
    uint8_t *taken = (uint8_t *)calloc((size_t)(total ? total : 1), 1);
    if (!taken) { c->failed = 1; return 0; }
    int k = width < total ? width : total;
    for (int r = 0; r < k; r++) {
        int best = -1;
        for (int i = 0; i < total; i++)
            if (!taken[i] && (best < 0 || c->values[i] > c->values[best])) best = i;
        taken[best] = 1;
        out[r] = c->moves[best];
        if (out_values) out_values[r] = c->values[best];
    }
    free(taken);
    return k;
}

/* ------------------------------------------------------------------------------------- MCTS */

typedef struct {
    int iterations, width, playout_turns, expand_after;
    double exploration;
    double seconds;          /* a cap on thinking time; 0: none */
    const zb_eval *mine;     /* MCTSBot.evaluator */
    const zb_eval *theirs;   /* MCTSBot.opponent (NULL: as mine) */
} zb_search;

typedef struct {
    zb_move move;
    int iterations;          /* MCTSBot.last_iterations */
    int searched;            /* 0: one candidate only, no search (and no draw of ``futures``) */
    long long children;      /* positions judged in one-turn looks */
} zb_result;

static double zb_now(void) {
#ifdef CLOCK_MONOTONIC
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
#else
    return (double)clock() / CLOCKS_PER_SEC;
#endif
}

static inline int64_t zb_move_key(zb_move m) { return ((int64_t)(m.a + 1) << 16) | (int64_t)(m.b + 1); }
static inline int64_t zb_chance_key(int outcome) { return ((int64_t)1 << 40) + outcome; }

static int zb_new_node(zb_ctx *c, int64_t key, int mover) {
    if (c->n_nodes == c->nodes_cap) {
        int cap = c->nodes_cap ? 2 * c->nodes_cap : 1024;
        zb_node *grown = (zb_node *)realloc(c->nodes, (size_t)cap * sizeof(zb_node));
        if (!grown) { c->failed = 1; return -1; }
        c->nodes = grown;
        c->nodes_cap = cap;
    }
    int id = c->n_nodes++;
    zb_node *n = &c->nodes[id];
    n->key = key; n->first_child = -1; n->next = -1; n->cand = 0; n->n_cand = -1; n->visits = 0; n->mover = mover;
    n->value = 0.0;
    return id;
}

static int zb_child(const zb_ctx *c, int node, int64_t key) {
    for (int k = c->nodes[node].first_child; k >= 0; k = c->nodes[k].next) if (c->nodes[k].key == key) return k;
    return -1;
}

static int zb_add_child(zb_ctx *c, int node, int64_t key, int mover) {
    int k = zb_new_node(c, key, mover);
    if (k < 0) return -1;
    c->nodes[k].next = c->nodes[node].first_child;
    c->nodes[node].first_child = k;
    return k;
}

/* Rank a node's candidate moves (Node.candidates). */
static int zb_rank_node(zb_ctx *c, int node, zc_state *S, zc_mt *m, int width, const zb_eval *E) {
    if (c->n_cands + width > c->cands_cap) {
        int cap = c->cands_cap ? c->cands_cap : 1024;
        while (cap < c->n_cands + width) cap *= 2;
        zb_move *grown = (zb_move *)realloc(c->cands, (size_t)cap * sizeof(zb_move));
        if (!grown) { c->failed = 1; return -1; }
        c->cands = grown;
        c->cands_cap = cap;
    }
    int at = c->n_cands;
    int n = zb_ranked_moves(c, S, m, width, E, c->cands + at, NULL);
    c->nodes[node].cand = at;
    c->nodes[node].n_cand = n;
    c->n_cands += n;
    return n;
}

static inline const zb_eval *zb_judge(const zc_state *S, const zb_search *P, int me) {
    return S->current == me || !P->theirs ? P->mine : P->theirs;
}

/* MCTSBot._select: an untried candidate first, else the best by UCT */
static zb_move zb_select(const zb_ctx *c, int node, double exploration) {
    const zb_node *n = &c->nodes[node];
    const zb_move *cands = c->cands + n->cand;
    for (int i = 0; i < n->n_cand; i++) if (zb_child(c, node, zb_move_key(cands[i])) < 0) return cands[i];
    double log_n = log((double)n->visits);
    zb_move best = cands[0];
    double best_score = -1.0;
    for (int i = 0; i < n->n_cand; i++) {
        const zb_node *child = &c->nodes[zb_child(c, node, zb_move_key(cands[i]))];
        double score = child->value / child->visits + exploration * sqrt(log_n / child->visits);
        if (score > best_score) { best = cands[i]; best_score = score; }
    }
    return best;
}

/* MCTSBot._playout: greedy play (the best-ranked move) until ``playout_turns`` turns have begun */
static void zb_playout(zb_ctx *c, zc_state *S, zc_mt *m, const zb_search *P, int me, int turns) {
    while (S->phase != ZC_OVER && !c->failed) {
        if (zc_is_chance(S)) {
            if (S->phase == ZC_DRAW_PHASE) {
                if (turns == P->playout_turns) return;
                turns++;
            }
            zb_apply(c, S, zb_sample_chance(c->R, S, m));
            continue;
        }
        const zb_eval *judge = zb_judge(S, P, me);
        zb_move best;
        if (zb_ranked_moves(c, S, m, 1, judge, &best, NULL) != 1) { c->failed = 1; return; }
        zb_apply_move(c, S, best, m, judge);
    }
}

/* MCTSBot._iterate: one walk down from the root through ``first``, a playout, and the backup */
static void zb_iterate(zb_ctx *c, const zb_search *P, int me, int root, zc_state *S, uint64_t futures,
                       zb_move first) {
    enum { MAX_PATH = 2048 };
    int path[MAX_PATH];
    int n_path = 0, node = root, have_first = 1;
    path[n_path++] = node;
    int at_root = zb_child(c, root, zb_move_key(first));
    zc_mt m;
    zb_mt_seed_visit(&m, futures, at_root >= 0 ? (uint32_t)c->nodes[at_root].visits : 0);
    while (S->phase != ZC_OVER && !c->failed) {
        if (n_path == MAX_PATH) { c->failed = 1; return; }
        if (zc_is_chance(S)) {
            int outcome = zb_sample_chance(c->R, S, &m);
            zb_apply(c, S, outcome);
            int child = zb_child(c, node, zb_chance_key(outcome));
            if (child < 0) child = zb_add_child(c, node, zb_chance_key(outcome), c->nodes[node].mover);
            if (child < 0) return;
            node = child;
            path[n_path++] = node;
            continue;
        }
        if (node != root && c->nodes[node].visits < P->expand_after) break;
        const zb_eval *judge = zb_judge(S, P, me);
        if (c->nodes[node].n_cand < 0 && zb_rank_node(c, node, S, &m, P->width, judge) < 0) return;
        zb_move move = have_first ? first : zb_select(c, node, P->exploration);
        have_first = 0;
        int mover = S->current;
        zb_apply_move(c, S, move, &m, judge);
        int child = zb_child(c, node, zb_move_key(move));
        if (child < 0) child = zb_add_child(c, node, zb_move_key(move), mover);
        if (child < 0) return;
        node = child;
        path[n_path++] = node;
        if (c->nodes[child].visits == 0) break;
    }
    /* A walk that stopped at a decision stopped inside a turn: it counts as begun. */
    zb_playout(c, S, &m, P, me, zc_is_chance(S) || S->phase == ZC_OVER ? 0 : 1);
    if (c->failed) return;
    double chance0 = zb_win_chance(c->R, c->B, S, P->mine, 0);
    for (int i = 0; i < n_path; i++) {
        zb_node *v = &c->nodes[path[i]];
        v->visits++;
        v->value += v->mover == 0 ? chance0 : 1.0 - chance0;
    }
}

static double zb_mean(const zb_ctx *c, int root, zb_move move) {
    int k = zb_child(c, root, zb_move_key(move));
    return k >= 0 && c->nodes[k].visits ? c->nodes[k].value / c->nodes[k].visits : 0.0;
}

/* MCTSBot.choose after its shortcuts (one legal action; the planned figure): the move to play. ``m`` is the
 * bot's generator. Returns 0, or -1 on a failure (out of memory, a broken position). */
static int zb_mcts(zb_ctx *c, const zc_state *start, zc_mt *m, const zb_search *P, zb_result *out) {
    double started = zb_now();
    double deadline = P->seconds > 0 ? started + P->seconds : 0.0;
    memset(out, 0, sizeof *out);
    c->n_nodes = 0;
    c->n_cands = 0;
    c->children = 0;
    zc_state *S = zb_push(c, start);
    if (!S) return -1;
    int me = S->current;
    int root = zb_new_node(c, 0, 1 - me);
    if (root < 0 || zb_rank_node(c, root, S, m, P->width, P->mine) < 0 || c->failed) return -1;
    int n = c->nodes[root].n_cand;
    if (n <= 0) return -1;
    zb_move survivors[ZC_MAX_LEGAL];
    memcpy(survivors, c->cands + c->nodes[root].cand, (size_t)n * sizeof(zb_move));
    if (n == 1) { out->move = survivors[0]; out->children = c->children; zb_pop(c); return 0; }
    uint64_t lo = zc_mt_next(m), hi = zc_mt_next(m);
    uint64_t futures = hi << 32 | lo; /* getrandbits(64) */
    out->searched = 1;
    int rounds = (int)ceil(log2((double)n));
    if (rounds < 1) rounds = 1;
    int out_of_time = 0;
    zc_state *walk = zb_push(c, S);
    if (!walk) return -1;
    for (int r = 0; r < rounds; r++) {
        int visits = P->iterations / (n * rounds);
        if (visits < 1) visits = 1;
        for (int v = 0; v < visits && !out_of_time; v++) {
            for (int i = 0; i < n; i++) {
                if (deadline > 0 && zb_now() > deadline) { out_of_time = 1; break; }
                zc_copy(walk, S);
                out->iterations++;
                zb_iterate(c, P, me, root, walk, futures, survivors[i]);
                if (c->failed) return -1;
            }
        }
        /* a stable sort by mean, best first */
        double means[ZC_MAX_LEGAL];
        for (int i = 0; i < n; i++) means[i] = zb_mean(c, root, survivors[i]);
        for (int i = 1; i < n; i++) {
            zb_move x = survivors[i];
            double mx = means[i];
            int j = i - 1;
            while (j >= 0 && means[j] < mx) { survivors[j + 1] = survivors[j]; means[j + 1] = means[j]; j--; }
            survivors[j + 1] = x;
            means[j + 1] = mx;
        }
        if (out_of_time) break;
        n = n / 2 > 1 ? n / 2 : 1;
    }
    zb_pop(c);
    zb_pop(c);
    out->move = survivors[0];
    out->children = c->children;
    return 0;
}

#endif
