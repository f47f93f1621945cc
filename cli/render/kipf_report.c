/* kipf_report.c - `pathprof report --k` in text.
 *
 * The same shape as the BL report (report_text.c): the run, then the
 * section's own figures (so the reader can judge the forest: the paper's
 * Figs. 11 to 14), then the sequences twice, by count and by count x
 * length, each printed as the source lines of its BL paths with the
 * iteration boundaries marked. */
#include <inttypes.h>
#include <stdlib.h>

#include "estimate_out.h"
#include "kipf_report.h"
#include "graph/path.h"
#include "path_text.h"
#include "report_header.h"
#include "source_lines.h"
#include "out/text_out.h"

static void out_section(FILE *out, const struct pp_kipf *k)
{
    uint32_t i;

    fprintf(out, "k          %" PRIu32 " (sequences of up to %" PRIu32 " BL paths), %" PRIu64
                 " thread%s, %" PRIu64 " path events\n", k->k, k->k, k->threads,
            k->threads == 1 ? "" : "s", k->events);
    if (k->ksf_nodes == 0 && k->events > 0 && k->k > 1) {
        /* No k-SF, yet events: the runtime built the k-IPF through suffix
         * links (PATHPROF_KSF_BUILD=links; docs/format.md, KIPF). */
        fprintf(out, "k-SF       none: the k-IPF was built through suffix links, %" PRIu64
                     " hash operations", k->hash_ops);
    } else {
        fprintf(out, "k-SF       %" PRIu64 " nodes, %" PRIu64 " hash operations; average degree "
                     "per level", k->ksf_nodes, k->hash_ops);
        for (i = 0; i < k->nlevels; i++) {
            if (k->levels[i].internal)
                fprintf(out, " %.2f",
                        (double)k->levels[i].children / (double)k->levels[i].internal);
            else
                fputs(" -", out);
        }
    }
    fprintf(out, "\nk-IPF      %" PRIu64 " nodes, %" PRIu64 " roots, %" PRIu64
                 " leaves, average leaf depth %.2f%s\n", k->kipf_nodes, k->nroots, k->leaves,
            k->leaves ? (double)k->leaf_depth_sum / (double)k->leaves : 0.0,
            k->flags & KIPF_FLAG_PRUNED ? " (pruned by its writer: counts are exact, "
                                          "rare sequences missing)" : "");
}

/* One sequence: title, figures, then each BL path's lines under a marker. */
static bool out_kpath(FILE *out, const struct pp_profile *p, const struct kpath *kp,
                      size_t rank, bool by_weight, struct source_cache *src,
                      struct pp_error *err)
{
    const struct pp_kipf *k = p->kipf;
    size_t seq[KIPF_MAX_K];
    uint64_t ids[KIPF_MAX_K];
    uint32_t len = kpath_nodes(k, kp->node, seq), i, run;
    const struct kipf_node *root = &k->nodes[seq[0]];
    const struct pp_func_meta *m = p->funcs[root->func].meta;
    struct path path;

    if (!path_alloc(m, &path, err))
        return false;
    fprintf(out, "\n#%zu  ", rank);
    out_func(out, m);
    for (i = 0; i < len; i++)
        ids[i] = k->nodes[seq[i]].id;
    /* A loop that repeats one path reads as one row: "paths 4 x3 7". */
    fputs("  paths", out);
    out_id_runs(out, ids, len);
    fputs("\n", out);
    if (profile_kpath_sampled(p, &p->funcs[root->func], len)) {
        struct pp_estimate e = estimate_count(p, kp->count, len);
        fputs("    ", out);
        estimate_text(out, &e, kp->count);
        fputc('\n', out);
    }
    if (by_weight)
        fprintf(out, "    count %" PRIu64 " x %" PRIu64 " blocks = %" PRIu64 ", %" PRIu32
                     " BL paths\n", kp->count, kp->blocks, kp->weight, len);
    else
        fprintf(out, "    count %" PRIu64 " (%.1f%% of path %" PRIu64 "'s %" PRIu64 " runs), %"
                     PRIu32 " BL paths, %" PRIu64 " blocks\n", kp->count,
                100.0 * (double)kp->count / (double)root->count, root->id, root->count, len,
                kp->blocks);
    for (i = 0; i < len; i += run) {
        uint64_t id = k->nodes[seq[i]].id;
        run = ids_repeat(ids, len, i);
        if (!path_decode(m, id, &path, err)) {
            path_release(&path);
            return pp_context(err, "function %s", m->name);
        }
        out_iteration_marker(out, id, i, run);
        out_path_lines(out, src, m, &path, "    ");
    }
    path_release(&path);
    return true;
}

/* PATHS[0 .. N): the sequences that can rank in the table, of TOTAL. */
static bool out_table(FILE *out, const struct pp_profile *p, struct kpath *paths, size_t n,
                      size_t total, bool by_weight, const struct kipf_options *o, struct source_cache *src,
                      struct pp_error *err)
{
    size_t i;

    if (by_weight)
        kpaths_by_weight(paths, n, o->top);
    else
        kpaths_by_count(paths, n, o->top);
    fprintf(out, "\nk-iteration paths by %s", by_weight ? "count x length" : "count");
    if (o->top && total > o->top)
        fprintf(out, " (top %" PRIu64 " of %zu)\n", o->top, total);
    else
        fprintf(out, " (all %zu)\n", total);
    for (i = 0; i < n && (!o->top || i < o->top); i++)
        if (!out_kpath(out, p, &paths[i], i + 1, by_weight, src, err))
            return false;
    return true;
}

bool kipf_report_text(FILE *out, const struct pp_profile *p, const struct kipf_options *o,
                      struct pp_error *err)
{
    struct kpath *paths;
    struct source_cache *src;
    size_t n, total;
    bool ok = true;

    if (!kpaths_collect(p, o, &paths, &n, &total, err))
        return false;
    report_header(out, p);
    out_section(out, p->kipf);
    fprintf(out, "listed     sequences of %" PRIu32 " to %" PRIu32 " BL paths run at least %"
                 PRIu64 " times; length = blocks summed over the BL paths\n",
            o->min_length, p->kipf->k, o->min_count ? o->min_count : 1);
    if (n == 0) {
        fputs("\nNo k-iteration path matches.\n", out);
    } else {
        src = source_cache_new();
        ok = out_table(out, p, paths, n, total, false, o, src, err) &&
             out_table(out, p, paths, n, total, true, o, src, err);
        if (ok)
            source_out_missing(out, src, "\nsources    not found: ");
        source_cache_free(src);
    }
    free(paths);
    return ok;
}
