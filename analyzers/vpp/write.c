/* write.c - the VPP section (docs/format.md, tag 8): the counter, the
 * bias, the run's length in ticks and per timed path its record, sorted by
 * (TU section, function, path ID), with an FNV-1a-64 checksum of the body
 * so that a reader can tell a damaged section from a real one. */
#include "vpp/write.h"

#include "analyzer-services.h"
#include "config.h"
#include "fnv.h"
#include "message.h"
#include "pathprof-abi.h"
#include "vpp-clock.h"

#include <stdlib.h>
#include <string.h>

/* TU section ranks as blpp writes them (as the wpp analyzer computes
 * them): the TUs that are their own section, in id order. */
static uint32_t section_rank(uint64_t tu_id)
{
    struct pp_tu_info info;
    if (!pp_tu_get(tu_id, &info) || info.meta == NULL)
        return UINT32_MAX;
    uint64_t section = info.section;
    uint32_t rank = 0;
    for (uint64_t id = 0; id < section; id++)
        if (pp_tu_get(id, &info) && info.meta != NULL && info.section == id)
            rank++;
    return rank;
}

struct row {
    uint32_t tu;
    const struct vpp_stat *s;
};

static int by_label(const void *x, const void *y)
{
    const struct row *a = x, *b = y;
    if (a->tu != b->tu)
        return a->tu < b->tu ? -1 : 1;
    if (a->s->func != b->s->func)
        return a->s->func < b->s->func ? -1 : 1;
    return (a->s->path_id > b->s->path_id) - (a->s->path_id < b->s->path_id);
}

static uint32_t counter_kind(const char *name)
{
    if (name == NULL)
        return 0;
    if (!strcmp(name, "rdtsc"))
        return 1;
    if (!strcmp(name, "cntvct_el0"))
        return 2;
    return 3;
}

void vpp_write_section(struct vpp_an *v, struct pprt_buf *out, uint32_t *nsections)
{
    struct pprt_vpp_clock c;
    memset(&c, 0, sizeof c);
    int ran = pprt_vpp_clock(&c);
    uint64_t now = ran ? pprt_vpp_now() : 0;
    struct row *rows = calloc(v->paths.n ? v->paths.n : 1, sizeof *rows);
    size_t n = 0;
    if (rows == NULL) {
        out->failed = 1;
        return;
    }
    for (size_t i = 0; i < v->paths.cap; i++) {
        const struct vpp_stat *s = &v->paths.slots[i];
        if (s->g == 0 || (s->samples == 0 && s->outliers == 0))
            continue;
        uint32_t tu = section_rank(s->tu_id);
        if (tu == UINT32_MAX) {
            v->unknown += s->samples; /* its outliers stay in the header's count */
            continue;
        }
        rows[n++] = (struct row){tu, s};
    }
    qsort(rows, n, sizeof *rows, by_label);

    pprt_buf_u32(out, PATHPROF_SECTION_VPP);
    pprt_buf_u32(out, 0);
    size_t len_at = out->len;
    pprt_buf_u64(out, 0);
    size_t body = out->len;
    pprt_buf_u32(out, VPP_SECTION_VERSION);
    pprt_buf_u32(out, c.flags);
    pprt_buf_u32(out, counter_kind(ran ? c.counter : NULL));
    pprt_buf_u32(out, VPP_BUCKETS);
    pprt_buf_u64(out, pprt_config.sample_n);
    pprt_buf_u64(out, c.bias);
    pprt_buf_u64(out, c.bias_median);
    pprt_buf_u64(out, c.bias_p90);
    pprt_buf_u64(out, ran ? now - c.start : 0);
    pprt_buf_u64(out, v->timed);
    pprt_buf_u64(out, v->orphans);
    pprt_buf_u64(out, v->unknown + v->lost);
    pprt_buf_u64(out, c.migrated);
    pprt_buf_u64(out, pprt_config.vpp_outlier);
    pprt_buf_u64(out, v->outliers);
    pprt_buf_u32(out, c.events);
    pprt_buf_u32(out, 0);
    pprt_buf_u64(out, n);
    for (size_t i = 0; i < n; i++) {
        const struct vpp_stat *s = rows[i].s;
        pprt_buf_u32(out, rows[i].tu);
        pprt_buf_u32(out, s->func);
        pprt_buf_u64(out, s->path_id);
        pprt_buf_u64(out, s->samples);
        pprt_buf_u64(out, s->base);
        pprt_buf_u64(out, s->total);
        pprt_buf_u64(out, s->max);
        pprt_buf_u64(out, s->outliers);
        pprt_buf_u64(out, s->ev_samples);
        pprt_buf_u64(out, s->events);
        uint32_t nonzero = 0;
        for (unsigned b = 0; b < VPP_BUCKETS; b++)
            nonzero += vpp_stat_bucket(s, b) != 0;
        pprt_buf_u32(out, nonzero); /* sparse: most buckets of a path are empty */
        for (unsigned b = 0; b < VPP_BUCKETS; b++)
            if (vpp_stat_bucket(s, b)) {
                pprt_buf_u32(out, b);
                pprt_buf_u64(out, vpp_stat_bucket(s, b));
            }
    }
    free(rows);
    uint64_t sum = out->failed ? 0 : pprt_fnv1a64(PPRT_FNV64_BASIS, out->data + body, out->len - body);
    pprt_buf_u64(out, sum);
    pprt_buf_patch_u64(out, len_at, out->len - body);
    ++*nsections;
    if (v->lost)
        pprt_warning("vpp: out of memory: %llu path timings were not kept",
                     (unsigned long long)v->lost);
}
