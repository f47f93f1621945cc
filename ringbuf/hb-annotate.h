/* hb-annotate.h - telling ThreadSanitizer about synchronisation it cannot
 * see.
 *
 * ck_ring moves its head and tail indices with ck_pr's inline assembly and
 * liburcu waits for readers with membarrier(2): both are invisible to
 * TSan, which would then report every hand-over of a chunk (and every free
 * after a grace period) as a race.  Each hand-over therefore carries an
 * explicit happens-before edge: the side that gives memory away calls
 * PP_HB_RELEASE(x) *before* the operation that publishes it, the side that
 * receives calls PP_HB_ACQUIRE(x) *after* the operation that takes it.
 * The slot read inside ck_ring's dequeue happens before the acquire, so it
 * is wrapped in PP_IGNORE_READS.
 *
 * Built with -fsanitize=thread, these call TSan directly.  Built without
 * (the usual libpathprof.so), the program using the library may still be
 * built with TSan: its probes' stores into chunks are then instrumented
 * while our hand-overs are not, and every chunk given back would be a
 * false race.  So pp_hb_init looks the TSan entry points up in the process
 * (dlsym) and the annotations call them when they are there: one
 * well-predicted branch per chunk otherwise. */
#ifndef PATHPROF_HB_ANNOTATE_H
#define PATHPROF_HB_ANNOTATE_H

#if defined(__SANITIZE_THREAD__)
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
#define PP_HB_RELEASE(addr) __tsan_release((void *)(addr))
#define PP_HB_ACQUIRE(addr) __tsan_acquire((void *)(addr))
#define PP_IGNORE_READS_BEGIN() AnnotateIgnoreReadsBegin(__FILE__, __LINE__)
#define PP_IGNORE_READS_END() AnnotateIgnoreReadsEnd(__FILE__, __LINE__)
static inline void pp_hb_init(void) {}
#else
#pragma GCC visibility push(hidden)
struct pp_hb_fns {
    void (*acquire)(void *addr);
    void (*release)(void *addr);
};
/* NULL members unless the process runs under TSan (after pp_hb_init). */
extern struct pp_hb_fns pp_hb;
/* Once, before the first hand-over (stream start). */
void pp_hb_init(void);
#pragma GCC visibility pop
#define PP_HB_CALL(fn, addr)                                                  \
    do {                                                                      \
        if (__builtin_expect(pp_hb.fn != 0, 0))                               \
            pp_hb.fn((void *)(addr));                                         \
    } while (0)
#define PP_HB_RELEASE(addr) PP_HB_CALL(release, addr)
#define PP_HB_ACQUIRE(addr) PP_HB_CALL(acquire, addr)
/* Our own reads are not instrumented here: nothing to ignore. */
#define PP_IGNORE_READS_BEGIN() ((void)0)
#define PP_IGNORE_READS_END() ((void)0)
#endif

#endif
