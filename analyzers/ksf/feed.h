/* feed.h - one producer stream's words through Fig. 6: the loop that
 * the ksf analyzer runs on every batch, shared by the analyzer thread
 * (ksf.c, PATHPROF_KSF_WORKERS=0) and by the fan-out workers
 * (split.c), so that both attribute every word by the same rules.
 *
 * A ksf_seq is a stream's activation stack (common/activations.h) plus Fig. 6's
 * per-sequence state (n, tau, beta) of each activation, in an array
 * parallel to the stack, indexed by depth: a pushed activation starts
 * with the "*" behaviour, a popped one is simply forgotten, so a caller
 * finds its own state as it left it. */
#ifndef PATHPROF_KSF_FEED_H
#define PATHPROF_KSF_FEED_H

#include "common/activations.h"
#include "build.h"

#pragma GCC visibility push(hidden)

struct ksf_seq {
    struct pp_act_stack acts;
    struct ksf_state *state; /* state[d - 1]: the activation at depth d */
    size_t cap;
};

void ksf_seq_init(struct ksf_seq *q);
void ksf_seq_free(struct ksf_seq *q);

/* The state of the activation at DEPTH (from 1), grown on demand; NULL
 * when out of memory. */
struct ksf_state *ksf_seq_state(struct ksf_seq *q, size_t depth);

/* Feeds N words of the stream to Q's stack and every path event to B. */
void ksf_feed(struct ksf_builder *b, struct ksf_seq *q, const uint64_t *ev, size_t n);

#pragma GCC visibility pop

#endif
