/* suffix-links.c - a k-IPF built through suffix links (suffix-links.h). */
#include "suffix-links.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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
    return 0;
}

void ksf_linked_free(struct ksf_linked *l)
{
    ksf_forest_free(&l->f);
    free(l->link);
    l->link = NULL;
    free(l->kid);
    l->kid = NULL;
    l->kid_mask = l->nkid = l->kid_grows = 0;
}

/* The child table's smallest size, what ksf_linked_add_ksf sizes it for,
 * and how often a full table grows before it is dropped.  Sized for the
 * k-SF's node count, it holds the whole k-IPF when the k-IPF is no larger
 * (libjpeg-turbo's jpegtran, k = 8: 1.9 M k-IPF nodes for 2.0 M k-SF
 * nodes); when the k-IPF is larger (k = 16 there: 14.1 M for 3.1 M) the
 * table is dropped and the rest is found through the lists: growing
 * reads every pair's node again, a cache miss each, and made that
 * conversion 1.7x slower than the lists alone.  The colliding test build
 * (below) starts it tiny and lets it grow a few times, so that the rehash
 * and the drop both run. */
#ifdef KSF_LINKED_TEST_COLLIDE
#define KID_MIN 4u
#define KID_PRESIZE(nodes) ((void)(nodes), 1u)
#define KID_GROWS 4
#else
#define KID_MIN 1024u
#define KID_PRESIZE(nodes) (nodes)
#define KID_GROWS 0
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

/* N zeroed slots.  A table of millions is read at random, one slot a
 * lookup: on 4 KiB pages nearly every lookup also misses the TLB (a
 * two-dimensional page walk in a virtual machine), so a large one asks
 * for huge pages, where the kernel allows them (transparent huge pages
 * "madvise" or "always"; elsewhere the advice is ignored).  jpegtran's
 * conversion at k = 8, 4 M slots: 0.90 -> 0.60-0.75 s. */
static struct ksf_kid *kid_alloc(uint64_t n)
{
    const size_t huge = (size_t)2 << 20;
    size_t bytes = (size_t)n * sizeof(struct ksf_kid);
    if (bytes < 2 * huge)
        return calloc(n, sizeof(struct ksf_kid));
    bytes = (bytes + huge - 1) & ~(huge - 1);
    struct ksf_kid *t = aligned_alloc(huge, bytes);
    if (t != NULL) {
        (void)madvise(t, bytes, MADV_HUGEPAGE);
        memset(t, 0, bytes);
    }
    return t;
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
    struct ksf_kid *t = kid_alloc(want);
    if (t == NULL)
        return -1;
    struct ksf_kid *old = l->kid;
    uint64_t nold = l->kid ? (uint64_t)l->kid_mask + 1 : 0;
    l->kid = t;
    l->kid_mask = (uint32_t)(want - 1);
    for (uint64_t i = 0; i < nold; i++) {
        if (old[i].child == 0)
            continue;
        uint32_t j = kid_home(l, old[i].parent, old[i].label);
        while (t[j].child != 0)
            j = (j + 1) & l->kid_mask;
        t[j] = old[i];
    }
    free(old);
    return 0;
}

/* The child of B labelled LABEL through the table, or 0. */
static inline uint32_t kid_find(const struct ksf_linked *l, uint32_t b, uint64_t label)
{
    for (uint32_t j = kid_home(l, b, label);; j = (j + 1) & l->kid_mask) {
        const struct ksf_kid *e = &l->kid[j];
        if (e->child == 0)
            return 0;
        if (e->parent == b && e->label == label)
            return e->child;
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
        if ((int)l->kid_grows - KID_GROWS >= 0 || kid_reserve(l, (uint64_t)l->nkid * 2 + 2) != 0) {
            kid_drop(l);
            return;
        }
        l->kid_grows++;
    }
    uint64_t label = l->f.n[c].label;
    uint32_t j = kid_home(l, b, label);
    while (l->kid[j].child != 0)
        j = (j + 1) & l->kid_mask;
    l->kid[j] = (struct ksf_kid){label, b, c};
    l->nkid++;
}

size_t ksf_linked_bytes(uint32_t max_nodes, uint32_t nslots)
{
    return (size_t)max_nodes * (sizeof(struct ksf_node) + sizeof(uint32_t)) +
           (size_t)nslots * sizeof(struct ksf_slot);
}

/* The link array follows the node array's capacity (growable forests). */
static int link_room(struct ksf_linked *l, uint32_t old_cap)
{
    if (l->f.cap == old_cap)
        return 0;
    uint32_t *v = realloc(l->link, (size_t)l->f.cap * sizeof *v);
    if (v == NULL) {
        l->f.failed = 1;
        return -1;
    }
    l->link = v;
    return 0;
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
    uint32_t old_cap = f->cap;
    int inserted;
    uint32_t r = ksf_root(f, label, &inserted);
    if (r == 0 || link_room(l, old_cap) != 0)
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
    uint32_t old_cap = f->cap;
    uint32_t c = ksf_new_node(f, label);
    if (c == 0 || link_room(l, old_cap) != 0)
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

/* How far ahead the conversion prefetches a k-SF node's lookup, and how
 * long a count waits for the k-IPF node it goes to (both in k-SF nodes). */
enum { LOOK_AHEAD = 16, ADD_LATE = 8 };

/* Node I's parent in the k-SF, for every node (0 for a root).  A child is
 * only ever made under a node that exists, so a parent's index is below
 * its children's: -1 if that ever failed, and the index order could not
 * stand in for the walk from the roots. */
static int ksf_parents(const struct ksf_forest *ksf, uint32_t *parent)
{
    const struct ksf_node *n = ksf->n;
    for (uint32_t i = 1; i < ksf->len; i++) {
        if (i + LOOK_AHEAD < ksf->len)
            __builtin_prefetch(&n[n[i + LOOK_AHEAD].child]);
        for (uint32_t c = n[i].child; c != 0; c = n[c].sibling) {
            if (c <= i || c >= ksf->len)
                return -1;
            parent[c] = i;
        }
    }
    return 0;
}

/* The k-IPF node under which node I's longest suffix of at most k labels
 * goes: its parent's node while the parent's depth is below k, else under
 * that node's link (its last k - 1 labels). */
static inline uint32_t suffix_base(const struct ksf_linked *l, const uint32_t *tmap,
                                   const uint8_t *depth, uint32_t p, uint32_t k)
{
    return depth[p] < k ? tmap[p] : l->link[tmap[p]];
}

/* Where node J's lookup will read, brought in over four steps, each
 * STAGE nodes before the next, so that every load it makes was brought in
 * by the step before (the parent's k-IPF node, the link of the node the
 * suffix goes under, the table slots).  Most lookups make a node (the
 * k-IPF holds 93% as many nodes as the k-SF on jpegtran), so the lookup
 * of its link, one level up, is brought in too.  Steps past the first
 * need the parent's k-IPF node: the parent is a level up. */
enum { STAGE = 8 };

static inline void prefetch_slot(const struct ksf_linked *l, uint32_t b, uint64_t label)
{
    if (b == 0)
        __builtin_prefetch(&l->f.slot[ksf_home_slot(&l->f, label)]);
    else if (l->kid != NULL)
        __builtin_prefetch(&l->kid[kid_home(l, b, label)]);
    else
        __builtin_prefetch(&l->f.n[b]);
}

static inline void prefetch_lookup(const struct ksf_linked *l, const struct ksf_forest *ksf,
                                   const uint32_t *parent, const uint32_t *tmap,
                                   const uint8_t *depth, uint32_t j, uint32_t step, uint32_t k)
{
    uint32_t p = parent[j];
    if (step == 3) {
        __builtin_prefetch(&tmap[p]);
        __builtin_prefetch(&ksf->n[j]);
        return;
    }
    if (step == 2) {
        if (depth[p] >= k)
            __builtin_prefetch(&l->link[tmap[p]]);
        return;
    }
    uint32_t b = suffix_base(l, tmap, depth, p, k);
    if (step == 1) {
        prefetch_slot(l, b, ksf->n[j].label);
        __builtin_prefetch(&l->link[b]);
    } else if (b != 0) {
        prefetch_slot(l, l->link[b], ksf->n[j].label);
    }
}

/* The k-SF's nodes level by level (roots first), each level in index
 * order, into ORDER; DEPTH gets every node's depth.  0, or -1 when the
 * forest is deeper than a byte counts (Definition 3 allows 2k - 2, at
 * most 126). */
static int by_level(const struct ksf_forest *ksf, const uint32_t *parent, uint8_t *depth,
                    uint32_t *order)
{
    uint32_t at[UINT8_MAX + 2] = {0};
    depth[0] = 0;
    for (uint32_t i = 1; i < ksf->len; i++) {
        uint32_t d = depth[parent[i]] + 1u;
        if (d > UINT8_MAX)
            return -1;
        depth[i] = (uint8_t)d;
        at[d + 1]++;
    }
    for (uint32_t d = 1; d <= UINT8_MAX; d++)
        at[d + 1] += at[d];
    for (uint32_t i = 1; i < ksf->len; i++)
        order[at[depth[i]]++] = i;
    return 0;
}

/* The rest of the conversion depth first, as Fig. 7 walks it: from the
 * N nodes in STACK, whose parents are converted, through their subtrees.
 * PARENT and DEPTH are filled as the walk goes (they may be unset below
 * the start).  Without the child table a lookup scans the base node's
 * list, moved to front, and the walk's locality is what keeps those lists
 * in cache: at k = 16 on jpegtran, where the table is dropped after 3 M of
 * 14 M k-IPF nodes, level order took 2.8-3.5 s and this walk 2.4-2.7 s.
 * STACK has room for every k-SF node: each is pushed once. */
static void convert_depth_first(struct ksf_linked *l, const struct ksf_forest *ksf, uint32_t k,
                                uint32_t *parent, uint8_t *depth, uint32_t *tmap,
                                uint32_t *stack, uint32_t n)
{
    const struct ksf_node *sf = ksf->n;
    while (n > 0) {
        uint32_t i = stack[--n];
        uint32_t t = ksf_linked_child(l, suffix_base(l, tmap, depth, parent[i], k), sf[i].label);
        if (t == 0)
            return; /* out of memory: l->f.failed says so */
        tmap[i] = t;
        l->f.n[t].count += sf[i].count;
        /* Saturating is exact: only depth < k matters, and k <= 64. */
        uint8_t d = depth[i] < UINT8_MAX ? (uint8_t)(depth[i] + 1) : UINT8_MAX;
        for (uint32_t c = sf[i].child; c != 0; c = sf[c].sibling) {
            parent[c] = i;
            depth[c] = d;
            stack[n++] = c;
        }
    }
}

struct frontier {
    uint32_t *stack;
    uint32_t n;
};

static void push_root(uint32_t r, void *ctx)
{
    struct frontier *s = ctx;
    s->stack[s->n++] = r;
}

/* Where the level order stops, at ORDER[FROM..] (the table dropped): the
 * nodes left whose parent is converted (a root's parent is 0), written to
 * the front of ORDER as the depth-first walk's start.  They are on the
 * level being converted and the next one; each is written no later in
 * ORDER than it was read. */
static uint32_t frontier_of(const uint32_t *parent, const uint8_t *depth, const uint32_t *tmap,
                            uint32_t *order, uint32_t from, uint32_t nodes)
{
    uint32_t n = 0, last = from < nodes ? depth[order[from]] + 1u : 0;
    for (uint32_t y = from; y < nodes && depth[order[y]] <= last; y++) {
        uint32_t i = order[y], p = parent[i];
        if (p == 0 || tmap[p] != 0)
            order[n++] = i;
    }
    return n;
}

/* Fig. 7's walk from the roots visits every k-SF node after its parent,
 * which is all the sums need; so does a pass level by level.  The walk's
 * lookups follow one another: a node's key is its parent's k-IPF node,
 * found by the lookup before, and the k-SF makes its nodes in chains, so
 * in index order too a node's parent is most often one of the last few
 * (jpegtran at k = 8: 86% within 16).  Within a level no lookup waits for
 * another, so each is known STAGE nodes early and its cache misses (the
 * table slot, then the k-IPF node the count goes to) overlap with the
 * others'.  That pays while the child table holds the k-IPF; once it is
 * dropped the rest goes depth first (convert_depth_first).  TMAP holds
 * each k-SF node's k-IPF node (0: not yet converted). */
int ksf_linked_add_ksf(struct ksf_linked *l, const struct ksf_forest *ksf, uint32_t k)
{
    uint32_t len = ksf->len;
    uint32_t *parent = calloc(len, sizeof *parent);
    uint32_t *tmap = calloc(len, sizeof *tmap);
    uint32_t *order = malloc((size_t)len * sizeof *order);
    uint8_t *depth = calloc(len, 1);
    /* The k-IPF has about as many nodes as the k-SF (libjpeg-turbo's
     * jpegtran at k = 8: 1.9 M for 2.0 M): the table is sized once for
     * that, and grows if a stream makes more. */
    if (parent == NULL || tmap == NULL || order == NULL || depth == NULL ||
        l->max_nodes != 0 || kid_reserve(l, KID_PRESIZE((uint64_t)l->f.len + len)) != 0) {
        free(parent);
        free(tmap);
        free(order);
        free(depth);
        l->f.failed = 1;
        return -1;
    }
    uint32_t nodes = len - 1, x = 0;
    /* Level order needs the parents up front; a forest whose parent
     * indices are not below their children's, or deeper than a byte
     * counts, goes depth first from its roots. */
    if (l->kid == NULL || ksf_parents(ksf, parent) != 0 || by_level(ksf, parent, depth, order) != 0) {
        struct frontier roots = {order, 0};
        memset(parent, 0, (size_t)len * sizeof *parent);
        memset(depth, 1, len); /* the roots'; the walk sets the rest */
        depth[0] = 0;
        ksf_each_root(ksf, push_root, &roots);
        convert_depth_first(l, ksf, k, parent, depth, tmap, order, roots.n);
        x = nodes;
    }
    struct {
        uint32_t node;
        uint64_t count;
    } late[ADD_LATE] = {{0, 0}};
    for (; x < nodes && l->kid != NULL; x++) {
        uint32_t level = depth[order[x]];
        for (uint32_t step = 0; step < 4; step++) {
            uint32_t y = x + (step + 1) * STAGE;
            if (y < nodes && (step == 3 || depth[order[y]] == level))
                prefetch_lookup(l, ksf, parent, tmap, depth, order[y], step, k);
        }
        uint32_t i = order[x];
        uint32_t t = ksf_linked_child(l, suffix_base(l, tmap, depth, parent[i], k),
                                      ksf->n[i].label);
        if (t == 0) {
            x = nodes; /* out of memory: l->f.failed says so */
            break;
        }
        tmap[i] = t;
        /* The count goes in ADD_LATE nodes later, its node prefetched now. */
        __builtin_prefetch(&l->f.n[t], 1);
        uint32_t slot = x % ADD_LATE;
        l->f.n[late[slot].node].count += late[slot].count;
        late[slot].node = t;
        late[slot].count = ksf->n[i].count;
    }
    for (uint32_t s = 0; s < ADD_LATE; s++)
        l->f.n[late[s].node].count += late[s].count; /* node 0: the sentinel, count 0 */
    l->f.n[0].count = 0;
    if (x < nodes) /* the table was dropped */
        convert_depth_first(l, ksf, k, parent, depth, tmap, order,
                            frontier_of(parent, depth, tmap, order, x, nodes));
    free(parent);
    free(tmap);
    free(order);
    free(depth);
    return l->f.failed ? -1 : 0;
}
