/* meta-checks.h - the checks that the readers of the detail records
 * share: meta.c reads versions 1 and 2 (fixed-size records), meta-v3.c
 * version 3 (LEB128 numbers and deltas); both must establish
 * meta-types.h's invariants, so both go through these. Each returns false
 * after pp_fail(ERR). */
#ifndef PATHPROF_CLI_META_CHECKS_H
#define PATHPROF_CLI_META_CHECKS_H

#include "base/bytes.h"
#include "base/error.h"
#include "meta-types.h"

/* calloc that never returns NULL for n == 0, so NULL always means ENOMEM. */
void *meta_zalloc(uint64_t n, size_t size, struct pp_error *err);
bool meta_string_ok(const struct pp_tu_meta *tu, uint32_t index, bool none_ok);
const char *meta_string_or_null(const struct pp_tu_meta *tu, uint32_t index);

/* One edge: node numbers, kind and real destination consistent. */
bool meta_check_edge(const struct pp_func_meta *f, const struct pp_edge *e,
                     struct pp_error *err);
/* out_first/out_count, checking that edges are grouped by source and
 * sorted by value. */
bool meta_index_edges(struct pp_func_meta *f, struct pp_error *err);
bool meta_check_acyclic(const struct pp_func_meta *f, struct pp_error *err);

/* The fixed-size parts (the same in every version): a PPP function's table
 * of f->ppp_size IDs, a TPP_DERIVED function's derived paths; then, once
 * the edges are read, the derived paths' defining edges. */
bool meta_parse_ppp_table(struct pp_cursor *c, struct pp_func_meta *f, struct pp_error *err);
bool meta_parse_derived(struct pp_cursor *c, struct pp_func_meta *f, struct pp_error *err);
bool meta_check_derived_edges(const struct pp_func_meta *f, struct pp_error *err);

/* Span K of node I, of string FILE after a span of PREV_FILE: the rules of
 * docs/format.md's line table; sets span->file. */
bool meta_check_span(const struct pp_tu_meta *tu, uint32_t i, uint32_t k, uint32_t file,
                     uint32_t prev_file, struct pp_line_span *span, struct pp_error *err);

#endif
