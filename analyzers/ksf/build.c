/* build.c - the parts of Fig. 6 that are not on the per-event fast
 * path (build.h): set-up and the root lookup find(R, r). */
#include "build.h"

#include <stdlib.h>
#include <string.h>

int ksf_builder_init_links(struct ksf_builder *b, uint32_t k, int links)
{
    memset(b, 0, sizeof *b);
    b->k = k;
    b->links = links && k >= 2;
    if (b->links)
        return ksf_linked_init(&b->lk, 0, 0);
    return ksf_forest_init(&b->f);
}

int ksf_builder_init(struct ksf_builder *b, uint32_t k)
{
    return ksf_builder_init_links(b, k, 0);
}

void ksf_builder_free(struct ksf_builder *b)
{
    if (b->links)
        ksf_linked_free(&b->lk);
    else
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
    uint32_t root;
    if (b->links) {
        /* A root of the linked forest: its link (phi) set with it. */
        uint32_t had = b->f.nroots;
        root = ksf_linked_child(&b->lk, 0, r);
        inserted = b->f.nroots != had;
    } else {
        root = ksf_root(&b->f, r, &inserted);
    }
    b->hash_ops += (uint64_t)inserted;
    if (root != 0) {
        b->last_label = r;
        b->last_root = root;
    }
    return root;
}

/* The memo of runs (docs/kiterations.md, "The memo of runs").  A run of
 * the path R that starts in the state (tau, beta, n) walks the same nodes
 * whenever it starts in that state again: a child lookup finds the node
 * it created the first time, and nodes are never moved or freed while
 * the forest lives (clearing it bumps its gen, which voids the memo).
 * After o + (k - 1) steps (o: the steps to the next segment start) every
 * segment walks the same k - 1 nodes (build.h, ksf_run), so the first
 * o + 2(k - 1) steps of a run are all there is to remember: the node
 * each step counted and the state it left.  A loop entered the same way
 * each time (the common case: the same code runs before it) then costs
 * one count addition per event and no lookup; a state seen for the first
 * time costs the walk it always did, recorded on the way.
 *
 * Direct-mapped: a new (R, state) overwrites whatever had its slot.  The
 * number of slots is what MEMO_BYTES holds, between 64 and 1024 (k = 8:
 * 512 slots; flac's encoder has about 10^4 distinct keys over its run,
 * and 64 slots missed 29% of its runs, 256 slots 1.7%, 1024 slots 0.8%).
 * A run costs no division unless it is longer than the recorded steps:
 * the segment starts and the phase of each step are recorded too. */
#define MEMO_BYTES (256u << 10)
#define MEMO_MIN_BITS 6
#define MEMO_MAX_BITS 10

struct memo_entry {
    uint64_t r;
    uint32_t tau, beta, n; /* the state the run starts in */
    uint32_t known;        /* steps recorded in the arrays, 0 = none */
};

/* An entry's recorded steps j = 0 .. known - 1: */
struct memo_steps {
    uint32_t *cnt, *tau, *beta; /* the node step j counted, the state it left */
    uint8_t *n;                 /* the state's n after step j (k <= 64) */
    uint8_t *starts;            /* segment starts among steps 0 .. j */
};

struct run_memo {
    uint32_t gen;  /* the forest's gen when filled */
    uint32_t cap;  /* steps an entry records: 3(k - 1) */
    uint32_t bits; /* log2 of the number of slots */
    uint32_t stride;
    /* Then the slots: an entry, cap cnt, tau and beta words, cap n and
     * cap starts bytes, rounded up to 8 bytes. */
};

static size_t memo_stride(uint32_t cap)
{
    return (sizeof(struct memo_entry) + (size_t)cap * (3 * sizeof(uint32_t) + 2) + 7) & ~(size_t)7;
}

static struct memo_entry *memo_slot(struct run_memo *m, uint32_t i)
{
    return (struct memo_entry *)((char *)(m + 1) + (size_t)i * m->stride);
}

static struct memo_steps memo_steps(const struct run_memo *m, struct memo_entry *e)
{
    struct memo_steps st;
    st.cnt = (uint32_t *)(e + 1);
    st.tau = st.cnt + m->cap;
    st.beta = st.tau + m->cap;
    st.n = (uint8_t *)(st.beta + m->cap);
    st.starts = st.n + m->cap;
    return st;
}

/* The memo of B's forest, allocated or voided as needed; NULL when out of
 * memory (runs are then walked as without it). */
static struct run_memo *run_memo(struct ksf_builder *b)
{
    struct run_memo *m = b->f.run_memo;
    if (m == NULL) {
        uint32_t cap = 3 * (b->k - 1), stride = (uint32_t)memo_stride(cap), bits = MEMO_MIN_BITS;
        while (bits < MEMO_MAX_BITS && ((size_t)stride << (bits + 1)) <= MEMO_BYTES)
            bits++;
        m = malloc(sizeof *m + ((size_t)stride << bits));
        if (m == NULL)
            return NULL;
        m->cap = cap;
        m->bits = bits;
        m->stride = stride;
        m->gen = b->f.gen + 1; /* voided just below */
        b->f.run_memo = m;
    }
    if (m->gen != b->f.gen) {
        for (uint32_t i = 0; i < (1u << m->bits); i++)
            memo_slot(m, i)->known = 0;
        m->gen = b->f.gen;
    }
    return m;
}

/* The run of LEN >= 1 paths R from S through the memo entry E (its key
 * S's state; it may have no step recorded yet).  Out of memory, the entry
 * is voided and the rest of the run goes one step at a time. */
static void run_memo_walk(struct ksf_builder *b, struct ksf_state *s, const struct run_memo *m,
                          struct memo_entry *e, uint64_t r, uint64_t len)
{
    struct ksf_node *n = b->f.n;
    const uint32_t seg = b->k - 1, o = s->n == 0 ? 0 : seg - s->n, full = o + 2 * seg;
    struct memo_steps st = memo_steps(m, e);
    uint64_t replay = len < e->known ? len : e->known;
    /* Recorded steps: one addition each. */
    for (uint64_t j = 0; j < replay; j++)
        n[st.cnt[j]].count++;
    if (replay)
        b->hash_ops += st.starts[replay - 1];
    uint64_t j = replay;
    if (j < len && j < full) {
        /* Steps not yet recorded: walked, and recorded on the way (the
         * walk counts its own hash operations). */
        struct ksf_state w = *s;
        if (j > 0)
            w = (struct ksf_state){.tau = st.tau[j - 1], .beta = st.beta[j - 1], .n = st.n[j - 1]};
        uint64_t stop = len < full ? len : full;
        for (; j < stop; j++) {
            uint8_t starts = (uint8_t)((j ? st.starts[j - 1] : 0) + (w.n == 0));
            uint32_t c = ksf_walk(b, &w, r, 1);
            if (c == 0) { /* out of memory: ksf_walk reset the state */
                e->known = 0;
                *s = w;
                for (j++; j < len; j++)
                    (void)ksf_walk(b, s, r, 1);
                return;
            }
            st.cnt[j] = c;
            st.tau[j] = w.tau;
            st.beta[j] = w.beta;
            st.n[j] = (uint8_t)w.n;
            st.starts[j] = starts;
        }
        e->known = (uint32_t)j;
        n = b->f.n; /* the walk may have moved the array */
    }
    uint64_t last = len - 1;
    if (len > full) {
        /* Steady segments: step full + i counts the node of step
         * o + seg + (i mod seg), and every seg-th one, from full on,
         * starts a segment (n + full is a multiple of seg). */
        uint64_t rest = len - full, q = rest / seg, rem = rest - q * seg;
        for (uint32_t i = 0; i < seg; i++)
            n[st.cnt[o + seg + i]].count += q + (i < rem);
        b->hash_ops += q + (rem != 0);
        /* The last step's state: the recorded step of the same phase. */
        last = o + seg + (rem == 0 ? seg - 1 : rem - 1);
    }
    s->tau = st.tau[last];
    s->beta = st.beta[last];
    s->n = st.n[last];
}

/* ksf_run without the memo (k = 1, or no memory for it). */
static void run_stepped(struct ksf_builder *b, struct ksf_state *s, uint64_t r, uint64_t len)
{    uint64_t seg = b->k > 1 ? b->k - 1 : 1, done = 0;
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

/* ksf_run built through links: after k steps of R the longest suffix is
 * R^k, whose link is R^(k - 1), whose child R is R^k again: every later
 * step counts at R^k, so they are one addition. */
static void run_linked(struct ksf_builder *b, struct ksf_state *s, uint64_t r, uint64_t len)
{
    uint64_t j = 0;
    b->events += len;
    for (; j < len && j < b->k; j++)
        if (ksf_link_walk(b, s, r, 1) == 0) {
            for (j++; j < len; j++)
                (void)ksf_link_walk(b, s, r, 1);
            return;
        }
    if (j < len)
        b->f.n[s->tau].count += len - j;
}

void ksf_run(struct ksf_builder *b, struct ksf_state *s, uint64_t r, uint64_t len)
{
    if (len == 0)
        return;
    if (b->links) {
        run_linked(b, s, r, len);
        return;
    }
    struct run_memo *m = b->k > 1 ? run_memo(b) : NULL;
    if (m != NULL) {
        uint64_t h = (r ^ ((uint64_t)s->tau << 20) ^ ((uint64_t)s->beta << 40) ^ s->n) * 0x9E3779B97F4A7C15ull;
        struct memo_entry *e = memo_slot(m, (uint32_t)(h >> (64 - m->bits)));
        if (e->known == 0 || e->r != r || e->tau != s->tau || e->beta != s->beta || e->n != s->n)
            *e = (struct memo_entry){.r = r, .tau = s->tau, .beta = s->beta, .n = s->n, .known = 0};
        b->events += len;
        run_memo_walk(b, s, m, e, r, len);
        return;
    }
    run_stepped(b, s, r, len);
}
