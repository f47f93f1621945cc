/* feed.h - one producer stream's words through the ksf-pruned core: the
 * batch loop of the `ksf-pruned` analyzer (ksf-pruned.c), free of the
 * runtime so that perfctl/micro/ksf-replay.c replays a real program's
 * stream through exactly the analyzer's code.
 *
 * It is ksf/feed.h's loop with the pruned core's per-activation state: an
 * activation stack (common/activations.h) and, per depth, a struct kp_act
 * plus a ring of its last k - 1 path IDs (re-seeding after an epoch). */
#ifndef PATHPROF_KSF_PRUNED_FEED_H
#define PATHPROF_KSF_PRUNED_FEED_H

#include "common/activations.h"
#include "core.h"

#pragma GCC visibility push(hidden)

struct kp_seq {
    struct pp_act_stack acts;
    struct kp_act *act; /* act[d - 1]: the activation at depth d */
    uint64_t *rings;    /* its ring at (d - 1) * t->ring */
    size_t cap;
};

void kp_seq_init(struct kp_seq *q);
void kp_seq_free(struct kp_seq *q);

/* Feeds N words of the stream to Q's stack and every path event to the
 * producer thread T of core C. */
void kp_feed(struct kp_core *c, struct kp_thread *t, struct kp_seq *q, const uint64_t *ev,
             size_t n);

#pragma GCC visibility pop

#endif
