/* wake.h - sleeping until another thread says "something changed".
 *
 * An event count on a futex word: the waiter announces itself, re-checks
 * its condition, and only then sleeps; the signaller makes the condition
 * true, then wakes only if someone announced itself.  So a signal costs a
 * fence and a load when nobody sleeps (the common case: a producer
 * publishing a chunk while its analyzer is busy), and no wake-up is lost:
 *
 *   waiter                              signaller
 *   s = pp_wake_prepare(w);             make COND true (ring enqueue)
 *   if (COND) pp_wake_cancel(w);        pp_wake_signal(w);
 *   else pp_wake_wait(w, s, timeout);
 *
 * prepare's and signal's read-modify-writes of SLEEPERS order "I sleep"
 * against "COND is true" (a Dekker pair): either the signaller sees the sleeper
 * and bumps SEQ (so the futex wait returns at once), or the waiter's
 * re-check sees COND.  Waits also end at TIMEOUT_NS, so even a bug here
 * costs latency, never a hang. */
#ifndef PATHPROF_WAKE_H
#define PATHPROF_WAKE_H

#include <stdint.h>

#pragma GCC visibility push(hidden)

struct pp_wake {
    uint32_t seq;      /* futex word: bumped by every signal that sees a sleeper */
    uint32_t sleepers; /* threads between prepare and wait/cancel */
};

uint32_t pp_wake_prepare(struct pp_wake *w);
void pp_wake_cancel(struct pp_wake *w);
/* Sleeps unless SEQ changed since prepare returned it; at most TIMEOUT_NS. */
void pp_wake_wait(struct pp_wake *w, uint32_t seq, long timeout_ns);
void pp_wake_signal(struct pp_wake *w);

#pragma GCC visibility pop

#endif
