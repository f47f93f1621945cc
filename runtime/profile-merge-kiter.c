/* profile-merge-kiter.c - an input's KPRUNE section (see
 * profile-merge-kiter.h; KIPF is profile-merge-kipf.c). */
#include "profile-merge-kiter.h"
#include "le-bytes.h"

#include <stdlib.h>
#include <string.h>

/* ---- KPRUNE: bounds added, an absent sequence costing the floor ---- */

static uint64_t seq_hash(const struct mg_plen *l, uint32_t tu, uint32_t func, const uint64_t *ids,
                         uint32_t n)
{
    (void)l;
    uint64_t h = mg_mix((uint64_t)tu << 32 | func);
    for (uint32_t i = 0; i < n; i++)
        h = mg_mix(h ^ ids[i]);
    return h;
}

struct seq_ctx { const struct mg_plen *l; uint32_t n; };

static uint64_t seq_hash_of(const void *ctx, size_t v)
{
    const struct seq_ctx *s = ctx;
    const struct mg_seq *q = &s->l->seqs[v];
    return seq_hash(s->l, q->tu, q->func, s->l->ids + q->ids, s->n);
}

static int read_plength(struct pprt_merge *m, struct mg_cur *c, uint32_t n, struct mg_plen *l,
                        const size_t *tumap, size_t ntus, size_t input,
                        struct pprt_merge_error *err)
{
    uint64_t total, floor, nseqs, lower = 0;
    if (mg_get_u64(c, &total) || mg_get_u64(c, &floor) || mg_get_u64(c, &nseqs))
        return mg_fail(err, "length %u truncated", n);
    if (floor > total || nseqs > mg_left(c) / (24 + 8 * (uint64_t)n))
        return mg_fail(err, "length %u: floor %llu, %llu occurrences, %llu sequences do not add "
                    "up", n, (unsigned long long)floor, (unsigned long long)total,
                    (unsigned long long)nseqs);
    uint64_t floor_before = l->floor;
    uint64_t *ids = malloc(((size_t)n + 1) * sizeof *ids);
    if (!ids)
        return mg_fail(err, "out of memory");
    struct seq_ctx ctx = {l, n};
    int rc = 0;
    for (uint64_t i = 0; i < nseqs && rc == 0; i++) {
        uint32_t tu, func;
        uint64_t count, e;
        mg_get_u32(c, &tu);
        mg_get_u32(c, &func);
        mg_get_u64(c, &count);
        mg_get_u64(c, &e);
        for (uint32_t j = 0; j < n; j++)
            mg_get_u64(c, &ids[j]);
        int bad = tu >= ntus || func >= m->tus[tumap[tu]].nfuncs || count == 0 || e > count ||
                  __builtin_add_overflow(lower, count - e, &lower) || lower > total;
        for (uint32_t j = 0; j < n && !bad; j++)
            bad = ids[j] >= m->tus[tumap[tu]].funcs[func].npaths;
        if (bad) {
            rc = mg_fail(err, "length %u: sequence %llu does not fit the profile", n,
                      (unsigned long long)i);
            break;
        }
        uint32_t at = (uint32_t)tumap[tu];
        if (mg_rehash(&l->slots, &l->nslots, l->n, seq_hash_of, &ctx) != 0) {
            rc = mg_fail(err, "out of memory");
            break;
        }
        size_t j = seq_hash(l, at, func, ids, n) & (l->nslots - 1);
        struct mg_seq *found = NULL;
        for (; l->slots[j]; j = (j + 1) & (l->nslots - 1)) {
            struct mg_seq *q = &l->seqs[l->slots[j] - 1];
            if (q->tu == at && q->func == func && memcmp(l->ids + q->ids, ids, n * sizeof *ids) == 0) {
                found = q;
                break;
            }
        }
        if (!found) {
            /* Listed by no profile before: there it ran at most floor times. */
            if (mg_grow(&l->seqs, &l->cap, l->n + 1, sizeof *l->seqs) != 0 ||
                mg_grow(&l->ids, &l->idcap, l->nids + n, sizeof *l->ids) != 0) {
                rc = mg_fail(err, "out of memory");
                break;
            }
            found = &l->seqs[l->n];
            *found = (struct mg_seq){at, func, floor_before, floor_before, l->nids, 0};
            memcpy(l->ids + l->nids, ids, n * sizeof *ids);
            l->nids += n;
            l->slots[j] = ++l->n;
        }
        found->seen = input + 1;
        if (mg_add(&found->count, count, err, "pruned sequence bounds") ||
            mg_add(&found->err, e, err, "pruned sequence bounds"))
            rc = -1;
    }
    free(ids);
    if (rc)
        return rc;
    /* Listed before but not here: in this profile it ran at most floor times. */
    for (size_t i = 0; i < l->n; i++)
        if (l->seqs[i].seen != input + 1 &&
            (mg_add(&l->seqs[i].count, floor, err, "pruned sequence bounds") ||
             mg_add(&l->seqs[i].err, floor, err, "pruned sequence bounds")))
            return -1;
    if (mg_add(&l->floor, floor, err, "pruned floors") || mg_add(&l->total, total, err, "occurrences"))
        return -1;
    return 0;
}

int mg_read_kprune(struct pprt_merge *m, struct mg_cur *c, const size_t *tumap, size_t ntus,
                       size_t input, struct pprt_merge_error *err)
{
    struct mg_kprune *k = &m->kprune;
    uint32_t kk, flags;
    uint64_t budget, mm, threads, events, epochs, analyzers, peak;
    if (mg_get_u32(c, &kk) || mg_get_u32(c, &flags) || mg_get_u64(c, &budget) || mg_get_u64(c, &mm) ||
        mg_get_u64(c, &threads) || mg_get_u64(c, &events) || mg_get_u64(c, &epochs) ||
        mg_get_u64(c, &analyzers) || mg_get_u64(c, &peak))
        return mg_fail(err, "truncated in its fixed part");
    if (kk < 1 || kk > MG_MAX_K || flags || (budget && !mm) || !analyzers)
        return mg_fail(err, "k = %u, flags 0x%x, budget %llu, m %llu, %llu analyzers: not a "
                    "KPRUNE section this pathprof reads", kk, flags,
                    (unsigned long long)budget, (unsigned long long)mm,
                    (unsigned long long)analyzers);
    if (k->present && k->k != kk)
        return mg_fail(err, "its pruned paths have k = %u, the profiles before k = %u: merge "
                    "runs with the same PATHPROF_K", kk, k->k);
    /* An unbounded run lists any number of sequences, a bounded merge may
     * list only m per analyzer thread: the two do not add up. */
    if (k->present && (k->budget == 0) != (budget == 0))
        return mg_fail(err, "pruned and unpruned k-iteration paths (PATHPROF_PRUNE %llu and "
                    "%llu bytes) cannot be merged", (unsigned long long)k->budget,
                    (unsigned long long)budget);
    if (!k->present) {
        k->k = kk;
        if (!(k->len = calloc(kk, sizeof *k->len)))
            return mg_fail(err, "out of memory");
        k->present = 1;
    }
    if (budget > k->budget)
        k->budget = budget;
    if (mm > k->m)
        k->m = mm;
    if (peak > k->peak)
        k->peak = peak;
    if (mg_add(&k->threads, threads, err, "thread counts") || mg_add(&k->events, events, err, "event counts") ||
        mg_add(&k->epochs, epochs, err, "epoch counts") ||
        mg_add(&k->analyzers, analyzers, err, "analyzer thread counts"))
        return -1;
    if (m->shallow)
        return 0;
    for (uint32_t n = 1; n <= kk; n++)
        if (read_plength(m, c, n, &k->len[n - 1], tumap, ntus, input, err) != 0)
            return -1;
    if (mg_left(c))
        return mg_fail(err, "%zu unexplained bytes after the last length", mg_left(c));
    return 0;
}
