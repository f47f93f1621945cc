/* vpp_json.c - `pathprof vpp --json` (docs/json.md): everything the text
 * shows but the source lines, one object. */
#include "vpp_report.h"

#include <inttypes.h>

#include "out/json_out.h"

static void out_path(FILE *out, const struct vpp_view *w, const struct vpp_path *r, double scale)
{
    const struct pp_func_meta *m = vpp_func(w->p, r);
    fprintf(out, "{\"function\":");
    json_string(out, m->name);
    fprintf(out, ",\"file\":");
    json_string(out, m->file ? m->file : "");
    fprintf(out, ",\"line\":%" PRIu32 ",\"path_id\":%" PRIu64 ",\"samples\":%" PRIu64
                 ",\"basetime\":%" PRIu64 ",\"max\":%" PRIu64 ",\"total\":%" PRIu64
                 ",\"net\":%.0f,\"outliers\":%" PRIu64 ",\"event_samples\":%" PRIu64
                 ",\"events\":%" PRIu64,
            m->line, r->path_id, r->samples, r->base, r->max, r->total, r->net, r->outliers,
            r->ev_samples, r->events);
    double prog = (double)w->v->program_ticks;
    fprintf(out, ",\"share_of_net\":%.6f,\"share_of_run\":%.6f,\"net_share_of_run\":%.6f",
            w->r->net_total > 0 ? r->net / w->r->net_total : 0.0,
            prog > 0 ? (double)r->total * scale / prog : 0.0,
            prog > 0 ? r->net * scale / prog : 0.0);
    fprintf(out, ",\"histogram\":[");
    for (unsigned b = 0; b < VPP_NBUCKETS; b++)
        fprintf(out, "%s%" PRIu64, b ? "," : "", r->hist[b]);
    /* The histogram of times itself, sparse: what merges add up. */
    fprintf(out, "],\"times\":[");
    for (unsigned b = 0, k = 0; b < PPRT_VPP_NBUCKETS; b++)
        if (r->times[b])
            fprintf(out, "%s{\"bucket\":%u,\"from\":%" PRIu64 ",\"count\":%" PRIu64 "}",
                    k++ ? "," : "", b, pprt_vpp_hist_low(b), r->times[b]);
    fprintf(out, "]}");
}

void vpp_json(FILE *out, const struct vpp_view *w)
{
    const struct vpp_data *v = w->v;
    double scale = profile_sample_scale(w->p);
    if (scale <= 0)
        scale = 1;
    fprintf(out, "{\"program\":");
    json_string(out, w->p->program ? w->p->program : "");
    fprintf(out, ",\"sample_n\":%" PRIu64 ",\"scale\":%.6f,\"counter\":", v->sample_n, scale);
    json_string(out, vpp_counter_name(v->counter));
    fprintf(out, ",\"invariant\":%s,\"bias\":%" PRIu64 ",\"bias_median\":%" PRIu64
                 ",\"bias_p90\":%" PRIu64 ",\"run_ticks\":%" PRIu64 ",\"timed\":%" PRIu64
                 ",\"orphans\":%" PRIu64 ",\"unattributed\":%" PRIu64 ",\"migrated\":%" PRIu64
                 ",\"outlier_ticks\":%" PRIu64 ",\"outliers\":%" PRIu64
                 ",\"net_total\":%.0f,\"time_total\":%.0f,\"bucket_bounds\":\"bucket 0: delta 0; "
                 "bucket b: [2^(b-1), 2^b); the last: 2^30 and more; each timing at the lower "
                 "bound of its time bucket (12.5%% wide)\"",
            (v->flags & VPP_FLAG_UNSTABLE) ? "false" : "true", v->bias, v->bias_median,
            v->bias_p90, v->program_ticks, v->timed, v->orphans, v->unattributed, v->migrated,
            v->outlier_ticks, v->outliers,
            w->r->net_total, w->r->time_total);
    fprintf(out, ",\"events\":");
    json_string(out, vpp_events_name(v->events));
    fprintf(out, ",\"events_available\":%s",
            v->events && !(v->flags & VPP_FLAG_EVENTS_UNAVAILABLE) ? "true" : "false");
    if (w->other) {
        fprintf(out, ",\"against\":{\"file\":");
        json_string(out, w->other);
        fprintf(out, ",\"top\":%zu,\"found\":%zu,\"cross\":%.6f,\"self\":%.6f}", w->top_other,
                w->found, w->cross, w->self);
    }
    size_t n = w->r->nranked;
    if (w->top && w->top < n)
        n = w->top;
    fprintf(out, ",\"paths\":[");
    for (size_t k = 0; k < n; k++) {
        if (k)
            fputc(',', out);
        out_path(out, w, &v->paths[w->r->ranked[k]], scale);
    }
    fprintf(out, "],\"single\":[");
    for (size_t k = 0; k < w->r->nsingle; k++) {
        if (k)
            fputc(',', out);
        out_path(out, w, &v->paths[w->r->single[k]], scale);
    }
    fprintf(out, "]}\n");
}
