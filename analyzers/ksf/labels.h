/* labels.h - global path indices to the (TU section, function, path
 * ID) labels of the profile, for the sections that name k-iteration paths
 * (KIPF: write.c; KPRUNE: ksf-pruned/write.c).  Built at write time,
 * when the TU list is complete and stable (analyzer-services.h). */
#ifndef PATHPROF_KSF_LABELS_H
#define PATHPROF_KSF_LABELS_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

struct fn_range {
    uint64_t start, n; /* global indices [start, start + n) */
    uint64_t canon;    /* the same function's first index in its section's TU */
    uint32_t sec, func;
};

struct fn_table {
    struct fn_range *v;
    size_t n;
};

/* Every function of every TU whose section is written, by start index;
 * 0, or -1 when out of memory.  The caller frees t->v. */
int fn_table_build(struct fn_table *t);
/* The function holding global index G, or NULL. */
const struct fn_range *fn_find(const struct fn_table *t, uint64_t g);
/* G mapped to the same path of its section's own TU (a library loaded
 * several times has one TU section), UINT64_MAX when unknown; CTX is the
 * fn_table. */
uint64_t fn_canonical(void *ctx, uint64_t g);

#pragma GCC visibility pop

#endif
