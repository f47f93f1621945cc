/* meta.c - strict parser of the TU metadata blob (docs/format.md, sec. 2).
 *
 * The blob comes from a file that may be damaged, so every count is checked
 * against the bytes that remain before anything is allocated from it, and
 * every node number, string index and offset is range-checked here once;
 * the rest of the CLI relies on the invariants listed in meta-types.h.
 * Versions 1 and 2 are read here, version 3 in meta-v3.c; the checks
 * both share are in meta-checks.c. */
#include "meta.h"

#include "meta-checks.h"
#include "meta-v3.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "pathprof-abi.h"

const struct pp_flag_name pp_flag_names[PP_NFLAG_NAMES] = {
    { PATHPROF_FN_HASH, "hash" },
    { PATHPROF_FN_CUT, "cut" },
    { PATHPROF_FN_ATOMIC, "atomic" },
    { PATHPROF_FN_VERIFY, "verify" },
    { PATHPROF_FN_STREAM, "stream" },
    { PATHPROF_FN_RESUME, "resume" },
    { PATHPROF_FN_SAMPLED, "sampled" },
    { PATHPROF_FN_VPP, "vpp" },
    { PATHPROF_FN_PPP, "ppp" },
    { PATHPROF_FN_TPP, "tpp" },
    { PATHPROF_FN_TPP_NOPROFILE, "tpp-no-edge-profile" },
    { PATHPROF_FN_TPP_DERIVED, "tpp-derived" },
};

bool meta_has_named_flags(uint32_t flags)
{
    for (size_t i = 0; i < PP_NFLAG_NAMES; i++)
        if (flags & pp_flag_names[i].bit)
            return true;
    return false;
}





static bool parse_strings(const unsigned char *blob, uint64_t len, uint64_t offset,
                          struct pp_tu_meta *tu, struct pp_error *err)
{
    struct pp_cursor c;
    uint32_t i;

    if (offset > len)
        return pp_fail(err, "string table offset %" PRIu64 " is past the end of the %" PRIu64
                            "-byte blob", offset, len);
    c = pp_cursor_at(blob, (size_t)len, (size_t)offset);
    if (tu->nstrings > pp_cursor_left(&c) / 4)
        return pp_fail(err, "%" PRIu32 " strings do not fit in the %zu bytes after the string "
                            "table offset", tu->nstrings, pp_cursor_left(&c));
    tu->strings = meta_zalloc(tu->nstrings, sizeof *tu->strings, err);
    if (!tu->strings)
        return false;
    for (i = 0; i < tu->nstrings; i++) {
        uint32_t slen;
        const unsigned char *bytes;
        if (!pp_get_u32(&c, &slen) || !pp_get_bytes(&c, slen, &bytes))
            return pp_fail(err, "string %" PRIu32 " runs past the end of the blob", i);
        if (memchr(bytes, 0, slen))
            return pp_fail(err, "string %" PRIu32 " contains a NUL byte", i);
        tu->strings[i] = malloc((size_t)slen + 1);
        if (!tu->strings[i])
            return pp_fail(err, "out of memory");
        memcpy(tu->strings[i], bytes, slen);
        tu->strings[i][slen] = '\0';
    }
    return true;
}



const struct pp_derived *meta_derived(const struct pp_func_meta *f, uint64_t id)
{
    uint32_t lo = 0, hi = f->nderived;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (f->derived[mid].id == id)
            return &f->derived[mid];
        if (f->derived[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* Reads the 64-byte directory entry; returns the detail record offset. */
static bool parse_dirent(struct pp_cursor *c, const struct pp_tu_meta *tu,
                         struct pp_func_meta *f, uint64_t *detail_offset,
                         struct pp_error *err)
{
    uint32_t name, file, word;

    /* The directory size was checked against the blob length already. */
    name = pp_take_u32(c);
    file = pp_take_u32(c);
    f->checksum = pp_take_u64(c);
    f->flags = pp_take_u32(c);
    f->line = pp_take_u32(c);
    f->npaths = pp_take_u64(c);
    f->counter_offset = pp_take_u64(c);
    f->verify_offset = pp_take_u64(c);
    f->nverify = pp_take_u32(c);
    /* One word, two meanings by flag: a PPP function's number of
     * interesting paths, a TPP function's configuration (the plugin
     * refuses ppp with tpp); 0 for any other. */
    word = pp_take_u32(c);
    f->ppp_size = (f->flags & PATHPROF_FN_PPP) ? word & ~PATHPROF_PPP_TOTAL : 0;
    f->ppp_total = (f->flags & PATHPROF_FN_PPP) && (word & PATHPROF_PPP_TOTAL);
    f->tpp = (f->flags & (PATHPROF_FN_TPP | PATHPROF_FN_TPP_NOPROFILE)) ? word : 0;
    *detail_offset = pp_take_u64(c);

    if (!meta_string_ok(tu, name, false))
        return pp_fail(err, "name string index %" PRIu32 " out of range (%" PRIu32 " strings)",
                       name, tu->nstrings);
    f->name = tu->strings[name];
    if (!meta_string_ok(tu, file, true))
        return pp_fail(err, "file string index %" PRIu32 " out of range (%" PRIu32 " strings)",
                       file, tu->nstrings);
    f->file = meta_string_or_null(tu, file);

    /* Not needed to read the counts, but a blob whose counters do not fit its
     * own counter array was not written by a working plugin. */
    if (f->flags & PATHPROF_FN_PPP) {
        if (f->flags & PATHPROF_FN_HASH)
            return pp_fail(err, "both the PPP and the HASH flag");
        if (f->counter_offset > tu->ncounters || f->ppp_size >= tu->ncounters - f->counter_offset)
            return pp_fail(err, "PPP counters [%" PRIu64 ", +%" PRIu32 " + 1) outside the %"
                                PRIu64 " counters", f->counter_offset, f->ppp_size,
                           tu->ncounters);
    } else if (f->flags & PATHPROF_FN_HASH) {
        if (f->counter_offset >= tu->ncounters)
            return pp_fail(err, "hash slot %" PRIu64 " outside the %" PRIu64 " counters",
                           f->counter_offset, tu->ncounters);
    } else if (f->counter_offset > tu->ncounters ||
               f->npaths > tu->ncounters - f->counter_offset) {
        return pp_fail(err, "counters [%" PRIu64 ", +%" PRIu64 ") outside the %" PRIu64
                            " counters", f->counter_offset, f->npaths, tu->ncounters);
    }
    if ((f->flags & PATHPROF_FN_TPP) && (f->flags & PATHPROF_FN_TPP_NOPROFILE))
        return pp_fail(err, "flags TPP and TPP_NOPROFILE both set");
    if ((f->flags & PATHPROF_FN_PPP) && (f->flags & (PATHPROF_FN_TPP | PATHPROF_FN_TPP_NOPROFILE)))
        return pp_fail(err, "flags PPP and TPP both set");
    if (!(f->flags & (PATHPROF_FN_TPP | PATHPROF_FN_TPP_NOPROFILE | PATHPROF_FN_PPP)) && word != 0)
        return pp_fail(err, "reserved word %#" PRIx32 " in a function with neither PPP nor TPP",
                       word);
    if ((f->flags & (PATHPROF_FN_TPP | PATHPROF_FN_TPP_NOPROFILE)) &&
        ((f->tpp & ~(PATHPROF_TPP_FROM_PATHPROF | PATHPROF_TPP_COLD_REGION)) >> 16 || PATHPROF_TPP_I(f->tpp) > 100 || PATHPROF_TPP_J(f->tpp) > 100))
        return pp_fail(err, "bad TPP configuration word %#" PRIx32, f->tpp);
    /* The last ID of a TPP function is its cold counter, or its last H + 1
     * IDs the cold region (2H + 1 IDs in all), not paths: the rest of the
     * CLI sees the hot paths only (and pp_func.cold). */
    f->cold_ids = 0;
    if ((f->flags & PATHPROF_FN_TPP) && (f->tpp & PATHPROF_TPP_COLD_REGION)) {
        if (f->npaths % 2 == 0)
            return pp_fail(err, "a TPP function with a cold region has an even number of "
                                "path IDs (%" PRIu64 ")", f->npaths);
        f->cold_ids = f->npaths / 2 + 1;
        f->npaths /= 2;
    } else if (f->flags & PATHPROF_FN_TPP) {
        if (f->npaths == 0)
            return pp_fail(err, "a TPP function with no path ID for its cold counter");
        f->cold_ids = 1;
        f->npaths--;
    } else if (f->tpp & PATHPROF_TPP_COLD_REGION) {
        return pp_fail(err, "a cold region in a function without cold edges");
    } else if (f->ppp_total) {
        f->cold_ids = 1; /* ID npaths: the total of the paths not interesting */
    }
    if (f->flags & PATHPROF_FN_VERIFY) {
        if (f->verify_offset > tu->ncounters || f->nverify > tu->ncounters - f->verify_offset)
            return pp_fail(err, "verify counters [%" PRIu64 ", +%" PRIu32 ") outside the %"
                                PRIu64 " counters", f->verify_offset, f->nverify,
                           tu->ncounters);
    } else if (f->nverify != 0) {
        return pp_fail(err, "%" PRIu32 " verify edges without the VERIFY flag", f->nverify);
    }
    return true;
}






/* LINES: per node, the exact lines of its statements as spans (docs/format.md,
 * "Line table"). Counted and bounded in one pass before anything is
 * allocated, then read in a second. */
static bool parse_lines(struct pp_cursor *c, const struct pp_tu_meta *tu,
                        struct pp_func_meta *f, struct pp_error *err)
{
    struct pp_cursor scan;
    uint32_t n, i, k;
    uint64_t total = 0;
    struct pp_line_span *next;

    if (!pp_get_u32(c, &n))
        return pp_fail(err, "detail record truncated before the line table");
    if (n != f->nnodes)
        return pp_fail(err, "line table of %" PRIu32 " nodes, the graph has %" PRIu32, n,
                       f->nnodes);
    scan = *c;
    for (i = 0; i < n; i++) {
        uint32_t nspans;
        if (!pp_get_u32(&scan, &nspans) ||
            nspans > pp_cursor_left(&scan) / PATHPROF_META_SPAN_SIZE)
            return pp_fail(err, "line table: node %" PRIu32 "'s spans run past the end of "
                                "the blob", i);
        scan.pos += (size_t)nspans * PATHPROF_META_SPAN_SIZE;
        total += nspans;
        if (i < 2 && nspans)
            return pp_fail(err, "line table: %s has lines", i ? "EXIT" : "ENTRY");
    }
    f->spans = meta_zalloc(total, sizeof *f->spans, err);
    if (!f->spans)
        return false;
    next = f->spans;
    for (i = 0; i < n; i++) {
        struct pp_node *node = &f->nodes[i];
        uint32_t prev_file = 0;
        node->nspans = pp_take_u32(c);
        node->spans = next;
        for (k = 0; k < node->nspans; k++, next++) {
            uint32_t file = pp_take_u32(c);
            next->first = pp_take_u32(c);
            next->last = pp_take_u32(c);
            if (!meta_check_span(tu, i, k, file, prev_file, next, err))
                return false;
            prev_file = file;
        }
    }
    return true;
}

bool meta_has_lines(const struct pp_func_meta *f)
{
    return (f->flags & PATHPROF_FN_LINES) != 0;
}

static bool parse_detail(const unsigned char *blob, uint64_t len, uint64_t offset,
                         const struct pp_tu_meta *tu, struct pp_func_meta *f,
                         struct pp_error *err)
{
    struct pp_cursor c;
    uint32_t i, nverify;

    if (offset >= len)
        return pp_fail(err, "detail offset %" PRIu64 " is past the end of the %" PRIu64
                            "-byte blob", offset, len);
    c = pp_cursor_at(blob, (size_t)len, (size_t)offset);

    if (!pp_get_u32(&c, &f->nnodes))
        return pp_fail(err, "detail record truncated");
    if (f->nnodes < 2)
        return pp_fail(err, "%" PRIu32 " nodes (ENTRY and EXIT at least)", f->nnodes);
    if (f->nnodes > pp_cursor_left(&c) / PATHPROF_META_NODE_SIZE)
        return pp_fail(err, "%" PRIu32 " nodes do not fit in the %zu bytes left", f->nnodes,
                       pp_cursor_left(&c));
    f->nodes = meta_zalloc(f->nnodes, sizeof *f->nodes, err);
    if (!f->nodes)
        return false;
    for (i = 0; i < f->nnodes; i++) {
        struct pp_node *n = &f->nodes[i];
        uint32_t file;
        n->bb = pp_take_u32(&c);
        file = pp_take_u32(&c);
        n->line_first = pp_take_u32(&c);
        n->line_last = pp_take_u32(&c);
        if (!meta_string_ok(tu, file, true))
            return pp_fail(err, "node %" PRIu32 ": file string index %" PRIu32
                                " out of range (%" PRIu32 " strings)", i, file, tu->nstrings);
        n->file = meta_string_or_null(tu, file);
    }
    if (f->nodes[0].bb != 0 || f->nodes[1].bb != 1)
        return pp_fail(err, "nodes 0 and 1 are not ENTRY (bb 0) and EXIT (bb 1)");

    if (!pp_get_u32(&c, &f->nedges))
        return pp_fail(err, "detail record truncated before the edges");
    if (f->nedges > pp_cursor_left(&c) / PATHPROF_META_EDGE_SIZE)
        return pp_fail(err, "%" PRIu32 " edges do not fit in the %zu bytes left", f->nedges,
                       pp_cursor_left(&c));
    f->edges = meta_zalloc(f->nedges, sizeof *f->edges, err);
    if (!f->edges)
        return false;
    for (i = 0; i < f->nedges; i++) {
        struct pp_edge *e = &f->edges[i];
        e->src = pp_take_u32(&c);
        e->dst = pp_take_u32(&c);
        e->kind = pp_take_u32(&c);
        e->real_dst = pp_take_u32(&c);
        e->val = pp_take_u64(&c);
        e->inc = (int64_t)pp_take_u64(&c);
        if (!meta_check_edge(f, e, err))
            return pp_context(err, "edge %" PRIu32, i);
    }
    if (!meta_index_edges(f, err) || !meta_check_acyclic(f, err))
        return false;

    if (!pp_get_u32(&c, &nverify))
        return pp_fail(err, "detail record truncated before the verify edges");
    if (nverify != f->nverify)
        return pp_fail(err, "%" PRIu32 " verify edges in the detail record, %" PRIu32
                            " in the directory", nverify, f->nverify);
    if (nverify > pp_cursor_left(&c) / PATHPROF_META_VERIFY_SIZE)
        return pp_fail(err, "%" PRIu32 " verify edges do not fit in the %zu bytes left",
                       nverify, pp_cursor_left(&c));
    f->verify = meta_zalloc(nverify, sizeof *f->verify, err);
    if (!f->verify)
        return false;
    for (i = 0; i < nverify; i++) {
        f->verify[i].src = pp_take_u32(&c);
        f->verify[i].dst = pp_take_u32(&c);
        if (f->verify[i].src >= f->nnodes || f->verify[i].dst >= f->nnodes)
            return pp_fail(err, "verify edge %" PRIu32 ": node number out of range (%" PRIu32
                                " nodes)", i, f->nnodes);
    }
    if ((f->flags & PATHPROF_FN_PPP) && !meta_parse_ppp_table(&c, f, err))
        return false;
    if ((f->flags & PATHPROF_FN_TPP_DERIVED) &&
        (!meta_parse_derived(&c, f, err) || !meta_check_derived_edges(f, err)))
        return false;
    return !(f->flags & PATHPROF_FN_LINES) || parse_lines(&c, tu, f, err);
}

void meta_func_context(struct pp_error *err, uint32_t i, const struct pp_func_meta *f)
{
    if (f->name)
        pp_context(err, "function %" PRIu32 " (%s)", i, f->name);
    else
        pp_context(err, "function %" PRIu32, i);
}

/* A function whose declaration may lie inside another's text: a GNU
 * nested function ("inner.0", its assembler name) or a C++ lambda. */
static bool inside_another(const struct pp_func_meta *f)
{
    return strchr(f->name, '.') || strstr(f->name, "<lambda");
}

static const struct pp_func_meta *sorting_funcs;

static int by_file_line(const void *x, const void *y)
{
    const struct pp_func_meta *a = &sorting_funcs[*(const uint32_t *)x];
    const struct pp_func_meta *b = &sorting_funcs[*(const uint32_t *)y];
    int c = strcmp(a->file, b->file);
    if (c)
        return c;
    return a->line < b->line ? -1 : a->line > b->line;
}

/* Sets each function's line_end: where the next function of its file
 * begins.  Lines of its blocks outside [line, line_end) are those of code
 * inlined from elsewhere (path_runs_line). */
static bool find_line_ends(struct pp_tu_meta *tu, struct pp_error *err)
{
    uint32_t *order = meta_zalloc(tu->nfuncs, sizeof *order, err), n = 0, i;
    if (!order)
        return false;
    for (i = 0; i < tu->nfuncs; i++)
        if (tu->funcs[i].file && tu->funcs[i].line && !inside_another(&tu->funcs[i]))
            order[n++] = i;
    sorting_funcs = tu->funcs;
    qsort(order, n, sizeof *order, by_file_line);
    for (i = 0; i + 1 < n; i++) {
        struct pp_func_meta *f = &tu->funcs[order[i]];
        const struct pp_func_meta *next;
        /* Several at one line (copies) are bounded by the next line's. */
        uint32_t j = i + 1;
        while (j < n && strcmp(tu->funcs[order[j]].file, f->file) == 0 &&
               tu->funcs[order[j]].line == f->line)
            j++;
        next = j < n ? &tu->funcs[order[j]] : NULL;
        if (next && strcmp(next->file, f->file) == 0)
            f->line_end = next->line;
    }
    free(order);
    return true;
}

bool meta_parse(const unsigned char *blob, uint64_t len, struct pp_tu_meta *tu,
                struct pp_error *err)
{
    struct pp_cursor c;
    uint32_t version, build, i;
    uint64_t strtab_offset;

    memset(tu, 0, sizeof *tu);
    if (len < PATHPROF_META_HEADER_SIZE_V1)
        return pp_fail(err, "metadata blob of %" PRIu64 " bytes is shorter than its header",
                       len);
    if (memcmp(blob, PATHPROF_META_MAGIC, 4) != 0)
        return pp_fail(err, "metadata blob does not start with \"" PATHPROF_META_MAGIC "\"");
    c = pp_cursor_at(blob, (size_t)len, 4);
    version = pp_take_u32(&c);
    if (version < PATHPROF_META_VERSION_OLDEST || version > PATHPROF_META_VERSION)
        return pp_fail(err, "metadata version %" PRIu32 ", this pathprof reads versions %u to %u",
                       version, PATHPROF_META_VERSION_OLDEST, PATHPROF_META_VERSION);
    if (len < pathprof_meta_header_size(version))
        return pp_fail(err, "metadata blob of %" PRIu64 " bytes is shorter than its header",
                       len);
    tu->nfuncs = pp_take_u32(&c);
    tu->nstrings = pp_take_u32(&c);
    strtab_offset = pp_take_u64(&c);
    tu->ncounters = pp_take_u64(&c);
    build = PATHPROF_NONE;
    if (version >= 2) {
        build = pp_take_u32(&c);
        (void)pp_take_u32(&c); /* reserved */
    }
    if (tu->nfuncs > pp_cursor_left(&c) / PATHPROF_META_DIRENT_SIZE) {
        pp_fail(err, "%" PRIu32 " functions do not fit in the %" PRIu64 "-byte blob",
                tu->nfuncs, len);
        tu->nfuncs = 0;
        return false;
    }
    if (!parse_strings(blob, len, strtab_offset, tu, err))
        goto fail;
    if (build != PATHPROF_NONE) {
        if (build >= tu->nstrings) {
            pp_fail(err, "the build line is string %" PRIu32 " of a table of %" PRIu32, build,
                    tu->nstrings);
            goto fail;
        }
        tu->build = tu->strings[build];
    }
    tu->funcs = meta_zalloc(tu->nfuncs, sizeof *tu->funcs, err);
    if (!tu->funcs)
        goto fail;
    for (i = 0; i < tu->nfuncs; i++) {
        uint64_t detail_offset;
        struct pp_func_meta *f = &tu->funcs[i];
        f->build = tu->build;
        if (!parse_dirent(&c, tu, f, &detail_offset, err) ||
            !(version >= 3 ? meta_parse_detail_v3 : parse_detail)(blob, len, detail_offset, tu,
                                                                 f, err)) {
            meta_func_context(err, i, f);
            goto fail;
        }
    }
    if (!find_line_ends(tu, err))
        goto fail;
    return true;
fail:
    meta_free(tu);
    return false;
}

void meta_free(struct pp_tu_meta *tu)
{
    uint32_t i;

    if (tu->funcs) {
        for (i = 0; i < tu->nfuncs; i++) {
            struct pp_func_meta *f = &tu->funcs[i];
            free(f->nodes);
            free(f->edges);
            free(f->out_first);
            free(f->out_count);
            free(f->verify);
            free(f->ppp_table);
            free(f->derived);
            free(f->spans);
            free(f->edge_closes_loop);
            free(f->node_start);
            free(f->variant);
        }
    }
    free(tu->funcs);
    if (tu->strings)
        for (i = 0; i < tu->nstrings; i++)
            free(tu->strings[i]);
    free(tu->strings);
    memset(tu, 0, sizeof *tu);
}
