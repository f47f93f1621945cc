/* largest.h - the M largest values of a stream, as a min-heap whose root
 * is the M-th largest: what a "top M" listing needs to know to drop a
 * candidate early (query/kipf_paths.c; read/kipf_read.c when it reads a
 * forest for one ranking). */
#ifndef PATHPROF_CLI_LARGEST_H
#define PATHPROF_CLI_LARGEST_H

#include <stddef.h>
#include <stdint.h>

struct largest {
    uint64_t *h; /* m slots */
    size_t n, m;
};

/* Whether V is at least the M-th largest seen so far (always, before M
 * values were seen): a value that fails can never be among the M largest
 * of the whole stream. */
static inline int largest_may_rank(const struct largest *l, uint64_t v)
{
    return l->n < l->m || v >= l->h[0];
}

static inline void largest_add(struct largest *l, uint64_t v)
{
    size_t i;
    if (l->n < l->m) {
        for (i = l->n++; i > 0 && l->h[(i - 1) / 2] > v; i = (i - 1) / 2)
            l->h[i] = l->h[(i - 1) / 2];
        l->h[i] = v;
        return;
    }
    if (v <= l->h[0])
        return;
    for (i = 0;;) {
        size_t c = 2 * i + 1;
        if (c >= l->n)
            break;
        if (c + 1 < l->n && l->h[c + 1] < l->h[c])
            c++;
        if (l->h[c] >= v)
            break;
        l->h[i] = l->h[c];
        i = c;
    }
    l->h[i] = v;
}

#endif
