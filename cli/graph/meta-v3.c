/* meta-v3.c - the detail records of metadata version 3 (docs/format.md,
 * section 2): the fixed-size PPP table and derived paths first, then the
 * nodes, edges, verify edges and line table in LEB128 numbers and deltas.
 *
 * Every number is read through the cursor (a number cut by the blob's end
 * or longer than 64 bits is damage), every delta is added with a range
 * check, and every count is bounded by the fewest bytes its records can
 * take before anything is allocated; what is read then goes through the
 * same checks as versions 1 and 2 (meta-checks.h). */
#include <inttypes.h>
#include <stdlib.h>

#include "meta-v3.h"

#include "meta-checks.h"
#include "pathprof-abi.h"

/* The fewest bytes a record takes: a node its bb and file word, an edge
 * its source, destination, value and increment, a span its three numbers. */
enum { NODE_MIN = 2, EDGE_MIN = 4, SPAN_MIN = 3 };

static bool get_u32(struct pp_cursor *c, uint32_t *v)
{
    uint64_t u;
    if (!pp_get_uleb(c, &u) || u > UINT32_MAX)
        return false;
    *v = (uint32_t)u;
    return true;
}

/* The signed number U codes (zigzag: plugin/metadata.cc, put_sleb). */
static int64_t unzigzag(uint64_t u)
{
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static bool get_signed(struct pp_cursor *c, int64_t *v)
{
    uint64_t u;
    if (!pp_get_uleb(c, &u))
        return false;
    *v = unzigzag(u);
    return true;
}

/* BASE + D when it is a 32-bit number. */
static bool add32(uint32_t base, int64_t d, uint32_t *out)
{
    int64_t r;
    if (d > (int64_t)UINT32_MAX || d < -(int64_t)UINT32_MAX)
        return false;
    r = (int64_t)base + d;
    if (r < 0 || r > (int64_t)UINT32_MAX)
        return false;
    *out = (uint32_t)r;
    return true;
}

static bool bad_number(struct pp_error *err, const char *what, uint32_t i)
{
    return pp_fail(err, "%s %" PRIu32 ": a number cut short by the blob's end, longer than 64 "
                        "bits or out of range", what, i);
}

static bool parse_nodes(struct pp_cursor *c, const struct pp_tu_meta *tu, struct pp_func_meta *f,
                        struct pp_error *err)
{
    uint32_t code = 0, line = f->line, i;

    if (!get_u32(c, &f->nnodes))
        return pp_fail(err, "detail record truncated or damaged before the nodes");
    if (f->nnodes < 2)
        return pp_fail(err, "%" PRIu32 " nodes (ENTRY and EXIT at least)", f->nnodes);
    if (f->nnodes > pp_cursor_left(c) / NODE_MIN)
        return pp_fail(err, "%" PRIu32 " nodes do not fit in the %zu bytes left", f->nnodes,
                       pp_cursor_left(c));
    f->nodes = meta_zalloc(f->nnodes, sizeof *f->nodes, err);
    if (!f->nodes)
        return false;
    for (i = 0; i < f->nnodes; i++) {
        struct pp_node *n = &f->nodes[i];
        uint64_t word;
        int64_t d;
        if (!get_u32(c, &n->bb) || !pp_get_uleb(c, &word))
            return bad_number(err, "node", i);
        d = unzigzag(word >> 1);
        if (!add32(code, d, &code) || (code != 0 && !meta_string_ok(tu, code - 1, false)))
            return pp_fail(err, "node %" PRIu32 ": file string index out of range (%" PRIu32
                                " strings)", i, tu->nstrings);
        n->file = code ? tu->strings[code - 1] : NULL;
        if (word & 1) {
            int64_t first, range;
            if (!get_signed(c, &first) || !get_signed(c, &range) ||
                !add32(line, first, &n->line_first) || !add32(n->line_first, range, &n->line_last))
                return bad_number(err, "node", i);
            line = n->line_first;
        }
    }
    if (f->nodes[0].bb != 0 || f->nodes[1].bb != 1)
        return pp_fail(err, "nodes 0 and 1 are not ENTRY (bb 0) and EXIT (bb 1)");
    return true;
}

static bool parse_edges(struct pp_cursor *c, struct pp_func_meta *f, struct pp_error *err)
{
    uint32_t src = 0, i;
    uint64_t val = 0;

    if (!get_u32(c, &f->nedges))
        return pp_fail(err, "detail record truncated or damaged before the edges");
    if (f->nedges > pp_cursor_left(c) / EDGE_MIN)
        return pp_fail(err, "%" PRIu32 " edges do not fit in the %zu bytes left", f->nedges,
                       pp_cursor_left(c));
    f->edges = meta_zalloc(f->nedges, sizeof *f->edges, err);
    if (!f->edges)
        return false;
    for (i = 0; i < f->nedges; i++) {
        struct pp_edge *e = &f->edges[i];
        uint64_t dsrc, dst_kind, dval;
        if (!pp_get_uleb(c, &dsrc) || dsrc > UINT32_MAX - (uint64_t)src ||
            !pp_get_uleb(c, &dst_kind) || dst_kind >> 2 > UINT32_MAX)
            return bad_number(err, "edge", i);
        /* A value is relative to the edge before's of the same source. */
        if (dsrc)
            val = 0;
        src += (uint32_t)dsrc;
        e->src = src;
        e->dst = (uint32_t)(dst_kind >> 2);
        e->kind = (uint32_t)(dst_kind & 3);
        e->real_dst = PATHPROF_NONE;
        if ((e->kind == PATHPROF_EDGE_EXIT_DUMMY && !get_u32(c, &e->real_dst)) ||
            !pp_get_uleb(c, &dval) || !get_signed(c, &e->inc))
            return bad_number(err, "edge", i);
        if (dval > UINT64_MAX - val)
            return pp_fail(err, "edge %" PRIu32 ": its value exceeds 2^64", i);
        val += dval;
        e->val = val;
        if (!meta_check_edge(f, e, err))
            return pp_context(err, "edge %" PRIu32, i);
    }
    return meta_index_edges(f, err) && meta_check_acyclic(f, err);
}

static bool parse_verify(struct pp_cursor *c, struct pp_func_meta *f, struct pp_error *err)
{
    uint32_t n, i;

    if (!get_u32(c, &n))
        return pp_fail(err, "detail record truncated or damaged before the verify edges");
    if (n != f->nverify)
        return pp_fail(err, "%" PRIu32 " verify edges in the detail record, %" PRIu32
                            " in the directory", n, f->nverify);
    if (n > pp_cursor_left(c) / PATHPROF_META_V3_VERIFY_MIN)
        return pp_fail(err, "%" PRIu32 " verify edges do not fit in the %zu bytes left", n,
                       pp_cursor_left(c));
    f->verify = meta_zalloc(n, sizeof *f->verify, err);
    if (!f->verify)
        return false;
    for (i = 0; i < n; i++) {
        if (!get_u32(c, &f->verify[i].src) || !get_u32(c, &f->verify[i].dst))
            return bad_number(err, "verify edge", i);
        if (f->verify[i].src >= f->nnodes || f->verify[i].dst >= f->nnodes)
            return pp_fail(err, "verify edge %" PRIu32 ": node number out of range (%" PRIu32
                                " nodes)", i, f->nnodes);
    }
    return true;
}

/* Counts the line table's spans without keeping them, so that the array
 * is allocated from what the bytes hold. */
static bool count_spans(struct pp_cursor scan, uint32_t nnodes, uint64_t *total,
                        struct pp_error *err)
{
    uint32_t i, k, nspans;
    uint64_t x;

    *total = 0;
    for (i = 0; i < nnodes; i++) {
        if (!get_u32(&scan, &nspans) || nspans > pp_cursor_left(&scan) / SPAN_MIN)
            return pp_fail(err, "line table: node %" PRIu32 "'s spans run past the end of "
                                "the blob", i);
        if (i < 2 && nspans)
            return pp_fail(err, "line table: %s has lines", i ? "EXIT" : "ENTRY");
        for (k = 0; k < 3 * nspans; k++)
            if (!pp_get_uleb(&scan, &x))
                return bad_number(err, "line table: node", i);
        *total += nspans;
    }
    return true;
}

static bool parse_lines(struct pp_cursor *c, const struct pp_tu_meta *tu, struct pp_func_meta *f,
                        struct pp_error *err)
{
    uint32_t file = 0, last = f->line, i, k;
    uint64_t total;
    struct pp_line_span *next;

    if (!count_spans(*c, f->nnodes, &total, err))
        return false;
    f->spans = meta_zalloc(total, sizeof *f->spans, err);
    if (!f->spans)
        return false;
    next = f->spans;
    for (i = 0; i < f->nnodes; i++) {
        struct pp_node *node = &f->nodes[i];
        uint32_t prev_file = 0;
        (void)get_u32(c, &node->nspans); /* counted above */
        node->spans = next;
        for (k = 0; k < node->nspans; k++, next++) {
            int64_t dfile, dfirst;
            uint64_t range;
            if (!get_signed(c, &dfile) || !get_signed(c, &dfirst) || !pp_get_uleb(c, &range) ||
                !add32(file, dfile, &file) || !add32(last, dfirst, &next->first) ||
                range > UINT32_MAX - (uint64_t)next->first)
                return bad_number(err, "line table: node", i);
            next->last = next->first + (uint32_t)range;
            if (!meta_check_span(tu, i, k, file, prev_file, next, err))
                return false;
            prev_file = file;
            last = next->last;
        }
    }
    return true;
}

bool meta_parse_detail_v3(const unsigned char *blob, uint64_t len, uint64_t offset,
                          const struct pp_tu_meta *tu, struct pp_func_meta *f,
                          struct pp_error *err)
{
    struct pp_cursor c;

    if (offset >= len)
        return pp_fail(err, "detail offset %" PRIu64 " is past the end of the %" PRIu64
                            "-byte blob", offset, len);
    c = pp_cursor_at(blob, (size_t)len, (size_t)offset);
    if ((f->flags & PATHPROF_FN_PPP) && !meta_parse_ppp_table(&c, f, err))
        return false;
    if ((f->flags & PATHPROF_FN_TPP_DERIVED) && !meta_parse_derived(&c, f, err))
        return false;
    if (!parse_nodes(&c, tu, f, err) || !parse_edges(&c, f, err))
        return false;
    if ((f->flags & PATHPROF_FN_TPP_DERIVED) && !meta_check_derived_edges(f, err))
        return false;
    if (!parse_verify(&c, f, err))
        return false;
    return !(f->flags & PATHPROF_FN_LINES) || parse_lines(&c, tu, f, err);
}
