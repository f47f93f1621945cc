/* tpp_summary.c - the TPP part of `pathprof report` (docs/tpp.md).
 *
 * A TPP function counts its hot paths exactly and every path through a
 * cold edge in one cold counter, so a report says which counts are
 * measured per path, how much flow only the cold counter holds, and under
 * which TPP(i, j) the program was built. No count is derived yet: obvious
 * paths are instrumented like the others (docs/tpp.md). */
#include "tpp_summary.h"

#include <inttypes.h>
#include <string.h>

#include "pathprof-abi.h"

static double percent(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
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
        if (s->tpp_funcs + s->noprofile_funcs == 0)
            s->config = m->tpp;
        else if (m->tpp != s->config)
            s->mixed = true;
        if (m->flags & PATHPROF_FN_TPP) {
            s->tpp_funcs++;
            /* The reader checked that every total fits, and they sum to
             * the profile's total, which fits too. */
            s->measured += f->total - f->cold;
            s->cold += f->cold;
        } else {
            s->noprofile_funcs++;
        }
    }
    return s->tpp_funcs + s->noprofile_funcs != 0;
}

void tpp_summary_text(FILE *out, const struct pp_profile *p)
{
    struct tpp_summary s;

    if (!tpp_summarize(p, &s))
        return;
    fprintf(out, "tpp        TPP(%u, %u)%s, edge profile of GCC's -fprofile-use: %zu functions "
                 "numbered without their cold edges",
            PATHPROF_TPP_I(s.config), PATHPROF_TPP_J(s.config),
            s.mixed ? " and other configurations" : "", s.tpp_funcs);
    if (s.noprofile_funcs)
        fprintf(out, ", %zu without an edge profile (plain Ball-Larus)", s.noprofile_funcs);
    fprintf(out, "\n           %" PRIu64 " paths measured one by one, %" PRIu64
                 " (%.2f%%) ran through cold edges (cold counters); none derived\n",
            s.measured, s.cold, percent(s.cold, s.measured + s.cold));
}

void tpp_summary_json(FILE *out, const struct pp_profile *p)
{
    struct tpp_summary s;

    if (!tpp_summarize(p, &s)) {
        fputs(",\n \"tpp\":null", out);
        return;
    }
    fprintf(out, ",\n \"tpp\":{\"i\":%u,\"j\":%u,\"mixed\":%s,\"functions\":%zu,"
                 "\"no_edge_profile\":%zu,\"measured\":%" PRIu64 ",\"cold\":%" PRIu64
                 ",\"derived\":0}",
            PATHPROF_TPP_I(s.config), PATHPROF_TPP_J(s.config), s.mixed ? "true" : "false",
            s.tpp_funcs, s.noprofile_funcs, s.measured, s.cold);
}

void tpp_func_json(FILE *out, const struct pp_func *f)
{
    const struct pp_func_meta *m = f->meta;

    if (!(m->flags & (PATHPROF_FN_TPP | PATHPROF_FN_TPP_NOPROFILE))) {
        fputs(",\"tpp\":null", out);
        return;
    }
    fprintf(out, ",\"tpp\":{\"i\":%u,\"j\":%u,\"edge_profile\":%s,\"cold\":%" PRIu64 "}",
            PATHPROF_TPP_I(m->tpp), PATHPROF_TPP_J(m->tpp),
            (m->flags & PATHPROF_FN_TPP) ? "true" : "false", f->cold);
}

void tpp_func_text(FILE *out, const struct pp_func *f)
{
    if (f->meta->flags & PATHPROF_FN_TPP)
        fprintf(out, "  cold %" PRIu64 " (%.1f%%)", f->cold, percent(f->cold, f->total));
}
