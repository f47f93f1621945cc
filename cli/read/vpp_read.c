/* vpp_read.c - reading and checking the VPP section (see vpp.h). */
#include "vpp.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"

#define VPP_VERSION 1u
#define HEAD_BYTES 112u
#define RECORD_BYTES (48u + 8u * VPP_NBUCKETS)

static uint64_t fnv1a64(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

const char *vpp_counter_name(uint32_t counter)
{
    switch (counter) {
    case 1: return "rdtsc";
    case 2: return "cntvct_el0";
    case 3: return "clock_gettime (ns)";
    default: return "none";
    }
}

static bool check_record(const struct vpp_path *r, const struct pp_tu_meta *tus, size_t ntus,
                         struct pp_error *err)
{
    if (r->tu >= ntus)
        return pp_fail(err, "TU section %" PRIu32 " does not exist (%zu TU sections)", r->tu, ntus);
    if (r->func >= tus[r->tu].nfuncs)
        return pp_fail(err, "function %" PRIu32 " of TU section %" PRIu32 " does not exist",
                       r->func, r->tu);
    const struct pp_func_meta *f = &tus[r->tu].funcs[r->func];
    if (r->path_id >= f->npaths)
        return pp_fail(err, "path %" PRIu64 " of %s does not exist (%" PRIu64 " paths)",
                       r->path_id, f->name, f->npaths);
    if (r->samples == 0)
        return pp_fail(err, "a path with no timed execution");
    if (r->base > r->max)
        return pp_fail(err, "basetime %" PRIu64 " above the largest time %" PRIu64, r->base, r->max);
    unsigned __int128 floor = (unsigned __int128)r->samples * r->base;
    unsigned __int128 ceil = (unsigned __int128)r->samples * r->max;
    if (floor > r->total || ceil < r->total)
        return pp_fail(err, "total time %" PRIu64 " outside samples x [basetime, largest]", r->total);
    uint64_t sum = 0;
    for (unsigned b = 0; b < VPP_NBUCKETS; b++) {
        if (r->hist[b] > r->samples - sum)
            return pp_fail(err, "the histogram holds more than the %" PRIu64 " samples", r->samples);
        sum += r->hist[b];
    }
    if (sum != r->samples)
        return pp_fail(err, "the histogram holds %" PRIu64 " of the %" PRIu64 " samples", sum,
                       r->samples);
    return true;
}

static bool before(const struct vpp_path *a, const struct vpp_path *b)
{
    if (a->tu != b->tu)
        return a->tu < b->tu;
    if (a->func != b->func)
        return a->func < b->func;
    return a->path_id < b->path_id;
}

bool vpp_read(const unsigned char *body, size_t len, const struct pp_tu_meta *tus, size_t ntus,
              struct vpp_data *v, struct pp_error *err)
{
    memset(v, 0, sizeof *v);
    if (len < HEAD_BYTES + 8)
        return pp_fail(err, "truncated (%zu bytes)", len);
    struct pp_cursor c = pp_cursor_at(body, len - 8, 0);
    struct pp_cursor t = pp_cursor_at(body, len, len - 8);
    if (fnv1a64(body, len - 8) != pp_take_u64(&t))
        return pp_fail(err, "checksum mismatch");
    uint32_t version = pp_take_u32(&c);
    if (version != VPP_VERSION)
        return pp_fail(err, "version %" PRIu32 " (this pathprof reads %u)", version, VPP_VERSION);
    v->flags = pp_take_u32(&c);
    if (v->flags & ~(VPP_FLAG_UNSTABLE | VPP_FLAG_NANOSECONDS))
        return pp_fail(err, "unknown flags 0x%" PRIx32, v->flags);
    v->counter = pp_take_u32(&c);
    if (v->counter > 3)
        return pp_fail(err, "unknown counter %" PRIu32, v->counter);
    uint32_t nbuckets = pp_take_u32(&c);
    if (nbuckets != VPP_NBUCKETS)
        return pp_fail(err, "%" PRIu32 " histogram buckets (this pathprof reads %u)", nbuckets,
                       VPP_NBUCKETS);
    v->sample_n = pp_take_u64(&c);
    v->bias = pp_take_u64(&c);
    v->bias_median = pp_take_u64(&c);
    v->bias_p90 = pp_take_u64(&c);
    v->program_ticks = pp_take_u64(&c);
    v->timed = pp_take_u64(&c);
    v->orphans = pp_take_u64(&c);
    v->unattributed = pp_take_u64(&c);
    v->migrated = pp_take_u64(&c);
    v->outlier_ticks = pp_take_u64(&c);
    v->outliers = pp_take_u64(&c);
    uint64_t n = pp_take_u64(&c);
    if (v->bias > v->bias_median || v->bias_median > v->bias_p90)
        return pp_fail(err, "bias minimum, median and 90th percentile out of order");
    if (n > pp_cursor_left(&c) / RECORD_BYTES || n * RECORD_BYTES != pp_cursor_left(&c))
        return pp_fail(err, "%" PRIu64 " path records do not fill the %zu bytes left", n,
                       pp_cursor_left(&c));
    v->paths = calloc(n ? (size_t)n : 1, sizeof *v->paths);
    if (v->paths == NULL)
        return pp_fail(err, "out of memory");
    uint64_t timed = 0;
    for (uint64_t i = 0; i < n; i++) {
        struct vpp_path *r = &v->paths[i];
        r->tu = pp_take_u32(&c);
        r->func = pp_take_u32(&c);
        r->path_id = pp_take_u64(&c);
        r->samples = pp_take_u64(&c);
        r->base = pp_take_u64(&c);
        r->total = pp_take_u64(&c);
        r->max = pp_take_u64(&c);
        for (unsigned b = 0; b < VPP_NBUCKETS; b++)
            r->hist[b] = pp_take_u64(&c);
        if (!check_record(r, tus, ntus, err) ||
            (i > 0 && !before(&v->paths[i - 1], r) &&
             !pp_fail(err, "records not in ascending (TU, function, path) order"))) {
            vpp_free(v);
            return pp_context(err, "path record %" PRIu64, i);
        }
        if (r->samples > UINT64_MAX - timed) {
            vpp_free(v);
            return pp_fail(err, "the records' samples add up to more than 2^64 - 1");
        }
        timed += r->samples;
        r->net = (double)r->total - (double)r->samples * (double)r->base;
        v->npaths++;
    }
    if (timed > v->timed) {
        vpp_free(v);
        return pp_fail(err, "the records hold %" PRIu64 " timings, the header says %" PRIu64,
                       timed, v->timed);
    }
    return true;
}

void vpp_free(struct vpp_data *v)
{
    free(v->paths);
    v->paths = NULL;
    v->npaths = 0;
}
