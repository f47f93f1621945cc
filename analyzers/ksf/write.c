/* write.c - writes the KIPF section (write.h).
 *
 * Global path indices become (TU section, function, path ID) here, at the
 * end, because only then is the TU list complete (dlopen) and stable.  A
 * library loaded and unloaded several times has one TU section for all
 * its loads (analyzer-services.h, `section`), so labels are first mapped
 * to the index range of the section's own TU and the forest re-merged:
 * siblings that now have the same label become one node, as the format
 * requires.  When no TU shares its section (no library was loaded twice)
 * and every label is known, that mapping changes nothing, and the forest
 * is written as it is: the re-merged copy would double the writer's
 * memory at the end of the run (a k-IPF of 17 M nodes, 400 MB, at k = 16
 * on bzip2).  Siblings are written in label order, which is (TU section,
 * function, path ID) order: the order in which `pathprof` keeps a forest
 * (cli/read/kipf_read.c), so that it can take the nodes as they come
 * instead of sorting and renumbering 50 M of them. */
#include "write.h"

#include "analyzer-services.h"
#include "ipf.h"
#include "labels.h"
#include "message.h"
#include "meta.h"

#include <stdlib.h>

static int by_start(const void *x, const void *y)
{
    const struct fn_range *a = x, *b = y;
    return a->start < b->start ? -1 : a->start > b->start;
}

int fn_table_build(struct fn_table *t)
{
    uint64_t ntus = pp_tu_count();
    uint32_t *sec = calloc(ntus ? ntus : 1, sizeof *sec);
    size_t cap = 0;
    t->v = NULL;
    t->n = 0;
    if (sec == NULL)
        return -1;
    /* Sections are written for the TUs that are their own section, in
     * id order (blpp/blpp.c's write): their rank is the section index. */
    uint32_t nsec = 0;
    for (uint64_t id = 0; id < ntus; id++) {
        struct pp_tu_info info;
        sec[id] = UINT32_MAX;
        if (pp_tu_get(id, &info) && info.meta != NULL && info.section == id)
            sec[id] = nsec++;
    }
    for (uint64_t id = 0; id < ntus; id++) {
        struct pp_tu_info info, own;
        if (!pp_tu_get(id, &info) || info.meta == NULL || info.section >= ntus ||
            sec[info.section] == UINT32_MAX || !pp_tu_get(info.section, &own))
            continue;
        uint32_t nfuncs = pprt_meta_nfuncs(info.meta);
        for (uint32_t f = 0; f < nfuncs; f++) {
            struct pprt_meta_fn fn;
            pprt_meta_fn(info.meta, f, &fn);
            if (t->n == cap) {
                cap = cap ? 2 * cap : 64;
                struct fn_range *v = realloc(t->v, cap * sizeof *v);
                if (v == NULL) {
                    free(sec);
                    return -1;
                }
                t->v = v;
            }
            t->v[t->n++] = (struct fn_range){info.tu_base + fn.counter_offset, fn.npaths,
                                             own.tu_base + fn.counter_offset,
                                             sec[info.section], f};
        }
    }
    free(sec);
    qsort(t->v, t->n, sizeof *t->v, by_start);
    return 0;
}

const struct fn_range *fn_find(const struct fn_table *t, uint64_t g)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) { /* last range with start <= g */
        size_t mid = lo + (hi - lo) / 2;
        if (t->v[mid].start <= g)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || g - t->v[lo - 1].start >= t->v[lo - 1].n)
        return NULL;
    return &t->v[lo - 1];
}

uint64_t fn_canonical(void *ctx, uint64_t g)
{
    const struct fn_range *r = fn_find(ctx, g);
    return r ? r->canon + (g - r->start) : UINT64_MAX;
}

struct writer {
    const struct ksf_forest *f;
    const struct fn_table *t;
    struct pprt_buf *out;
    uint32_t *tmp; /* children being sorted, a stack of runs */
    size_t ntmp, cap;
    int failed;
    int unknown; /* a label of no function was met (the forest was not mapped) */
    /* Children of another function than their parent's, left out: a
     * k-iteration path lies within one activation, so only a stream whose
     * activations the stacks lost track of makes one (coroutines that
     * switch stacks, docs/streaming.md section 2); the encoding gives a
     * child its parent's function, and writing its path ID there would
     * name another path, or one out of range, which readers reject. */
    uint64_t crossed;
    /* The forest's leaves and the sum of their depths, found writing it
     * (the header's figures, patched in after the nodes): a walk of its
     * own over millions of cold nodes cost as much as the writing. */
    uint32_t depth;
    uint64_t leaves, depth_sum;
};

/* By label: canonical labels grow with (TU section, function, path ID). */
static int by_label(const void *x, const void *y, void *forest)
{
    const struct ksf_forest *f = forest;
    const struct ksf_node *a = &f->n[*(const uint32_t *)x];
    const struct ksf_node *b = &f->n[*(const uint32_t *)y];
    return a->label < b->label ? -1 : a->label > b->label;
}

/* Most sibling lists have one or two nodes: an insertion sort there,
 * without qsort_r's call per comparison. */
static void sort_siblings(struct writer *w, uint32_t *v, size_t n)
{
    if (n > 16) {
        qsort_r(v, n, sizeof *v, by_label, (void *)w->f);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        uint32_t x = v[i];
        uint64_t l = w->f->n[x].label;
        size_t j = i;
        for (; j > 0 && w->f->n[v[j - 1]].label > l; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

static int push_tmp(struct writer *w, uint32_t node)
{
    if (w->ntmp == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 256;
        uint32_t *v = realloc(w->tmp, cap * sizeof *v);
        if (v == NULL)
            return -1;
        w->tmp = v;
        w->cap = cap;
    }
    w->tmp[w->ntmp++] = node;
    return 0;
}

static void write_nodes(struct writer *w, size_t from, size_t to, int roots,
                        const struct fn_range *fn);

/* A node in the compact encoding: a root names its TU section and
 * function, a child has its parent's (a k-iteration path lies within one
 * function); then path ID, count and number of children, all unsigned
 * LEB128.  Most nodes take 3 to 5 bytes instead of 32 (a k = 16 forest
 * on bzip2 holds 17 M nodes). */
/* FN: the function of NODE when its parent's was found (a child is
 * written only within its parent's function), else NULL. */
static void write_node(struct writer *w, uint32_t node, int root, const struct fn_range *fn)
{
    const struct ksf_node *n = &w->f->n[node];
    const struct fn_range *r = fn ? fn : fn_find(w->t, n->label);
    size_t from = w->ntmp;
    uint32_t nchildren = 0;
    for (uint32_t c = n->child; c != 0; c = w->f->n[c].sibling) {
        const struct ksf_node *cn = &w->f->n[c];
        /* The preorder reads each child's own children next: on the way
         * now, while the siblings are read (a k-IPF of millions of nodes
         * is cold, and its lists are chains of misses). */
        __builtin_prefetch(&w->f->n[cn->child]);
        if (r != NULL && cn->label - r->start >= r->n) {
            w->crossed++;
            continue;
        }
        nchildren++;
        if (push_tmp(w, c) != 0)
            w->failed = 1;
    }
    /* Mapped labels are always found: r is NULL only on a broken table,
     * or in a forest written unmapped (ksf_write_section then maps it). */
    w->unknown |= r == NULL;
    if (root) {
        pprt_buf_uleb(w->out, r ? r->sec : UINT32_MAX);
        pprt_buf_uleb(w->out, r ? r->func : UINT32_MAX);
    }
    pprt_buf_uleb(w->out, r ? n->label - r->start : n->label);
    pprt_buf_uleb(w->out, n->count);
    pprt_buf_uleb(w->out, w->failed ? 0 : nchildren);
    if (nchildren == 0) {
        w->leaves++;
        w->depth_sum += w->depth;
    }
    if (!w->failed) {
        w->depth++;
        write_nodes(w, from, w->ntmp, 0, r);
        w->depth--;
    }
    w->ntmp = from;
}

static void write_nodes(struct writer *w, size_t from, size_t to, int roots,
                        const struct fn_range *fn)
{
    sort_siblings(w, w->tmp + from, to - from);
    for (size_t i = from; i < to; i++)
        write_node(w, w->tmp[i], roots, fn);
}

static void collect_root(uint32_t root, void *ctx)
{
    struct writer *w = ctx;
    if (push_tmp(w, root) != 0)
        w->failed = 1;
}

/* Every function's indices are its section's own (no TU shares its
 * section with another): mapping labels would change none. */
static int labels_are_canonical(const struct fn_table *t)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->v[i].canon != t->v[i].start)
            return 0;
    return 1;
}

/* The section for forest F (labels canonical); 0, or -1 when a label of
 * F belongs to no function, 1 when a path crosses from one function into
 * another (OUT is then as it was, and the latter said). */
static int write_forest(uint32_t k, const struct ksf_forest *f, const struct fn_table *t,
                        const struct ksf_stats *st, struct pprt_buf *out)
{
    size_t start = out->len;
    pprt_buf_u32(out, PATHPROF_SECTION_KIPF);
    pprt_buf_u32(out, 0);
    size_t at = out->len;
    pprt_buf_u64(out, 0); /* length, patched below */
    pprt_buf_u32(out, k);
    pprt_buf_u32(out, KSF_KIPF_COMPACT);
    pprt_buf_u64(out, st->threads);
    pprt_buf_u64(out, st->events);
    pprt_buf_u64(out, st->ksf_nodes);
    pprt_buf_u64(out, f->len - 1);
    pprt_buf_u64(out, st->hash_ops);
    uint32_t nlevels = ksf_nlevels(k);
    pprt_buf_u32(out, nlevels);
    pprt_buf_u32(out, 0);
    for (uint32_t i = 0; i < nlevels; i++) {
        pprt_buf_u64(out, st->level[i].nodes);
        pprt_buf_u64(out, st->level[i].internal);
        pprt_buf_u64(out, st->level[i].children);
    }
    size_t leaves_at = out->len;
    pprt_buf_u64(out, 0); /* leaves and their depth sum, patched below */
    pprt_buf_u64(out, 0);
    pprt_buf_u64(out, f->nroots);
    struct writer w = {.f = f, .t = t, .out = out};
    ksf_each_root(f, collect_root, &w);
    if (!w.failed)
        write_nodes(&w, 0, w.ntmp, 1, NULL);
    free(w.tmp);
    pprt_buf_patch_u64(out, leaves_at, w.leaves);
    pprt_buf_patch_u64(out, leaves_at + 8, w.depth_sum);
    if (w.unknown && !w.failed) {
        out->len = start;
        return -1;
    }
    if (w.crossed && !w.failed) {
        /* The statistics above count the nodes left out: no section at
         * all rather than one that does not add up. */
        out->len = start;
        pprt_warning("ksf: %llu k-iteration paths ran from one function into another: the "
                     "activation stacks lost track of the program's calls (a coroutine "
                     "library or other code that switches stacks?); the k-iteration path "
                     "forest is left out of the profile (docs/streaming.md, section 2)",
                     (unsigned long long)w.crossed);
        pp_note_resync(w.crossed);
        return 1;
    }
    if (w.failed) {
        pprt_error("ksf: out of memory writing the k-iteration path forest");
        out->failed = 1;
    }
    pprt_buf_patch_u64(out, at, out->len - (at + 8));
    return 0;
}

void ksf_write_section(uint32_t k, const struct ksf_forest *ipf, const struct ksf_stats *st,
                       struct pprt_buf *out, uint32_t *nsections)
{
    struct fn_table t;
    if (fn_table_build(&t) != 0 || ipf->failed) {
        pprt_error("ksf: out of memory writing the k-iteration path forest");
        out->failed = 1;
        free(t.v);
        return;
    }
    if (st->lost)
        pprt_error("ksf: out of memory building k-slab forests; %llu path events were not "
                   "counted", (unsigned long long)st->lost);
    int r = labels_are_canonical(&t) ? write_forest(k, ipf, &t, st, out) : -1;
    if (r >= 0) {
        *nsections += r == 0;
        free(t.v);
        return;
    }
    struct ksf_forest fin;
    uint64_t dropped = 0;
    if (ksf_forest_init(&fin) != 0 ||
        ksf_ipf_merge_mapped(&fin, ipf, fn_canonical, &t, &dropped) != 0) {
        pprt_error("ksf: out of memory writing the k-iteration path forest");
        out->failed = 1;
        free(t.v);
        ksf_forest_free(&fin);
        return;
    }
    if (dropped)
        pprt_warning("ksf: %llu path counts of unknown translation units left out of the "
                     "k-iteration path forest", (unsigned long long)dropped);
    /* mapped: every label is known */
    *nsections += write_forest(k, &fin, &t, st, out) == 0;
    free(t.v);
    ksf_forest_free(&fin);
}
