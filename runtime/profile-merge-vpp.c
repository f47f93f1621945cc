/* profile-merge-vpp.c - an input's VPP section (see profile-merge-vpp.h).
 *
 * Every merged figure is a sum, a minimum, a maximum, an OR of flags or
 * "the same in every input", and the histograms share their buckets
 * (runtime/vpp-hist.h: of the times, not of the deltas above a basetime
 * that differs from run to run), so the result does not depend on the
 * order or grouping of the inputs.  Each input's timings had their own
 * run's bias subtracted already: the merged bias fields are the least
 * of the inputs', for information. */
#include "profile-merge-vpp.h"
#include "fnv.h"
#include "pathprof-abi.h"
#include "vpp-clock.h"
#include "vpp-hist.h"

#include <stdlib.h>
#include <string.h>

#define VPP_VERSION 2u
#define VPP_FLAGS (PPRT_VPP_UNSTABLE | PPRT_VPP_NANOSECONDS | PPRT_VPP_EVENTS_UNAVAILABLE)

static const char *counter_name(uint32_t c)
{
    static const char *const names[] = {"none (the clock never ran)", "rdtsc", "cntvct_el0",
                                        "clock_gettime"};
    return c < 4 ? names[c] : "unknown";
}

static const char *events_name(uint32_t e)
{
    return e == PPRT_VPP_EVENTS_CACHE_MISSES ? "cache-misses" : "none";
}

static uint64_t vpath_hash(uint32_t tu, uint32_t func, uint64_t id)
{
    return mg_mix(mg_mix((uint64_t)tu << 32 | func) ^ id);
}

static uint64_t vpath_hash_of(const void *ctx, size_t v)
{
    const struct mg_vpath *p = &((const struct mg_vpp *)ctx)->paths[v];
    return vpath_hash(p->tu, p->func, p->path_id);
}

/* The record of (TU, FUNC, ID), made empty when new; NULL when out of memory. */
static struct mg_vpath *vpath(struct mg_vpp *v, uint32_t tu, uint32_t func, uint64_t id)
{
    if (mg_rehash(&v->slots, &v->nslots, v->n, vpath_hash_of, v) != 0)
        return NULL;
    size_t j = vpath_hash(tu, func, id) & (v->nslots - 1);
    for (; v->slots[j]; j = (j + 1) & (v->nslots - 1)) {
        struct mg_vpath *p = &v->paths[v->slots[j] - 1];
        if (p->tu == tu && p->func == func && p->path_id == id)
            return p;
    }
    if (mg_grow(&v->paths, &v->cap, v->n + 1, sizeof *v->paths) != 0)
        return NULL;
    struct mg_vpath *p = &v->paths[v->n];
    memset(p, 0, sizeof *p);
    if (!(p->hist = calloc(PPRT_VPP_NBUCKETS, sizeof *p->hist)))
        return NULL;
    p->tu = tu, p->func = func, p->path_id = id;
    v->slots[j] = ++v->n;
    return p;
}

/* The header: what must agree, what adds. */
static int read_head(struct pprt_merge *m, struct mg_cur *c, size_t input, uint64_t *timed,
                     uint64_t *outliers, struct pprt_merge_error *err)
{
    struct mg_vpp *v = &m->vpp;
    uint32_t version = 0, flags = 0, counter = 0, nbuckets = 0, events = 0, reserved = 0;
    uint64_t h[11];
    if (mg_get_u32(c, &version) || version != VPP_VERSION)
        return mg_fail(err, "VPP section version %u, this pathprof merges version %u",
                       version, VPP_VERSION);
    if (mg_get_u32(c, &flags) || mg_get_u32(c, &counter) || mg_get_u32(c, &nbuckets))
        return mg_fail(err, "truncated in its fixed part");
    for (int i = 0; i < 11; i++)
        if (mg_get_u64(c, &h[i]))
            return mg_fail(err, "truncated in its fixed part");
    if (mg_get_u32(c, &events) || mg_get_u32(c, &reserved))
        return mg_fail(err, "truncated in its fixed part");
    enum { SAMPLE_N, BIAS, MEDIAN, P90, RUN, TIMED, ORPHANS, UNATTR, MIGRATED, OTICKS, OUTLIERS };
    if ((flags & ~VPP_FLAGS) || counter > 3 || nbuckets != PPRT_VPP_NBUCKETS ||
        events > PPRT_VPP_EVENTS_CACHE_MISSES || reserved ||
        ((flags & PPRT_VPP_EVENTS_UNAVAILABLE) && !events) ||
        h[BIAS] > h[MEDIAN] || h[MEDIAN] > h[P90])
        return mg_fail(err, "flags 0x%x, counter %u, %u buckets, second counter %u, bias "
                       "%llu/%llu/%llu: not a VPP section this pathprof reads", flags, counter,
                       nbuckets, events, (unsigned long long)h[BIAS],
                       (unsigned long long)h[MEDIAN], (unsigned long long)h[P90]);
    if (v->inputs) {
        const char *other = m->names[v->first_input];
        if (h[SAMPLE_N] != v->sample_n)
            return mg_fail(err, "its paths were timed at 1/%llu (PATHPROF_SAMPLE), but %s's at "
                           "1/%llu: timings sampled at different rates do not add into one "
                           "profile; merge the profiles of each rate on their own",
                           (unsigned long long)h[SAMPLE_N], other,
                           (unsigned long long)v->sample_n);
        if (counter && v->counter && counter != v->counter)
            return mg_fail(err, "its paths were timed with %s, but %s's with %s: ticks of "
                           "different counters do not add", counter_name(counter), other,
                           counter_name(v->counter));
        if (events != v->events)
            return mg_fail(err, "its second counter is %s (PATHPROF_VPP_COUNTER), but %s's is "
                           "%s: event counts of one cannot stand for the other",
                           events_name(events), other, events_name(v->events));
        if (h[OTICKS] != v->outlier_ticks)
            return mg_fail(err, "its timings above %llu ticks were set aside "
                           "(PATHPROF_VPP_OUTLIER), but %s's above %llu: the timings kept "
                           "would not be the same kind", (unsigned long long)h[OTICKS], other,
                           (unsigned long long)v->outlier_ticks);
    } else {
        v->first_input = input;
        v->sample_n = h[SAMPLE_N];
        v->events = events;
        v->outlier_ticks = h[OTICKS];
    }
    *timed = h[TIMED];
    *outliers = h[OUTLIERS];
    v->inputs++;
    v->flags |= flags;
    if (counter)
        v->counter = counter;
    if (counter && (!v->have_bias || h[BIAS] < v->bias))
        v->bias = h[BIAS];
    if (counter && (!v->have_bias || h[MEDIAN] < v->bias_median))
        v->bias_median = h[MEDIAN];
    if (counter && (!v->have_bias || h[P90] < v->bias_p90))
        v->bias_p90 = h[P90];
    v->have_bias |= counter != 0;
    if (mg_add(&v->run_ticks, h[RUN], err, "run ticks") ||
        mg_add(&v->timed, h[TIMED], err, "timings") ||
        mg_add(&v->orphans, h[ORPHANS], err, "orphan timings") ||
        mg_add(&v->unattributed, h[UNATTR], err, "unattributed timings") ||
        mg_add(&v->migrated, h[MIGRATED], err, "migrated timings") ||
        mg_add(&v->outliers, h[OUTLIERS], err, "outliers"))
        return -1;
    return 0;
}

/* One record, checked as the reader checks it (cli/read/vpp_read.c), so the
 * merged profile reads back; added to the accumulator. */
struct label {
    uint32_t tu, func;
    uint64_t id, samples, outliers;
};

static int read_record(struct pprt_merge *m, struct mg_cur *c, const size_t *tumap, size_t ntus,
                       uint64_t i, uint64_t *hist, struct label *l, struct pprt_merge_error *err)
{
    uint32_t tu, func, nonzero;
    uint64_t r[8];
    if (mg_get_u32(c, &tu) || mg_get_u32(c, &func))
        return mg_fail(err, "path record %llu truncated", (unsigned long long)i);
    for (int k = 0; k < 8; k++)
        if (mg_get_u64(c, &r[k]))
            return mg_fail(err, "path record %llu truncated", (unsigned long long)i);
    enum { ID, SAMPLES, BASE, TOTAL, MAX, OUTLIERS, EVS, EVENTS };
    if (mg_get_u32(c, &nonzero) || nonzero > PPRT_VPP_NBUCKETS || nonzero > mg_left(c) / 12)
        return mg_fail(err, "path record %llu: its histogram does not fit",
                       (unsigned long long)i);
    unsigned __int128 lo = (unsigned __int128)r[SAMPLES] * r[BASE];
    unsigned __int128 hi = (unsigned __int128)r[SAMPLES] * r[MAX];
    int bad = tu >= ntus || func >= m->tus[tumap[tu]].nfuncs ||
              r[ID] >= m->tus[tumap[tu]].funcs[func].npaths || (nonzero == 0) != (r[SAMPLES] == 0);
    if (!bad && r[SAMPLES] == 0)
        bad = !r[OUTLIERS] || r[BASE] || r[TOTAL] || r[MAX] || r[EVS] || r[EVENTS];
    else if (!bad)
        bad = r[BASE] > r[MAX] || lo > r[TOTAL] || hi < r[TOTAL] || r[EVS] > r[SAMPLES];
    memset(hist, 0, PPRT_VPP_NBUCKETS * sizeof *hist);
    uint64_t sum = 0;
    for (uint32_t k = 0, prev = 0; k < nonzero && !bad; k++) {
        uint32_t b;
        uint64_t n;
        mg_get_u32(c, &b);
        mg_get_u64(c, &n);
        bad = b >= PPRT_VPP_NBUCKETS || (k > 0 && b <= prev) || n == 0 || n > r[SAMPLES] - sum ||
              (k == 0 && b != pprt_vpp_hist_bucket(r[BASE])) ||
              (k == nonzero - 1 && b != pprt_vpp_hist_bucket(r[MAX]));
        if (!bad) {
            hist[b] = n;
            sum += n;
            prev = b;
        }
    }
    if (bad || sum != r[SAMPLES])
        return mg_fail(err, "path record %llu (TU %u, function %u, path %llu) does not fit the "
                       "profile or is inconsistent", (unsigned long long)i, tu, func,
                       (unsigned long long)r[ID]);
    *l = (struct label){tu, func, r[ID], r[SAMPLES], r[OUTLIERS]};
    struct mg_vpath *p = vpath(&m->vpp, (uint32_t)tumap[tu], func, r[ID]);
    if (!p)
        return mg_fail(err, "out of memory");
    if (r[SAMPLES] && (!p->samples || r[BASE] < p->base))
        p->base = r[BASE];
    if (r[MAX] > p->max)
        p->max = r[MAX];
    if (mg_add(&p->samples, r[SAMPLES], err, "timed executions") ||
        mg_add(&p->total, r[TOTAL], err, "path times") ||
        mg_add(&p->outliers, r[OUTLIERS], err, "outliers") ||
        mg_add(&p->ev_samples, r[EVS], err, "event readings") ||
        mg_add(&p->events, r[EVENTS], err, "event counts"))
        return -1;
    for (unsigned b = 0; b < PPRT_VPP_NBUCKETS; b++)
        if (hist[b] && mg_add(&p->hist[b], hist[b], err, "histogram counts"))
            return -1;
    return 0;
}

int mg_read_vpp(struct pprt_merge *m, struct mg_cur *c, const size_t *tumap, size_t ntus,
                size_t input, struct pprt_merge_error *err)
{
    if (mg_left(c) < 8)
        return mg_fail(err, "truncated");
    size_t body = c->pos;
    c->len -= 8; /* the checksum */
    uint64_t stored;
    struct mg_cur t = {c->p, c->len + 8, c->len};
    mg_get_u64(&t, &stored);
    if (pprt_fnv1a64(PPRT_FNV64_BASIS, c->p + body, c->len - body) != stored)
        return mg_fail(err, "checksum mismatch: the VPP section is damaged");
    uint64_t n = 0, htimed = 0, houtliers = 0, timed = 0, outliers = 0;
    if (read_head(m, c, input, &htimed, &houtliers, err) != 0)
        return -1;
    if (mg_get_u64(c, &n) || n > mg_left(c) / 76)
        return mg_fail(err, "the path records do not fit in the section");
    uint64_t *hist = malloc(PPRT_VPP_NBUCKETS * sizeof *hist);
    if (!hist)
        return mg_fail(err, "out of memory");
    int rc = 0;
    struct label l = {0, 0, 0, 0, 0}, prev = l;
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        if ((rc = read_record(m, c, tumap, ntus, i, hist, &l, err)) != 0)
            break;
        /* Ascending labels without repeats, as the reader wants them. */
        if (i > 0 && (l.tu < prev.tu ||
                      (l.tu == prev.tu && (l.func < prev.func ||
                                           (l.func == prev.func && l.id <= prev.id)))))
            rc = mg_fail(err, "path records not in ascending (TU, function, path) order");
        else if (__builtin_add_overflow(timed, l.samples, &timed) ||
                 __builtin_add_overflow(outliers, l.outliers, &outliers))
            rc = mg_fail(err, "the records' timings add up to more than 2^64 - 1");
        prev = l;
    }
    free(hist);
    if (rc == 0 && mg_left(c))
        rc = mg_fail(err, "%zu bytes after the %llu path records", mg_left(c),
                     (unsigned long long)n);
    /* The header's figures hold at least the records' (the reader's check). */
    if (rc == 0 && (timed > htimed || outliers > houtliers))
        rc = mg_fail(err, "the path records hold more timings or outliers than the header");
    return rc;
}

int mg_vpp_check_all(struct pprt_merge *m, size_t input, int had_vpp, struct pprt_merge_error *err)
{
    struct mg_vpp *v = &m->vpp;
    if (!had_vpp && !v->first_missing)
        v->first_missing = input + 1;
    if (v->inputs && v->first_missing)
        return mg_fail(err, "%s has a VPP section (timed paths) and %s has none: the timings "
                       "of some runs cannot stand for all; merge the VPP runs on their own",
                       m->names[v->first_input], m->names[v->first_missing - 1]);
    return 0;
}

static const uint32_t *sort_rank;
static const struct mg_vpath *sort_paths;

static int by_label(const void *x, const void *y)
{
    const struct mg_vpath *a = &sort_paths[*(const size_t *)x];
    const struct mg_vpath *b = &sort_paths[*(const size_t *)y];
    uint32_t ra = sort_rank[a->tu], rb = sort_rank[b->tu];
    if (ra != rb)
        return ra < rb ? -1 : 1;
    if (a->func != b->func)
        return a->func < b->func ? -1 : 1;
    return (a->path_id > b->path_id) - (a->path_id < b->path_id);
}

int mg_encode_vpp(const struct pprt_merge *m, const uint32_t *rank, struct pprt_buf *b,
                  uint32_t *nsections)
{
    const struct mg_vpp *v = &m->vpp;
    size_t *order = malloc((v->n + 1) * sizeof *order);
    if (!order)
        return -1;
    for (size_t i = 0; i < v->n; i++)
        order[i] = i;
    sort_rank = rank;
    sort_paths = v->paths;
    qsort(order, v->n, sizeof *order, by_label);
    pprt_buf_u32(b, PATHPROF_SECTION_VPP);
    pprt_buf_u32(b, 0);
    size_t len_at = b->len;
    pprt_buf_u64(b, 0);
    ++*nsections;
    size_t body = b->len;
    pprt_buf_u32(b, VPP_VERSION);
    pprt_buf_u32(b, v->flags);
    pprt_buf_u32(b, v->counter);
    pprt_buf_u32(b, PPRT_VPP_NBUCKETS);
    const uint64_t h[11] = {v->sample_n, v->bias, v->bias_median, v->bias_p90, v->run_ticks,
                            v->timed, v->orphans, v->unattributed, v->migrated,
                            v->outlier_ticks, v->outliers};
    for (int i = 0; i < 11; i++)
        pprt_buf_u64(b, h[i]);
    pprt_buf_u32(b, v->events);
    pprt_buf_u32(b, 0);
    pprt_buf_u64(b, v->n);
    for (size_t i = 0; i < v->n; i++) {
        const struct mg_vpath *p = &v->paths[order[i]];
        pprt_buf_u32(b, rank[p->tu]);
        pprt_buf_u32(b, p->func);
        const uint64_t r[8] = {p->path_id, p->samples, p->base, p->total, p->max,
                               p->outliers, p->ev_samples, p->events};
        for (int k = 0; k < 8; k++)
            pprt_buf_u64(b, r[k]);
        uint32_t nonzero = 0;
        for (unsigned k = 0; k < PPRT_VPP_NBUCKETS; k++)
            nonzero += p->hist[k] != 0;
        pprt_buf_u32(b, nonzero);
        for (unsigned k = 0; k < PPRT_VPP_NBUCKETS; k++)
            if (p->hist[k]) {
                pprt_buf_u32(b, k);
                pprt_buf_u64(b, p->hist[k]);
            }
    }
    free(order);
    if (b->failed)
        return -1;
    pprt_buf_u64(b, pprt_fnv1a64(PPRT_FNV64_BASIS, b->data + body, b->len - body));
    pprt_buf_patch_u64(b, len_at, b->len - body);
    return b->failed ? -1 : 0;
}

void mg_free_vpp(struct mg_vpp *v)
{
    for (size_t i = 0; i < v->n; i++)
        free(v->paths[i].hist);
    free(v->paths);
    free(v->slots);
}
