/* build.h - the streaming k-SF construction of the k-BLPP paper,
 * Fig. 6 (process_bl_path_id), one call per BL path ID.
 *
 * The algorithm's variables are split: the forest and the root table R
 * belong to the producer thread (struct ksf_builder), while n, tau and
 * beta belong to one routine activation (struct ksf_state), so that a call
 * does not break its caller's sequence: the caller keeps its state while
 * the callee builds its own, and finds it unchanged on return.  Starting
 * an activation is the paper's "*" marker (ksf_star).
 *
 * k = 1 has no k-SF (Definition 3 needs k >= 2; Fig. 6 would divide by
 * k - 1 = 0): every ID is then a root and counts there, which is exactly
 * Ball-Larus counting. */
#ifndef PATHPROF_KSF_BUILD_H
#define PATHPROF_KSF_BUILD_H

#include "forest.h"
#include "suffix-links.h"

#pragma GCC visibility push(hidden)

#define KSF_MAX_K 64

/* Per activation.  Built through suffix links (ksf_builder.links), tau
 * is the node of the activation's longest suffix of at most k IDs, n that
 * suffix's length, and beta is unused. */
struct ksf_state {
    uint32_t tau, beta; /* Fig. 6's top and bottom nodes, 0 = null */
    uint32_t n;         /* n mod (k - 1): IDs since the segment began */
};

struct ksf_builder {
    /* The k-SF (Fig. 6); or, with LINKS, the k-IPF itself, built through
     * suffix links (lk: the same forest, f, with its links; counts are
     * each node's own until ksf_builder_to_ipf sums them). */
    union {
        struct ksf_forest f;
        struct ksf_linked lk;
    };
    int links;
    uint32_t k;
    uint64_t events;   /* BL path IDs processed */
    uint64_t hash_ops; /* find(R, r) and root inserts, as Fig. 9 counts them */
    uint64_t lost;     /* IDs not recorded for lack of memory */
    /* The last root found: a loop's segments start with the same ID over
     * and over, so most root lookups are one compare. */
    uint64_t last_label;
    uint32_t last_root;
};

/* A builder of the k-SF, Fig. 6 (ksf-pruned, the tests of the paper's
 * figures), or with LINKS (and k >= 2; k = 1 has only roots either way)
 * of the k-IPF through suffix links (docs/kiterations.md, "Building the
 * k-IPF through suffix links"). */
int ksf_builder_init(struct ksf_builder *b, uint32_t k);
int ksf_builder_init_links(struct ksf_builder *b, uint32_t k, int links);
void ksf_builder_free(struct ksf_builder *b);

/* Fig. 6 lines 1-4: the "*" marker, an activation begins. */
static inline void ksf_star(struct ksf_state *s)
{
    s->tau = s->beta = s->n = 0;
}

uint32_t ksf_find_root(struct ksf_builder *b, uint64_t r);

/* find(R, r) inline for the two common answers: the one-entry cache (a
 * loop's segment starts) and the root in its home slot (an interpreter's
 * short calls start a segment every few events); the rest, probes and
 * inserts, out of line.  Counted as ksf_find_root counts. */
static inline __attribute__((always_inline)) uint32_t ksf_root_fast(struct ksf_builder *b,
                                                                    uint64_t r)
{
    if (b->last_label == r && b->last_root != 0) {
        b->hash_ops++;
        return b->last_root;
    }
    const struct ksf_forest *f = &b->f;
    if (__builtin_expect(f->nslots != 0, 1)) {
        const struct ksf_slot *sl = &f->slot[ksf_home_slot(f, r)];
        if (sl->label == r && sl->node != 0) {
            b->hash_ops++;
            b->last_label = r;
            b->last_root = sl->node;
            return sl->node;
        }
    }
    return ksf_find_root(b, r);
}

/* Fig. 6 on a new activation's first path R ("*": n = 0, tau = beta =
 * null): a segment starts and, with no beta, the root counts.  Returns the
 * root, or 0 when out of memory (the ID is counted lost). */
static inline __attribute__((always_inline)) uint32_t ksf_count_root(struct ksf_builder *b,
                                                                     uint64_t r)
{
    uint32_t root = ksf_root_fast(b, r);
    if (__builtin_expect(root != 0, 1))
        b->f.n[root].count++;
    else
        b->lost++;
    return root;
}

/* The step of an activation built through suffix links: from the node
 * of its longest suffix (from that node's link when the suffix already
 * has k IDs) to the child labelled R, made with its links when missing,
 * where WEIGHT counts.  Why it is exact: the n-grams (n <= k) that end at
 * this event are the suffixes of its last k IDs; the longest counts here,
 * and the summing pass adds every node's count into its link's, so each
 * shorter suffix gets it too (suffix-links.h). */
static inline __attribute__((always_inline)) uint32_t ksf_link_walk(struct ksf_builder *b,
                                                                    struct ksf_state *s,
                                                                    uint64_t r, uint64_t weight)
{
    struct ksf_forest *f = &b->f;
    /* 0 (phi: R is a root) when the activation has no ID yet */
    uint32_t base = s->n == 0 ? 0 : s->n < b->k ? s->tau : ksf_linked_link(&b->lk, s->tau);
    uint32_t c;
    if (base == 0) {
        c = ksf_root_fast(b, r);
    } else {
        c = f->n[base].child;
        if (__builtin_expect(c == 0 || f->n[c].label != r, 0))
            c = ksf_linked_child(&b->lk, base, r);
    }
    if (__builtin_expect(c == 0, 0)) {
        b->lost += weight != 0;
        ksf_star(s);
        return 0;
    }
    f->n[c].count += weight;
    s->tau = c;
    s->n += s->n < b->k;
    return c;
}

/* Fig. 6 lines 6-31 for k >= 2, without the event count (the batch loop
 * counts its events in a register: b->events is a uint64_t store that
 * the compiler could not move past the count updates). */
static inline __attribute__((always_inline)) uint32_t ksf_walk(struct ksf_builder *b,
                                                               struct ksf_state *s, uint64_t r,
                                                               uint64_t weight)
{
    if (b->links)
        return ksf_link_walk(b, s, r, weight);
    struct ksf_forest *f = &b->f;
    uint32_t tau, beta = s->beta;
    if (s->n == 0) { /* n mod (k-1) = 0: a new segment (lines 7-11) */
        beta = s->tau;
        tau = ksf_root_fast(b, r);
    } else { /* lines 13-18 */
        tau = ksf_child(f, s->tau, r);
    }
    /* Lines 20-30: the lower copy under beta counts, else the upper. */
    uint32_t counted = tau;
    if (beta != 0 && tau != 0)
        counted = beta = ksf_child(f, beta, r);
    if (__builtin_expect(counted == 0, 0)) {
        /* Out of memory: this ID is lost; restart the activation's
         * sequence so that nothing is attached to a wrong node. */
        b->lost += weight != 0;
        ksf_star(s);
        return 0;
    }
    f->n[counted].count += weight;
    s->tau = tau;
    s->beta = beta;
    if (++s->n == b->k - 1)
        s->n = 0;
    return counted;
}

/* Fig. 6 lines 6-31 for the BL path ID R of the activation whose state is
 * S, adding WEIGHT to the counted node.  WEIGHT 0 replays an item that an
 * earlier forest already counted: a stream resumed in a fresh forest (a
 * chunk handed to another worker, a new pruning epoch) is seeded with each
 * open activation's last k - 1 IDs this way, so that the n-grams ending in
 * the new part and starting before it are counted once, and only there. */
static inline uint32_t ksf_item_weighted(struct ksf_builder *b, struct ksf_state *s, uint64_t r,
                                         uint64_t weight)
{
    b->events += weight != 0;
    if (b->k == 1) {
        if (weight == 0)
            return 0; /* k = 1 has no sequence state to rebuild */
        uint32_t root = ksf_find_root(b, r);
        if (root)
            b->f.n[root].count += weight;
        else
            b->lost++;
        return root;
    }
    return ksf_walk(b, s, r, weight);
}

/* One path event of the stream: Fig. 6 as written. */
static inline void ksf_item(struct ksf_builder *b, struct ksf_state *s, uint64_t r)
{
    (void)ksf_item_weighted(b, s, r, 1);
}

/* LEN consecutive events of the one ID R in one activation (a loop that
 * iterates one path): the same counts as LEN calls of ksf_item, in at
 * most about 3(k - 1) steps, and in none when a run of R started in the
 * same state before (build.c's memo of runs: its steps are replayed as
 * count additions).  Why it is exact: once a whole segment of
 * the run has been processed, every later segment starts from the same
 * state (tau is the chain root(R) R ... R of k - 1 nodes, and beta is
 * overwritten at a segment start), so it walks the same k - 1 nodes and
 * adds 1 to each; q such segments add q to each (docs/kiterations.md,
 * "Runs of one path"). */
void ksf_run(struct ksf_builder *b, struct ksf_state *s, uint64_t r, uint64_t len);

/* Replays R (already counted elsewhere) to rebuild S's place in this
 * forest; see ksf_item_weighted. */
static inline void ksf_seed(struct ksf_builder *b, struct ksf_state *s, uint64_t r)
{
    ksf_item_weighted(b, s, r, 0);
}

#pragma GCC visibility pop

#endif
