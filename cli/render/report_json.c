/* report_json.c - `pathprof report --json` (schema: docs/json.md).
 *
 * Written for programs (tests derive edge counts from path counts and
 * compare them with the direct edge counts): every function is listed, in
 * profile order; its paths by descending count. One path per line keeps
 * the output readable and line-oriented tools usable. */
#include <inttypes.h>
#include <stdlib.h>

#include "out/json_out.h"
#include "graph/meta.h"
#include "graph/path.h"
#include "graph/ppp.h"
#include "pathprof-abi.h"
#include "estimate_out.h"
#include "report.h"
#include "read/section_status.h"
#include "tpp_summary.h"

static int by_count_then_id(const void *pa, const void *pb)
{
    const struct pp_path_count *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static void out_flags(FILE *out, uint32_t flags)
{
    const char *sep = "";
    size_t i;
    fputc('[', out);
    for (i = 0; i < PP_NFLAG_NAMES; i++) {
        if (flags & pp_flag_names[i].bit) {
            fprintf(out, "%s\"%s\"", sep, pp_flag_names[i].name);
            sep = ",";
        }
    }
    fputc(']', out);
}

/* Scratch space for one function, sized by its node count. */
struct scratch {
    struct path path;
    struct bb_edge *edges;
    struct line_range *lines;
};

/* ",\"KEY\":E,\"KEY_interval\":[LO,HI]" for a count of a sampled function. */
static void out_estimate(FILE *out, const char *key, uint64_t count, const struct pp_profile *sp)
{
    struct pp_estimate e = estimate_count(sp, count, 1);
    estimate_json(out, key, &e);
}

/* SP: the profile when the function's counts are sampled, else null. */
static void out_path(FILE *out, const struct pp_func_meta *m, const struct pp_path_count *rec,
                     struct scratch *s, const struct pp_profile *sp)
{
    uint32_t i, n;

    fprintf(out, "{\"id\":%" PRIu64 ",\"count\":%" PRIu64, rec->id, rec->count);
    if (sp)
        out_estimate(out, "estimate", rec->count, sp);
    fprintf(out, ",\"length\":%" PRIu32 ",\"blocks\":[", path_nblocks(&s->path));
    for (i = 0; i < path_nblocks(&s->path); i++)
        fprintf(out, "%s%" PRIu32, i ? "," : "", m->nodes[path_block(m, &s->path, i)].bb);
    fputs("],\"lines\":[", out);
    n = path_line_ranges(m, &s->path, s->lines);
    for (i = 0; i < n; i++) {
        char range[48];
        snprintf(range, sizeof range, ":%" PRIu32 "-%" PRIu32, s->lines[i].first,
                 s->lines[i].last);
        if (i)
            fputc(',', out);
        fputc('"', out);
        json_string_body(out, s->lines[i].file);
        fprintf(out, "%s\"", range);
    }
    fputs("],\"edges\":[", out);
    n = path_real_edges(m, &s->path, s->edges);
    for (i = 0; i < n; i++)
        fprintf(out, "%s[%" PRIu32 ",%" PRIu32 "]", i ? "," : "", s->edges[i].src_bb,
                s->edges[i].dst_bb);
    fprintf(out, "],\"start\":\"%s\",\"end\":\"%s\"",
            path_start_name(path_start_kind(m, &s->path)),
            path_end_name(path_end_kind(m, &s->path)));
    if (m->flags & PATHPROF_FN_PPP) {
        uint32_t number;
        if (ppp_number_of(m, rec->id, &number))
            fprintf(out, ",\"ppp_number\":%" PRIu32, number);
        else
            fputs(",\"ppp_number\":null", out);
    }
    if (tpp_defining_edge(m, rec->id, &i, &n))
        fprintf(out, ",\"derived_from\":[%" PRIu32 ",%" PRIu32 "]", i, n);
    fputc('}', out);
}

/* Each block's own source range, so a consumer can tell which block runs
 * a line without intersecting paths. */
static void out_block_lines(FILE *out, const struct pp_func_meta *m)
{
    const char *sep = "";
    uint32_t i;
    struct line_range r;

    fputs(",\n   \"block_lines\":{", out);
    for (i = 2; i < m->nnodes; i++) {
        if (!node_lines(&m->nodes[i], &r))
            continue;
        fprintf(out, "%s\"%" PRIu32 "\":\"", sep, m->nodes[i].bb);
        json_string_body(out, r.file);
        fprintf(out, ":%" PRIu32 "-%" PRIu32 "\"", r.first, r.last);
        sep = ",";
    }
    fputc('}', out);
}

/* With the line table: each block's exact lines, as spans (docs/format.md,
 * "Line table"): what the text report prints of a path are its blocks'. */
static void out_block_line_sets(FILE *out, const struct pp_func_meta *m)
{
    const char *sep = "";
    uint32_t i, k;

    if (!meta_has_lines(m))
        return;
    fputs(",\n   \"block_line_sets\":{", out);
    for (i = 2; i < m->nnodes; i++) {
        const struct pp_node *n = &m->nodes[i];
        if (n->nspans == 0)
            continue;
        fprintf(out, "%s\"%" PRIu32 "\":[", sep, n->bb);
        for (k = 0; k < n->nspans; k++) {
            fputs(k ? ",\"" : "\"", out);
            json_string_body(out, n->spans[k].file);
            fprintf(out, ":%" PRIu32 "-%" PRIu32 "\"", n->spans[k].first, n->spans[k].last);
        }
        fputc(']', out);
        sep = ",";
    }
    fputc('}', out);
}

/* SP: the profile when F's counts are sampled, else null. */
static bool out_function(FILE *out, const struct pp_func *f, const struct pp_profile *sp,
                         uint64_t top, struct pp_error *err)
{
    const struct pp_func_meta *m = f->meta;
    struct pp_path_count *order = NULL;
    struct scratch s = { 0 };
    uint64_t i, n = top && top < f->nrecords ? top : f->nrecords;
    bool ok = true;

    fputs("{\"name\":", out);
    json_string(out, m->name);
    fputs(",\"file\":", out);
    json_string(out, m->file);
    fprintf(out, ",\"line\":%" PRIu32 ",\"checksum\":\"0x%016" PRIx64 "\",\"npaths\":%" PRIu64
                 ",\"flags\":",
            m->line, m->checksum, m->npaths);
    out_flags(out, m->flags);
    /* How its TU was compiled, and what tells it from other builds of it */
    fputs(",\"build\":", out);
    json_string(out, m->build);
    fputs(",\"variant\":", out);
    json_string(out, m->variant);
    if (!tpp_func_json(out, f, err))
        return false;
    fprintf(out, ",\"sampled\":%s,\"total\":%" PRIu64, sp ? "true" : "false", f->total);
    if (sp)
        out_estimate(out, "estimated_total", f->total, sp);
    fprintf(out, ",\"executed_paths\":%" PRIu64 ",\"copies\":%" PRIu32, f->nrecords, f->ncopies);
    if (m->flags & PATHPROF_FN_PPP) {
        fprintf(out, ",\"ppp\":{\"size\":%" PRIu32 ",\"interesting\":[", m->ppp_size);
        for (i = 0; i < m->ppp_size; i++)
            if (m->ppp_table[i] == PATHPROF_PPP_HOLE)
                fprintf(out, "%snull", i ? "," : "");
            else
                fprintf(out, "%s%" PRIu64, i ? "," : "", m->ppp_table[i]);
        fputc(']', out);
        /* ppp-uninteresting=total: the other paths have no records. */
        if (m->ppp_total)
            fprintf(out, ",\"others\":\"total\",\"others_total\":%" PRIu64, f->cold);
        else
            fputs(",\"others\":\"ids\"", out);
        fputc('}', out);
    }
    fputs(",\n   \"paths\":[", out);

    if (f->nrecords) {
        order = malloc((size_t)f->nrecords * sizeof *order);
        s.edges = malloc((size_t)m->nnodes * sizeof *s.edges);
        s.lines = malloc((size_t)m->nnodes * sizeof *s.lines);
        if (!order || !s.edges || !s.lines || !path_alloc(m, &s.path, err)) {
            ok = pp_fail(err, "out of memory");
            goto out;
        }
        for (i = 0; i < f->nrecords; i++)
            order[i] = f->records[i];
        qsort(order, (size_t)f->nrecords, sizeof *order, by_count_then_id);
    }
    for (i = 0; i < n; i++) {
        if (!path_decode(m, order[i].id, &s.path, err)) {
            ok = pp_context(err, "function %s", m->name);
            goto out;
        }
        fputs(i ? ",\n    " : "\n    ", out);
        out_path(out, m, &order[i], &s, sp);
    }
    fputs(n ? "\n   ]" : "]", out);
    out_block_lines(out, m);
    out_block_line_sets(out, m);
    if (m->flags & PATHPROF_FN_VERIFY) {
        fputs(",\n   \"verify_edges\":[", out);
        for (i = 0; i < m->nverify; i++)
            fprintf(out, "%s{\"src\":%" PRIu32 ",\"dst\":%" PRIu32 ",\"count\":%" PRIu64 "}",
                    i ? ",\n    " : "\n    ", m->nodes[m->verify[i].src].bb,
                    m->nodes[m->verify[i].dst].bb, f->verify_counts[i]);
        fputs(m->nverify ? "\n   ]" : "]", out);
    }
    fputc('}', out);
out:
    free(order);
    free(s.edges);
    free(s.lines);
    path_release(&s.path);
    return ok;
}

/* "mode", and "stream": how a stream-mode run went (null in count mode). */
static void out_stream(FILE *out, const struct pp_profile *p)
{
    const struct pp_stream_info *s = &p->stream;

    fprintf(out, ",\n \"mode\":\"%s\",\n \"stream\":",
            p->mode == PATHPROF_MODE_STREAM ? "stream" : "count");
    if (!p->has_stream) {
        fputs("null", out);
        return;
    }
    fprintf(out, "{\"exact\":%s,\"policy\":\"%s\",\"analyzers\":",
            s->dropped || s->late || s->resync || s->unknown ? "false" : "true",
            s->policy == PATHPROF_POLICY_DROP ? "drop" : "block");
    json_string(out, s->analyzers);
    fprintf(out, ",\"analyzer_threads\":%" PRIu32 ",\"chunk_events\":%" PRIu32
                 ",\"producers\":%" PRIu64 ",\"events\":%" PRIu64 ",\"dropped\":%" PRIu64
                 ",\"late\":%" PRIu64 ",\"resync\":%" PRIu64 ",\"unknown\":%" PRIu64
                 ",\"blocked_ns\":%" PRIu64 "}",
            s->analyzer_threads, s->chunk_events, s->producers, s->events, s->dropped, s->late,
            s->resync, s->unknown, s->blocked_ns);
}

bool report_json(FILE *out, const struct pp_profile *p, const bool *selected, uint64_t top,
                 struct pp_error *err)
{
    size_t i;
    const char *sep = "\n  ";

    fputs("{\"program\":", out);
    json_string(out, p->has_program ? p->program : NULL);
    fputs(",\n \"command\":", out);
    json_string(out, p->has_program ? p->cmdline : NULL);
    fprintf(out, ",\n \"pid\":%" PRIu64 ",\n \"time\":%" PRIu64 ",\n \"paths_executed\":%"
                 PRIu64 ",\n \"array_updates\":%" PRIu64 ",\n \"hash_updates\":%" PRIu64,
            p->pid, p->time, profile_total(p), p->array_updates, p->hash_updates);
    out_stream(out, p);
    sampling_json(out, p);
    tpp_summary_json(out, p);
    sections_json(out, p);
    fputs(",\n \"functions\":[", out);
    for (i = 0; i < p->nfuncs; i++) {
        if (selected && !selected[i])
            continue;
        fputs(sep, out);
        sep = ",\n  ";
        if (!out_function(out, &p->funcs[i],
                          profile_func_sampled(p, &p->funcs[i]) ? p : NULL,
                          top, err))
            return false;
    }
    fputs(*sep == ',' ? "\n ]\n}\n" : "]\n}\n", out);
    return true;
}
