/* kprune_json.c - `pathprof report --k --json` on a pruned profile
 * (docs/json.md): the budget and per-length guarantee, then each sequence
 * with its bounds lo and hi, by descending hi. */
#include <inttypes.h>
#include <stdlib.h>

#include "out/json_out.h"
#include "estimate_out.h"
#include "kprune_report.h"
#include "pathprof-abi.h"
#include "read/section_status.h"

static void out_section(FILE *out, const struct pp_kprune *k)
{
    fprintf(out, ",\n \"kprune\":{\"k\":%" PRIu32 ",\"pruned\":%s,\"budget\":%" PRIu64
                 ",\"m\":%" PRIu64 ",\"threads\":%" PRIu64 ",\"events\":%" PRIu64
                 ",\"epochs\":%" PRIu64 ",\"analyzers\":%" PRIu64 ",\"peak_bytes\":%" PRIu64
                 ",\n  \"lengths\":[",
            k->k, k->budget ? "true" : "false", k->budget, k->m, k->threads, k->events,
            k->epochs, k->analyzers, k->peak);
    for (uint32_t n = 1; n <= k->k; n++)
        fprintf(out, "%s{\"n\":%" PRIu32 ",\"total\":%" PRIu64 ",\"floor\":%" PRIu64
                     ",\"listed\":%zu}", n > 1 ? "," : "", n, k->len[n - 1].total,
                k->len[n - 1].floor, k->len[n - 1].nseqs);
    fputs("]}", out);
}

bool kprune_report_json(FILE *out, const struct pp_profile *p, const struct kprune_options *o,
                        struct pp_error *err)
{
    const struct kprune_seq **v;
    size_t n, i;

    if (!kprune_collect(p, o, &v, &n, err))
        return false;
    fputs("{\"program\":", out);
    json_string(out, p->has_program ? p->program : NULL);
    fprintf(out, ",\n \"pid\":%" PRIu64 ",\n \"mode\":\"%s\"", p->pid,
            p->mode == PATHPROF_MODE_STREAM ? "stream" : "count");
    sampling_json(out, p);
    sections_json(out, p);
    out_section(out, p->kprune);
    fprintf(out, ",\n \"phi\":%.17g,\n \"min_count\":%" PRIu64 ",\n \"min_length\":%" PRIu32
                 ",\n \"total\":%zu,\n \"paths\":[",
            o->phi, o->min_count ? o->min_count : 1, o->min_length, n);
    for (i = 0; i < n && (!o->top || i < o->top); i++) {
        const struct kprune_seq *s = v[i];
        const struct pp_func_meta *m = p->funcs[s->func].meta;
        fputs(i ? ",\n  {\"function\":" : "\n  {\"function\":", out);
        json_string(out, m->name);
        fputs(",\"file\":", out);
        json_string(out, m->file);
        fputs(",\"ids\":[", out);
        for (uint32_t j = 0; j < s->n; j++)
            fprintf(out, "%s%" PRIu64, j ? "," : "", s->ids[j]);
        fprintf(out, "],\"count\":%" PRIu64 ",\"lo\":%" PRIu64 ",\"hi\":%" PRIu64,
                s->count, s->count - s->err, s->count);
        if (profile_kpath_sampled(p, &p->funcs[s->func], s->n)) {
            struct pp_estimate e = kprune_estimate(p, s);
            fputs(",\"sampled\":true", out);
            estimate_json(out, "estimate", &e);
        }
        fprintf(out, ",\"length\":%" PRIu32 "}", s->n);
    }
    fputs(i ? "\n ]\n}\n" : "]\n}\n", out);
    free(v);
    return true;
}
