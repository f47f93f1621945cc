/* estimate_out.c - a sampled count's estimate and interval, in text and
 * JSON: one wording for every report (BL paths, k-iteration paths). */
#include <inttypes.h>

#include "estimate_out.h"

void estimate_text(FILE *out, const struct pp_estimate *e, uint64_t seen)
{
    if (!e->known) {
        fprintf(out, "estimate ~? (no burst ran; seen %" PRIu64 " times)", seen);
        return;
    }
    fprintf(out, "estimate ~%.0f", e->value);
    if (!e->exact)
        fprintf(out, ", %.0f%% interval %.0f to %.0f", 100.0 * PP_ESTIMATE_CONFIDENCE, e->lo,
                e->hi);
    fprintf(out, " (seen %" PRIu64 " times in bursts)", seen);
}

void estimate_json(FILE *out, const char *key, const struct pp_estimate *e)
{
    if (!e->known)
        fprintf(out, ",\"%s\":null,\"%s_interval\":null", key, key);
    else
        fprintf(out, ",\"%s\":%.1f,\"%s_interval\":[%.1f,%.1f]", key, e->value, key, e->lo,
                e->hi);
}

/* "sampling": null, or the SAMPLING section and the scale it gives. */
void sampling_json(FILE *out, const struct pp_profile *p)
{
    const struct pp_sampling_info *s = &p->sampling;

    fputs(",\n \"sampling\":", out);
    if (!p->has_sampling) {
        fputs("null", out);
        return;
    }
    fprintf(out, "{\"sample_n\":%" PRIu64 ",\"burst\":%" PRIu64 ",\"bursts\":%" PRIu64
                 ",\"gap_checks\":%" PRIu64 ",\"burst_checks\":%" PRIu64,
            s->sample_n, s->burst, s->bursts, s->gap_checks, s->burst_checks);
    if (profile_sample_scale(p) == 0.0)
        fputs(",\"scale\":null", out);
    else
        fprintf(out, ",\"scale\":%.9g", profile_sample_scale(p));
    fprintf(out, ",\"confidence\":%.2f}", PP_ESTIMATE_CONFIDENCE);
}
