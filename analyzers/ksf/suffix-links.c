/* suffix-links.c - a k-IPF built through suffix links (suffix-links.h). */
#include "suffix-links.h"

#include <stdlib.h>
#include <string.h>

int ksf_linked_init(struct ksf_linked *l, uint32_t max_nodes, uint32_t nslots)
{
    memset(l, 0, sizeof *l);
    if (max_nodes == 0) {
        if (ksf_forest_init(&l->f) != 0)
            return -1;
    } else {
        l->f.len = 1;
        if (max_nodes < 2 || ksf_forest_resize(&l->f, max_nodes, nslots) != 0) {
            ksf_forest_free(&l->f);
            return -1;
        }
        l->max_nodes = max_nodes;
    }
    l->link = malloc((size_t)l->f.cap * sizeof *l->link);
    if (l->link == NULL) {
        ksf_forest_free(&l->f);
        return -1;
    }
    l->link_cap = l->f.cap;
    return 0;
}

void ksf_linked_free(struct ksf_linked *l)
{
    ksf_forest_free(&l->f);
    free(l->link);
    l->link = NULL;
    l->link_cap = 0;
    free(l->kid);
    l->kid = NULL;
    l->kid_mask = l->nkid = l->kid_grows = 0;
}

/* The child table's smallest size, what ksf_linked_add_ksf sizes it for
 * first, and how often a full table grows before it is dropped.
 *
 * The k-IPF may be far smaller than the k-SF (bzip2, k = 8: 2.5 M k-IPF
 * nodes for 14.3 M k-SF nodes), about as large (libjpeg-turbo's jpegtran,
 * k = 8: 1.9 M for 2.0 M) or far larger (k = 16 there: 14.1 M for 3.1 M).
 * A table sized for the k-SF's nodes was 268 MB on bzip2 for 2.5 M pairs:
 * every page of it faulted in and cleared, and a TLB miss a probe.  So it
 * starts at a quarter of that and grows once, at its first fill, straight
 * to the k-SF's size (the rehash reads each pair's node again, a cache
 * miss each, but only the quarter's); when that fills too, the table is
 * dropped and the rest is found through the lists: growing on from there
 * made the k = 16 conversion 1.7x slower than the lists alone.  The
 * colliding test build (below) starts it tiny and lets it grow a few
 * times, so that the rehash and the drop both run. */
#ifdef KSF_LINKED_TEST_COLLIDE
#define KID_MIN 4u
#define KID_PRESIZE(nodes) ((void)(nodes), 1u)
#define KID_GROWS 4
#else
#define KID_MIN 1024u
#define KID_PRESIZE(nodes) ((nodes) / 4)
#define KID_GROWS 1
#endif

/* The home slot of the child labelled LABEL under PARENT. */
static inline uint32_t kid_home(const struct ksf_linked *l, uint32_t parent, uint64_t label)
{
    uint64_t h = (label * 0x9E3779B97F4A7C15ull + parent) * 0xBF58476D1CE4E5B9ull;
#ifdef KSF_LINKED_TEST_COLLIDE
    /* tests/ksf-unit.t's second build: 64 home slots, so that a lookup's
     * probe meets other parents' children and its parent's other
     * children (with a sparse table it almost never does) */
    h &= 63ull << 32;
#endif
    return (uint32_t)(h >> 32) & l->kid_mask;
}

/* The child table with room for NODES pairs at a load of at most 3/4,
 * every pair held put back; -1 when out of memory (the old table stays). */
static int kid_reserve(struct ksf_linked *l, uint64_t nodes)
{
    uint64_t want = KID_MIN;
    while (want * 3 / 4 < nodes)
        want *= 2;
    if (want - 1 <= l->kid_mask || want > (1ull << 32))
        return 0;
    uint64_t *t = calloc(want, sizeof *t);
    if (t == NULL)
        return -1;
    ksf_huge_pages(t, (size_t)want * sizeof *t);
    uint64_t *old = l->kid;
    uint64_t nold = l->kid ? (uint64_t)l->kid_mask + 1 : 0;
    l->kid = t;
    l->kid_mask = (uint32_t)(want - 1);
    for (uint64_t i = 0; i < nold; i++) {
        uint64_t e = old[i];
        if (e == 0)
            continue;
        uint32_t j = kid_home(l, (uint32_t)e, l->f.n[e >> 32].label);
        while (t[j] != 0)
            j = (j + 1) & l->kid_mask;
        t[j] = e;
    }
    free(old);
    return 0;
}

/* The child of B labelled LABEL through the table, or 0. */
static inline uint32_t kid_find(const struct ksf_linked *l, uint32_t b, uint64_t label)
{
    for (uint32_t j = kid_home(l, b, label);; j = (j + 1) & l->kid_mask) {
        uint64_t e = l->kid[j];
        if (e == 0)
            return 0;
        if ((uint32_t)e == b && l->f.n[e >> 32].label == label)
            return (uint32_t)(e >> 32);
    }
}

/* Stops using the table: the lists hold every child too. */
static void kid_drop(struct ksf_linked *l)
{
    free(l->kid);
    l->kid = NULL;
    l->kid_mask = l->nkid = 0;
}

/* C, just made under B, into the table, or the table dropped when it is
 * full (KID_GROWS above). */
static void kid_add(struct ksf_linked *l, uint32_t b, uint32_t c)
{
    if ((uint64_t)(l->nkid + 1) * 4 > ((uint64_t)l->kid_mask + 1) * 3) {
        uint64_t want = (uint64_t)l->nkid * 2 + 2;
        uint32_t mask = l->kid_mask;
        if (want < l->kid_full)
            want = l->kid_full;
        if ((int)l->kid_grows - KID_GROWS >= 0 || kid_reserve(l, want) != 0 ||
            l->kid_mask == mask) {
            kid_drop(l);
            return;
        }
        l->kid_grows++;
    }
    uint32_t j = kid_home(l, b, l->f.n[c].label);
    while (l->kid[j] != 0)
        j = (j + 1) & l->kid_mask;
    l->kid[j] = b | (uint64_t)c << 32;
    l->nkid++;
}

int ksf_linked_use_table(struct ksf_linked *l, uint64_t pairs, uint64_t full)
{
    if (l->max_nodes != 0)
        return -1;
    l->kid_full = full;
    return kid_reserve(l, pairs);
}

size_t ksf_linked_bytes(uint32_t max_nodes, uint32_t nslots)
{
    return (size_t)max_nodes * (sizeof(struct ksf_node) + sizeof(uint32_t)) +
           (size_t)nslots * sizeof(struct ksf_slot);
}

/* The link array follows the node array's capacity: grown with it when
 * a new node doubled it, or after a reserve or resize from outside. */
int ksf_linked_fit(struct ksf_linked *l)
{
    if (l->link_cap == l->f.cap)
        return 0;
    uint32_t *v = realloc(l->link, (size_t)l->f.cap * sizeof *v);
    if (v == NULL) {
        l->f.failed = 1;
        return -1;
    }
    ksf_huge_pages(v, (size_t)l->f.cap * sizeof *v);
    l->link = v;
    l->link_cap = l->f.cap;
    return 0;
}

size_t ksf_linked_held(const struct ksf_linked *l)
{
    return ksf_forest_bytes(&l->f) + (size_t)l->link_cap * sizeof *l->link;
}

static uint32_t root(struct ksf_linked *l, uint64_t label)
{
    struct ksf_forest *f = &l->f;
    if (l->max_nodes) {
        uint32_t r = ksf_root_find(f, label);
        if (r != 0)
            return r;
        if (f->len >= l->max_nodes || 2 * (f->nroots + 1) > f->nslots) {
            l->full = 1;
            return 0;
        }
    }
    int inserted;
    uint32_t r = ksf_root(f, label, &inserted);
    if (r == 0 || ksf_linked_fit(l) != 0)
        return 0;
    if (inserted)
        l->link[r] = 0;
    return r;
}

uint32_t ksf_linked_child(struct ksf_linked *l, uint32_t b, uint64_t label)
{
    if (b == 0)
        return root(l, label);
    struct ksf_forest *f = &l->f;
    if (l->kid != NULL) {
        uint32_t c = kid_find(l, b, label);
        if (c != 0)
            return c;
    } else {
        for (uint32_t prev = 0, c = f->n[b].child; c != 0; prev = c, c = f->n[c].sibling) {
            if (f->n[c].label != label)
                continue;
            /* Move to front in the growable forest (the exact conversion):
             * 15-20% off its lists' time at k = 16 on jpegtran.  Not in
             * the budgeted scratch, whose drain walks children in list
             * order into Space-Saving summaries, where order can matter. */
            if (prev != 0 && l->max_nodes == 0) {
                f->n[prev].sibling = f->n[c].sibling;
                f->n[c].sibling = f->n[b].child;
                f->n[b].child = c;
            }
            return c;
        }
    }
    /* The link first, so that it gets the smaller index. */
    uint32_t ln = ksf_linked_child(l, l->link[b], label);
    if (ln == 0)
        return 0;
    if (l->max_nodes && f->len >= l->max_nodes) {
        l->full = 1;
        return 0;
    }
    uint32_t c = ksf_new_node(f, label);
    if (c == 0 || ksf_linked_fit(l) != 0)
        return 0;
    f->n[c].sibling = f->n[b].child;
    f->n[b].child = c;
    l->link[c] = ln;
    if (l->kid != NULL)
        kid_add(l, b, c);
    return c;
}

void ksf_linked_sum(struct ksf_linked *l)
{
    struct ksf_node *n = l->f.n;
    for (uint32_t t = l->f.len - 1; t >= 1; t--)
        if (l->link[t] != 0)
            n[l->link[t]].count += n[t].count;
}

void ksf_linked_clear(struct ksf_linked *l)
{
    ksf_forest_clear(&l->f);
    l->full = 0;
    if (l->kid != NULL)
        memset(l->kid, 0, ((size_t)l->kid_mask + 1) * sizeof *l->kid);
    l->nkid = 0;
}

/* One frame of the depth-first walk of the k-SF. */
struct walk {
    uint32_t sf;     /* the k-SF node */
    uint32_t parent; /* the k-IPF node of its parent's longest suffix (0: phi) */
    uint32_t depth;  /* its depth in the k-SF, from 1 */
};

struct roots {
    struct walk *stack;
    size_t n;
};

static void push_root(uint32_t r, void *ctx)
{
    struct roots *s = ctx;
    s->stack[s->n++] = (struct walk){r, 0, 1};
}

int ksf_linked_add_ksf(struct ksf_linked *l, const struct ksf_forest *ksf, uint32_t k,
                       struct ksf_level *levels, uint32_t nlevels)
{
    /* Every k-SF node is pushed once: the stack never holds more. */
    struct walk *stack = malloc(((size_t)ksf->len + 1) * sizeof *stack);
    if (stack == NULL) {
        l->f.failed = 1;
        return -1;
    }
    /* A quarter of the k-SF's nodes first, all of them at the first fill
     * (KID_PRESIZE above). */
    l->kid_full = (uint64_t)l->f.len + ksf->len;
    if (l->max_nodes != 0 || kid_reserve(l, KID_PRESIZE(l->kid_full)) != 0) {
        free(stack);
        l->f.failed = 1;
        return -1;
    }
    struct roots r = {stack, 0};
    ksf_each_root(ksf, push_root, &r);
    size_t n = r.n;
    while (n > 0) {
        struct walk w = stack[--n];
        /* v's longest suffix (at most k labels) extends its parent's by
         * v's label: under the parent's node while the parent's depth is
         * below k, else under that node's link (its last k - 1 labels). */
        uint32_t base = w.depth - 1 < k ? w.parent : l->link[w.parent];
        uint32_t t = ksf_linked_child(l, base, ksf->n[w.sf].label);
        if (t == 0)
            break; /* out of memory: l->f.failed says so */
        l->f.n[t].count += ksf->n[w.sf].count;
        size_t before = n;
        for (uint32_t c = ksf->n[w.sf].child; c != 0; c = ksf->n[c].sibling)
            stack[n++] = (struct walk){c, t, w.depth + 1};
        if (levels) {
            /* Deeper than 2k - 3 cannot happen (Definition 3); clamp anyway. */
            struct ksf_level *lv = &levels[w.depth - 1 < nlevels ? w.depth - 1 : nlevels - 1];
            lv->nodes++;
            lv->internal += n != before;
            lv->children += n - before;
        }
    }
    free(stack);
    return l->f.failed ? -1 : 0;
}
