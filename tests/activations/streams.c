/* streams.c - unit tests of analyzers/common/activations.c on hand-made streams.
 *
 * Each stream is what the probes of a small program would emit (the
 * comment above each says which program).  Every word's step is written as
 * a token, so one string comparison checks the whole reconstruction:
 *
 *   P3@2+-   path event of function 3, activation at depth 2, pushed (+)
 *            and popped (-) by this event
 *   E5@1+    ENTER of function 5 pushed at depth 1
 *   R5@1-2(5/800,5/700)   RESUME of function 5: its activation is at depth
 *            1 after popping 2, listed deepest first as func or func/frame
 *   X        a marker of unknown kind
 *   !resync !orphan !mismatch !unknown !marker   errors raised by the word
 *   |d=N     the depth when the stream ends
 *
 * Function F's path ID I has global index 1000 + 100 F + I; the resolver
 * inverts that, and knows nothing below 1000. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/activations.h"
#include "pathprof-abi.h"
#include "tap.h"

#define S PATHPROF_EV_START
#define R PATHPROF_EV_RET

struct stream {
    uint64_t w[512];
    size_t n;
};

static uint64_t resolve(void *ctx, uint64_t index)
{
    (void)ctx;
    return index < 1000 ? PP_ACT_NO_FUNC : (index - 1000) / 100;
}

static void path(struct stream *s, uint64_t flags, uint64_t f, uint64_t id)
{
    s->w[s->n++] = flags | (1000 + 100 * f + id);
}

static void enter(struct stream *s, uint64_t f, uint64_t frame)
{
    s->w[s->n++] = PATHPROF_MARK(PATHPROF_MARK_ENTER, f);
    s->w[s->n++] = frame;
}

static void resume(struct stream *s, uint64_t f, uint64_t frame)
{
    s->w[s->n++] = PATHPROF_MARK(PATHPROF_MARK_RESUME, f);
    s->w[s->n++] = frame;
}

static void run(struct stream *s, uint64_t times, uint64_t f, uint64_t id)
{
    s->w[s->n++] = PATHPROF_MARK(PATHPROF_MARK_RUN, times);
    s->w[s->n++] = 1000 + 100 * f + id;
}

static void burst(struct stream *s, unsigned which)
{
    s->w[s->n++] = PATHPROF_MARK(PATHPROF_MARK_BURST, which);
    s->w[s->n++] = 0;
}

static void put_act(char *out, size_t size, const struct pp_act *a)
{
    size_t len = strlen(out);
    if (a->frame)
        snprintf(out + len, size - len, "%" PRIu64 "/%" PRIx64, a->func, a->frame);
    else
        snprintf(out + len, size - len, "%" PRIu64, a->func);
}

static void describe(char *out, size_t size, const struct pp_act_step *st)
{
    size_t len = strlen(out);
    char *p = out + len;
    size_t room = size - len;

    switch (st->what) {
    case PP_ACT_HALF:
        return;
    case PP_ACT_PATH:
        snprintf(p, room, " P%" PRIu64 "@%zu%s%s", st->act->func, st->depth,
                 st->pushed ? "+" : "", st->npopped ? "-" : "");
        break;
    case PP_ACT_ENTER:
        snprintf(p, room, " E%" PRIu64 "@%zu%s", st->func, st->depth, st->pushed ? "+" : "");
        break;
    case PP_ACT_RESUME:
        snprintf(p, room, " R%" PRIu64 "@%zu", st->func, st->depth);
        if (st->npopped) {
            len = strlen(out);
            snprintf(out + len, size - len, "-%zu(", st->npopped);
            for (size_t i = 0; i < st->npopped; i++) {
                if (i)
                    strncat(out, ",", size - strlen(out) - 1);
                put_act(out, size, &st->popped[i]);
            }
            strncat(out, ")", size - strlen(out) - 1);
        }
        if (st->pushed)
            strncat(out, "+", size - strlen(out) - 1);
        break;
    case PP_ACT_BURST:
        snprintf(p, room, " B%s-%zu",
                 PATHPROF_MARK_PAYLOAD(st->word) == PATHPROF_BURST_END ? "end" : "begin",
                 st->npopped);
        break;
    case PP_ACT_TIMING:
        snprintf(p, room, " T");
        break;
    case PP_ACT_RUN:
        snprintf(p, room, " N%" PRIu64 "xP%" PRIu64 "@%zu%s", st->repeat, st->act->func, st->depth,
                 st->pushed ? "+" : "");
        break;
    case PP_ACT_OTHER:
        snprintf(p, room, " X");
        break;
    }
    static const struct {
        unsigned bit;
        const char *name;
    } errs[] = {
        {PP_ACT_ERR_RESYNC, "!resync"},     {PP_ACT_ERR_ORPHAN, "!orphan"},
        {PP_ACT_ERR_MISMATCH, "!mismatch"}, {PP_ACT_ERR_UNKNOWN, "!unknown"},
        {PP_ACT_ERR_MARKER, "!marker"},     {PP_ACT_ERR_NOMEM, "!nomem"},
    };
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
        if (st->errors & errs[i].bit)
            strncat(out, errs[i].name, size - strlen(out) - 1);
}

/* Feeds the stream in batches of BATCH words through one stack (the caller
 * of the library sees batch boundaries only as the words it has). */
static void run_stack(struct pp_act_stack *st, const struct stream *s, size_t batch, char *out,
                      size_t size)
{
    struct pp_act_step step;
    out[0] = '\0';
    for (size_t at = 0; at < s->n; at += batch) {
        size_t end = at + batch < s->n ? at + batch : s->n;
        for (size_t i = at; i < end; i++) {
            pp_act_feed(st, s->w[i], &step);
            describe(out, size, &step);
        }
    }
    size_t len = strlen(out);
    snprintf(out + len, size - len, " |d=%zu", pp_act_depth(st));
}

/* Checks the description against WANT for every batch size: a marker
 * split across two batches must change nothing. */
static void check(const struct stream *s, const char *want, const char *name)
{
    char got[4096], again[4096], label[200];
    struct pp_act_stack st;

    pp_act_init(&st, resolve, NULL);
    run_stack(&st, s, s->n, got, sizeof got);
    pp_act_free(&st);
    is_str(got + 1, want, name);
    for (size_t batch = 1; batch < s->n; batch++) {
        pp_act_init(&st, resolve, NULL);
        run_stack(&st, s, batch, again, sizeof again);
        pp_act_free(&st);
        if (strcmp(again, got) != 0) {
            snprintf(label, sizeof label, "%s: same in batches of %zu", name, batch);
            is_str(again + 1, got + 1, label);
            return;
        }
    }
    snprintf(label, sizeof label, "%s: same for every batch size 1..%zu", name, s->n);
    ok(true, label);
}

static void nested_calls(void)
{
    /* main() { for (...) { a(); } }  a() { b(); } — a's and b's single paths
     * end inside main's second loop path, b's before a's. */
    struct stream s = {.n = 0};
    path(&s, S, 1, 0);     /* main: entry -> back edge */
    path(&s, S | R, 3, 0); /* b, called by a */
    path(&s, S | R, 2, 0); /* a */
    path(&s, 0, 1, 1);     /* main: loop -> back edge (the call is on it) */
    path(&s, R, 1, 2);     /* main: loop -> return */
    check(&s, "P1@1+ P3@2+- P2@2+- P1@1 P1@1- |d=0", "nested calls");
}

static void recursion(void)
{
    /* f(n) { for (i = 0; i < 2; i++) if (n > 0 && i == 1) f(n - 1); }
     * f(2): each activation's first path (entry -> back edge) ends before
     * its recursive call, so the stream sees the recursion nest. */
    struct stream s = {.n = 0};
    path(&s, S, 4, 0); /* f(2) */
    path(&s, S, 4, 0); /* f(1) */
    path(&s, S, 4, 0); /* f(0) */
    path(&s, 0, 4, 1); /* f(0) second iteration */
    path(&s, R, 4, 2); /* f(0) returns */
    path(&s, 0, 4, 1);
    path(&s, R, 4, 2); /* f(1) */
    path(&s, 0, 4, 1);
    path(&s, R, 4, 2); /* f(2) */
    check(&s, "P4@1+ P4@2+ P4@3+ P4@3 P4@3- P4@2 P4@2- P4@1 P4@1- |d=0", "recursion");

    /* g(n) { return n ? g(n - 1) + 1 : 0; }: one path per activation, so
     * every activation's only event comes after its callee's: depth 1 each. */
    struct stream t = {.n = 0};
    path(&t, S | R, 5, 1);
    path(&t, S | R, 5, 0);
    path(&t, S | R, 5, 0);
    check(&t, "P5@1+- P5@1+- P5@1+- |d=0", "recursion of one-path activations");
}

/* RUN (a loop counted at its exits): its path belongs to the top
 * activation, N times, and moves nothing; at the bottom it is an orphan
 * like any path without START. */
static void runs(void)
{
    struct stream s = {.n = 0};
    path(&s, S, 4, 1);
    run(&s, 5, 4, 2);
    run(&s, 0, 4, 2);
    path(&s, R, 4, 3);
    check(&s, "P4@1+ N5xP4@1 N0xP4@1 P4@1- |d=0", "RUN markers: paths of the top activation");

    struct pp_act_stack st;
    struct pp_act_step step;
    pp_act_init(&st, resolve, NULL);
    for (size_t i = 0; i < s.n; i++)
        pp_act_feed(&st, s.w[i], &step);
    ok(st.paths == 1 + 5 + 0 + 1 && st.bad_marker == 0 && st.markers == 2,
       "RUN markers: the stack counts their paths (7), no bad marker");
    pp_act_free(&st);
}

static void one_path(void)
{
    struct stream s = {.n = 0};
    path(&s, S | R, 7, 3);
    check(&s, "P7@1+- |d=0", "an activation of one path (START|RET)");

    struct pp_act_stack st;
    struct pp_act_step step;
    pp_act_init(&st, resolve, NULL);
    pp_act_feed(&st, s.w[0], &step);
    ok(step.pushed && step.npopped == 1 && step.popped == step.act && step.act->serial == 1 &&
           step.act->origin == PP_ACT_BY_START && pp_act_depth(&st) == 0,
       "START|RET: pushed, then popped itself; serial 1, origin START");
    pp_act_free(&st);
}

static void longjmp_over_frames(void)
{
    /* main() { if (setjmp(env) == 0) a(); return 0; }  a -> b -> c, and c
     * calls longjmp(env, 1).  main has a resume point (the setjmp
     * receiver): ENTER at entry, its first path without START; a and b
     * each ran a loop iteration (they are on the stack), c's path ends at
     * the longjmp call (terminal: RET). */
    struct stream s = {.n = 0};
    enter(&s, 1, 0x7f00);
    path(&s, 0, 1, 0);  /* main: entry -> back edge of a loop before the call */
    path(&s, S, 2, 0);  /* a: entry -> back edge */
    path(&s, S, 3, 0);  /* b */
    path(&s, S, 6, 0);  /* c: a loop iteration */
    path(&s, R, 6, 1);  /* c: -> longjmp (terminal) */
    resume(&s, 1, 0x7f00);
    path(&s, 0, 1, 5);  /* main: setjmp receiver -> return path, part 1 */
    path(&s, R, 1, 6);  /* main returns */
    check(&s, "E1@1+ P1@1 P2@2+ P3@3+ P6@4+ P6@4- R1@1-2(2,3) P1@1 P1@1- |d=0",
          "longjmp over frames: RESUME pops a and b");
}

static void throw_in_recursion(void)
{
    /* f(n) { try { if (n) f(n - 1); else g(); } catch (E &) { if (n != 2)
     * throw; } }  f(2) at frame 0x900 -> f(1) 0x800 -> f(0) 0x700 -> g,
     * which throws.  No activation of f between g and f(2) lands (say the
     * handler is only in f(2)'s dynamic context): the RESUME of f at
     * frame 0x900 pops f(0) and f(1) though all three are activations of
     * f: the frames tell them apart. */
    struct stream s = {.n = 0};
    enter(&s, 5, 0x900);
    enter(&s, 5, 0x800);
    enter(&s, 5, 0x700);
    path(&s, S | R, 8, 0); /* g: -> __cxa_throw (terminal) */
    resume(&s, 5, 0x900);
    path(&s, 0, 5, 4);     /* f(2): landing pad -> catch -> */
    path(&s, R, 5, 5);     /* return */
    check(&s, "E5@1+ E5@2+ E5@3+ P8@4+- R5@1-2(5/800,5/700) P5@1 P5@1- |d=0",
          "throw caught in an outer recursive activation of the same function");

    /* The same, but f(1) has a cleanup: it lands first (RESUME at 0x800,
     * popping f(0)), ends its path at the resx (RET), then f(2) lands. */
    struct stream t = {.n = 0};
    enter(&t, 5, 0x900);
    enter(&t, 5, 0x800);
    enter(&t, 5, 0x700);
    path(&t, S | R, 8, 0);
    resume(&t, 5, 0x800);
    path(&t, R, 5, 7);     /* f(1): cleanup -> resx */
    resume(&t, 5, 0x900);
    path(&t, R, 5, 5);
    check(&t, "E5@1+ E5@2+ E5@3+ P8@4+- R5@2-1(5/700) P5@2- R5@1 P5@1- |d=0",
          "throw through a cleanup of an intermediate activation");
}

static void signal_handler(void)
{
    /* main loops calling work(); a signal arrives in the middle of work's
     * loop; the handler h runs a loop that calls k.  The handler's
     * activations nest on top of work's and leave the stack as it was. */
    struct stream s = {.n = 0};
    path(&s, S, 1, 0);     /* main: entry -> back edge */
    path(&s, S, 2, 0);     /* work: entry -> back edge */
    path(&s, S, 7, 0);     /* h: entry -> back edge */
    path(&s, S | R, 9, 0); /* k, called by h */
    path(&s, R, 7, 1);     /* h: -> return */
    path(&s, S | R, 9, 1); /* k called straight from a second handler run */
    path(&s, 0, 2, 1);     /* work goes on */
    path(&s, R, 2, 2);
    path(&s, R, 1, 2);
    check(&s, "P1@1+ P2@2+ P7@3+ P9@4+- P7@3- P9@3+- P2@2 P2@2- P1@1- |d=0",
          "signal handler nested in the middle of another activation");
}

static void bogus_resume(void)
{
    struct stream s = {.n = 0};
    enter(&s, 1, 0x100);
    path(&s, 0, 1, 0);
    resume(&s, 1, 0x200);  /* no activation has this frame */
    path(&s, R, 1, 1);
    resume(&s, 2, 0x100);  /* frame matches main's, function does not */
    check(&s, "E1@1+ P1@1 R1@2+!resync P1@2- R2@2+!resync |d=2", "bogus RESUME: resync");

    struct pp_act_stack st;
    char out[1024];
    pp_act_init(&st, resolve, NULL);
    run_stack(&st, &s, s.n, out, sizeof out);
    is_u64(st.resync, 2, "two resync errors counted");
    ok(st.act[1].origin == PP_ACT_BY_RESYNC && st.act[1].frame == 0x100 && st.act[1].func == 2,
       "the pushed activation carries the RESUME's function and frame");
    /* A later RESUME finds the activation the resync pushed. */
    struct stream t = {.n = 0};
    path(&t, S, 3, 0);
    resume(&t, 2, 0x100);
    run_stack(&st, &t, t.n, out, sizeof out);
    is_str(out + 1, "P3@3+ R2@2-1(3) |d=2", "a resync activation can be resumed later");
    pp_act_free(&st);
}

static void anomalies(void)
{
    struct stream s = {.n = 0};
    path(&s, 0, 1, 0);     /* no START, empty stack */
    path(&s, S, 2, 0);
    path(&s, 0, 3, 0);     /* function 3's event on function 2's activation */
    path(&s, R, 2, 1);
    s.w[s.n++] = 17;       /* an index no function has */
    s.w[s.n++] = PATHPROF_MARK(0x55, 1);
    s.w[s.n++] = 0x1234;   /* skipped with its marker */
    path(&s, R, 1, 1);
    check(&s, "P1@1+!orphan P2@2+ P2@2!mismatch P2@2- P1@1!unknown X!marker P1@1- |d=0",
          "orphan, mismatch, unknown index, unknown marker kind");

    /* Without a resolver nothing is checked and START functions are unknown. */
    struct pp_act_stack st;
    struct pp_act_step step;
    pp_act_init(&st, NULL, NULL);
    for (size_t i = 0; i < s.n; i++)
        pp_act_feed(&st, s.w[i], &step);
    ok(st.mismatch == 0 && st.unknown == 0 && st.orphan == 1 && st.bad_marker == 1 &&
           pp_act_errors(&st) == 2,
       "without a resolver: only orphan and marker errors");
    pp_act_feed(&st, S | 1500, &step);
    ok(step.act->func == PP_ACT_NO_FUNC, "without a resolver START activations have no function");
    pp_act_free(&st);
}

static void deep_and_reset(void)
{
    struct pp_act_stack st;
    struct pp_act_step step;
    size_t n = 200000, i;
    bool fine = true;

    pp_act_init(&st, resolve, NULL);
    for (i = 0; i < n; i++) {
        pp_act_feed(&st, S | (1000 + 100 * 4), &step);
        fine = fine && step.depth == i + 1 && step.act->serial == i + 1;
    }
    ok(fine && st.max_depth == n, "200000 nested activations");
    for (i = n; i > 0; i--) {
        pp_act_feed(&st, R | (1000 + 100 * 4 + 1), &step);
        fine = fine && step.depth == i && step.popped->serial == i;
    }
    ok(fine && pp_act_depth(&st) == 0 && pp_act_errors(&st) == 0, "... all popped in order");

    pp_act_feed(&st, S | 1400, &step);
    pp_act_feed(&st, PATHPROF_MARK(PATHPROF_MARK_ENTER, 4), &step);
    pp_act_reset(&st);
    ok(pp_act_depth(&st) == 0 && !st.has_half, "reset empties the stack and a pending half marker");
    pp_act_feed(&st, R | 1401, &step);
    ok(step.what == PP_ACT_PATH && (step.errors & PP_ACT_ERR_ORPHAN),
       "after reset the next word is read afresh");
    pp_act_free(&st);
}

/* The fast form of analyzers/common/activations.h against pp_act_feed: two stacks without
 * a resolver fed the same random words (paths with START, RET, both or
 * neither, ENTER and RESUME markers, some RESUMEs matching nothing), one
 * through pp_act_feed only, one through pp_act_fast_path whenever it
 * accepts the word; after every word both stacks must agree on
 * everything, and the fast form must report the depth and push that
 * pp_act_feed reports. */
static bool same_stacks(const struct pp_act_stack *a, const struct pp_act_stack *b)
{
    if (a->depth != b->depth || a->lost != b->lost || a->serial != b->serial ||
        a->has_half != b->has_half || a->words != b->words || a->paths != b->paths ||
        a->markers != b->markers || a->max_depth != b->max_depth ||
        pp_act_errors(a) != pp_act_errors(b))
        return false;
    for (size_t i = 0; i < a->depth; i++)
        if (a->act[i].func != b->act[i].func || a->act[i].frame != b->act[i].frame ||
            a->act[i].serial != b->act[i].serial || a->act[i].origin != b->act[i].origin)
            return false;
    return true;
}

static void fast_forms(void)
{
    struct pp_act_stack slow, fast;
    struct pp_act_step step;
    uint64_t x = 88172645463325252ull;
    size_t fast_taken = 0, n = 400000;
    bool fine = true;

    pp_act_init(&slow, NULL, NULL);
    pp_act_init(&fast, NULL, NULL);
    for (size_t i = 0; i < n && fine; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t w, w2 = 0;
        unsigned r = (unsigned)(x % 100);
        uint64_t f = (x >> 8) % 5, frame = 0x1000 + 0x10 * ((x >> 16) % 4);
        if (r < 3)
            w = PATHPROF_MARK(PATHPROF_MARK_ENTER, f), w2 = frame;
        else if (r < 5)
            w = PATHPROF_MARK(PATHPROF_MARK_RESUME, f), w2 = frame;
        else if (r < 30)
            w = S | (1000 + (x >> 20) % 64);
        else if (r < 55)
            w = R | (1000 + (x >> 20) % 64);
        else if (r < 70)
            w = S | R | (1000 + (x >> 20) % 64);
        else
            w = 1000 + (x >> 20) % 64;
        for (int half = 0; half < (w2 ? 2 : 1); half++) {
            uint64_t word = half ? w2 : w;
            pp_act_feed(&slow, word, &step);
            bool pushed = false;
            size_t d = half ? 0 : pp_act_fast_path(&fast, word, SIZE_MAX, &pushed);
            if (d != 0) {
                fast_taken++;
                fine = d == step.depth && pushed == step.pushed;
            } else {
                pp_act_feed(&fast, word, &step);
            }
            fine = fine && same_stacks(&slow, &fast);
        }
    }
    ok(fine, "the fast form leaves the stack exactly as pp_act_feed does (400000 random words)");
    ok(fast_taken > n / 3, "... and most path words took the fast form");
    pp_act_free(&slow);
    pp_act_free(&fast);
}

static void bursts(void)
{
    /* sampling=yes (docs/sampling.md): main (1) loops calling a (2); a
     * burst begins at main's back edge, so main's first sampled path has
     * no START; a is entered in the burst (START); the burst ends at
     * main's next back edge while a's activation is gone and main's is
     * on the stack: the END pops it, so no window spans the bursts.
     * Without START on an empty stack after a BURST: no orphan. */
    struct stream s = {.n = 0};
    path(&s, 0, 1, 5);   /* before any BURST: an orphan */
    path(&s, R, 1, 6);
    burst(&s, PATHPROF_BURST_BEGIN);
    path(&s, 0, 1, 1);   /* main: header -> back edge, no START */
    path(&s, S | R, 2, 0);
    path(&s, 0, 1, 1);
    burst(&s, PATHPROF_BURST_END);
    path(&s, R, 1, 2);   /* main went on in its instrumented copy */
    burst(&s, PATHPROF_BURST_BEGIN);
    path(&s, S | R, 2, 0);
    resume(&s, 9, 0x900); /* a landing pad of an activation begun before */
    check(&s,
          "P1@1+!orphan P1@1- Bbegin-0 P1@1+ P2@2+- P1@1 Bend-1 P1@1+- Bbegin-0 P2@1+- R9@1+ |d=1",
          "bursts: a BURST pops every activation, then no orphans or resyncs");
}

static void burst_tails(void)
{
    /* After a BURST end, frames that were in the instrumented copy finish
     * their paths (tails) and leave through their checking copy, with no
     * RET.  mainSort (1) runs in a burst; mainQSort3 (2) is entered in it
     * and calls mainSimpleSort (3), in which the burst ends; 3 and then 2
     * finish their paths after the END, 2's with START (its first path),
     * and 2 returns from its checking copy; 1's tail path follows.  Every
     * activation opened after the END is popped at once: 1's path must not
     * land in 2's activation (a mismatch, and a k-iteration path mixing
     * two functions' IDs: bzip2 at any rate, ksf k = 8). */
    struct stream s = {.n = 0};
    burst(&s, PATHPROF_BURST_BEGIN);
    path(&s, 0, 1, 1);
    path(&s, S, 3, 0);
    burst(&s, PATHPROF_BURST_END);
    path(&s, 0, 3, 4);
    path(&s, S, 2, 7);
    path(&s, 0, 1, 9);
    resume(&s, 9, 0x900);
    path(&s, 0, 9, 1);
    burst(&s, PATHPROF_BURST_BEGIN);
    path(&s, 0, 1, 1);
    check(&s, "Bbegin-0 P1@1+ P3@2+ Bend-2 P3@1+- P2@1+- P1@1+- R9@1-1(9/900)+ P9@1+- Bbegin-0 P1@1+ |d=1",
          "burst tails: after a BURST end every activation is popped by the event that opened it");
}

int main(void)
{
    nested_calls();
    recursion();
    one_path();
    runs();
    longjmp_over_frames();
    throw_in_recursion();
    signal_handler();
    bogus_resume();
    anomalies();
    deep_and_reset();
    fast_forms();
    bursts();
    burst_tails();
    return done_testing();
}
