/* kipf_json.c - `pathprof report --k --json` (schema: docs/json.md): the
 * section's figures, then each k-iteration path as its BL path IDs with
 * its function and count, by descending count, one per line. */
#include <inttypes.h>
#include <stdlib.h>

#include "out/json_out.h"
#include "estimate_out.h"
#include "kipf_report.h"
#include "pathprof-abi.h"
#include "read/section_status.h"

static void out_section(FILE *out, const struct pp_kipf *k)
{
    uint32_t i;

    fprintf(out, ",\n \"kipf\":{\"k\":%" PRIu32 ",\"pruned\":%s,\"threads\":%" PRIu64
                 ",\"events\":%" PRIu64 ",\"ksf_nodes\":%" PRIu64 ",\"kipf_nodes\":%" PRIu64
                 ",\"hash_ops\":%" PRIu64 ",\"leaves\":%" PRIu64 ",\"leaf_depth_sum\":%" PRIu64
                 ",\"roots\":%" PRIu64 ",\n  \"levels\":[",
            k->k, k->flags & KIPF_FLAG_PRUNED ? "true" : "false", k->threads, k->events,
            k->ksf_nodes, k->kipf_nodes, k->hash_ops, k->leaves, k->leaf_depth_sum, k->nroots);
    for (i = 0; i < k->nlevels; i++)
        fprintf(out, "%s{\"nodes\":%" PRIu64 ",\"internal\":%" PRIu64 ",\"children\":%" PRIu64
                     "}", i ? "," : "", k->levels[i].nodes, k->levels[i].internal,
                k->levels[i].children);
    fputs("]}", out);
}

static void out_kpath(FILE *out, const struct pp_profile *p, const struct kpath *kp)
{
    const struct pp_kipf *k = p->kipf;
    size_t seq[KIPF_MAX_K];
    uint32_t len = kpath_nodes(k, kp->node, seq), i;
    const struct pp_func_meta *m = p->funcs[k->nodes[kp->node].func].meta;

    fputs("{\"function\":", out);
    json_string(out, m->name);
    fputs(",\"file\":", out);
    json_string(out, m->file);
    fputs(",\"ids\":[", out);
    for (i = 0; i < len; i++)
        fprintf(out, "%s%" PRIu64, i ? "," : "", k->nodes[seq[i]].id);
    fprintf(out, "],\"count\":%" PRIu64, kp->count);
    /* Sequences seen in bursts: estimated. */
    if (profile_kpath_sampled(p, &p->funcs[k->nodes[kp->node].func], len)) {
        struct pp_estimate e = estimate_count(p, kp->count, len);
        fputs(",\"sampled\":true", out);
        estimate_json(out, "estimate", &e);
    }
    fprintf(out, ",\"length\":%" PRIu32 ",\"blocks\":%" PRIu64 "}", len, kp->blocks);
}

bool kipf_report_json(FILE *out, const struct pp_profile *p, const struct kipf_options *o,
                      struct pp_error *err)
{
    struct kpath *paths;
    size_t n, total, i;

    if (!kpaths_collect(p, o, &paths, &n, &total, err))
        return false;
    kpaths_by_count(paths, n, o->top);
    fputs("{\"program\":", out);
    json_string(out, p->has_program ? p->program : NULL);
    fprintf(out, ",\n \"pid\":%" PRIu64 ",\n \"mode\":\"%s\"", p->pid,
            p->mode == PATHPROF_MODE_STREAM ? "stream" : "count");
    sampling_json(out, p);
    sections_json(out, p);
    out_section(out, p->kipf);
    fprintf(out, ",\n \"min_count\":%" PRIu64 ",\n \"min_length\":%" PRIu32
                 ",\n \"total\":%zu,\n \"paths\":[",
            o->min_count ? o->min_count : 1, o->min_length, total);
    for (i = 0; i < n && (!o->top || i < o->top); i++) {
        fputs(i ? ",\n  " : "\n  ", out);
        out_kpath(out, p, &paths[i]);
    }
    fputs(i ? "\n ]\n}\n" : "]\n}\n", out);
    free(paths);
    return true;
}
