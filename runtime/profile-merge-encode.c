/* profile-merge-encode.c - writing the merge accumulator as one profile
 * (see profile-merge.h).  Everything whose order the inputs could have
 * chosen is sorted here: TU sections by their blob, k-IPF siblings and
 * pruned sequences by label, analyzer names by name.  Two accumulators
 * holding the same sums therefore give the same bytes, whatever order
 * and grouping the profiles were added in. */
#include "profile-merge.h"
#include "profile-merge-input.h"
#include "profile-merge-state.h"
#include "profile-merge-kipf.h"
#include "profile-merge-tu.h"
#include "profile-merge-vpp.h"
#include "profile-merge-wpp.h"
#include "profile-checksum.h"
#include "pathprof-abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HDR_NSECTIONS = 40, HDR_PAYLOAD_SIZE = 48 };

static size_t begin_section(struct pprt_buf *b, uint32_t tag, uint32_t *nsections)
{
    pprt_buf_u32(b, tag);
    pprt_buf_u32(b, 0);
    size_t at = b->len;
    pprt_buf_u64(b, 0);
    ++*nsections;
    return at;
}

static void end_section(struct pprt_buf *b, size_t at)
{
    if (!b->failed)
        pprt_buf_patch_u64(b, at, b->len - (at + 8));
}

static void put_text(struct pprt_buf *b, const char *s)
{
    size_t len = s ? strlen(s) : 0;
    pprt_buf_u32(b, (uint32_t)len);
    pprt_buf_put(b, s, len);
}

/* qsort has no context argument; encoding is not reentrant anyway for
 * one accumulator, and these are set just before each sort. */
static const uint32_t *sort_rank;      /* accumulator TU -> output TU */
static const struct mg_plen *sort_len;
static uint32_t sort_n;

static int by_name(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static int label_cmp(uint32_t tua, uint32_t fa, uint32_t tub, uint32_t fb)
{
    uint32_t ra = sort_rank[tua], rb = sort_rank[tub];
    if (ra != rb)
        return ra < rb ? -1 : 1;
    if (fa != fb)
        return fa < fb ? -1 : 1;
    return 0;
}

static int by_seq(const void *x, const void *y)
{
    const struct mg_seq *a = &sort_len->seqs[*(const size_t *)x];
    const struct mg_seq *b = &sort_len->seqs[*(const size_t *)y];
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    int c = label_cmp(a->tu, a->func, b->tu, b->func);
    if (c)
        return c;
    for (uint32_t i = 0; i < sort_n; i++) {
        uint64_t p = sort_len->ids[a->ids + i], q = sort_len->ids[b->ids + i];
        if (p != q)
            return p < q ? -1 : 1;
    }
    return a->err < b->err ? -1 : a->err > b->err;
}

static void encode_tu(struct pprt_buf *b, const struct mg_tu *t, uint32_t *nsections)
{
    size_t at = begin_section(b, PATHPROF_SECTION_TU, nsections);
    pprt_buf_u64(b, t->len);
    pprt_buf_put(b, t->blob, t->len);
    pprt_buf_zeros(b, (8 - t->len % 8) % 8);
    for (uint32_t i = 0; i < t->nfuncs; i++) {
        const struct mg_func *f = &t->funcs[i];
        pprt_buf_u64(b, f->nrec);
        for (uint64_t r = 0; r < 2 * f->nrec; r++)
            pprt_buf_u64(b, f->rec[r]);
        for (uint32_t e = 0; e < f->nverify; e++)
            pprt_buf_u64(b, f->verify[e]);
    }
    end_section(b, at);
}

static void encode_stream(struct pprt_buf *b, const struct mg_stream *s, uint32_t *nsections)
{
    size_t at = begin_section(b, PATHPROF_SECTION_STREAM, nsections);
    pprt_buf_u32(b, s->policy);
    pprt_buf_u32(b, s->chunk_events);
    pprt_buf_u32(b, s->chunks);
    pprt_buf_u32(b, s->nthreads);
    const uint64_t v[7] = {s->producers, s->events, s->dropped, s->late,
                           s->resync, s->unknown, s->blocked_ns};
    for (int i = 0; i < 7; i++)
        pprt_buf_u64(b, v[i]);
    pprt_buf_u32(b, (uint32_t)s->nnames);
    qsort(s->names, s->nnames, sizeof *s->names, by_name);
    for (size_t i = 0; i < s->nnames; i++)
        put_text(b, s->names[i]);
    for (size_t i = 0; i < 2 * (size_t)s->nthreads; i++)
        pprt_buf_u64(b, s->threads[i]);
    end_section(b, at);
}

/* The forest as it is held (packed, canonical: profile-merge-state.h), in
 * the compact encoding: one pass, the roots' TUs renumbered by rank. */
static int encode_kipf(struct pprt_buf *b, const struct mg_kipf *k, uint32_t *nsections)
{
    size_t at = begin_section(b, MG_TAG_KIPF, nsections);
    pprt_buf_u32(b, k->k);
    pprt_buf_u32(b, MG_KIPF_COMPACT);
    pprt_buf_u64(b, k->threads);
    pprt_buf_u64(b, k->events);
    pprt_buf_u64(b, k->ksf_nodes);
    pprt_buf_u64(b, k->n);
    pprt_buf_u64(b, k->hash_ops);
    pprt_buf_u32(b, k->nlevels);
    pprt_buf_u32(b, 0);
    for (size_t i = 0; i < 3 * (size_t)k->nlevels; i++)
        pprt_buf_u64(b, k->levels[i]);
    pprt_buf_u64(b, k->leaves);
    pprt_buf_u64(b, k->depth_sum);
    pprt_buf_u64(b, k->nroots);
    mg_kipf_put_forest(k, sort_rank, b);
    end_section(b, at);
    return 0;
}

static int encode_kprune(struct pprt_buf *b, const struct mg_kprune *k, uint32_t *nsections)
{
    size_t at = begin_section(b, MG_TAG_KPRUNE, nsections);
    pprt_buf_u32(b, k->k);
    pprt_buf_u32(b, 0);
    const uint64_t v[7] = {k->budget, k->m, k->threads, k->events, k->epochs, k->analyzers,
                           k->peak};
    for (int i = 0; i < 7; i++)
        pprt_buf_u64(b, v[i]);
    for (uint32_t n = 1; n <= k->k; n++) {
        const struct mg_plen *l = &k->len[n - 1];
        size_t *order = malloc((l->n + 1) * sizeof *order);
        if (!order)
            return -1;
        for (size_t i = 0; i < l->n; i++)
            order[i] = i;
        sort_len = l;
        sort_n = n;
        qsort(order, l->n, sizeof *order, by_seq);
        pprt_buf_u64(b, l->total);
        pprt_buf_u64(b, l->floor);
        pprt_buf_u64(b, l->n);
        for (size_t i = 0; i < l->n; i++) {
            const struct mg_seq *s = &l->seqs[order[i]];
            pprt_buf_u32(b, sort_rank[s->tu]);
            pprt_buf_u32(b, s->func);
            pprt_buf_u64(b, s->count);
            pprt_buf_u64(b, s->err);
            for (uint32_t j = 0; j < n; j++)
                pprt_buf_u64(b, l->ids[s->ids + j]);
        }
        free(order);
    }
    end_section(b, at);
    return 0;
}

int pprt_merge_encode(const struct pprt_merge *m, struct pprt_buf *b,
                      struct pprt_merge_error *err)
{
    if (m->ninputs == 0 || m->shallow) {
        snprintf(err->msg, sizeof err->msg,
                 m->shallow ? "an accumulator that only checks has no sum" : "no profile to merge");
        return -1;
    }
    size_t *tus = malloc((m->ntus + 1) * sizeof *tus);
    uint32_t *rank = malloc((m->ntus + 1) * sizeof *rank);
    if (!tus || !rank) {
        free(tus), free(rank);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    if (mg_rank_tus(m, tus, rank) != 0) {
        free(tus), free(rank);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    sort_rank = rank;

    size_t start = b->len;
    uint32_t nsections = 0;
    pprt_buf_put(b, PATHPROF_FILE_MAGIC, 8);
    pprt_buf_u32(b, PATHPROF_FILE_VERSION);
    pprt_buf_u32(b, PATHPROF_FILE_HEADER_SIZE);
    pprt_buf_u32(b, m->mode);
    pprt_buf_u32(b, 0);
    pprt_buf_u64(b, m->pid_mixed ? 0 : m->pid);
    pprt_buf_u64(b, m->time);
    pprt_buf_u32(b, 0); /* nsections, patched */
    pprt_buf_u32(b, 0);
    pprt_buf_u64(b, 0); /* payload_size, patched */
    pprt_buf_u64(b, 0);
    if (m->program.present) {
        size_t at = begin_section(b, PATHPROF_SECTION_PROGRAM, &nsections);
        put_text(b, m->program.program);
        put_text(b, m->program.cmdline);
        pprt_buf_u64(b, m->program.array_updates);
        pprt_buf_u64(b, m->program.hash_updates);
        pprt_buf_u64(b, m->program.lost_after_write);
        end_section(b, at);
    }
    if (m->sampling.present) { /* before the counts it qualifies, as the runtime writes it */
        size_t at = begin_section(b, PATHPROF_SECTION_SAMPLING, &nsections);
        const struct mg_sampling *s = &m->sampling;
        const uint64_t v[5] = {s->sample_n, s->burst, s->bursts, s->gap_checks, s->burst_checks};
        for (int i = 0; i < 5; i++)
            pprt_buf_u64(b, v[i]);
        end_section(b, at);
    }
    for (size_t i = 0; i < m->ntus; i++)
        encode_tu(b, &m->tus[tus[i]], &nsections);
    if (m->stream.present)
        encode_stream(b, &m->stream, &nsections);
    int rc = 0;
    if (m->kipf.present && encode_kipf(b, &m->kipf, &nsections) != 0)
        rc = -1;
    if (rc == 0 && m->kprune.present && encode_kprune(b, &m->kprune, &nsections) != 0)
        rc = -1;
    if (rc == 0 && m->wpp.present && mg_encode_wpp(m, tus, b, &nsections) != 0)
        rc = -1;
    if (rc == 0 && m->vpp.inputs && mg_encode_vpp(m, rank, b, &nsections) != 0)
        rc = -1;
    free(tus);
    free(rank);
    if (rc != 0 || b->failed) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    pprt_buf_patch_u32(b, start + HDR_NSECTIONS, nsections);
    pprt_buf_patch_u64(b, start + HDR_PAYLOAD_SIZE, b->len - start - PATHPROF_FILE_HEADER_SIZE);
    pprt_buf_u64(b, pprt_profile_checksum(PATHPROF_FILE_VERSION, b->data + start, b->len - start));
    return b->failed ? -1 : 0;
}
