/* async-signals.h - holding back asynchronous signals while the calling
 * thread holds the runtime's locks for a while.
 *
 * A probe's slow path may attach the thread (stream mutex) or consume its
 * own chunks for a slow analyzer (consume lock and stream mutex,
 * analyzer-thread.c, pprt_analyzer_help).  A signal handler that calls
 * exit() there would wait for those locks, held by its own thread, forever
 * (tests/os-hazards.t, sigexit); one that runs instrumented code would find
 * an analyzer instance half updated.  So those regions block the
 * asynchronous signals and deliver them when they end.  Faults stay
 * deliverable: blocked, a fault kills the process.  Two system calls (a
 * microsecond or two), so only around the rare regions, not the whole
 * slow path. */
#ifndef PATHPROF_RT_ASYNC_SIGNALS_H
#define PATHPROF_RT_ASYNC_SIGNALS_H

#include <pthread.h>
#include <signal.h>

/* Blocks them; *OLD gets the mask to restore; 0 when nothing was changed. */
static inline int pprt_block_async_signals(sigset_t *old)
{
    sigset_t async;
    sigfillset(&async);
    sigdelset(&async, SIGSEGV);
    sigdelset(&async, SIGBUS);
    sigdelset(&async, SIGILL);
    sigdelset(&async, SIGFPE);
    sigdelset(&async, SIGTRAP);
    sigdelset(&async, SIGSYS);
    return pthread_sigmask(SIG_BLOCK, &async, old) == 0;
}

static inline void pprt_restore_signals(int blocked, const sigset_t *old)
{
    if (blocked)
        pthread_sigmask(SIG_SETMASK, old, NULL);
}

#endif
