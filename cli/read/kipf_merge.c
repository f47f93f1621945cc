/* kipf_merge.c - from the file's forest to the one the commands read (see
 * kipf.h): labels name profile functions, copies of one function merged,
 * siblings sorted by (function, path ID), preorder in one array. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kipf_raw.h"

static int str_cmp(const char *a, const char *b)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    return strcmp(a, b);
}

/* The test func_merge.c applies before it merges two copies. */
static bool same_function(const struct pp_func_meta *a, const struct pp_func_meta *b)
{
    uint32_t i;
    if (strcmp(a->name, b->name) != 0 || str_cmp(a->file, b->file) != 0 ||
        a->checksum != b->checksum || a->flags != b->flags || a->npaths != b->npaths ||
        a->nnodes != b->nnodes || a->nedges != b->nedges)
        return false;
    for (i = 0; i < a->nedges; i++)
        if (a->edges[i].src != b->edges[i].src || a->edges[i].dst != b->edges[i].dst ||
            a->edges[i].kind != b->edges[i].kind || a->edges[i].val != b->edges[i].val)
            return false;
    return true;
}

struct by_meta {
    const struct pp_func_meta *meta;
    size_t index;
};

static int meta_cmp(const void *pa, const void *pb)
{
    const struct pp_func_meta *a = ((const struct by_meta *)pa)->meta;
    const struct pp_func_meta *b = ((const struct by_meta *)pb)->meta;
    return (a > b) - (a < b);
}

bool kipf_map_functions(const struct pp_profile *p, size_t *map, struct pp_error *err)
{
    struct by_meta *kept = malloc((p->nfuncs ? p->nfuncs : 1) * sizeof *kept);
    size_t t, i, g = 0;

    if (!kept)
        return pp_fail(err, "out of memory");
    for (i = 0; i < p->nfuncs; i++)
        kept[i] = (struct by_meta){ p->funcs[i].meta, i };
    qsort(kept, p->nfuncs, sizeof *kept, meta_cmp);
    for (t = 0; t < p->ntus; t++) {
        for (uint32_t f = 0; f < p->tus[t].nfuncs; f++, g++) {
            struct by_meta key = { &p->tus[t].funcs[f], 0 }, *hit;
            hit = bsearch(&key, kept, p->nfuncs, sizeof *kept, meta_cmp);
            map[g] = hit ? hit->index : KIPF_NONE;
            /* An absorbed copy: its function is the one it was merged into. */
            for (i = 0; !hit && i < p->nfuncs; i++)
                if (same_function(p->funcs[i].meta, key.meta)) {
                    map[g] = i;
                    break;
                }
            if (map[g] == KIPF_NONE) {
                free(kept);
                return pp_fail(err, "function %s of TU %zu is not in the profile",
                               key.meta->name, t);
            }
        }
    }
    free(kept);
    return true;
}

struct merge {
    const struct pp_profile *p;
    struct pp_kipf *k;
    const struct kipf_raw *raw;
    const size_t *map, *off;   /* label -> function: map[off[tu] + func] */
    size_t *list;              /* raw nodes waiting to be merged, a stack */
    size_t top;
};

static const struct merge *sorting; /* qsort has no context argument */

static size_t func_of(const struct merge *m, const struct kipf_raw *r)
{
    return m->map[m->off[r->tu] + r->func];
}

/* By function, path ID, then file label: equal file labels end up adjacent. */
static int raw_cmp(const void *pa, const void *pb)
{
    const struct kipf_raw *a = &sorting->raw[*(const size_t *)pa];
    const struct kipf_raw *b = &sorting->raw[*(const size_t *)pb];
    size_t fa = func_of(sorting, a), fb = func_of(sorting, b);
    if (fa != fb)
        return fa < fb ? -1 : 1;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    if (a->tu != b->tu)
        return a->tu < b->tu ? -1 : 1;
    return (a->func > b->func) - (a->func < b->func);
}

/* Most sibling lists are short (a k = 16 forest of 17 M nodes averages
 * about one child per node): insertion sort there, without qsort's call
 * per comparison. */
static void sort_siblings(const struct merge *m, size_t *list, size_t n)
{
    sorting = m;
    if (n > 16) {
        qsort(list, n, sizeof *list, raw_cmp);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        size_t v = list[i], j = i;
        for (; j > 0 && raw_cmp(&list[j - 1], &v) > 0; j--)
            list[j] = list[j - 1];
        list[j] = v;
    }
}

static bool merge_list(struct merge *m, size_t from, size_t parent, struct pp_error *err);

/* list[from, to): raw nodes with one (function, path ID): one node. */
static bool merge_group(struct merge *m, size_t from, size_t to, size_t parent,
                        struct pp_error *err)
{
    struct pp_kipf *k = m->k;
    size_t self = k->nnodes++, kids = m->top, i, c;
    struct kipf_node *n = &k->nodes[self];
    const struct kipf_raw *first = &m->raw[m->list[from]];

    n->func = func_of(m, first);
    n->id = first->id;
    n->count = 0;
    n->depth = first->depth;
    n->parent = parent;
    for (i = from; i < to; i++) {
        const struct kipf_raw *r = &m->raw[m->list[i]];
        if (i > from && r->tu == m->raw[m->list[i - 1]].tu &&
            r->func == m->raw[m->list[i - 1]].func)
            return pp_fail(err, "nodes %zu and %zu: siblings with one label (TU %" PRIu32
                                ", function %s, path %" PRIu64 ")", m->list[i - 1],
                           m->list[i], r->tu, m->p->funcs[n->func].meta->name, r->id);
        if (__builtin_add_overflow(n->count, r->count, &n->count))
            return pp_fail(err, "the counts of path %" PRIu64 " of %s overflow when its "
                                "copies are merged", r->id, m->p->funcs[n->func].meta->name);
        /* Queue the children of every copy: merged one level down. */
        for (c = r->first; c != KIPF_NONE; c = m->raw[c].next)
            m->list[m->top++] = c;
    }
    if (!merge_list(m, kids, self, err))
        return false;
    k->nodes[self].end = k->nnodes;
    return true;
}

/* Merges list[from, top) (siblings) as children of PARENT, then pops them. */
static bool merge_list(struct merge *m, size_t from, size_t parent, struct pp_error *err)
{
    size_t end = m->top, i, j;

    sort_siblings(m, m->list + from, end - from);
    for (i = from; i < end; i = j) {
        const struct kipf_raw *a = &m->raw[m->list[i]];
        for (j = i + 1; j < end; j++) {
            const struct kipf_raw *b = &m->raw[m->list[j]];
            if (func_of(m, a) != func_of(m, b) || a->id != b->id)
                break;
        }
        m->top = end; /* the group's children go above the siblings */
        if (!merge_group(m, i, j, parent, err))
            return false;
    }
    m->top = from;
    return true;
}

bool kipf_merge(const struct pp_profile *p, struct pp_kipf *k, const struct kipf_raw *raw,
                size_t nraw, size_t first_root, struct pp_error *err)
{
    struct merge m = { p, k, raw, NULL, NULL, NULL, 0 };
    size_t *map, *off, nlabels = 0, t, r;
    bool ok;

    off = malloc((p->ntus ? p->ntus : 1) * sizeof *off);
    for (t = 0; off && t < p->ntus; t++) {
        off[t] = nlabels;
        nlabels += p->tus[t].nfuncs;
    }
    map = malloc((nlabels ? nlabels : 1) * sizeof *map);
    /* Each raw node is queued once, below the chain of its ancestors. */
    m.list = malloc((nraw ? nraw : 1) * sizeof *m.list);
    k->nodes = malloc((nraw ? nraw : 1) * sizeof *k->nodes);
    if (!off || !map || !m.list || !k->nodes) {
        ok = pp_fail(err, "out of memory");
        goto out;
    }
    m.map = map;
    m.off = off;
    k->nnodes = 0;
    ok = kipf_map_functions(p, map, err);
    for (r = first_root; ok && r != KIPF_NONE; r = raw[r].next)
        m.list[m.top++] = r;
    if (ok)
        ok = merge_list(&m, 0, KIPF_NONE, err);
out:
    free(off);
    free(map);
    free(m.list);
    return ok;
}
