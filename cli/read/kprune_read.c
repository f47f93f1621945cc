/* kprune_read.c - strict reader of the KPRUNE section (docs/format.md,
 * section 3, tag 5), in the style of kipf_read.c: every count is checked
 * against the bytes left before anything is allocated from it, and each
 * sequence must be consistent with the profile and the section:
 * - its (TU section, function) exists and every path ID is below the
 *   function's number of paths;
 * - count >= 1 and err <= count (a lower bound of 0 is honest);
 * - per length, floor <= total, and the lower bounds add up to at most
 *   total;
 * - with a budget, no more than m sequences per analyzer thread.
 * Copies of one function merged by func_merge.c make two file sequences
 * one: their bounds are summed (true counts add up). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "kipf_raw.h"
#include "kprune.h"
#include "profile.h"

#define FIXED_SIZE (4 + 4 + 7 * 8)

static bool read_fixed(struct pp_cursor *c, struct pp_kprune *k, struct pp_error *err)
{
    uint32_t flags;
    if (pp_cursor_left(c) < FIXED_SIZE)
        return pp_fail(err, "truncated in its fixed part");
    k->k = pp_take_u32(c);
    flags = pp_take_u32(c);
    k->budget = pp_take_u64(c);
    k->m = pp_take_u64(c);
    k->threads = pp_take_u64(c);
    k->events = pp_take_u64(c);
    k->epochs = pp_take_u64(c);
    k->analyzers = pp_take_u64(c);
    k->peak = pp_take_u64(c);
    if (k->k < 1 || k->k > KPRUNE_MAX_K)
        return pp_fail(err, "k = %" PRIu32 " (1 to %u)", k->k, KPRUNE_MAX_K);
    if (flags != 0)
        return pp_fail(err, "unknown flags 0x%" PRIx32, flags);
    if (k->budget && k->m == 0)
        return pp_fail(err, "a budget of %" PRIu64 " bytes with no counter", k->budget);
    if (k->analyzers == 0)
        return pp_fail(err, "0 analyzer threads");
    return true;
}

static uint32_t sort_n; /* qsort has no context argument */

static int by_label(const void *x, const void *y)
{
    const struct kprune_seq *a = x, *b = y;
    if (a->func != b->func)
        return a->func < b->func ? -1 : 1;
    for (uint32_t i = 0; i < sort_n; i++)
        if (a->ids[i] != b->ids[i])
            return a->ids[i] < b->ids[i] ? -1 : 1;
    return 0;
}

static int by_count(const void *x, const void *y)
{
    const struct kprune_seq *a = x, *b = y;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return by_label(x, y);
}

/* Length N: its figures and sequences; IDS receives the path IDs. */
static bool read_length(struct pp_cursor *c, const struct pp_profile *p, const size_t *map,
                        const size_t *off, const struct pp_kprune *k, uint32_t n,
                        struct kprune_length *l, uint64_t *ids, uint64_t *used,
                        struct pp_error *err)
{
    uint64_t nseqs, lower = 0;
    size_t i, w;

    if (!pp_get_u64(c, &l->total) || !pp_get_u64(c, &l->floor) || !pp_get_u64(c, &nseqs))
        return pp_fail(err, "truncated");
    if (l->floor > l->total)
        return pp_fail(err, "floor %" PRIu64 " above the %" PRIu64 " occurrences", l->floor,
                       l->total);
    if (nseqs > pp_cursor_left(c) / (24 + 8 * (uint64_t)n))
        return pp_fail(err, "%" PRIu64 " sequences do not fit in the %zu bytes left", nseqs,
                       pp_cursor_left(c));
    if (k->budget && nseqs > k->m * k->analyzers)
        return pp_fail(err, "%" PRIu64 " sequences, more than m = %" PRIu64 " per analyzer "
                            "thread", nseqs, k->m);
    *used = nseqs * n;
    l->seqs = malloc((nseqs ? nseqs : 1) * sizeof *l->seqs);
    if (!l->seqs)
        return pp_fail(err, "out of memory");
    for (i = 0; i < nseqs; i++) {
        struct kprune_seq *s = &l->seqs[i];
        uint32_t tu = pp_take_u32(c), func = pp_take_u32(c), j;
        const struct pp_func_meta *m;
        s->count = pp_take_u64(c);
        s->err = pp_take_u64(c);
        s->n = n;
        s->ids = ids + i * n;
        for (j = 0; j < n; j++)
            ids[i * n + j] = pp_take_u64(c);
        if (tu >= p->ntus)
            return pp_fail(err, "sequence %zu: TU %" PRIu32 ", the profile has %zu TU "
                                "sections", i, tu, p->ntus);
        if (func >= p->tus[tu].nfuncs)
            return pp_fail(err, "sequence %zu: function %" PRIu32 ", TU %" PRIu32 " has %"
                                PRIu32, i, func, tu, p->tus[tu].nfuncs);
        m = &p->tus[tu].funcs[func];
        for (j = 0; j < n; j++)
            if (s->ids[j] >= m->npaths)
                return pp_fail(err, "sequence %zu: path %" PRIu64 " of %s, which has %" PRIu64
                                    " paths", i, s->ids[j], m->name, m->npaths);
        if (s->count == 0 || s->err > s->count)
            return pp_fail(err, "sequence %zu: count %" PRIu64 " with error %" PRIu64
                                " (count >= 1, error <= count)", i, s->count, s->err);
        /* Checked, not wrapped: lower bounds summing past 2^64 - 1 to a
         * small number would pass for consistent. */
        if (__builtin_add_overflow(lower, s->count - s->err, &lower) || lower > l->total)
            return pp_fail(err, "the lower bounds exceed the %" PRIu64 " occurrences",
                           l->total);
        s->func = map[off[tu] + func];
    }
    /* Merge copies: equal labels once mapped to profile functions. */
    sort_n = n;
    qsort(l->seqs, nseqs, sizeof *l->seqs, by_label);
    for (i = 0, w = 0; i < nseqs; i++) {
        if (w > 0 && by_label(&l->seqs[w - 1], &l->seqs[i]) == 0) {
            struct kprune_seq *into = &l->seqs[w - 1];
            if (__builtin_add_overflow(into->count, l->seqs[i].count, &into->count) ||
                __builtin_add_overflow(into->err, l->seqs[i].err, &into->err))
                return pp_fail(err, "the bounds of a sequence of %s exceed 2^64 - 1 when "
                                    "its copies are merged", p->funcs[into->func].meta->name);
        } else {
            l->seqs[w++] = l->seqs[i];
        }
    }
    l->nseqs = w;
    qsort(l->seqs, w, sizeof *l->seqs, by_count);
    return true;
}

bool kprune_read(const unsigned char *body, size_t len, struct pp_profile *p,
                 struct pp_error *err)
{
    struct pp_cursor c = pp_cursor_at(body, len, 0);
    struct pp_kprune *k = calloc(1, sizeof *k);
    size_t *map = NULL, *off = NULL, nlabels = 0, t;
    bool ok;
    uint32_t n;

    if (!k)
        return pp_fail(err, "out of memory");
    p->kprune = k; /* profile_free frees a partial one */
    if (!read_fixed(&c, k, err))
        return false;
    /* Every ID of the section is 8 bytes of it: this bounds them all. */
    k->ids = malloc((len / 8 ? len / 8 : 1) * sizeof *k->ids);
    off = malloc((p->ntus ? p->ntus : 1) * sizeof *off);
    for (t = 0; off && t < p->ntus; t++) {
        off[t] = nlabels;
        nlabels += p->tus[t].nfuncs;
    }
    map = malloc((nlabels ? nlabels : 1) * sizeof *map);
    if (!k->ids || !off || !map) {
        free(off);
        free(map);
        return pp_fail(err, "out of memory");
    }
    ok = kipf_map_functions(p, map, err);
    uint64_t *ids = k->ids;
    for (n = 1; ok && n <= k->k; n++) {
        struct kprune_length *l = &k->len[n - 1];
        uint64_t used = 0;
        ok = read_length(&c, p, map, off, k, n, l, ids, &used, err) ||
             pp_context(err, "sequences of %" PRIu32 " BL paths", n);
        ids += used;
    }
    if (ok && pp_cursor_left(&c) != 0)
        ok = pp_fail(err, "%zu unexplained bytes after the last length", pp_cursor_left(&c));
    free(off);
    free(map);
    return ok;
}

void kprune_free(struct pp_kprune *k)
{
    if (!k)
        return;
    for (uint32_t n = 0; n < KPRUNE_MAX_K; n++)
        free(k->len[n].seqs);
    free(k->ids);
    free(k);
}
