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
 * Everything here compiles to nothing unless the file is built with
 * -fsanitize=thread. */
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
#else
#define PP_HB_RELEASE(addr) ((void)(addr))
#define PP_HB_ACQUIRE(addr) ((void)(addr))
#define PP_IGNORE_READS_BEGIN() ((void)0)
#define PP_IGNORE_READS_END() ((void)0)
#endif

#endif
