/* run-expand.c - RUN markers expanded (see run-expand.h). */
#include "run-expand.h"
#include "pathprof-abi.h"

/* W, TIMES times, through BUF. */
static void repeat(uint64_t w, uint64_t times, uint64_t *buf, size_t cap, pprt_run_sink sink,
                   void *ctx)
{
    size_t fill = times < cap ? (size_t)times : cap;
    for (size_t i = 0; i < fill; i++)
        buf[i] = w;
    while (times) {
        size_t m = times < cap ? (size_t)times : cap;
        sink(ctx, buf, m);
        times -= m;
    }
}

void pprt_run_expand(struct pprt_run_state *st, const uint64_t *ev, size_t n, uint64_t *buf,
                     size_t cap, pprt_run_sink sink, void *ctx)
{
    size_t i = 0, from = 0;
    if (st->has_half && n) {
        st->has_half = 0;
        i = 1;
        if (PATHPROF_MARK_KIND(st->half) != PATHPROF_MARK_RUN) {
            /* the second word of another marker, passed on as it is */
        } else if (ev[0] & PATHPROF_EV_MARKER) {
            i = 0;   /* a dropped chunk (PATHPROF_POLICY=drop) cut the pair */
        } else {
            repeat(ev[0], PATHPROF_MARK_PAYLOAD(st->half), buf, cap, sink, ctx);
            from = 1;
        }
    }
    while (i < n) {
        uint64_t w = ev[i];
        if (!(w & PATHPROF_EV_MARKER)) {
            i++;
            continue;
        }
        if (i + 1 == n) {   /* its second word is in the next chunk */
            st->half = w;
            st->has_half = 1;
            if (PATHPROF_MARK_KIND(w) == PATHPROF_MARK_RUN) {
                if (i > from)
                    sink(ctx, ev + from, i - from);
                from = n;
            }
            break;
        }
        if (PATHPROF_MARK_KIND(w) == PATHPROF_MARK_RUN) {
            if (i > from)
                sink(ctx, ev + from, i - from);
            repeat(ev[i + 1], PATHPROF_MARK_PAYLOAD(w), buf, cap, sink, ctx);
            from = i + 2;
        }
        i += 2;
    }
    if (n > from)
        sink(ctx, ev + from, n - from);
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
