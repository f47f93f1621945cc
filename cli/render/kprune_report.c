/* kprune_report.c - `pathprof report --k` in text for a pruned profile:
 * first, loudly, that the counts are bounds and with which budget; then
 * the guarantee per length (docs/pruning.md); then the sequences by upper
 * bound, each as the source lines of its BL paths, like kipf_report.c. */
#include <inttypes.h>
#include <stdlib.h>

#include "estimate_out.h"
#include "kprune_report.h"
#include "graph/path.h"
#include "path_text.h"
#include "report_header.h"
#include "source_lines.h"
#include "out/text_out.h"

static int by_upper(const void *x, const void *y)
{
    const struct kprune_seq *a = *(const struct kprune_seq *const *)x;
    const struct kprune_seq *b = *(const struct kprune_seq *const *)y;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    if (a->func != b->func)
        return a->func < b->func ? -1 : 1;
    for (uint32_t i = 0; i < a->n; i++)
        if (a->ids[i] != b->ids[i])
            return a->ids[i] < b->ids[i] ? -1 : 1;
    return 0;
}

bool kprune_collect(const struct pp_profile *p, const struct kprune_options *o,
                    const struct kprune_seq ***out, size_t *n, struct pp_error *err)
{
    const struct pp_kprune *k = p->kprune;
    size_t total = 0, m = 0;
    uint32_t len;

    for (len = 1; len <= k->k; len++)
        total += k->len[len - 1].nseqs;
    const struct kprune_seq **v = malloc((total ? total : 1) * sizeof *v);
    if (!v)
        return pp_fail(err, "out of memory");
    for (len = o->min_length; len <= k->k; len++) {
        const struct kprune_length *l = &k->len[len - 1];
        double thr = o->phi * (double)l->total;
        for (size_t i = 0; i < l->nseqs; i++) {
            const struct kprune_seq *s = &l->seqs[i];
            if ((o->selected && !o->selected[s->func]) || s->count < o->min_count ||
                (double)s->count < thr)
                continue;
            v[m++] = s;
        }
    }
    qsort(v, m, sizeof *v, by_upper);
    *out = v;
    *n = m;
    return true;
}

static void out_bytes(FILE *out, uint64_t b)
{
    if (b >= 1u << 20)
        fprintf(out, "%.1f MiB", (double)b / 1048576.0);
    else
        fprintf(out, "%.1f KiB", (double)b / 1024.0);
}

static void out_section(FILE *out, const struct pp_kprune *k, const struct kprune_options *o)
{
    if (k->budget) {
        fputs("PRUNED     counts are bounds, not exact: ksf-pruned held at most ", out);
        out_bytes(out, k->budget);
        fprintf(out, " per analyzer thread (PATHPROF_PRUNE=%" PRIu64 "), m = %" PRIu64
                     " counters per length, epsilon = 1/m = %.2g; %" PRIu64
                     " analyzer thread%s, peak ", k->budget, k->m, 1.0 / (double)k->m,
                k->analyzers, k->analyzers == 1 ? "" : "s");
        out_bytes(out, k->peak);
        fprintf(out, ", %" PRIu64 " epochs\n", k->epochs);
    } else {
        fprintf(out, "not pruned ksf-pruned ran without PATHPROF_PRUNE: every count is exact "
                     "(error 0); %" PRIu64 " analyzer thread%s, peak ", k->analyzers,
                k->analyzers == 1 ? "" : "s");
        out_bytes(out, k->peak);
        fputc('\n', out);
    }
    fprintf(out, "k          %" PRIu32 " (sequences of up to %" PRIu32 " BL paths), %" PRIu64
                 " thread%s, %" PRIu64 " path events\n", k->k, k->k, k->threads,
            k->threads == 1 ? "" : "s", k->events);
    fprintf(out, "guarantee  \"count C (+/- E)\": the sequence ran between C - E and C times; "
                 "a sequence of n BL paths\n           that ran more than max(phi x N_n, "
                 "floor_n) times is listed (phi = %g)\n", o->phi);
    fputs("length     N_n (occurrences)      floor_n  floor_n/N_n  listed in the section\n", out);
    for (uint32_t n = 1; n <= k->k; n++) {
        const struct kprune_length *l = &k->len[n - 1];
        fprintf(out, "  %3" PRIu32 "    %17" PRIu64 "  %11" PRIu64 "  %11.2g  %zu\n", n, l->total,
                l->floor, l->total ? (double)l->floor / (double)l->total : 0.0, l->nseqs);
    }
}

struct pp_estimate kprune_estimate(const struct pp_profile *p, const struct kprune_seq *s)
{
    struct pp_estimate e = estimate_count(p, s->count, s->n);
    struct pp_estimate low = estimate_count(p, s->count - s->err, s->n);
    e.lo = low.lo;
    return e;
}

static bool out_seq(FILE *out, const struct pp_profile *p, const struct kprune_seq *s,
                    size_t rank, struct source_cache *src, struct pp_error *err)
{
    const struct pp_func_meta *m = p->funcs[s->func].meta;
    const struct kprune_length *l = &p->kprune->len[s->n - 1];
    struct path path;
    uint64_t blocks = 0;
    uint32_t i, run;

    if (!path_alloc(m, &path, err))
        return false;
    for (i = 0; i < s->n; i++) {
        if (!path_decode(m, s->ids[i], &path, err)) {
            path_release(&path);
            return pp_context(err, "function %s", m->name);
        }
        blocks += path_nblocks(&path);
    }
    fprintf(out, "\n#%zu  ", rank);
    out_func(out, m);
    fputs("  paths", out);
    out_id_runs(out, s->ids, s->n);
    fputc('\n', out);
    if (profile_kpath_sampled(p, &p->funcs[s->func], s->n)) {
        struct pp_estimate e = kprune_estimate(p, s);
        fputs("    ", out);
        estimate_text(out, &e, s->count);
        fputc('\n', out);
    }
    fprintf(out, "    count %" PRIu64 " (+/- %" PRIu64 "), between %" PRIu64 " and %" PRIu64
                 " (%.3g%% of the %" PRIu64 " sequences of %" PRIu32 "), %" PRIu32
                 " BL paths, %" PRIu64 " blocks\n", s->count, s->err, s->count - s->err,
            s->count, l->total ? 100.0 * (double)s->count / (double)l->total : 0.0, l->total,
            s->n, s->n, blocks);
    for (i = 0; i < s->n; i += run) {
        run = ids_repeat(s->ids, s->n, i);
        if (!path_decode(m, s->ids[i], &path, err)) {
            path_release(&path);
            return pp_context(err, "function %s", m->name);
        }
        out_iteration_marker(out, s->ids[i], i, run);
        out_path_lines(out, src, m, &path, "    ");
    }
    path_release(&path);
    return true;
}

bool kprune_report_text(FILE *out, const struct pp_profile *p, const struct kprune_options *o,
                        struct pp_error *err)
{
    const struct kprune_seq **v;
    size_t n, i;
    bool ok = true;

    if (!kprune_collect(p, o, &v, &n, err))
        return false;
    report_header(out, p);
    out_section(out, p->kprune, o);
    fprintf(out, "listed     sequences of %" PRIu32 " to %" PRIu32 " BL paths whose upper bound "
                 "is at least %" PRIu64 " and phi x N_n\n", o->min_length, p->kprune->k,
            o->min_count ? o->min_count : 1);
    if (n == 0) {
        fputs("\nNo k-iteration path matches.\n", out);
    } else {
        struct source_cache *src = source_cache_new();
        fprintf(out, "\nk-iteration paths by count (upper bound)");
        if (o->top && n > o->top)
            fprintf(out, " (top %" PRIu64 " of %zu)\n", o->top, n);
        else
            fprintf(out, " (all %zu)\n", n);
        for (i = 0; ok && i < n && (!o->top || i < o->top); i++)
            ok = out_seq(out, p, v[i], i + 1, src, err);
        if (ok)
            source_out_missing(out, src, "\nsources    not found: ");
        source_cache_free(src);
    }
    free(v);
    return ok;
}
