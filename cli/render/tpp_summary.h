/* tpp_summary.h - what a TPP profile (docs/tpp.md) adds to a report: the
 * configuration, and how much of the flow ran through cold edges, which
 * the cold counters hold without telling which path (tpp_summary.c). */
#ifndef PATHPROF_CLI_TPP_SUMMARY_H
#define PATHPROF_CLI_TPP_SUMMARY_H

#include <stdio.h>

#include "read/profile.h"

/* The profile's TPP functions, summed. */
struct tpp_summary {
    size_t tpp_funcs;        /* numbered without their cold edges */
    size_t noprofile_funcs;  /* tpp asked for, no edge profile: plain Ball-Larus */
    uint32_t config;         /* PATHPROF_TPP_CONFIG of the first; */
    bool mixed;              /* ... and whether others differ */
    uint64_t measured;       /* path counts of TPP functions counted at their end */
    uint64_t derived;        /* ... counted on their defining edge (obvious paths) */
    uint64_t cold;           /* their cold counters */
};

/* False when no function of P was compiled with tpp. */
bool tpp_summarize(const struct pp_profile *p, struct tpp_summary *s);

/* The report header's "tpp" line(s), nothing for a plain profile. */
void tpp_summary_text(FILE *out, const struct pp_profile *p);

/* ",\"tpp\":{...}" for the top level of report --json, or ",\"tpp\":null". */
void tpp_summary_json(FILE *out, const struct pp_profile *p);

/* ",\"tpp\":{...}" for one function of report --json, or ",\"tpp\":null";
 * false (err set) when out of memory. */
bool tpp_func_json(FILE *out, const struct pp_func *f, struct pp_error *err);

/* The sum of F's derived path counts. */
uint64_t tpp_derived_total(const struct pp_func *f);

/* When path ID of M is derived: true, and the bb indices of its defining
 * edge (the real CFG edge, also for a back edge; EXIT is 1). */
bool tpp_defining_edge(const struct pp_func_meta *m, uint64_t id, uint32_t *src_bb,
                       uint32_t *dst_bb);

/* "  cold N (P%)" after a TPP function in the text report's table. */
void tpp_func_text(FILE *out, const struct pp_func *f);

#endif
