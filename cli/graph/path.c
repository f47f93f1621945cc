/* path.c - decoding and describing one path (see path.h). */
#include "path.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pathprof-abi.h"

bool path_alloc(const struct pp_func_meta *f, struct path *p, struct pp_error *err)
{
    memset(p, 0, sizeof *p);
    p->edges = malloc((size_t)f->nnodes * sizeof *p->edges);
    return p->edges || pp_fail(err, "out of memory");
}

void path_release(struct path *p)
{
    free(p->edges);
    memset(p, 0, sizeof *p);
}

bool path_decode(const struct pp_func_meta *f, uint64_t id, struct path *p,
                 struct pp_error *err)
{
    uint32_t node = 0, steps = 0;
    uint64_t r = id;

    p->id = id;
    p->nedges = 0;
    if (id >= f->npaths)
        return pp_fail(err, "path ID %" PRIu64 " out of range (%" PRIu64 " paths)", id,
                       f->npaths);
    while (node != 1) {
        uint32_t n, lo, hi;
        const struct pp_edge *out = meta_out_edges(f, node, &n);

        /* The graph is acyclic (meta.c), so this bound is never the reason
         * to stop on a valid file; it keeps the walk bounded regardless. */
        if (steps++ >= f->nnodes)
            return pp_fail(err, "path %" PRIu64 " does not reach EXIT", id);
        if (n == 0 || out[0].val > r)
            return pp_fail(err, "path %" PRIu64 " cannot be decoded: node %" PRIu32
                                " (bb %" PRIu32 ") has no edge for the remaining value %"
                                PRIu64, id, node, f->nodes[node].bb, r);
        /* The last edge with val <= r: edges are sorted by val. */
        lo = 0;
        hi = n - 1;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo + 1) / 2;
            if (out[mid].val <= r)
                lo = mid;
            else
                hi = mid - 1;
        }
        r -= out[lo].val;
        p->edges[p->nedges++] = f->out_first[node] + lo;
        node = out[lo].dst;
    }
    if (r != 0)
        return pp_fail(err, "path %" PRIu64 " cannot be decoded: %" PRIu64
                            " left over at EXIT", id, r);
    return true;
}

enum path_start path_start_kind(const struct pp_func_meta *f, const struct path *p)
{
    const struct pp_edge *first = &f->edges[p->edges[0]];
    if (first->kind != PATHPROF_EDGE_ENTRY_DUMMY)
        return PATH_START_ENTRY;
    return (enum path_start)f->node_start[first->dst];
}

enum path_end path_end_kind(const struct pp_func_meta *f, const struct path *p)
{
    uint32_t last = p->edges[p->nedges - 1];
    switch (f->edges[last].kind) {
    case PATHPROF_EDGE_EXIT_DUMMY:
        return f->edge_closes_loop[last] ? PATH_END_BACKEDGE : PATH_END_CUT;
    case PATHPROF_EDGE_TERMINAL:
        return PATH_END_TERMINAL;
    default:
        return PATH_END_RETURN;
    }
}

uint32_t path_end_target(const struct pp_func_meta *f, const struct path *p)
{
    const struct pp_edge *last = &f->edges[p->edges[p->nedges - 1]];
    return last->kind == PATHPROF_EDGE_EXIT_DUMMY ? last->real_dst : PATHPROF_NONE;
}

const char *path_start_name(enum path_start kind)
{
    switch (kind) {
    case PATH_START_ENTRY: return "entry";
    case PATH_START_LOOP: return "loop";
    case PATH_START_CUT: return "cut";
    default: return "other";
    }
}

const char *path_end_name(enum path_end kind)
{
    switch (kind) {
    case PATH_END_RETURN: return "return";
    case PATH_END_BACKEDGE: return "backedge";
    case PATH_END_CUT: return "cut";
    default: return "terminal";
    }
}

uint32_t path_real_edges(const struct pp_func_meta *f, const struct path *p,
                         struct bb_edge *out)
{
    uint32_t i, n = 0;
    for (i = 0; i < p->nedges; i++) {
        const struct pp_edge *e = &f->edges[p->edges[i]];
        if (e->kind == PATHPROF_EDGE_REAL && e->src != 0) {
            out[n].src_bb = f->nodes[e->src].bb;
            out[n++].dst_bb = f->nodes[e->dst].bb;
        } else if (e->kind == PATHPROF_EDGE_EXIT_DUMMY) {
            out[n].src_bb = f->nodes[e->src].bb;
            out[n++].dst_bb = f->nodes[e->real_dst].bb;
        }
    }
    return n;
}

bool node_lines(const struct pp_node *n, struct line_range *out)
{
    uint32_t a = n->line_first, b = n->line_last;
    if (!n->file || (a == 0 && b == 0))
        return false;
    /* Tolerate a half-filled or reversed range rather than hide the block. */
    if (a == 0)
        a = b;
    if (b == 0)
        b = a;
    if (b < a) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    out->file = n->file;
    out->first = a;
    out->last = b;
    return true;
}

uint32_t path_line_ranges(const struct pp_func_meta *f, const struct path *p,
                          struct line_range *out)
{
    uint32_t i, n = 0;
    for (i = 0; i < path_nblocks(p); i++) {
        struct line_range r;
        if (!node_lines(&f->nodes[path_block(f, p, i)], &r))
            continue;
        if (n > 0) {
            struct line_range *prev = &out[n - 1];
            /* Continue the previous range when this block's lines follow
             * on (or repeat) it: straight-line code reads as one range. */
            if (strcmp(prev->file, r.file) == 0 && r.first >= prev->first &&
                r.first <= (uint64_t)prev->last + 1) {
                if (r.last > prev->last)
                    prev->last = r.last;
                continue;
            }
        }
        out[n++] = r;
    }
    return n;
}

void path_mark_nodes(const struct pp_func_meta *f, const struct path *p, uint8_t *on_path)
{
    uint32_t i;
    memset(on_path, 0, f->nnodes);
    for (i = 0; i < path_nblocks(p); i++)
        on_path[path_block(f, p, i)] = 1;
}

bool node_has_line(const struct pp_node *n, const char *file, uint32_t line)
{
    uint32_t k;
    /* A block has few spans: a scan, by name (one file may have two string
     * indices in a hand-made blob). */
    for (k = 0; k < n->nspans; k++)
        if (line >= n->spans[k].first && line <= n->spans[k].last &&
            strcmp(n->spans[k].file, file) == 0)
            return true;
    return false;
}

bool path_runs_line(const struct pp_func_meta *f, const uint8_t *on_path, const char *file,
                    uint32_t line)
{
    struct line_range r;
    uint32_t n;

    if (meta_has_lines(f)) {
        for (n = 2; n < f->nnodes; n++)
            if (on_path[n] && node_has_line(&f->nodes[n], file, line))
                return true;
        return false;
    }
    /* A line of the function's file outside its own text was brought in
     * by inlining: the range of a block around it says nothing of it, so
     * it runs only where it starts or ends one of the path's blocks.  The
     * text runs from the first line a block starts or ends on at or after
     * the declaration (the lines before are its header) to the next
     * function's declaration. */
    bool claimed = false;
    if (f->file && strcmp(file, f->file) == 0) {
        uint32_t text = UINT32_MAX;
        for (n = 2; n < f->nnodes; n++) {
            if (!node_lines(&f->nodes[n], &r) || strcmp(r.file, file) != 0)
                continue;
            if (r.first >= f->line && r.first < text)
                text = r.first;
            else if (r.last >= f->line && r.last < text)
                text = r.last;
        }
        claimed = line < f->line || line < text || (f->line_end && line >= f->line_end);
    }

    for (n = 2; n < f->nnodes; n++) {
        if (!node_lines(&f->nodes[n], &r) || strcmp(r.file, file) != 0 || line < r.first ||
            line > r.last)
            continue;
        if (on_path[n] && (line == r.first || line == r.last))
            return true;
        if (!on_path[n])
            claimed = true;
    }
    return !claimed;
}
