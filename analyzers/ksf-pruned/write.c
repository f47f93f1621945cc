/* write.c - writes the KPRUNE section (write.h).
 *
 * Labels become (TU section, function, path ID) as in ksf/write.c.  A
 * library loaded several times has one TU section, so two summary items
 * can name one sequence once mapped: they are written as one, bounds
 * summed (true counts add up, and so do their lower and upper bounds).
 * Items are written hottest first (by upper bound). */
#include "write.h"

#include "ksf/labels.h"
#include "analyzer-services.h"
#include "message.h"

#include <stdlib.h>
#include <string.h>

struct item {
    uint64_t count, err;
    uint64_t *labels; /* canonical, n of them */
};

static uint32_t sort_n; /* qsort has no context argument */

static int by_labels(const void *x, const void *y)
{
    const struct item *a = x, *b = y;
    for (uint32_t i = 0; i < sort_n; i++)
        if (a->labels[i] != b->labels[i])
            return a->labels[i] < b->labels[i] ? -1 : 1;
    return 0;
}

static int by_count(const void *x, const void *y)
{
    const struct item *a = x, *b = y;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return by_labels(x, y);
}

/* Length N's record; -1 when out of memory. */
static int write_length(const struct ss_summary *s, const struct fn_table *t,
                        struct pprt_buf *out, uint64_t *dropped, uint64_t *crossed)
{
    uint32_t n = s->n;
    struct item *v = malloc((s->len ? s->len : 1) * sizeof *v);
    size_t nlab = (size_t)s->len * n;
    uint64_t *lab = malloc((nlab ? nlab : 1) * sizeof *lab);
    if (v == NULL || lab == NULL) {
        free(v);
        free(lab);
        return -1;
    }
    size_t m = 0;
    for (uint32_t i = 0; i < s->len; i++) {
        const uint64_t *l = ss_labels(s, i);
        uint64_t *c = lab + m * n;
        uint32_t j = 0;
        for (; j < n && (c[j] = fn_canonical((void *)t, l[j])) != UINT64_MAX; j++)
            ;
        /* A sequence lies within one activation, so within one function;
         * one that crosses into another (activation stacks led astray by
         * coroutines, docs/streaming.md section 2) would be written as
         * path IDs of its first function, wrong or out of range. */
        const struct fn_range *f0 = j == n ? fn_find(t, l[0]) : NULL;
        uint32_t same = 1;
        while (f0 != NULL && same < n && fn_find(t, l[same]) == f0)
            same++;
        if (f0 != NULL && same < n) {
            *crossed += s->e[i].count;
            continue;
        }
        if (j < n) {
            *dropped += s->e[i].count;
            continue;
        }
        v[m++] = (struct item){s->e[i].count, s->e[i].err, c};
    }
    sort_n = n;
    qsort(v, m, sizeof *v, by_labels);
    size_t w = 0;
    for (size_t i = 0; i < m; i++) {
        if (w > 0 && by_labels(&v[w - 1], &v[i]) == 0) {
            v[w - 1].count += v[i].count;
            v[w - 1].err += v[i].err;
        } else {
            v[w++] = v[i];
        }
    }
    qsort(v, w, sizeof *v, by_count);
    pprt_buf_u64(out, s->total);
    pprt_buf_u64(out, s->floor);
    pprt_buf_u64(out, w);
    for (size_t i = 0; i < w; i++) {
        const struct fn_range *r = fn_find(t, v[i].labels[0]);
        pprt_buf_u32(out, r->sec);
        pprt_buf_u32(out, r->func);
        pprt_buf_u64(out, v[i].count);
        pprt_buf_u64(out, v[i].err);
        for (uint32_t j = 0; j < n; j++)
            pprt_buf_u64(out, v[i].labels[j] - r->start);
    }
    free(v);
    free(lab);
    return 0;
}

void kp_write_section(const struct kp_core *c, uint64_t analyzers, struct pprt_buf *out,
                      uint32_t *nsections)
{
    struct fn_table t;
    uint64_t dropped = 0, crossed = 0;
    if (fn_table_build(&t) != 0) {
        pprt_error("ksf-pruned: out of memory writing the pruned k-iteration paths");
        out->failed = 1;
        free(t.v);
        return;
    }
    if (c->failed)
        pprt_error("ksf-pruned: out of memory while profiling; some path events were not "
                   "counted and the bounds may not hold");
    if (c->lost)
        pprt_error("ksf-pruned: %llu path events were not counted (out of memory)",
                   (unsigned long long)c->lost);
    if (c->overruns)
        pprt_warning("ksf-pruned: more live threads than PATHPROF_PRUNE's forest share holds; "
                     "the budget was exceeded %llu times", (unsigned long long)c->overruns);
    pprt_buf_u32(out, PATHPROF_SECTION_KPRUNE);
    pprt_buf_u32(out, 0);
    size_t at = out->len;
    pprt_buf_u64(out, 0); /* length, patched below */
    pprt_buf_u32(out, c->k);
    pprt_buf_u32(out, 0);
    pprt_buf_u64(out, c->budget);
    pprt_buf_u64(out, c->m);
    pprt_buf_u64(out, c->threads);
    pprt_buf_u64(out, c->events);
    pprt_buf_u64(out, c->epochs);
    pprt_buf_u64(out, analyzers);
    pprt_buf_u64(out, c->peak);
    for (uint32_t n = 1; n <= c->k; n++)
        if (write_length(&c->sum[n - 1], &t, out, &dropped, &crossed) != 0) {
            pprt_error("ksf-pruned: out of memory writing the pruned k-iteration paths");
            out->failed = 1;
            break;
        }
    if (dropped)
        pprt_warning("ksf-pruned: %llu counts of sequences of unknown translation units left "
                     "out", (unsigned long long)dropped);
    if (crossed) {
        pprt_warning("ksf-pruned: %llu counts of sequences that ran from one function into "
                     "another left out: the activation stacks lost track of the program's "
                     "calls (code that switches stacks?); the k-iteration paths are not exact "
                     "(docs/streaming.md, section 2)", (unsigned long long)crossed);
        pp_note_resync(crossed);
    }
    pprt_buf_patch_u64(out, at, out->len - (at + 8));
    ++*nsections;
    free(t.v);
}
