/* forest.c - node arena, move-to-front child lists and the root hash
 * table of the `ksf` analyzer's forests (forest.h). */
#include "forest.h"

#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

/* A forest of millions of nodes is read at random, a node or a slot a
 * step: on 4 KiB pages nearly every step into cold memory also misses the
 * TLB, which in a virtual machine is a two-dimensional page walk of up to
 * 24 loads.  So the large arrays ask for huge pages where the kernel
 * grants them on request (transparent huge pages "madvise" or "always";
 * under "never" the advice is ignored).  Pages already touched stay small
 * until the kernel collapses them; those faulted later come huge.  The
 * cost: a huge page is faulted whole, so an array's partly used end and
 * a table's untouched stretches count in full (5-6% more peak RSS on
 * bzip2 and lz4 at k = 8; docs/performance.md, "Huge pages for the
 * forests"). */
void ksf_huge_pages(void *p, size_t bytes)
{
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (p == NULL || bytes < 2 * huge)
        return;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t hi = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}

int ksf_forest_init(struct ksf_forest *f)
{
    memset(f, 0, sizeof *f);
    f->cap = 1024;
    f->n = calloc(f->cap, sizeof *f->n);
    f->nslots = 256;
    f->slot_shift = 32 - 8;
    f->slot = calloc(f->nslots, sizeof *f->slot);
    if (f->n == NULL || f->slot == NULL) {
        ksf_forest_free(f);
        f->failed = 1;
        return -1;
    }
    f->len = 1; /* the sentinel */
    return 0;
}

void ksf_forest_free(struct ksf_forest *f)
{
    free(f->n);
    free(f->slot);
    free(f->run_memo);
    f->n = NULL;
    f->slot = NULL;
    f->run_memo = NULL;
    f->len = f->cap = f->nslots = f->nroots = 0;
}

/* The node array at twice its capacity; -1 when out of memory or at the
 * limit of 32-bit indices (F as it was). */
static int double_nodes(struct ksf_forest *f)
{
    /* 32-bit indices: 4 G nodes (96 GiB) is beyond any real forest. */
    if (f->cap == 0 || f->cap >= UINT32_MAX / 2)
        return -1;
    size_t bytes = (size_t)f->cap * 2 * sizeof *f->n;
    struct ksf_node *n = realloc(f->n, bytes);
    if (n == NULL)
        return -1;
    ksf_huge_pages(n, bytes);
    f->n = n;
    f->cap *= 2;
    return 0;
}

uint32_t ksf_new_node(struct ksf_forest *f, uint64_t label)
{
    if (f->len == f->cap && double_nodes(f) != 0) {
        f->failed = 1;
        return 0;
    }
    uint32_t i = f->len++;
    f->n[i] = (struct ksf_node){.label = label};
    return i;
}

/* S (N slots, a power of two, filled) becomes F's root table. */
static void use_slots(struct ksf_forest *f, struct ksf_slot *s, uint32_t n)
{
    free(f->slot);
    f->slot = s;
    f->nslots = n;
    f->slot_shift = 32 - (uint32_t)__builtin_ctz(n);
}

static int grow_slots(struct ksf_forest *f)
{
    uint32_t n = f->nslots * 2;
    struct ksf_slot *s = calloc(n, sizeof *s);
    if (s == NULL)
        return -1;
    ksf_huge_pages(s, (size_t)n * sizeof *s);
    for (uint32_t i = 0; i < f->nslots; i++) {
        if (f->slot[i].node == 0)
            continue;
        uint32_t j = ksf_slot_of(f->slot[i].label, n);
        while (s[j].node != 0)
            j = (j + 1) & (n - 1);
        s[j] = f->slot[i];
    }
    use_slots(f, s, n);
    return 0;
}

uint32_t ksf_root_find(const struct ksf_forest *f, uint64_t label)
{
    if (f->nslots == 0)
        return 0;
    for (uint32_t j = ksf_home_slot(f, label);; j = (j + 1) & (f->nslots - 1)) {
        if (f->slot[j].node == 0)
            return 0;
        if (f->slot[j].label == label)
            return f->slot[j].node;
    }
}

uint32_t ksf_root(struct ksf_forest *f, uint64_t label, int *inserted)
{
    *inserted = 0;
    if (f->nslots == 0)
        return 0;
    uint32_t j = ksf_home_slot(f, label);
    for (;; j = (j + 1) & (f->nslots - 1)) {
        if (f->slot[j].node == 0)
            break;
        if (f->slot[j].label == label)
            return f->slot[j].node;
    }
    /* Load factor at most 1/2: probes stay short. */
    if (2 * (f->nroots + 1) > f->nslots) {
        if (grow_slots(f) != 0) {
            f->failed = 1;
            return 0;
        }
        for (j = ksf_home_slot(f, label); f->slot[j].node != 0; j = (j + 1) & (f->nslots - 1))
            ;
    }
    uint32_t r = ksf_new_node(f, label);
    if (r == 0)
        return 0;
    f->slot[j].label = label;
    f->slot[j].node = r;
    f->nroots++;
    *inserted = 1;
    return r;
}

uint32_t ksf_child_slow(struct ksf_forest *f, uint32_t parent, uint64_t label)
{
    uint32_t prev = f->n[parent].child, c = prev ? f->n[prev].sibling : 0;
    for (; c != 0; prev = c, c = f->n[c].sibling) {
        if (f->n[c].label != label)
            continue;
        /* Move to front: loops revisit few children over and over. */
        f->n[prev].sibling = f->n[c].sibling;
        f->n[c].sibling = f->n[parent].child;
        f->n[parent].child = c;
        return c;
    }
    c = ksf_new_node(f, label);
    if (c == 0)
        return 0;
    f->n[c].sibling = f->n[parent].child;
    f->n[parent].child = c;
    return c;
}

void ksf_each_root(const struct ksf_forest *f, void (*fn)(uint32_t root, void *ctx), void *ctx)
{
    for (uint32_t i = 0; i < f->nslots; i++)
        if (f->slot[i].node != 0)
            fn(f->slot[i].node, ctx);
}

size_t ksf_forest_bytes(const struct ksf_forest *f)
{
    return (size_t)f->cap * sizeof *f->n + (size_t)f->nslots * sizeof *f->slot;
}

int ksf_forest_reserve(struct ksf_forest *f, uint32_t nodes, uint32_t roots)
{
    while ((uint64_t)f->len + nodes > f->cap)
        if (double_nodes(f) != 0)
            return -1;
    while (f->nslots != 0 && 2 * ((uint64_t)f->nroots + roots) > f->nslots)
        if (grow_slots(f) != 0)
            return -1;
    return 0;
}

void ksf_forest_clear(struct ksf_forest *f)
{
    f->len = 1;
    f->nroots = 0;
    f->gen++;
    memset(f->slot, 0, (size_t)f->nslots * sizeof *f->slot);
}

int ksf_forest_resize(struct ksf_forest *f, uint32_t cap, uint32_t nslots)
{
    if (f->len != 1 || f->nroots != 0 || cap < 2 || nslots == 0 || (nslots & (nslots - 1)))
        return -1;
    f->gen++;
    struct ksf_node *n = realloc(f->n, (size_t)cap * sizeof *n);
    if (n == NULL)
        return -1;
    ksf_huge_pages(n, (size_t)cap * sizeof *n);
    f->n = n;
    f->cap = cap;
    struct ksf_slot *s = calloc(nslots, sizeof *s);
    if (s == NULL)
        return -1;
    use_slots(f, s, nslots);
    return 0;
}
