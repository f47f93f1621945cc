/* build.c - the parts of Fig. 6 that are not on the per-event fast
 * path (build.h): set-up and the root lookup find(R, r). */
#include "build.h"

#include <stdlib.h>
#include <string.h>

int ksf_builder_init(struct ksf_builder *b, uint32_t k)
{
    memset(b, 0, sizeof *b);
    b->k = k;
    return ksf_forest_init(&b->f);
}

void ksf_builder_free(struct ksf_builder *b)
{
    ksf_forest_free(&b->f);
}

/* Fig. 6 lines 8-11: find(R, r), adding the root when missing.  Counted
 * as the paper counts hash operations (one lookup, plus one insert), even
 * when the one-entry cache answers, so that the statistic does not depend
 * on the cache. */
uint32_t ksf_find_root(struct ksf_builder *b, uint64_t r)
{
    b->hash_ops++;
    if (b->last_root != 0 && b->last_label == r)
        return b->last_root;
    int inserted;
    uint32_t root = ksf_root(&b->f, r, &inserted);
    b->hash_ops += (uint64_t)inserted;
    if (root != 0) {
        b->last_label = r;
        b->last_root = root;
    }
    return root;
}

/* The memo of runs (docs/kiterations.md, "Runs of one path").  A run of
 * the path R that starts in the state (tau, beta, n) walks the same nodes
 * whenever it starts in that state again: a child lookup finds the node
 * it created the first time, and nodes are never moved or freed while the
 * forest lives (clearing it bumps its gen, which voids the memo).  After
 * o + (k - 1) steps (o: the steps to the next segment start) every
 * segment walks the same k - 1 nodes (build.h, ksf_run), so the first
 * o + 2(k - 1) steps of a run are all there is to remember: the node
 * each step counted and the state it left.  A loop entered the same way
 * each time (the common case: the same code runs before it) then costs
 * one count addition per event and no lookup; a state seen for the first
 * time costs the walk it always did, recorded on the way.
 *
 * Direct-mapped: a new (R, state) overwrites whatever had its slot, so
 * the memo stays small (MEMO_SLOTS entries of 12 bytes per step) and a
 * miss costs only the walk. */
#define MEMO_BITS 6
#define MEMO_SLOTS (1u << MEMO_BITS)

struct memo_entry {
    uint64_t r;
    uint32_t tau, beta, n; /* the state the run starts in */
    uint32_t known;        /* steps recorded in the arrays, 0 = none */
};

struct run_memo {
    uint32_t gen; /* the forest's gen when filled */
    uint32_t cap; /* steps an entry records: 3(k - 1) */
    /* Then MEMO_SLOTS entries, each followed by cap counted nodes, cap
     * tau and cap beta values (step j's after-state). */
};

static size_t memo_stride(uint32_t cap)
{
    /* rounded up to 8 bytes: the next entry starts with a uint64_t */
    return (sizeof(struct memo_entry) + 3 * (size_t)cap * sizeof(uint32_t) + 7) & ~(size_t)7;
}

static struct memo_entry *memo_slot(struct run_memo *m, uint32_t i)
{
    return (struct memo_entry *)((char *)(m + 1) + (size_t)i * memo_stride(m->cap));
}

/* The memo of B's forest, allocated or voided as needed; NULL when out of
 * memory (runs are then walked as without it). */
static struct run_memo *run_memo(struct ksf_builder *b)
{
    struct run_memo *m = b->f.run_memo;
    if (m == NULL) {
        uint32_t cap = 3 * (b->k - 1);
        m = malloc(sizeof *m + MEMO_SLOTS * memo_stride(cap));
        if (m == NULL)
            return NULL;
        m->cap = cap;
        m->gen = b->f.gen + 1; /* voided just below */
        b->f.run_memo = m;
    }
    if (m->gen != b->f.gen) {
        for (uint32_t i = 0; i < MEMO_SLOTS; i++)
            memo_slot(m, i)->known = 0;
        m->gen = b->f.gen;
    }
    return m;
}

/* Steps j in [0, X) that start a segment, for a run whose first segment
 * start is at step O: j = O, O + seg, ... */
static uint64_t starts_before(uint64_t x, uint64_t o, uint64_t seg)
{
    return x > o ? (x - o - 1) / seg + 1 : 0;
}

/* The run of LEN >= 1 paths R from S through the memo entry E (its key
 * already S's state; K recorded steps may be 0).  Returns 0, or -1 when
 * out of memory after DONE steps (the entry is then void). */
static int run_memo_walk(struct ksf_builder *b, struct ksf_state *s, struct run_memo *m,
                         struct memo_entry *e, uint64_t r, uint64_t len, uint64_t *done)
{
    struct ksf_node *n = b->f.n;
    const uint64_t seg = b->k - 1, o = s->n == 0 ? 0 : seg - s->n, full = o + 2 * seg;
    uint32_t *cnt = (uint32_t *)(e + 1), *tau = cnt + m->cap, *beta = tau + m->cap;
    uint64_t known = e->known, replay = len < known ? len : known;
    /* Recorded steps: one addition each. */
    for (uint64_t j = 0; j < replay; j++)
        n[cnt[j]].count++;
    b->hash_ops += starts_before(replay, o, seg);
    uint64_t j = replay;
    if (j < len && j < full) {
        /* Steps not yet recorded: walked, and recorded on the way. */
        struct ksf_state st = {.tau = tau[j - 1], .beta = beta[j - 1], .n = (uint32_t)((s->n + j) % seg)};
        if (j == 0)
            st = *s;
        uint64_t stop = len < full ? len : full;
        for (; j < stop; j++) {
            uint32_t c = ksf_walk(b, &st, r, 1);
            if (c == 0) { /* out of memory: ksf_walk reset the state */
                e->known = 0;
                *s = st;
                *done = j + 1;
                return -1;
            }
            cnt[j] = c;
            tau[j] = st.tau;
            beta[j] = st.beta;
        }
        e->known = (uint32_t)j;
        n = b->f.n; /* the walk may have moved the array */
    }
    if (len > full) {
        /* Steady segments: step full + i counts the node of step
         * o + seg + (i mod seg). */
        uint64_t rest = len - full, q = rest / seg, rem = rest % seg;
        for (uint64_t i = 0; i < seg; i++)
            n[cnt[o + seg + i]].count += q + (i < rem);
        b->hash_ops += starts_before(len, o, seg) - starts_before(full, o, seg);
    }
    /* The state after the last step: a step with the same phase in the
     * recorded steady segment left the same state. */
    uint64_t last = len <= full ? len - 1 : o + seg + (len - 1 - o - seg) % seg;
    s->tau = tau[last];
    s->beta = beta[last];
    s->n = (uint32_t)((s->n + len) % seg);
    *done = len;
    return 0;
}

void ksf_run(struct ksf_builder *b, struct ksf_state *s, uint64_t r, uint64_t len)
{
    if (len == 0)
        return;
    struct run_memo *m = b->k > 1 ? run_memo(b) : NULL;
    if (m != NULL) {
        uint64_t h = (r ^ ((uint64_t)s->tau << 20) ^ ((uint64_t)s->beta << 40) ^ s->n) * 0x9E3779B97F4A7C15ull;
        struct memo_entry *e = memo_slot(m, (uint32_t)(h >> (64 - MEMO_BITS)));
        if (e->known == 0 || e->r != r || e->tau != s->tau || e->beta != s->beta || e->n != s->n)
            *e = (struct memo_entry){.r = r, .tau = s->tau, .beta = s->beta, .n = s->n, .known = 0};
        uint64_t done = 0;
        b->events += len;
        if (run_memo_walk(b, s, m, e, r, len, &done) == 0)
            return;
        for (; done < len; done++) /* out of memory: one by one */
            (void)ksf_walk(b, s, r, 1);
        return;
    }
    ksf_run_stepped(b, s, r, len);
}

/* ksf_run without the memo (k = 1, or no memory for it). */
void ksf_run_stepped(struct ksf_builder *b, struct ksf_state *s, uint64_t r, uint64_t len)
{
    uint64_t seg = b->k > 1 ? b->k - 1 : 1, done = 0;
    /* Step until a segment starts whose predecessor lies wholly in the
     * run (k = 1: at once, every event counts at the root). */
    while (done < len && !(s->n == 0 && done >= seg - (b->k == 1))) {
        ksf_item(b, s, r);
        done++;
    }
    if (len - done >= 2 * seg) {
        /* One segment walked for real, its counted nodes remembered. */
        uint32_t counted[KSF_MAX_K];
        uint64_t j = 0;
        for (; j < seg; j++) {
            counted[j] = ksf_item_weighted(b, s, r, 1);
            if (counted[j] == 0)
                break; /* out of memory: the state was reset, go on one by one */
        }
        done += j;
        if (j == seg) {
            uint64_t q = (len - done) / seg;
            for (j = 0; j < seg; j++)
                b->f.n[counted[j]].count += q;
            b->events += q * seg;
            /* Fig. 9's statistic as if each segment had been walked: one
             * find(R, r) per segment. */
            b->hash_ops += q;
            done += q * seg;
        }
    }
    for (; done < len; done++)
        ksf_item(b, s, r);
}
