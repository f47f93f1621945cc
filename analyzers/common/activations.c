/* activations.c - the per-thread activation stack (see activations.h). */
#include "activations.h"

#include <stdlib.h>
#include <string.h>

#include "pathprof-abi.h"

/* What events are attributed to while pushes are lost for want of memory. */
static const struct pp_act stand_in = {
    .func = PP_ACT_NO_FUNC, .frame = 0, .serial = 0, .origin = PP_ACT_BY_NOTHING,
};

void pp_act_init(struct pp_act_stack *s, pp_act_resolver resolve, void *ctx)
{
    memset(s, 0, sizeof *s);
    s->resolve = resolve;
    s->resolve_ctx = ctx;
}

void pp_act_reset(struct pp_act_stack *s)
{
    s->depth = 0;
    s->lost = 0;
    s->has_half = false;
    s->half = 0;
    s->sampled = false;
    s->after_burst = false;
}

void pp_act_free(struct pp_act_stack *s)
{
    free(s->act);
    s->act = NULL;
    s->depth = s->cap = s->lost = 0;
}

static const struct pp_act *top(const struct pp_act_stack *s)
{
    return s->lost ? &stand_in : &s->act[s->depth - 1];
}

/* Pushes an activation and sets STEP's act, depth and pushed. */
static void push(struct pp_act_stack *s, uint64_t func, uint64_t frame,
                 enum pp_act_origin origin, struct pp_act_step *step)
{
    /* Once a push is lost, every push above it is too: a real activation
     * above a missing one would come off the stack in the wrong order. */
    if (s->lost == 0 && s->depth == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        struct pp_act *bigger =
            cap <= SIZE_MAX / sizeof *bigger ? realloc(s->act, cap * sizeof *bigger) : NULL;
        if (bigger) {
            s->act = bigger;
            s->cap = cap;
        } else {
            s->nomem++;
            step->errors |= PP_ACT_ERR_NOMEM;
        }
    }
    s->serial++;
    if (s->lost == 0 && s->depth < s->cap) {
        struct pp_act *a = &s->act[s->depth++];
        a->func = func;
        a->frame = frame;
        a->serial = s->serial;
        a->origin = origin;
    } else {
        s->lost++;
    }
    if (pp_act_depth(s) > s->max_depth)
        s->max_depth = pp_act_depth(s);
    step->act = top(s);
    step->depth = pp_act_depth(s);
    step->pushed = true;
}

size_t pp_act_push_copy(struct pp_act_stack *s, const struct pp_act *a)
{
    struct pp_act_step step;
    uint64_t serial = s->serial;
    memset(&step, 0, sizeof step);
    push(s, a->func, a->frame, a->origin, &step);
    s->serial = serial; /* the copy is no new activation */
    if (s->lost == 0)
        s->act[s->depth - 1].serial = a->serial;
    return pp_act_depth(s);
}

/* Pops the activation STEP just pushed (a RET, or a transient one). */
static void pop_pushed(struct pp_act_stack *s, struct pp_act_step *step)
{
    step->popped = step->act;
    step->npopped = 1;
    if (s->lost)
        s->lost--;
    else
        s->depth--;
}

static void feed_path(struct pp_act_stack *s, uint64_t ev, struct pp_act_step *step)
{
    step->what = PP_ACT_PATH;
    s->paths++;
    if (s->resolve) {
        step->func = s->resolve(s->resolve_ctx, ev & PATHPROF_EV_INDEX_MASK);
        if (step->func == PP_ACT_NO_FUNC) {
            s->unknown++;
            step->errors |= PP_ACT_ERR_UNKNOWN;
        }
    }
    if (ev & PATHPROF_EV_START) {
        push(s, step->func, 0, PP_ACT_BY_START, step);
    } else if (pp_act_depth(s) == 0) {
        /* Events lost before this one (drop policy) or a corrupt stream:
         * give the event an activation so RET has something to pop.  In a
         * sampled stream, the normal start of a burst's activations. */
        if (!s->sampled) {
            s->orphan++;
            step->errors |= PP_ACT_ERR_ORPHAN;
        }
        push(s, step->func, 0, PP_ACT_BY_ORPHAN, step);
    } else {
        step->act = top(s);
        step->depth = pp_act_depth(s);
    }
    if (s->resolve && step->func != PP_ACT_NO_FUNC && step->act->func != PP_ACT_NO_FUNC &&
        step->act->func != step->func) {
        s->mismatch++;
        step->errors |= PP_ACT_ERR_MISMATCH;
    }
    /* The array is never shrunk, so ACT stays readable after the pop. */
    if (ev & PATHPROF_EV_RET)
        pop_pushed(s, step);
}

/* Pops down to the activation of FUNC with FRAME, or pushes one. */
static void resume(struct pp_act_stack *s, uint64_t func, uint64_t frame,
                   struct pp_act_step *step)
{
    size_t i = s->depth;

    /* Frame and function must both match: a frame address alone is reused
     * by any later call at the same stack depth, so on a stream that lost
     * events a stale activation could otherwise be taken. */
    while (i > 0) {
        const struct pp_act *a = &s->act[i - 1];
        if ((a->origin == PP_ACT_BY_ENTER || a->origin == PP_ACT_BY_RESYNC) &&
            a->frame == frame && a->func == func)
            break;
        i--;
    }
    if (i == 0) {
        /* In a sampled stream the activation may have begun before the
         * burst, in the checking copy, which emits no ENTER. */
        if (!s->sampled) {
            s->resync++;
            step->errors |= PP_ACT_ERR_RESYNC;
        }
        push(s, func, frame, PP_ACT_BY_RESYNC, step);
        return;
    }
    /* Lost pushes sit above every real activation: unwound too. */
    s->lost = 0;
    step->popped = &s->act[i];
    step->npopped = s->depth - i;
    s->depth = i;
    step->act = &s->act[i - 1];
    step->depth = i;
}

static void feed_marker(struct pp_act_stack *s, uint64_t frame, struct pp_act_step *step)
{
    uint64_t first = s->half;
    uint64_t payload = PATHPROF_MARK_PAYLOAD(first);

    s->has_half = false;
    s->markers++;
    step->word = first;
    step->frame = frame;
    step->func = payload;
    switch (PATHPROF_MARK_KIND(first)) {
    case PATHPROF_MARK_ENTER:
        step->what = PP_ACT_ENTER;
        push(s, payload, frame, PP_ACT_BY_ENTER, step);
        break;
    case PATHPROF_MARK_RESUME:
        step->what = PP_ACT_RESUME;
        resume(s, payload, frame, step);
        break;
    case PATHPROF_MARK_BURST:
        step->what = PP_ACT_BURST;
        s->bursts++;
        s->sampled = true;
        s->after_burst = payload == PATHPROF_BURST_END;
        s->lost = 0;
        step->popped = s->act;
        step->npopped = s->depth;
        s->depth = 0;
        break;
    case PATHPROF_MARK_RUN:
        /* A loop counted at its exits (docs/streaming.md, section 1): the
         * second word is a path event of the top activation, PAYLOAD
         * times.  A marker there means a dropped chunk cut the pair: the
         * word starts a marker of its own. */
        if (frame & PATHPROF_EV_MARKER) {
            s->half = frame;
            s->has_half = true;
            step->what = PP_ACT_HALF;
            step->word = frame;
            break;
        }
        feed_path(s, frame, step);
        s->paths = s->paths - 1 + payload;
        step->what = PP_ACT_RUN;
        step->word = frame;
        step->repeat = payload;
        break;
    case PATHPROF_MARK_VPP:
    case PATHPROF_MARK_VPP_EVENTS:
        /* The timing (or the second counter's events) of the path event
         * before it (docs/vpp.md): no activation changes. */
        step->what = PP_ACT_TIMING;
        break;
    default:
        /* Every marker is two words (docs/streaming.md, section 3), so an
         * unknown kind can be skipped without losing the stream's framing. */
        step->what = PP_ACT_OTHER;
        s->bad_marker++;
        step->errors |= PP_ACT_ERR_MARKER;
        break;
    }
}

void pp_act_feed(struct pp_act_stack *s, uint64_t word, struct pp_act_step *step)
{
    memset(step, 0, sizeof *step);
    step->word = word;
    step->func = PP_ACT_NO_FUNC;
    s->words++;
    if (s->has_half) {
        feed_marker(s, word, step);
    } else if (word & PATHPROF_EV_MARKER) {
        s->half = word;
        s->has_half = true;
        step->what = PP_ACT_HALF;
    } else {
        feed_path(s, word, step);
    }
    /* After a BURST end every activation is transient: the events are the
     * tails of frames that were in the instrumented copy when the burst
     * ended (a START among them when a function entered in the burst ends
     * its first path after it), and such a frame leaves through its
     * checking copy with no RET: kept, its activation would take the next
     * frame's events. */
    if (s->after_burst && step->pushed && step->npopped == 0)
        pop_pushed(s, step);
}
