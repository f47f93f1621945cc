/* split.h - one producer stream's k-SF work cut into independent jobs
 * (PATHPROF_KSF_WORKERS, docs/kiterations.md, "Several analyzers on one
 * producer stream").
 *
 * N-gram counting splits exactly at any word of the stream when each part
 * knows what the n-grams ending in it can reach before it: the activations
 * the part touches and, of each, its last k - 1 path labels.  The owner (the
 * analyzer thread that has the producer's channel) feeds every word through
 * its activation stack, cheaply, and keeps those windows; for each batch it
 * makes a job holding that checkpoint and a copy of the batch.  Any worker
 * runs a job: it rebuilds the checkpoint's stack, seeds each activation's
 * Fig. 6 state with its window (ksf_seed: weight 0, nothing counted), then
 * feeds the batch exactly as ksf_feed does.  Every n-gram is counted at its
 * last item, by the job holding that item, once; the k-SFs of all jobs
 * together give the k-IPF of the whole stream (Fig. 7 is additive).
 *
 * Threads: a ksf_owner belongs to one analyzer thread; a job, once made,
 * to whichever thread runs it. */
#ifndef PATHPROF_KSF_SPLIT_H
#define PATHPROF_KSF_SPLIT_H

#include "common/activations.h"
#include "build.h"
#include "feed.h"

#include <stdbool.h>

#pragma GCC visibility push(hidden)

/* One activation of a checkpoint: a copy (origin PP_ACT_BY_NOTHING for the
 * stand-in of pushes the owner's stack had no memory for) and how many
 * labels its window holds. */
struct ksf_ck {
    struct pp_act act;
    uint32_t nlabels;
};

struct ksf_job {
    struct ksf_job *next; /* the worker queue's link */
    uint32_t k;
    uint32_t nacts;       /* the checkpoint, outermost first */
    bool has_half;        /* the batch starts with a marker's second word */
    uint64_t half;        /* ... whose first word is this */
    size_t nwords;
    struct ksf_ck *acts;
    uint64_t *labels;     /* acts[i]'s window, oldest first, at i * (k - 1) */
    uint64_t *words;      /* the batch */
};

/* The owner's view of one producer stream. */
struct ksf_owner {
    uint32_t k, w;           /* w = k - 1, the window length */
    struct pp_act_stack acts;
    uint64_t *ring;          /* w labels per depth: a ring each */
    struct ksf_win { uint32_t pos, fill; } *win; /* per depth */
    size_t cap;              /* depths ring and win have room for */
    struct ksf_ck *ck;       /* the checkpoint being captured, top first */
    uint64_t *cklabels;
    size_t nck, ckcap;
    int failed;              /* out of memory: some job was not made */
};

void ksf_owner_init(struct ksf_owner *o, uint32_t k);
void ksf_owner_free(struct ksf_owner *o);

/* The job of the next N words of the stream (a copy: EV may be reused);
 * NULL when out of memory (o->failed is set and the words are lost, which
 * the caller counts).  The owner's stack and windows move past the words
 * either way. */
struct ksf_job *ksf_owner_batch(struct ksf_owner *o, const uint64_t *ev, size_t n);

/* Runs job J on builder B (B's k must be J's), with Q as scratch for the
 * rebuilt stack.  Does not free J. */
void ksf_job_run(struct ksf_builder *b, struct ksf_seq *q, const struct ksf_job *j);

#pragma GCC visibility pop

#endif
