/* vpp_read.c - reading and checking the VPP section (see vpp.h). */
#include "vpp.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "vpp-hist.h"

#define VPP_VERSION 2u
#define HEAD_BYTES 120u
#define RECORD_HEAD_BYTES 76u   /* a record without its histogram */
#define BUCKET_BYTES 12u        /* u32 bucket, u64 count */

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

const char *vpp_events_name(uint32_t events)
{
    return events == 1 ? "cache-misses" : "none";
}

/* The delta view's bucket of DELTA ticks (log2: 0; [2^(b-1), 2^b); 2^30 and more). */
static unsigned delta_bucket(uint64_t delta)
{
    if (delta == 0)
        return 0;
    unsigned b = 64u - (unsigned)__builtin_clzll(delta);
    return b < VPP_NBUCKETS - 1 ? b : VPP_NBUCKETS - 1;
}

/* The sparse histogram of times: ascending buckets, each count >= 1, the
 * first holding the basetime and the last the largest time, summing to the
 * samples; folded into R's deltas. */
static bool read_hist(struct pp_cursor *c, struct vpp_path *r, struct pp_error *err)
{
    uint32_t nonzero;
    if (!pp_get_u32(c, &nonzero))
        return pp_fail(err, "truncated before its histogram");
    if (nonzero > PPRT_VPP_NBUCKETS || nonzero > pp_cursor_left(c) / BUCKET_BYTES)
        return pp_fail(err, "%" PRIu32 " histogram buckets do not fit", nonzero);
    if ((nonzero == 0) != (r->samples == 0))
        return pp_fail(err, "%" PRIu32 " histogram buckets for %" PRIu64 " samples", nonzero,
                       r->samples);
    uint64_t sum = 0;
    uint32_t prev = 0, first = 0;
    for (uint32_t i = 0; i < nonzero; i++) {
        uint32_t b = pp_take_u32(c);
        uint64_t n = pp_take_u64(c);
        if (b >= PPRT_VPP_NBUCKETS || (i > 0 && b <= prev) || n == 0)
            return pp_fail(err, "histogram entry %" PRIu32 " (bucket %" PRIu32 ", count %" PRIu64
                           ") out of order or empty", i, b, n);
        if (n > r->samples - sum)
            return pp_fail(err, "the histogram holds more than the %" PRIu64 " samples", r->samples);
        sum += n;
        if (i == 0)
            first = b;
        prev = b;
        r->times[b] = n;
        uint64_t low = pprt_vpp_hist_low(b);
        r->hist[delta_bucket(low > r->base ? low - r->base : 0)] += n;
    }
    if (sum != r->samples)
        return pp_fail(err, "the histogram holds %" PRIu64 " of the %" PRIu64 " samples", sum,
                       r->samples);
    if (nonzero && (first != pprt_vpp_hist_bucket(r->base) || prev != pprt_vpp_hist_bucket(r->max)))
        return pp_fail(err, "the histogram's first and last buckets (%" PRIu32 ", %" PRIu32
                       ") do not hold the basetime and the largest time", first, prev);
    return true;
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
    if (r->samples == 0) {
        if (r->outliers == 0)
            return pp_fail(err, "a path with no timed execution and no outlier");
        if (r->base || r->total || r->max || r->ev_samples || r->events)
            return pp_fail(err, "a path with only outliers has times");
        return true;
    }
    if (r->ev_samples > r->samples)
        return pp_fail(err, "%" PRIu64 " event readings for %" PRIu64 " samples", r->ev_samples,
                       r->samples);
    if (r->base > r->max)
        return pp_fail(err, "basetime %" PRIu64 " above the largest time %" PRIu64, r->base, r->max);
    unsigned __int128 floor = (unsigned __int128)r->samples * r->base;
    unsigned __int128 ceil = (unsigned __int128)r->samples * r->max;
    if (floor > r->total || ceil < r->total)
        return pp_fail(err, "total time %" PRIu64 " outside samples x [basetime, largest]", r->total);
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
    if (v->flags & ~(VPP_FLAG_UNSTABLE | VPP_FLAG_NANOSECONDS | VPP_FLAG_EVENTS_UNAVAILABLE))
        return pp_fail(err, "unknown flags 0x%" PRIx32, v->flags);
    v->counter = pp_take_u32(&c);
    if (v->counter > 3)
        return pp_fail(err, "unknown counter %" PRIu32, v->counter);
    uint32_t nbuckets = pp_take_u32(&c);
    if (nbuckets != PPRT_VPP_NBUCKETS)
        return pp_fail(err, "%" PRIu32 " histogram buckets (this pathprof reads %u)", nbuckets,
                       PPRT_VPP_NBUCKETS);
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
    v->events = pp_take_u32(&c);
    uint32_t reserved = pp_take_u32(&c);
    uint64_t n = pp_take_u64(&c);
    if (v->events > 1 || reserved)
        return pp_fail(err, "second counter %" PRIu32 " (reserved word %" PRIu32 ") unknown",
                       v->events, reserved);
    if ((v->flags & VPP_FLAG_EVENTS_UNAVAILABLE) && v->events == 0)
        return pp_fail(err, "a second counter unavailable, but none asked for");
    if (v->bias > v->bias_median || v->bias_median > v->bias_p90)
        return pp_fail(err, "bias minimum, median and 90th percentile out of order");
    if (n > pp_cursor_left(&c) / RECORD_HEAD_BYTES)
        return pp_fail(err, "%" PRIu64 " path records do not fit in the %zu bytes left", n,
                       pp_cursor_left(&c));
    v->paths = calloc(n ? (size_t)n : 1, sizeof *v->paths);
    if (v->paths == NULL)
        return pp_fail(err, "out of memory");
    uint64_t timed = 0, outliers = 0;
    for (uint64_t i = 0; i < n; i++) {
        struct vpp_path *r = &v->paths[i];
        if (pp_cursor_left(&c) < RECORD_HEAD_BYTES) {
            vpp_free(v);
            return pp_fail(err, "path record %" PRIu64 " truncated", i);
        }
        r->tu = pp_take_u32(&c);
        r->func = pp_take_u32(&c);
        r->path_id = pp_take_u64(&c);
        r->samples = pp_take_u64(&c);
        r->base = pp_take_u64(&c);
        r->total = pp_take_u64(&c);
        r->max = pp_take_u64(&c);
        r->outliers = pp_take_u64(&c);
        r->ev_samples = pp_take_u64(&c);
        r->events = pp_take_u64(&c);
        if (!check_record(r, tus, ntus, err) || !read_hist(&c, r, err) ||
            (i > 0 && !before(&v->paths[i - 1], r) &&
             !pp_fail(err, "records not in ascending (TU, function, path) order"))) {
            vpp_free(v);
            return pp_context(err, "path record %" PRIu64, i);
        }
        if (r->samples > UINT64_MAX - timed) {
            vpp_free(v);
            return pp_fail(err, "the records' samples add up to more than 2^64 - 1");
        }
        if (r->outliers > UINT64_MAX - outliers) {
            vpp_free(v);
            return pp_fail(err, "the records' outliers add up to more than 2^64 - 1");
        }
        timed += r->samples;
        outliers += r->outliers;
        r->net = (double)r->total - (double)r->samples * (double)r->base;
        v->npaths++;
    }
    if (pp_cursor_left(&c)) {
        vpp_free(v);
        return pp_fail(err, "%zu bytes after the %" PRIu64 " path records", pp_cursor_left(&c), n);
    }
    if (timed > v->timed || outliers > v->outliers) {
        vpp_free(v);
        return pp_fail(err, "the records hold %" PRIu64 " timings and %" PRIu64 " outliers, the "
                       "header says %" PRIu64 " and %" PRIu64, timed, outliers, v->timed,
                       v->outliers);
    }
    return true;
}

void vpp_free(struct vpp_data *v)
{
    free(v->paths);
    v->paths = NULL;
    v->npaths = 0;
}
