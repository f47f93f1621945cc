/* report_text.c - `pathprof report` in text.
 *
 * The text report answers "where does my program spend its paths": a
 * header about the run, the functions by paths executed, then the hottest
 * paths twice, by count and by count x length (a long path run often costs
 * more than a short one run a little more often), each printed as the
 * source lines it runs. */
#include <inttypes.h>
#include <stdlib.h>

#include "graph/path.h"
#include "graph/ppp.h"
#include "pathprof-abi.h"
#include "estimate_out.h"
#include "path_text.h"
#include "query/estimate.h"
#include "query/rank.h"
#include "report.h"
#include "report_header.h"
#include "source_lines.h"
#include "tpp_summary.h"
#include "out/text_out.h"

static double percent(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static const struct pp_func *ranked_func;

static int by_total(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    uint64_t ta = ranked_func[a].total, tb = ranked_func[b].total;
    if (ta != tb)
        return ta > tb ? -1 : 1;
    return (a > b) - (a < b);
}

static void out_table_title(FILE *out, const char *title, size_t n, uint64_t top)
{
    if (top && n > top)
        fprintf(out, "\n%s (top %" PRIu64 " of %zu)\n", title, top, n);
    else
        fprintf(out, "\n%s (all %zu)\n", title, n);
}

/* "~E", the estimate of a sampled count (docs/sampling.md), right-aligned
 * in WIDTH; "~?" when nothing was sampled to scale by. */
static void out_estimate(FILE *out, const struct pp_profile *p, uint64_t count, int width)
{
    struct pp_estimate e = estimate_count(p, count, 1);
    char buf[40];
    if (!e.known)
        snprintf(buf, sizeof buf, "~?");
    else
        snprintf(buf, sizeof buf, "~%.0f", e.value);
    fprintf(out, "%*s", width, buf);
}

static bool out_functions(FILE *out, const struct pp_profile *p, const bool *selected,
                          uint64_t top, uint64_t total, struct pp_error *err)
{
    size_t *order = malloc((p->nfuncs ? p->nfuncs : 1) * sizeof *order);
    size_t n = 0, i;

    if (!order)
        return pp_fail(err, "out of memory");
    for (i = 0; i < p->nfuncs; i++)
        if ((!selected || selected[i]) && p->funcs[i].total)
            order[n++] = i;
    ranked_func = p->funcs;
    qsort(order, n, sizeof *order, by_total);
    out_table_title(out, "Functions by paths executed", n, top);
    if (n)
        fprintf(out, "%20s %7s %21s  %s\n", "count", "%", "paths run/numbered", "function");
    for (i = 0; i < n && (!top || i < top); i++) {
        const struct pp_func *f = &p->funcs[order[i]];
        char paths[48];
        snprintf(paths, sizeof paths, "%" PRIu64 "/%" PRIu64, f->nrecords, f->meta->npaths);
        if (profile_func_sampled(p, f))
            out_estimate(out, p, f->total, 20);
        else
            fprintf(out, "%20" PRIu64, f->total);
        fprintf(out, " %6.1f%% %21s  ", percent(f->total, total), paths);
        out_func(out, f->meta);
        if (meta_has_named_flags(f->meta->flags)) {
            fputs("  [", out);
            out_flags(out, f->meta->flags);
            fputc(']', out);
        }
        tpp_func_text(out, f);
        fputc('\n', out);
    }
    free(order);
    return true;
}

/* In a PPP function, whether the path was counted as interesting. */
static void out_ppp_class(FILE *out, const struct pp_func_meta *m, uint64_t id)
{
    uint32_t number;
    if (!(m->flags & PATHPROF_FN_PPP))
        return;
    if (ppp_number_of(m, id, &number))
        fprintf(out, "; interesting, PPP number %" PRIu32, number);
    else
        fputs("; not interesting (counted by its Ball-Larus ID)", out);
}

/* One ranked path: its title line, how it starts and ends, its lines. */
static bool out_path(FILE *out, const struct pp_profile *p, const struct ranked_path *rp,
                     size_t rank, bool by_weight, uint64_t whole, struct source_cache *src,
                     struct pp_error *err)
{
    const struct pp_func_meta *m = p->funcs[rp->func].meta;
    struct path path;

    if (!path_alloc(m, &path, err))
        return false;
    if (!path_decode(m, rp->id, &path, err)) {
        path_release(&path);
        return pp_context(err, "function %s", m->name);
    }
    fprintf(out, "\n#%zu  ", rank);
    out_func(out, m);
    fprintf(out, "  path %" PRIu64 "\n    ", rp->id);
    if (profile_func_sampled(p, &p->funcs[rp->func])) {
        struct pp_estimate e = estimate_count(p, rp->count, 1);
        estimate_text(out, &e, rp->count);
        fputs("\n    ", out);
    }
    if (by_weight)
        fprintf(out, "count %" PRIu64 " x %" PRIu32 " blocks = %" PRIu64 " (%.1f%%)",
                rp->count, rp->length, rp->weight, percent(rp->weight, whole));
    else
        fprintf(out, "count %" PRIu64 " (%.1f%%), %" PRIu32 " blocks", rp->count,
                percent(rp->count, whole), rp->length);
    out_ppp_class(out, m, rp->id);
    {
        uint32_t s, d;
        if (tpp_defining_edge(m, rp->id, &s, &d))
            fprintf(out, "; derived: counted on its defining edge %" PRIu32 "->%" PRIu32, s, d);
    }
    fputs("\n    ", out);
    out_path_ends(out, m, &path);
    fputc('\n', out);
    out_path_lines(out, src, m, &path, "    ");
    path_release(&path);
    return true;
}

static bool out_paths(FILE *out, const struct pp_profile *p, struct ranked_path *paths,
                      size_t n, bool by_weight, uint64_t top, struct source_cache *src,
                      struct pp_error *err)
{
    uint64_t whole = 0;
    size_t i;

    /* Counts fit (the reader checked their total); count x length may not,
     * and a weight of UINT64_MAX is already saturated: the total saturates
     * too rather than wrap to a small number. */
    for (i = 0; i < n; i++) {
        uint64_t v = by_weight ? paths[i].weight : paths[i].count;
        if (__builtin_add_overflow(whole, v, &whole))
            whole = UINT64_MAX;
    }
    if (by_weight)
        rank_by_weight(paths, n);
    else
        rank_by_count(paths, n);
    out_table_title(out, by_weight ? "Paths by count x length" : "Paths by count", n, top);
    for (i = 0; i < n && (!top || i < top); i++)
        if (!out_path(out, p, &paths[i], i + 1, by_weight, whole, src, err))
            return false;
    return true;
}

bool report_text(FILE *out, const struct pp_profile *p, const bool *selected, uint64_t top,
                 struct pp_error *err)
{
    struct ranked_path *paths;
    struct source_cache *src;
    size_t n;
    bool ok;

    if (!rank_collect(p, selected, &paths, &n, err))
        return false;
    src = source_cache_new();
    report_header(out, p);
    ok = out_functions(out, p, selected, top, profile_total(p), err);
    if (ok && n == 0)
        fputs("\nNo path was executed.\n", out);
    else if (ok)
        ok = out_paths(out, p, paths, n, false, top, src, err) &&
             out_paths(out, p, paths, n, true, top, src, err);
    if (ok)
        source_out_missing(out, src, "\nsources    not found: ");
    source_cache_free(src);
    free(paths);
    return ok;
}
