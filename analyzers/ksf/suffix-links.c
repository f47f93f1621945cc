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
    return 0;
}

void ksf_linked_free(struct ksf_linked *l)
{
    ksf_forest_free(&l->f);
    free(l->link);
    l->link = NULL;
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
    for (uint32_t c = f->n[b].child; c != 0; c = f->n[c].sibling)
        if (f->n[c].label == label)
            return c;
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

int ksf_linked_add_ksf(struct ksf_linked *l, const struct ksf_forest *ksf, uint32_t k)
{
    /* Every k-SF node is pushed once: the stack never holds more. */
    struct walk *stack = malloc(((size_t)ksf->len + 1) * sizeof *stack);
    if (stack == NULL) {
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
        for (uint32_t c = ksf->n[w.sf].child; c != 0; c = ksf->n[c].sibling)
            stack[n++] = (struct walk){c, t, w.depth + 1};
    }
    free(stack);
    return l->f.failed ? -1 : 0;
}
