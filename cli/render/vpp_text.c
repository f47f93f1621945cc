/* vpp_text.c - `pathprof vpp` in text: the header (what was timed, how,
 * the bias, the sampling rate), then per path by net variation its
 * numbers, its share of the program's time, its histogram of deltas above
 * the basetime (the paper's Fig. 2) and its source lines. */
#include "vpp_report.h"

#include <inttypes.h>

#include "graph/path.h"
#include "out/text_out.h"
#include "path_text.h"
#include "source_lines.h"

static double scale_of(const struct vpp_view *w)
{
    double s = profile_sample_scale(w->p);
    return s > 0 ? s : 1;
}

static double share(const struct vpp_view *w, double ticks)
{
    if (w->v->program_ticks == 0)
        return 0;
    return ticks * scale_of(w) / (double)w->v->program_ticks;
}

static void out_header(FILE *out, const struct vpp_view *w)
{
    const struct vpp_data *v = w->v;
    fprintf(out, "program    ");
    out_safe(out, w->p->program ? w->p->program : "");
    fprintf(out, "\ntimings    sampled: ");
    if (v->sample_n == 1)
        fprintf(out, "every path (1/1)");
    else
        fprintf(out, "one path per burst at 1/%" PRIu64 " (estimates x %.3f)", v->sample_n,
                scale_of(w));
    fprintf(out, ", %" PRIu64 " timed executions\n", v->timed);
    fprintf(out, "counter    %s%s; bias %" PRIu64 " ticks subtracted (median %" PRIu64
                 ", 90%% %" PRIu64 ")\n",
            vpp_counter_name(v->counter),
            (v->flags & VPP_FLAG_UNSTABLE)
                ? " -- NOT INVARIANT on this machine: timings mix clock speeds"
                : ", invariant",
            v->bias, v->bias_median, v->bias_p90);
    fprintf(out, "run        %" PRIu64 " ticks; timed paths ~%.1f%% of it; net variation "
                 "~%.1f%% of it\n",
            v->program_ticks, 100 * share(w, w->r->time_total), 100 * share(w, w->r->net_total));
    fprintf(out, "paths      %zu with 2 or more timings (ranked), %zu with one (listed apart)\n",
            w->r->nranked, w->r->nsingle);
    if (v->outlier_ticks)
        fprintf(out, "set aside  %" PRIu64 " timings above %" PRIu64 " ticks "
                     "(PATHPROF_VPP_OUTLIER: preempted, most likely), %" PRIu64
                     " of paths moved to another CPU\n",
                v->outliers, v->outlier_ticks, v->migrated);
    else
        fprintf(out, "set aside  %" PRIu64 " timings of paths moved to another CPU "
                     "(PATHPROF_VPP_OUTLIER=0: every other timing kept)\n", v->migrated);
    if (v->events)
        fprintf(out, "events     %s (PATHPROF_VPP_COUNTER)%s\n", vpp_events_name(v->events),
                (v->flags & VPP_FLAG_EVENTS_UNAVAILABLE)
                    ? ": UNAVAILABLE on this machine (perf_event_open refused it), "
                      "timings only"
                    : ", per timing over the same interval");
    if (v->orphans || v->unattributed)
        fprintf(out, "lost       %" PRIu64 " timings without a path, %" PRIu64
                     " of no known path\n", v->orphans, v->unattributed);
}

static void out_histogram(FILE *out, const struct vpp_path *r)
{
    uint64_t most = 0;
    unsigned last = 0;
    for (unsigned b = 0; b < VPP_NBUCKETS; b++) {
        if (r->hist[b] > most)
            most = r->hist[b];
        if (r->hist[b])
            last = b;
    }
    fprintf(out, "    deltas above basetime (ticks; each at its time bucket's lower bound):\n");
    for (unsigned b = 0; b <= last; b++) {
        char range[48];
        if (b == 0)
            snprintf(range, sizeof range, "0");
        else if (b == VPP_NBUCKETS - 1)
            snprintf(range, sizeof range, ">= %" PRIu64, (uint64_t)1 << (b - 1));
        else
            snprintf(range, sizeof range, "%" PRIu64 "-%" PRIu64, (uint64_t)1 << (b - 1),
                     ((uint64_t)1 << b) - 1);
        int bar = most ? (int)((40 * r->hist[b] + most - 1) / most) : 0;
        fprintf(out, "      %21s %10" PRIu64 " %.*s\n", range, r->hist[b], bar,
                "########################################");
    }
}

static bool out_one(FILE *out, const struct vpp_view *w, size_t rank, const struct vpp_path *r,
                    struct source_cache *src, struct pp_error *err)
{
    const struct pp_func_meta *m = vpp_func(w->p, r);
    struct path path;
    if (!path_alloc(m, &path, err))
        return false;
    if (!path_decode(m, r->path_id, &path, err)) {
        path_release(&path);
        return pp_context(err, "function %s", m->name);
    }
    fprintf(out, "\n#%zu  ", rank);
    out_func(out, m);
    fprintf(out, "  path %" PRIu64 "\n", r->path_id);
    fprintf(out, "    net variation %.0f ticks (%.1f%% of all net variation; ~%.2f%% of the "
                 "run)\n",
            r->net, w->r->net_total > 0 ? 100 * r->net / w->r->net_total : 0.0,
            100 * share(w, r->net));
    fprintf(out, "    %" PRIu64 " timings: basetime %" PRIu64 ", mean %.1f, largest %" PRIu64
                 ", total %" PRIu64 " ticks (~%.2f%% of the run)\n",
            r->samples, r->base, (double)r->total / (double)r->samples, r->max, r->total,
            100 * share(w, (double)r->total));
    if (r->outliers)
        fprintf(out, "    %" PRIu64 " more timings set aside above PATHPROF_VPP_OUTLIER\n",
                r->outliers);
    if (r->ev_samples)
        fprintf(out, "    %s: mean %.1f per timing over %" PRIu64 " timings\n",
                vpp_events_name(w->v->events), (double)r->events / (double)r->ev_samples,
                r->ev_samples);
    out_histogram(out, r);
    fprintf(out, "    ");
    out_path_ends(out, m, &path);
    fputc('\n', out);
    out_path_lines(out, src, m, &path, "    ");
    path_release(&path);
    return true;
}

bool vpp_text(FILE *out, const struct vpp_view *w, struct pp_error *err)
{
    out_header(out, w);
    if (w->other)
        fprintf(out, "against    the top %zu paths of %s (%zu found here) capture %.1f%% of this "
                     "profile's net variation; its own top %zu capture %.1f%%\n",
                w->top_other, w->other, w->found, 100 * w->cross, w->top_other, 100 * w->self);
    struct source_cache *src = source_cache_new();
    if (src == NULL)
        return pp_fail(err, "out of memory");
    size_t n = w->r->nranked;
    if (w->top && w->top < n)
        fprintf(out, "\nPaths by net variation (top %zu of %zu)\n", w->top, n), n = w->top;
    else
        fprintf(out, "\nPaths by net variation (all %zu)\n", n);
    bool ok = true;
    for (size_t k = 0; ok && k < n; k++)
        ok = out_one(out, w, k + 1, &w->v->paths[w->r->ranked[k]], src, err);
    if (ok && w->r->nsingle) {
        fprintf(out, "\nPaths timed once or only set aside (no variation measured), by time\n");
        for (size_t k = 0; k < w->r->nsingle; k++) {
            const struct vpp_path *r = &w->v->paths[w->r->single[k]];
            fprintf(out, "    ");
            out_func(out, vpp_func(w->p, r));
            if (r->samples)
                fprintf(out, "  path %" PRIu64 ": %" PRIu64 " ticks", r->path_id, r->total);
            else
                fprintf(out, "  path %" PRIu64 ": no timing kept", r->path_id);
            if (r->outliers)
                fprintf(out, ", %" PRIu64 " set aside", r->outliers);
            fputc('\n', out);
        }
    }
    if (ok)
        source_out_missing(out, src, "\nsources not found: ");
    source_cache_free(src);
    return ok;
}
