/* run-expand.h - RUN markers (pathprof-abi.h, PATHPROF_MARK_RUN) written out
 * as the events they stand for, for the analyzers that do not read runs.
 *
 * A loop counted at its exits emits, for k iterations, its first path's
 * event and RUN(k - 1) with the steady path's word: three words where the
 * loop used to store k.  An analyzer with reads_runs takes the marker as
 * it is (blpp adds k - 1 at once); every other one is fed the chunk with
 * each RUN pair replaced by its k - 1 copies, so what it sees, and what a
 * trace holds, is the stream one event a word as before.  A marker pair
 * may straddle two chunks: the state between them is the stream's. */
#ifndef PATHPROF_RT_RUN_EXPAND_H
#define PATHPROF_RT_RUN_EXPAND_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

struct pprt_run_state {
    uint64_t half;     /* a marker's first word, its second in the next chunk */
    int has_half;
};

typedef void (*pprt_run_sink)(void *ctx, const uint64_t *ev, size_t n);

/* Feeds EV[0..N) to SINK with every RUN pair expanded: a chunk without
 * one passes as it is (no copy); otherwise the words go through BUF (CAP
 * words) in batches as long as it holds. */
void pprt_run_expand(struct pprt_run_state *st, const uint64_t *ev, size_t n, uint64_t *buf,
                     size_t cap, pprt_run_sink sink, void *ctx);

/* How many words EV[0..N) stands for with every RUN pair expanded (the
 * stream's `events`), when no analyzer needs the expansion itself; the
 * same STATE as pprt_run_expand's (one or the other runs on a stream). */
uint64_t pprt_run_count(struct pprt_run_state *st, const uint64_t *ev, size_t n);

#pragma GCC visibility pop

#endif
