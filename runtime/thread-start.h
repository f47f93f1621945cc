/* thread-start.h - starting one of the runtime's own threads (analyzer
 * threads, the ksf analyzer's k-SF workers).
 *
 * They share two rules: pinned to one CPU when the configuration says so,
 * and every signal blocked from their first instruction, since a
 * process-directed signal must never run the program's handler (nor
 * instrumented code) on a thread of ours.  Depends on nothing but libc, so
 * the analyzers' stand-alone tests and benches can link it. */
#ifndef PATHPROF_THREAD_START_H
#define PATHPROF_THREAD_START_H

#include <pthread.h>

#pragma GCC visibility push(hidden)

/* pthread_create of FN(ARG) into *T, pinned to CPU (-1: not pinned), with
 * every signal blocked, and named NAME (at most 15 bytes; NULL: not
 * named) by the creator, so that the name is there as soon as the call
 * returns (a thread that named itself could be seen under the program's
 * name right after start-up: tests/stream-env.t).  Returns
 * pthread_create's error number, 0 when the thread runs. */
int pprt_thread_start(pthread_t *t, int cpu, void *(*fn)(void *), void *arg, const char *name);

#pragma GCC visibility pop

#endif
