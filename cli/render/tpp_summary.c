/* tpp_summary.c - the TPP part of `pathprof report` (docs/tpp.md).
 *
 * A TPP function counts its hot paths exactly and every path through a
 * cold edge in one cold counter, so a report says which counts are
 * measured per path, how much flow only the cold counter holds, and under
 * which TPP(i, j) the program was built, and which counts come from a
 * counter on an obvious path's defining edge instead (derived). */
#include "tpp_summary.h"

#include <inttypes.h>
#include <string.h>

#include "graph/path.h"
#include "pathprof-abi.h"

static double percent(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

uint64_t tpp_derived_total(const struct pp_func *f)
{
    uint64_t i, sum = 0;

    if (!f->meta->nderived)
        return 0;
    for (i = 0; i < f->nrecords; i++)
        if (meta_derived(f->meta, f->records[i].id))
            sum += f->records[i].count; /* below f->total, which fits */
    return sum;
}

bool tpp_defining_edge(const struct pp_func_meta *m, uint64_t id, uint32_t *src_bb,
                       uint32_t *dst_bb)
{
    const struct pp_derived *d = meta_derived(m, id);
    const struct pp_edge *e;

    if (!d)
        return false;
    e = &m->edges[d->edge];
    *src_bb = m->nodes[e->src].bb;
    *dst_bb = m->nodes[e->kind == PATHPROF_EDGE_EXIT_DUMMY ? e->real_dst : e->dst].bb;
    return true;
}

bool tpp_summarize(const struct pp_profile *p, struct tpp_summary *s)
{
    size_t i;

    memset(s, 0, sizeof *s);
    for (i = 0; i < p->nfuncs; i++) {
        const struct pp_func *f = &p->funcs[i];
        const struct pp_func_meta *m = f->meta;
        if (!m || !(m->flags & (PATHPROF_FN_TPP | PATHPROF_FN_TPP_NOPROFILE)))
            continue;
        /* The cold region is the function's layout, not the configuration. */
        uint32_t config = m->tpp & ~PATHPROF_TPP_COLD_REGION;
        if (s->tpp_funcs + s->noprofile_funcs == 0)
            s->config = config;
        else if (config != s->config)
            s->mixed = true;
        if (m->flags & PATHPROF_FN_TPP) {
            s->tpp_funcs++;
            /* The reader checked that every total fits, and they sum to
             * the profile's total, which fits too. */
            uint64_t derived = tpp_derived_total(f);
            s->measured += f->total - f->cold - derived;
            s->derived += derived;
            s->cold += f->cold;
        } else {
            s->noprofile_funcs++;
        }
    }
    return s->tpp_funcs + s->noprofile_funcs != 0;
}

/* Where the build took its edge counts from (the configuration word). */
static const char *tpp_source_text(uint32_t config)
{
    return (config & PATHPROF_TPP_FROM_PATHPROF) ? "from an earlier pathprof profile (edge-profile)"
                                                 : "of GCC's -fprofile-use";
}

static const char *tpp_source_json(uint32_t config)
{
    return (config & PATHPROF_TPP_FROM_PATHPROF) ? "pathprof" : "gcc";
}

void tpp_summary_text(FILE *out, const struct pp_profile *p)
{
    struct tpp_summary s;

    if (!tpp_summarize(p, &s))
        return;
    fprintf(out, "tpp        TPP(%u, %u)%s, edge profile %s: %zu functions "
                 "numbered without their cold edges",
            PATHPROF_TPP_I(s.config), PATHPROF_TPP_J(s.config),
            s.mixed ? " and other configurations" : "", tpp_source_text(s.config), s.tpp_funcs);
    if (s.noprofile_funcs)
        fprintf(out, ", %zu without an edge profile (plain Ball-Larus)", s.noprofile_funcs);
    fprintf(out, "\n           %" PRIu64 " paths measured one by one, %" PRIu64
                 " derived (obvious paths, counted on their defining edge), %" PRIu64
                 " (%.2f%%) ran through cold edges (cold counters)\n",
            s.measured, s.derived, s.cold, percent(s.cold, s.measured + s.derived + s.cold));
}

void tpp_summary_json(FILE *out, const struct pp_profile *p)
{
    struct tpp_summary s;

    if (!tpp_summarize(p, &s)) {
        fputs(",\n \"tpp\":null", out);
        return;
    }
    fprintf(out, ",\n \"tpp\":{\"i\":%u,\"j\":%u,\"edge_source\":\"%s\",\"mixed\":%s,\"functions\":%zu,"
                 "\"no_edge_profile\":%zu,\"measured\":%" PRIu64 ",\"cold\":%" PRIu64
                 ",\"derived\":%" PRIu64 "}",
            PATHPROF_TPP_I(s.config), PATHPROF_TPP_J(s.config), tpp_source_json(s.config),
            s.mixed ? "true" : "false",
            s.tpp_funcs, s.noprofile_funcs, s.measured, s.cold, s.derived);
}

/* Every derived path of M, run or not: its ID, defining edge, and how it
 * ends (its last block, the end kind, and for a back edge its target), so
 * a consumer knows which path ends are counted only through derived paths
 * (docs/json.md). */
static bool out_derived_list(FILE *out, const struct pp_func_meta *m, struct pp_error *err)
{
    struct path path;
    uint32_t i, s, d;

    fputs(",\"derived_list\":[", out);
    if (m->nderived && !path_alloc(m, &path, err))
        return false;
    for (i = 0; i < m->nderived; i++) {
        uint64_t id = m->derived[i].id;
        uint32_t to;
        if (!path_decode(m, id, &path, err)) {
            path_release(&path);
            return false;
        }
        tpp_defining_edge(m, id, &s, &d);
        to = path_end_target(m, &path);
        fprintf(out, "%s{\"id\":%" PRIu64 ",\"from\":[%" PRIu32 ",%" PRIu32 "],\"end\":\"%s\","
                     "\"last\":%" PRIu32 ",\"to\":%" PRId64 "}",
                i ? "," : "", id, s, d, path_end_name(path_end_kind(m, &path)),
                m->nodes[path_block(m, &path, path_nblocks(&path) - 1)].bb,
                to == PATHPROF_NONE ? (int64_t)-1 : (int64_t)m->nodes[to].bb);
    }
    if (m->nderived)
        path_release(&path);
    fputc(']', out);
    return true;
}

/* The real edges where a path ends and the next starts though they close
 * no loop: cuts, and the entry and exit edges of disconnected loops (what
 * a comparison with a plain Ball-Larus profile must split its paths at). */
static void out_truncated(FILE *out, const struct pp_func_meta *m)
{
    const char *sep = "";
    uint32_t i;

    fputs(",\"truncated\":[", out);
    for (i = 0; i < m->nedges; i++) {
        const struct pp_edge *e = &m->edges[i];
        if (e->kind != PATHPROF_EDGE_EXIT_DUMMY || m->edge_closes_loop[i])
            continue;
        fprintf(out, "%s[%" PRIu32 ",%" PRIu32 "]", sep, m->nodes[e->src].bb,
                m->nodes[e->real_dst].bb);
        sep = ",";
    }
    fputc(']', out);
}

bool tpp_func_json(FILE *out, const struct pp_func *f, struct pp_error *err)
{
    const struct pp_func_meta *m = f->meta;

    if (!(m->flags & (PATHPROF_FN_TPP | PATHPROF_FN_TPP_NOPROFILE))) {
        fputs(",\"tpp\":null", out);
        return true;
    }
    fprintf(out, ",\"tpp\":{\"i\":%u,\"j\":%u,\"edge_source\":\"%s\",\"edge_profile\":%s,"
                 "\"cold\":%" PRIu64 ",\"derived\":%" PRIu64,
            PATHPROF_TPP_I(m->tpp), PATHPROF_TPP_J(m->tpp), tpp_source_json(m->tpp),
            (m->flags & PATHPROF_FN_TPP) ? "true" : "false", f->cold, tpp_derived_total(f));
    if (!out_derived_list(out, m, err))
        return false;
    out_truncated(out, m);
    fputc('}', out);
    return true;
}

void tpp_func_text(FILE *out, const struct pp_func *f)
{
    if (f->meta->flags & PATHPROF_FN_TPP)
        fprintf(out, "  cold %" PRIu64 " (%.1f%%)", f->cold, percent(f->cold, f->total));
    if (f->meta->nderived)
        fprintf(out, ", derived %" PRIu64, tpp_derived_total(f));
}
