/* meta-checks.c - the checks that the readers of the detail records share
 * (meta-checks.h): versions 1 and 2 in meta.c, version 3 in meta-v3.c. */
#include "meta-checks.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pathprof-abi.h"

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

/* calloc that never returns NULL for n == 0, so "NULL" always means ENOMEM. */
void *meta_zalloc(uint64_t n, size_t size, struct pp_error *err)
{
    void *p;
    if (n > SIZE_MAX / size) {
        pp_fail(err, "out of memory");
        return NULL;
    }
    p = calloc(n ? (size_t)n : 1, size);
    if (!p)
        pp_fail(err, "out of memory");
    return p;
}

bool meta_string_ok(const struct pp_tu_meta *tu, uint32_t index, bool none_ok)
{
    return index < tu->nstrings || (none_ok && index == PATHPROF_NONE);
}

const char *meta_string_or_null(const struct pp_tu_meta *tu, uint32_t index)
{
    return index == PATHPROF_NONE ? NULL : tu->strings[index];
}

/* TPP: the obvious paths counted on their defining edges. */
bool meta_parse_derived(struct pp_cursor *c, struct pp_func_meta *f, struct pp_error *err)
{
    uint32_t n, i;

    if (!(f->flags & PATHPROF_FN_TPP))
        return pp_fail(err, "flag TPP_DERIVED without TPP");
    if (!pp_get_u32(c, &n))
        return pp_fail(err, "detail record truncated before the derived paths");
    if (n == 0 || n > pp_cursor_left(c) / PATHPROF_META_DERIVED_SIZE)
        return pp_fail(err, "%" PRIu32 " derived paths: none, or more than fit in the %zu "
                            "bytes left", n, pp_cursor_left(c));
    f->derived = meta_zalloc(n, sizeof *f->derived, err);
    if (!f->derived)
        return false;
    f->nderived = n;
    for (i = 0; i < n; i++) {
        struct pp_derived *d = &f->derived[i];
        d->id = pp_take_u64(c);
        d->edge = pp_take_u32(c);
        (void)pp_take_u32(c); /* reserved */
        if (d->id >= f->npaths || (i && d->id <= f->derived[i - 1].id))
            return pp_fail(err, "derived path %" PRIu32 ": ID %" PRIu64 " out of range (%"
                                PRIu64 " paths) or not ascending", i, d->id, f->npaths);
    }
    return true;
}

/* The defining edges of the derived paths, once the edges are read. */
bool meta_check_derived_edges(const struct pp_func_meta *f, struct pp_error *err)
{
    for (uint32_t i = 0; i < f->nderived; i++) {
        const struct pp_derived *d = &f->derived[i];
        const struct pp_edge *e;
        if (d->edge >= f->nedges)
            return pp_fail(err, "derived path %" PRIu32 ": edge %" PRIu32 " out of range (%"
                                PRIu32 " edges)", i, d->edge, f->nedges);
        e = &f->edges[d->edge];
        if (e->kind != PATHPROF_EDGE_REAL && e->kind != PATHPROF_EDGE_EXIT_DUMMY)
            return pp_fail(err, "derived path %" PRIu32 ": edge %" PRIu32 " of kind %" PRIu32
                                " cannot carry a counter", i, d->edge, e->kind);
    }
    return true;
}

bool meta_check_edge(const struct pp_func_meta *f, const struct pp_edge *e,
                       struct pp_error *err)
{
    if (e->src >= f->nnodes || e->dst >= f->nnodes)
        return pp_fail(err, "node number out of range (%" PRIu32 " nodes)", f->nnodes);
    if (e->dst == 0)
        return pp_fail(err, "enters ENTRY");
    if (e->src == 1)
        return pp_fail(err, "leaves EXIT");
    switch (e->kind) {
    case PATHPROF_EDGE_REAL:
        break;
    case PATHPROF_EDGE_ENTRY_DUMMY:
        if (e->src != 0)
            return pp_fail(err, "entry dummy edge does not leave ENTRY");
        break;
    case PATHPROF_EDGE_EXIT_DUMMY:
        if (e->dst != 1)
            return pp_fail(err, "exit dummy edge does not enter EXIT");
        if (e->real_dst >= f->nnodes)
            return pp_fail(err, "real destination %" PRIu32 " out of range (%" PRIu32
                                " nodes)", e->real_dst, f->nnodes);
        return true;
    case PATHPROF_EDGE_TERMINAL:
        if (e->dst != 1)
            return pp_fail(err, "terminal edge does not enter EXIT");
        break;
    default:
        return pp_fail(err, "unknown kind %" PRIu32, e->kind);
    }
    if (e->real_dst != PATHPROF_NONE)
        return pp_fail(err, "real destination set on a kind %" PRIu32 " edge", e->kind);
    return true;
}

/* Edges are grouped by src and sorted by val (format.md); decoding depends
 * on both, so both are checked while building the per-node index. */
bool meta_index_edges(struct pp_func_meta *f, struct pp_error *err)
{
    uint32_t i;

    f->out_first = meta_zalloc(f->nnodes, sizeof *f->out_first, err);
    f->out_count = meta_zalloc(f->nnodes, sizeof *f->out_count, err);
    if (!f->out_first || !f->out_count)
        return false;
    for (i = 0; i < f->nedges; i++) {
        const struct pp_edge *e = &f->edges[i];
        if (i == 0 || e->src != f->edges[i - 1].src) {
            if (f->out_count[e->src] != 0)
                return pp_fail(err, "edges of node %" PRIu32 " are not grouped together",
                               e->src);
            f->out_first[e->src] = i;
        } else if (e->val < f->edges[i - 1].val) {
            return pp_fail(err, "edges of node %" PRIu32 " are not sorted by value", e->src);
        }
        f->out_count[e->src]++;
    }
    return true;
}

/* Kahn's algorithm: a cycle would make decoding and every walk unbounded. */
bool meta_check_acyclic(const struct pp_func_meta *f, struct pp_error *err)
{
    uint32_t *indegree = meta_zalloc(f->nnodes, sizeof *indegree, err);
    uint32_t *queue = meta_zalloc(f->nnodes, sizeof *queue, err);
    uint32_t head = 0, tail = 0, i;
    bool ok = indegree && queue;

    if (ok) {
        for (i = 0; i < f->nedges; i++)
            indegree[f->edges[i].dst]++;
        for (i = 0; i < f->nnodes; i++)
            if (indegree[i] == 0)
                queue[tail++] = i;
        while (head < tail) {
            uint32_t node = queue[head++], n, j;
            const struct pp_edge *out = meta_out_edges(f, node, &n);
            for (j = 0; j < n; j++)
                if (--indegree[out[j].dst] == 0)
                    queue[tail++] = out[j].dst;
        }
        if (tail != f->nnodes)
            ok = pp_fail(err, "the path graph has a cycle");
    }
    free(indegree);
    free(queue);
    return ok;
}

/* The PPP table at the end of the detail record (docs/format.md): each
 * number's Ball-Larus ID, distinct and below npaths, or a hole. */
bool meta_parse_ppp_table(struct pp_cursor *c, struct pp_func_meta *f, struct pp_error *err)
{
    uint32_t i;
    uint64_t *sorted;

    if (f->ppp_size > pp_cursor_left(c) / 8)
        return pp_fail(err, "PPP table of %" PRIu32 " IDs does not fit in the %zu bytes left",
                       f->ppp_size, pp_cursor_left(c));
    f->ppp_table = meta_zalloc(f->ppp_size, sizeof *f->ppp_table, err);
    sorted = meta_zalloc(f->ppp_size, sizeof *sorted, err);
    if (!f->ppp_table || !sorted) {
        free(sorted);
        return false;
    }
    for (i = 0; i < f->ppp_size; i++) {
        f->ppp_table[i] = pp_take_u64(c);
        sorted[i] = f->ppp_table[i];
        if (f->ppp_table[i] != PATHPROF_PPP_HOLE && f->ppp_table[i] >= f->npaths) {
            free(sorted);
            return pp_fail(err, "PPP number %" PRIu32 " stands for path %" PRIu64
                                ", not below the %" PRIu64 " paths", i, f->ppp_table[i],
                           f->npaths);
        }
    }
    qsort(sorted, f->ppp_size, sizeof *sorted, cmp_u64);
    for (i = 1; i < f->ppp_size; i++)
        if (sorted[i] == sorted[i - 1] && sorted[i] != PATHPROF_PPP_HOLE) {
            uint64_t id = sorted[i];
            free(sorted);
            return pp_fail(err, "two PPP numbers stand for path %" PRIu64, id);
        }
    free(sorted);
    return true;
}

/* Span K of node I, of string FILE (the span before it of PREV_FILE):
 * checks it against the rules of docs/format.md ("Line table") and sets
 * its file. */
bool meta_check_span(const struct pp_tu_meta *tu, uint32_t i, uint32_t k, uint32_t file,
                     uint32_t prev_file, struct pp_line_span *span, struct pp_error *err)
{
    if (!meta_string_ok(tu, file, false))
        return pp_fail(err, "line table: node %" PRIu32 ": file string index %" PRIu32
                            " out of range (%" PRIu32 " strings)", i, file, tu->nstrings);
    if (span->first == 0 || span->last < span->first)
        return pp_fail(err, "line table: node %" PRIu32 ": bad span %" PRIu32 "-%" PRIu32, i,
                       span->first, span->last);
    if (k && (file < prev_file ||
              (file == prev_file && span->first <= (uint64_t)span[-1].last + 1)))
        return pp_fail(err, "line table: node %" PRIu32 ": spans not sorted, "
                            "overlapping or adjacent", i);
    span->file = tu->strings[file];
    return true;
}
