/* run-expand.c - RUN markers expanded (see run-expand.h). */
#include "run-expand.h"
#include "pathprof-abi.h"

/* The expanded words go out through BUF in batches as long as it holds:
 * an analyzer's consume() has a cost per call (its per-stream state, the
 * top activation), and a codec's stream has a RUN every few words, so
 * handing each span between two markers on its own made ksf three times
 * slower per event on flac.  A span longer than BUF passes as it is. */
struct out {
    uint64_t *buf;
    size_t cap, len;
    pprt_run_sink sink;
    void *ctx;
};

static void flush(struct out *o)
{
    if (o->len)
        o->sink(o->ctx, o->buf, o->len);
    o->len = 0;
}

static void put(struct out *o, const uint64_t *w, size_t n)
{
    if (n > o->cap) {
        flush(o);
        o->sink(o->ctx, w, n);
        return;
    }
    if (o->len + n > o->cap)
        flush(o);
    for (size_t i = 0; i < n; i++)
        o->buf[o->len + i] = w[i];
    o->len += n;
}

static void put_repeat(struct out *o, uint64_t w, uint64_t times)
{
    while (times) {
        if (o->len == o->cap)
            flush(o);
        size_t room = o->cap - o->len;
        size_t m = times < room ? (size_t)times : room;
        for (size_t i = 0; i < m; i++)
            o->buf[o->len + i] = w;
        o->len += m;
        times -= m;
    }
}

void pprt_run_expand(struct pprt_run_state *st, const uint64_t *ev, size_t n, uint64_t *buf,
                     size_t cap, pprt_run_sink sink, void *ctx)
{
    struct out o = {buf, cap, 0, sink, ctx};
    size_t i = 0, from = 0;
    int any = 0;   /* a RUN was expanded: the rest goes through the buffer too */
    if (st->has_half && n) {
        st->has_half = 0;
        i = 1;
        if (PATHPROF_MARK_KIND(st->half) != PATHPROF_MARK_RUN) {
            /* the second word of another marker, passed on as it is */
        } else if (ev[0] & PATHPROF_EV_MARKER) {
            i = 0;   /* a dropped chunk (PATHPROF_POLICY=drop) cut the pair */
        } else {
            put_repeat(&o, ev[0], PATHPROF_MARK_PAYLOAD(st->half));
            from = 1;
            any = 1;
        }
    }
    while (i < n) {
        uint64_t w = ev[i];
        if (!(w & PATHPROF_EV_MARKER)) {
            i++;
            continue;
        }
        int run = PATHPROF_MARK_KIND(w) == PATHPROF_MARK_RUN;
        if (i + 1 == n) {   /* its second word is in the next chunk */
            st->half = w;
            st->has_half = 1;
            if (run) {
                put(&o, ev + from, i - from);
                from = n;
                any = 1;
            }
            break;
        }
        if (run) {
            put(&o, ev + from, i - from);
            put_repeat(&o, ev[i + 1], PATHPROF_MARK_PAYLOAD(w));
            from = i + 2;
            any = 1;
        }
        i += 2;
    }
    if (!any) {
        if (n > from)
            sink(ctx, ev + from, n - from);   /* no RUN: the chunk as it is */
        return;
    }
    put(&o, ev + from, n - from);
    flush(&o);
}

uint64_t pprt_run_count(struct pprt_run_state *st, const uint64_t *ev, size_t n)
{
    /* Most chunks hold no marker: one OR over the words (vectorized) says so. */
    uint64_t any = st->has_half ? PATHPROF_EV_MARKER : 0;
    for (size_t i = 0; i < n; i++)
        any |= ev[i];
    if (!(any & PATHPROF_EV_MARKER))
        return n;
    uint64_t total = n;
    size_t i = 0;
    if (st->has_half && n) {
        st->has_half = 0;
        i = 1;
        if (PATHPROF_MARK_KIND(st->half) != PATHPROF_MARK_RUN)
            ;
        else if (ev[0] & PATHPROF_EV_MARKER)
            i = 0;   /* the pair cut by a dropped chunk */
        else
            total = total - 1 + PATHPROF_MARK_PAYLOAD(st->half);
    }
    for (; i < n; i++) {
        uint64_t w = ev[i];
        if (!(w & PATHPROF_EV_MARKER))
            continue;
        int run = PATHPROF_MARK_KIND(w) == PATHPROF_MARK_RUN;
        if (i + 1 == n) {
            st->half = w;
            st->has_half = 1;
            if (run)
                total--;
            break;
        }
        if (run)
            total = total - 2 + PATHPROF_MARK_PAYLOAD(w);
        i++;
    }
    return total;
}
