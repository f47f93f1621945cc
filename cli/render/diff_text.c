/* diff_text.c - `pathprof diff A B` in text: what each profile is, then
 * the functions and paths whose share of the flow changed most, the paths
 * new in B and gone from it, and per function its paths by the change of
 * their share within it. A share is a count over its profile's paths
 * executed; a change is in percentage points (B% - A%). */
#include <inttypes.h>
#include <stdlib.h>
#include <time.h>

#include "diff_report.h"
#include "graph/path.h"
#include "path_text.h"
#include "source_lines.h"
#include "out/text_out.h"

static void out_profile(FILE *out, const char *tag, const char *file,
                        const struct pp_profile *p, uint64_t total)
{
    char when[64] = "?";
    time_t t = (time_t)p->time;
    struct tm tm;

    if ((uint64_t)t == p->time && gmtime_r(&t, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
    fprintf(out, "%-10s ", tag);
    out_safe(out, file);
    fputs(": ", out);
    out_safe(out, p->has_program && *p->cmdline ? p->cmdline : "(command not recorded)");
    fprintf(out, " (pid %" PRIu64 ", written %s), %" PRIu64 " paths executed\n", p->pid, when,
            total);
}

static size_t count_status(const struct path_diff *d, bool funcs, enum diff_status s)
{
    size_t i, n = 0;
    for (i = 0; i < (funcs ? d->nfuncs : d->npaths); i++)
        n += (funcs ? d->funcs[i].status : d->paths[i].status) == s;
    return n;
}

static void out_title(FILE *out, const char *title, size_t n, uint64_t top)
{
    if (top && n > top)
        fprintf(out, "\n%s (top %" PRIu64 " of %zu)\n", title, top, n);
    else
        fprintf(out, "\n%s (all %zu)\n", title, n);
}

static void out_status(FILE *out, enum diff_status s)
{
    if (s == DIFF_NEW)
        fputs("  NEW", out);
    else if (s == DIFF_GONE)
        fputs("  GONE", out);
    else if (s == DIFF_CHANGED)
        fputs("  CODE CHANGED: paths not compared", out);
}

static bool out_functions(FILE *out, const struct path_diff *d, uint64_t top,
                          struct pp_error *err)
{
    size_t *rows = malloc((d->nfuncs + 1) * sizeof *rows), i;

    if (!rows)
        return pp_fail(err, "out of memory");
    for (i = 0; i < d->nfuncs; i++)
        rows[i] = i;
    diff_rank_funcs(d, rows, d->nfuncs);
    out_title(out, "Functions by change in share", d->nfuncs, top);
    if (d->nfuncs)
        fprintf(out, "%14s %7s %14s %7s %8s  %s\n", "A count", "A %", "B count", "B %", "change",
                "function");
    for (i = 0; i < d->nfuncs && (!top || i < top); i++) {
        const struct diff_func *f = &d->funcs[rows[i]];
        fprintf(out, "%14" PRIu64 " %6.1f%% %14" PRIu64 " %6.1f%% %+8.1f  ", f->ta,
                100 * f->sa, f->tb, 100 * f->sb, 100 * (f->sb - f->sa));
        out_func(out, diff_func_meta(d, rows[i]));
        out_status(out, f->status);
        fputc('\n', out);
    }
    free(rows);
    return true;
}

/* One path with its source lines (decoded in the profile that has it). */
static bool out_path(FILE *out, const struct path_diff *d, size_t row, size_t rank,
                     struct source_cache *src, struct pp_error *err)
{
    const struct diff_path *r = &d->paths[row];
    const struct pp_func_meta *m = diff_func_meta(d, r->func);
    struct path path;

    if (!path_alloc(m, &path, err))
        return false;
    if (!path_decode(m, r->id, &path, err)) {
        path_release(&path);
        return pp_context(err, "function %s", m->name);
    }
    fprintf(out, "\n#%zu  ", rank);
    out_func(out, m);
    fprintf(out, "  path %" PRIu64, r->id);
    out_status(out, r->status);
    fprintf(out, "\n    A %" PRIu64 " (%.1f%%), B %" PRIu64 " (%.1f%%): %+.1f points; within ",
            r->ca, 100 * r->sa, r->cb, 100 * r->sb, 100 * (r->sb - r->sa));
    out_safe(out, m->name);
    fprintf(out, " %.1f%% -> %.1f%%\n    ", 100 * r->fsa, 100 * r->fsb);
    out_path_ends(out, m, &path);
    fputc('\n', out);
    out_path_lines(out, src, m, &path, "    ");
    path_release(&path);
    return true;
}

/* The paths of status S (all when ALL), by change of overall share; with
 * LINES each with its source lines, else one line each. */
static bool out_paths(FILE *out, const struct path_diff *d, const char *title, bool all,
                      enum diff_status s, bool lines, uint64_t top, struct source_cache *src,
                      struct pp_error *err)
{
    size_t *rows = malloc((d->npaths + 1) * sizeof *rows), n = 0, i;

    if (!rows)
        return pp_fail(err, "out of memory");
    for (i = 0; i < d->npaths; i++)
        if (all || d->paths[i].status == s)
            rows[n++] = i;
    diff_rank_paths(d, rows, n, false);
    out_title(out, title, n, top);
    for (i = 0; i < n && (!top || i < top); i++) {
        const struct diff_path *r = &d->paths[rows[i]];
        if (lines) {
            if (!out_path(out, d, rows[i], i + 1, src, err)) {
                free(rows);
                return false;
            }
            continue;
        }
        fputs("  ", out);
        out_func(out, diff_func_meta(d, r->func));
        fprintf(out, "  path %" PRIu64 "  %s %" PRIu64 " (%.1f%%)\n", r->id,
                s == DIFF_NEW ? "B" : "A", s == DIFF_NEW ? r->cb : r->ca,
                100 * (s == DIFF_NEW ? r->sb : r->sa));
    }
    free(rows);
    return true;
}

/* Per function (the TOP by change), its paths by change within it. */
static bool out_within(FILE *out, const struct path_diff *d, uint64_t top,
                       struct pp_error *err)
{
    size_t *funcs = malloc((d->nfuncs + 1) * sizeof *funcs);
    size_t *rows = malloc((d->npaths + 1) * sizeof *rows), i, j, first = 0, n;

    if (!funcs || !rows) {
        free(funcs);
        free(rows);
        return pp_fail(err, "out of memory");
    }
    for (i = 0; i < d->nfuncs; i++)
        funcs[i] = i;
    diff_rank_funcs(d, funcs, d->nfuncs);
    out_title(out, "Within each function: its paths by change in their share of it",
              d->nfuncs, top);
    for (i = 0; i < d->nfuncs && (!top || i < top); i++) {
        const struct diff_func *f = &d->funcs[funcs[i]];
        fputs("\n", out);
        out_func(out, diff_func_meta(d, funcs[i]));
        fprintf(out, ": A %" PRIu64 ", B %" PRIu64, f->ta, f->tb);
        out_status(out, f->status);
        fputc('\n', out);
        /* The function's paths are contiguous in d->paths. */
        for (first = 0, j = 0; j < funcs[i]; j++)
            first += d->funcs[j].npaths;
        for (n = 0; n < f->npaths; n++)
            rows[n] = first + n;
        diff_rank_paths(d, rows, n, true);
        if (n)
            fprintf(out, "    %8s %7s %7s  %s\n", "A %", "B %", "change", "path");
        for (j = 0; j < n && (!top || j < top); j++) {
            const struct diff_path *r = &d->paths[rows[j]];
            fprintf(out, "    %7.1f%% %6.1f%% %+7.1f  %" PRIu64, 100 * r->fsa, 100 * r->fsb,
                    100 * (r->fsb - r->fsa), r->id);
            out_status(out, r->status);
            fputc('\n', out);
        }
        if (top && n > top)
            fprintf(out, "    ... %zu more paths\n", n - top);
    }
    free(funcs);
    free(rows);
    return true;
}

bool diff_report_text(FILE *out, const struct path_diff *d, const char *file_a,
                      const char *file_b, uint64_t top, struct pp_error *err)
{
    struct source_cache *src = source_cache_new();
    bool ok;

    out_profile(out, "A", file_a, d->a, d->total_a);
    out_profile(out, "B", file_b, d->b, d->total_b);
    fprintf(out, "functions  %zu ran: %zu in both, %zu new in B, %zu gone from B, %zu with "
                 "changed code\n", d->nfuncs, count_status(d, true, DIFF_BOTH),
            count_status(d, true, DIFF_NEW), count_status(d, true, DIFF_GONE),
            count_status(d, true, DIFF_CHANGED));
    fprintf(out, "paths      %zu ran: %zu in both, %zu new in B, %zu gone from B\n", d->npaths,
            count_status(d, false, DIFF_BOTH), count_status(d, false, DIFF_NEW),
            count_status(d, false, DIFF_GONE));
    fputs("shares     a count over its profile's paths executed (or its function's); "
          "changes in points, B% - A%\n", out);
    ok = out_functions(out, d, top, err) &&
         out_paths(out, d, "Paths by change in share", true, DIFF_BOTH, true, top, src, err) &&
         out_paths(out, d, "Paths new in B", false, DIFF_NEW, false, top, src, err) &&
         out_paths(out, d, "Paths gone from B", false, DIFF_GONE, false, top, src, err) &&
         out_within(out, d, top, err);
    if (ok)
        source_out_missing(out, src, "\nsources    not found: ");
    source_cache_free(src);
    return ok;
}
