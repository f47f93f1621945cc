/* vpp.c - the `vpp` analyzer (docs/vpp.md): the Ball-Larus counts of the
 * bursts, as `blpp` writes them (it runs blpp inside, so `pathprof report`
 * reads the profile as any other), and per timed path its timings
 * (timings.h), written as the VPP section (write.c).
 *
 * A VPP marker (kind 4, pathprof-abi.h) follows, in its thread's stream,
 * the path event it times; its payload is the ticks from the path's start
 * to its end, from which the start-up's measure of the timing's own cost
 * (the bias) is subtracted here.  With PATHPROF_VPP_COUNTER a VPP_EVENTS
 * marker (kind 5) follows the VPP marker: the second counter's events
 * over the same interval, added to the path if its timing was kept. */
#include "analyzer-services.h"
#include "analyzer.h"
#include "config.h"
#include "pathprof-abi.h"
#include "vpp-clock.h"
#include "vpp/timings.h"
#include "vpp/write.h"

#include <stdlib.h>
#include <string.h>

struct vpp_stream {
    void *blpp;
    uint64_t last;  /* the last path event's index, 0: none since a marker */
    uint64_t kept;  /* the path whose timing was just kept, 0: none */
    int half;       /* the next word is a marker's second word */
};

static void *vpp_open(void)
{
    struct vpp_an *v = calloc(1, sizeof *v);
    if (v == NULL)
        return NULL;
    v->blpp = pp_analyzer_blpp.open();
    if (v->blpp == NULL) {
        free(v);
        return NULL;
    }
    return v;
}

static void *vpp_thread_begin(void *a, uint32_t tid)
{
    struct vpp_an *v = a;
    struct vpp_stream *s = calloc(1, sizeof *s);
    if (s != NULL)
        s->blpp = pp_analyzer_blpp.thread_begin(v->blpp, tid);
    return s;
}

/* Records one timing of path G; returns G when it was kept (a VPP_EVENTS
 * marker may follow), 0 when it was set aside or its path is unknown. */
static uint64_t record(struct vpp_an *v, uint64_t g, uint64_t ticks)
{
    if (!v->have_clock) {
        struct pprt_vpp_clock c;
        if (pprt_vpp_clock(&c))
            v->bias = c.bias;
        v->have_clock = 1;
    }
    /* Above the threshold: a preemption, most likely (docs/vpp.md); set
     * aside, but counted on its path so the user sees which one. */
    int outlier = pprt_config.vpp_outlier && ticks > pprt_config.vpp_outlier + v->bias;
    struct vpp_stat *s = vpp_table_find(&v->paths, g);
    if (s == NULL) {
        struct pp_path_ref ref;
        if (!pp_lookup_path(g, &ref)) {
            if (outlier)
                v->outliers++;
            else
                v->unknown++;
            return 0;
        }
        s = vpp_table_get(&v->paths, g, ref.tu_id, ref.func, ref.path_id);
        if (s == NULL) {
            if (outlier)
                v->outliers++;
            else
                v->lost++;
            return 0;
        }
    }
    if (outlier) {
        v->outliers++;
        s->outliers++;
        return 0;
    }
    if (vpp_stat_add(s, ticks > v->bias ? ticks - v->bias : 0) != 0) {
        v->lost++;
        return 0;
    }
    v->timed++;
    return g;
}

static void vpp_consume(void *a, void *t, const uint64_t *ev, size_t n)
{
    struct vpp_an *v = a;
    struct vpp_stream dummy = {0}, *s = t ? t : &dummy;
    pp_analyzer_blpp.consume(v->blpp, s->blpp, ev, n);
    for (size_t i = 0; i < n; i++) {
        uint64_t w = ev[i];
        if (s->half) {
            s->half = 0;
            continue;
        }
        if (!(w & PATHPROF_EV_MARKER)) {
            s->last = w & PATHPROF_EV_INDEX_MASK;
            s->kept = 0;
            continue;
        }
        s->half = 1;
        unsigned kind = PATHPROF_MARK_KIND(w);
        if (kind == PATHPROF_MARK_VPP_EVENTS) {
            struct vpp_stat *st = s->kept ? vpp_table_find(&v->paths, s->kept) : NULL;
            if (st != NULL) {
                st->ev_samples++;
                st->events += PATHPROF_MARK_PAYLOAD(w);
            }
            s->kept = 0;
            continue;
        }
        if (kind != PATHPROF_MARK_VPP)
            continue;
        s->kept = 0;
        if (s->last == 0)
            v->orphans++;
        else
            s->kept = record(v, s->last, PATHPROF_MARK_PAYLOAD(w));
        s->last = 0;
    }
}

static void vpp_thread_end(void *a, void *t)
{
    struct vpp_an *v = a;
    struct vpp_stream *s = t;
    if (s != NULL)
        pp_analyzer_blpp.thread_end(v->blpp, s->blpp);
    free(s);
}

/* A forked child accumulating (analyzer-host.h): the counts and timings
 * start over; the clock's bias and each stream's last path awaiting its
 * timing marker are context, kept. */
static int vpp_reset(void *a)
{
    struct vpp_an *v = a;
    if (v == NULL || pp_analyzer_blpp.reset(v->blpp) != 0)
        return -1;
    vpp_table_free(&v->paths);
    v->timed = v->orphans = v->outliers = v->unknown = v->lost = 0;
    return 0;
}

static void vpp_merge(void *into, void *from)
{
    struct vpp_an *dst = into, *src = from;
    pp_analyzer_blpp.merge(dst->blpp, src->blpp);
    dst->timed += src->timed;
    dst->orphans += src->orphans;
    dst->outliers += src->outliers;
    dst->unknown += src->unknown;
    dst->lost += src->lost;
    if (!dst->have_clock) {
        dst->have_clock = src->have_clock;
        dst->bias = src->bias;
    }
    for (size_t i = 0; i < src->paths.cap; i++) {
        const struct vpp_stat *f = &src->paths.slots[i];
        if (f->g == 0)
            continue;
        struct vpp_stat *d = vpp_table_get(&dst->paths, f->g, f->tu_id, f->func, f->path_id);
        if (d == NULL || vpp_stat_merge(d, f) != 0)
            dst->lost += f->samples;
    }
}

/* Whether blpp runs beside: then it writes the TU sections. */
static int blpp_runs(void)
{
    for (uint32_t k = 0; k < pprt_config.nanalyzers; k++)
        if (pp_analyzers[pprt_config.analyzers[k]] == &pp_analyzer_blpp)
            return 1;
    return 0;
}

static void vpp_write(void *a, struct pprt_buf *out, uint32_t *nsections)
{
    struct vpp_an *v = a;
    if (!blpp_runs())
        pp_analyzer_blpp.write(v->blpp, out, nsections);
    vpp_write_section(v, out, nsections);
}

static void vpp_close(void *a)
{
    struct vpp_an *v = a;
    if (v == NULL)
        return;
    pp_analyzer_blpp.close(v->blpp);
    vpp_table_free(&v->paths);
    free(v);
}

__attribute__((visibility("hidden"))) const struct pp_analyzer pp_analyzer_vpp = {
    .name = "vpp",
    .open = vpp_open,
    .thread_begin = vpp_thread_begin,
    .consume = vpp_consume,
    .thread_end = vpp_thread_end,
    .merge = vpp_merge,
    .write = vpp_write,
    .close = vpp_close,
    .reset = vpp_reset,
    .writes_tu_sections = 1,
};
