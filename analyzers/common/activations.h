/* activations.h - rebuilding a producer thread's call stack from its event
 * stream, exactly as docs/streaming.md, section 2 says:
 *
 *   - a path event with START pushes an activation of its function; the
 *     event belongs to the top activation; an event with RET pops it after;
 *   - ENTER(fn, frame) pushes an activation whose frame is known;
 *   - RESUME(fn, frame) pops until the activation of FN with that frame is
 *     on top (those above were unwound by longjmp or a throw); when there is
 *     none, a `resync` error is counted and one is pushed;
 *   - BURST (sampling=yes, docs/sampling.md) pops every activation: the
 *     k-iteration windows of analyzers end with it, so no k-iteration path
 *     spans two bursts; later paths without START on an empty stack open
 *     activations of their own without counting an `orphan`, and a
 *     RESUME that matches nothing is not a `resync` either.  After a BURST
 *     end, until the next begin, every activation is popped by the event
 *     that opened it: the events are tails of frames that go on in their
 *     checking copy, which never pops them, so they would take the next
 *     frame's events (k-iteration paths are collected in bursts only).
 *
 * The stack is fed one 64-bit word at a time, so a two-word marker split
 * across batches (or chunks) needs nothing from the caller.  Each word
 * yields a pp_act_step saying what it did; no callbacks, no allocation
 * except when the stack grows.  Used by analyzers (k-iteration paths) and
 * by `pathprof dump`; it depends on nothing but pathprof-abi.h.
 *
 * Activations keep their depth for their whole life, so a caller that needs
 * per-activation state keeps its own array indexed by depth, initialised
 * when step.pushed and released for every activation in step.popped.
 *
 * Anomalies (a corrupt stream, lost events under PATHPROF_POLICY=drop) are
 * counted, never fatal: the stack stays usable and later events go on being
 * attributed by the same rules. */
#ifndef PATHPROF_ACTIVATIONS_H
#define PATHPROF_ACTIVATIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pathprof-abi.h"

#pragma GCC visibility push(hidden)

#define PP_ACT_NO_FUNC UINT64_MAX

/* How an activation came onto the stack. */
enum pp_act_origin {
    PP_ACT_BY_START,  /* a path event with START */
    PP_ACT_BY_ENTER,  /* an ENTER marker */
    PP_ACT_BY_RESYNC, /* a RESUME that matched nothing */
    PP_ACT_BY_ORPHAN, /* a path event without START on an empty stack */
    PP_ACT_BY_NOTHING /* the stand-in for activations the stack had no
                         memory for (see pp_act_stack.lost) */
};

struct pp_act {
    uint64_t func;    /* global function index (the ENTER/RESUME payload
                         space), PP_ACT_NO_FUNC when not known */
    uint64_t frame;   /* frame address (ENTER, RESYNC), else 0 */
    uint64_t serial;  /* 1, 2, ... in push order: names the activation */
    enum pp_act_origin origin;
};

/* Errors one word can raise (bits of pp_act_step.errors); each has a
 * counter in pp_act_stack. */
#define PP_ACT_ERR_RESYNC 1u   /* RESUME matched no activation */
#define PP_ACT_ERR_ORPHAN 2u   /* path event without START, stack empty */
#define PP_ACT_ERR_MISMATCH 4u /* the event's function is not its activation's */
#define PP_ACT_ERR_UNKNOWN 8u  /* the resolver knows no function for the event */
#define PP_ACT_ERR_MARKER 16u  /* a marker of unknown kind (both words skipped) */
#define PP_ACT_ERR_NOMEM 32u   /* a push found no memory (see .lost) */

enum pp_act_what {
    PP_ACT_HALF,   /* the first word of a marker: nothing happens until the second */
    PP_ACT_PATH,   /* a path event; it belongs to ACT */
    PP_ACT_ENTER,  /* an ENTER marker; ACT was pushed */
    PP_ACT_RESUME, /* a RESUME marker; ACT is the resumed activation, on top */
    PP_ACT_BURST,  /* a BURST marker (sampling): every activation was popped */
    PP_ACT_TIMING, /* a VPP marker: the ticks of the path event before it */
    PP_ACT_RUN,    /* a RUN marker: WORD, its path event (no START, no RET),
                      happened REPEAT times; it belongs to ACT */
    PP_ACT_OTHER   /* a marker of unknown kind */
};

struct pp_act_step {
    enum pp_act_what what;
    uint64_t word;   /* the path event (RUN: its path event), or a marker's first word */
    uint64_t repeat; /* RUN: how many times WORD happened */
    uint64_t frame;  /* a marker's second word */
    uint64_t func;   /* PATH: the resolver's answer; markers: their payload;
                        PP_ACT_NO_FUNC when unknown */
    /* PATH, ENTER, RESUME: the activation concerned and its depth (1 is
     * the bottom of the stack).  Valid until the next pp_act_feed. */
    const struct pp_act *act;
    size_t depth;
    bool pushed;      /* ACT was pushed by this word */
    /* Activations this word popped, deepest first: after a RET the one the
     * event belonged to (ACT itself); after a RESUME, those unwound above
     * the resumed one.  Valid until the next pp_act_feed. */
    const struct pp_act *popped;
    size_t npopped;
    unsigned errors;  /* PP_ACT_ERR_* */
};

/* Global path index -> global function index, or PP_ACT_NO_FUNC. */
typedef uint64_t (*pp_act_resolver)(void *ctx, uint64_t path_index);

struct pp_act_stack {
    struct pp_act *act;   /* act[0] is the bottom */
    size_t depth, cap;
    /* Pushes that found no memory: virtual activations above act[depth-1],
     * all represented by one stand-in.  Pops take them first, so the real
     * ones below keep their place. */
    size_t lost;
    uint64_t serial;
    uint64_t half;        /* a marker's first word, waiting for its frame */
    bool has_half;

    pp_act_resolver resolve; /* optional: activation functions, checks */
    void *resolve_ctx;

    /* Totals since init (reset does not clear them). */
    uint64_t words, paths, markers;
    uint64_t resync, orphan, mismatch, unknown, bad_marker, nomem;
    /* BURST markers seen (begins and ends).  After the first, the stream is
     * sampled: a path without START on an empty stack is a function that
     * entered its instrumented copy at a loop header, not an anomaly. */
    uint64_t bursts;
    bool sampled;
    /* Between a BURST end and the next begin: the events are the tails of
     * frames that were in the instrumented copy when the burst ended.  Such
     * a frame leaves through its checking copy, with no RET, so every
     * activation opened then is transient (popped by the event that
     * opened it). */
    bool after_burst;
    size_t max_depth;
};

/* RESOLVE may be NULL: START activations then have func PP_ACT_NO_FUNC and
 * the MISMATCH and UNKNOWN checks are off. */
void pp_act_init(struct pp_act_stack *s, pp_act_resolver resolve, void *ctx);
/* Empties the stack and forgets a pending half marker, keeping memory and
 * counters: a new stream starts. */
void pp_act_reset(struct pp_act_stack *s);
void pp_act_free(struct pp_act_stack *s);

/* Applies one word of the stream; describes what it did in *STEP. */
void pp_act_feed(struct pp_act_stack *s, uint64_t word, struct pp_act_step *step);

/* Whether STEP moves a k-iteration analyzer's sequence state: a path
 * event, a function entry, or a RESUME that pushed a new activation (one
 * the stack had lost); other markers only pop or note. */
static inline bool pp_act_step_feeds_sequence(const struct pp_act_step *step)
{
    return step->what == PP_ACT_PATH || step->what == PP_ACT_ENTER || step->what == PP_ACT_RUN ||
           (step->what == PP_ACT_RESUME && step->pushed);
}

/* Pushes a copy of A (its func, frame, origin, serial) as a new top, or a
 * lost one when out of memory, as a pushed word would: a stack rebuilt
 * from a copy of another's top part (the ksf fan-out's checkpoint) then
 * matches RESUME markers and pops exactly as the original does.  Returns
 * the new depth. */
size_t pp_act_push_copy(struct pp_act_stack *s, const struct pp_act *a);

/* Activations on the stack, the lost ones included. */
static inline size_t pp_act_depth(const struct pp_act_stack *s)
{
    return s->depth + s->lost;
}

/* Errors counted since init. */
static inline uint64_t pp_act_errors(const struct pp_act_stack *s)
{
    return s->resync + s->orphan + s->mismatch + s->unknown + s->bad_marker + s->nomem;
}

/* The fast form of pp_act_feed for the calls and returns a stack without
 * a resolver sees millions of (an interpreter's small functions): a path
 * event W with START, RET or both, no marker pending, no lost pushes.  It
 * does exactly what pp_act_feed would do, counters included, and returns
 * the depth of W's activation (1 is the bottom) with *PUSHED saying
 * whether W pushed it; an activation that W both pushes and pops (START
 * and RET) is reported at the depth it had.  It returns 0 and does nothing
 * when W needs pp_act_feed, or when that depth would exceed LIMIT (the
 * caller's per-activation state has no room for it yet).  Plain path
 * events are the caller's own fast case (it skips the stack for them). */
static inline size_t pp_act_fast_path(struct pp_act_stack *s, uint64_t w, size_t limit,
                                      bool *pushed)
{
    const uint64_t start = PATHPROF_EV_START, ret = PATHPROF_EV_RET;
    uint64_t bits = w & (PATHPROF_EV_MARKER | start | ret);
    if (bits == 0 || (bits & PATHPROF_EV_MARKER) || s->has_half || s->lost || s->resolve ||
        s->after_burst)
        return 0;
    size_t d = s->depth;
    if (bits == ret) {
        if (d == 0 || d > limit)
            return 0; /* an orphan RET: pp_act_feed counts it */
        s->depth--;
    } else {
        if (d + 1 > limit || (bits == start && d == s->cap))
            return 0; /* no room: pp_act_feed grows the array */
        s->serial++;
        if (bits == start) {
            struct pp_act *a = &s->act[s->depth++];
            a->func = PP_ACT_NO_FUNC;
            a->frame = 0;
            a->serial = s->serial;
            a->origin = PP_ACT_BY_START;
        }
        if (d + 1 > s->max_depth)
            s->max_depth = d + 1;
        d++;
    }
    s->words++;
    s->paths++;
    *pushed = bits != ret;
    return d;
}

/* A RUN marker at I whose path event is the next word of the batch (a
 * path of the top activation: no START, RET or marker bit), the pair an
 * analyzer's fast form may take as a run of one path without the stack
 * (ksf/feed.c, ksf-pruned/feed.c); a pair cut by the batch's end or by a
 * drop goes through pp_act_feed, which keeps the half.  A marker's kind
 * is its top byte's low bits. */
static inline bool pp_act_run_pair(const uint64_t *ev, size_t i, size_t n)
{
    const uint64_t special = PATHPROF_EV_MARKER | PATHPROF_EV_START | PATHPROF_EV_RET;
    return (ev[i] >> 56) == (0x80u | PATHPROF_MARK_RUN) && i + 1 < n && (ev[i + 1] & special) == 0;
}

/* Calls that run one path and return (START and RET in one word: 44% of
 * an interpreter's events, lua's leaf calls from its dispatch loop) never
 * change the stack: pp_act_fast_path would push and pop the activation at
 * depth + 1 and count a word, a path and a serial.  pp_act_leaf_ok says
 * whether such a word may skip the stack: the same conditions as
 * pp_act_fast_path's, for a stack whose state a caller reads once
 * (has_half, lost, resolve and after_burst change only in pp_act_feed);
 * the caller then counts N such words at once with pp_act_leaves. */
static inline bool pp_act_leaf_ok(const struct pp_act_stack *s, size_t limit)
{
    return !s->has_half && s->lost == 0 && s->resolve == NULL && !s->after_burst &&
           s->depth + 1 <= limit;
}

static inline void pp_act_leaves(struct pp_act_stack *s, uint64_t n)
{
    if (n == 0)
        return;
    s->serial += n;
    s->words += n;
    s->paths += n;
    if (s->depth + 1 > s->max_depth)
        s->max_depth = s->depth + 1;
}

#pragma GCC visibility pop

#endif
