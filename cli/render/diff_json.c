/* diff_json.c - `pathprof diff A B --json` (docs/json.md, "diff"): the
 * profiles, every function that ran in either with its totals, shares
 * and status, and every path with its counts, shares, status and lines;
 * then the overall ranking by change of share as indices into them. */
#include <inttypes.h>
#include <stdlib.h>

#include "diff_report.h"
#include "graph/path.h"
#include "out/json_out.h"

static void json_profile(FILE *out, const char *file, const struct pp_profile *p,
                         uint64_t total)
{
    fputs("{\"file\":", out);
    json_string(out, file);
    fputs(",\"program\":", out);
    json_string(out, p->has_program ? p->program : NULL);
    fputs(",\"command\":", out);
    json_string(out, p->has_program ? p->cmdline : NULL);
    fprintf(out, ",\"pid\":%" PRIu64 ",\"time\":%" PRIu64 ",\"total\":%" PRIu64 "}", p->pid,
            p->time, total);
}

/* The path's line ranges: ["t.c:3", "t.c:7-8"]. */
static bool json_lines(FILE *out, const struct pp_func_meta *m, uint64_t id,
                       struct pp_error *err)
{
    struct path path;
    struct line_range *r;
    uint32_t n, i;

    if (!path_alloc(m, &path, err))
        return false;
    if (!path_decode(m, id, &path, err)) {
        path_release(&path);
        return pp_context(err, "function %s", m->name);
    }
    r = malloc(path.nedges * sizeof *r);
    if (!r) {
        path_release(&path);
        return pp_fail(err, "out of memory");
    }
    n = path_line_ranges(m, &path, r);
    fputc('[', out);
    for (i = 0; i < n; i++) {
        fputs(i ? ",\"" : "\"", out);
        json_string_body(out, r[i].file);
        if (r[i].first == r[i].last)
            fprintf(out, ":%" PRIu32 "\"", r[i].first);
        else
            fprintf(out, ":%" PRIu32 "-%" PRIu32 "\"", r[i].first, r[i].last);
    }
    fputc(']', out);
    free(r);
    path_release(&path);
    return true;
}

bool diff_report_json(FILE *out, const struct path_diff *d, const char *file_a,
                      const char *file_b, uint64_t top, struct pp_error *err)
{
    size_t *rows = malloc((d->npaths + 1) * sizeof *rows), i;

    if (!rows)
        return pp_fail(err, "out of memory");
    fputs("{\"a\":", out);
    json_profile(out, file_a, d->a, d->total_a);
    fputs(",\"b\":", out);
    json_profile(out, file_b, d->b, d->total_b);
    fputs(",\"functions\":[", out);
    for (i = 0; i < d->nfuncs; i++) {
        const struct diff_func *f = &d->funcs[i];
        const struct pp_func_meta *m = diff_func_meta(d, i);
        fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
        json_string(out, m->name);
        fputs(",\"file\":", out);
        json_string(out, m->file);
        fprintf(out, ",\"status\":\"%s\",\"a_count\":%" PRIu64 ",\"b_count\":%" PRIu64
                     ",\"a_share\":%.9f,\"b_share\":%.9f,\"change\":%.9f}",
                diff_status_name(f->status), f->ta, f->tb, f->sa, f->sb, f->sb - f->sa);
    }
    fputs("],\n\"paths\":[", out);
    for (i = 0; i < d->npaths; i++) {
        const struct diff_path *r = &d->paths[i];
        fprintf(out, "%s\n{\"function\":%zu,\"id\":%" PRIu64 ",\"status\":\"%s\",\"a_count\":%"
                     PRIu64 ",\"b_count\":%" PRIu64 ",\"a_share\":%.9f,\"b_share\":%.9f,"
                     "\"change\":%.9f,\"a_function_share\":%.9f,\"b_function_share\":%.9f,"
                     "\"lines\":", i ? "," : "", r->func, r->id, diff_status_name(r->status),
                r->ca, r->cb, r->sa, r->sb, r->sb - r->sa, r->fsa, r->fsb);
        if (!json_lines(out, diff_func_meta(d, r->func), r->id, err)) {
            free(rows);
            return false;
        }
        fputc('}', out);
    }
    for (i = 0; i < d->npaths; i++)
        rows[i] = i;
    diff_rank_paths(d, rows, d->npaths, false);
    fputs("],\n\"by_change\":[", out);
    for (i = 0; i < d->npaths && (!top || i < top); i++)
        fprintf(out, "%s%zu", i ? "," : "", rows[i]);
    fputs("]}\n", out);
    free(rows);
    return true;
}
