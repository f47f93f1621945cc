/* lifecycle.h - the one place in charge of the profiled process's life
 * cycle: set-up, fork, exec and exit (docs/architecture.md).
 *
 * Who calls it: the run-time ABI's entry points only (register.c and
 * register-stream.c from TU constructors, producer.c from a probe's slow
 * path, exec-wrap.c before an exec).  It calls down into the stream
 * (stream-control.c), the registry and the writer (profile-write.c), and
 * nothing below it calls back up into it. */
#ifndef PATHPROF_RT_LIFECYCLE_H
#define PATHPROF_RT_LIFECYCLE_H

#include <sys/types.h>

#pragma GCC visibility push(hidden)

/* Configuration, exit handler and fork handlers, once per process.  1 when
 * done; 0 when called from code that set-up itself ran on this thread (an
 * instrumented malloc the configuration's strings were allocated with):
 * nothing is set up yet, pprt_config is not loaded, the caller must not
 * wait and must not rely on it. */
int pprt_set_up_once(void);
/* Whether pprt_set_up_once ran; the pid of this process as the runtime
 * knows it (a vfork child, sharing our memory, has another getpid()). */
int pprt_is_set_up(void);
pid_t pprt_process_pid(void);

/* The exit handler, also called before an exec: finishes the stream (every
 * buffered event reaches the analyzers) and writes the profile.  Only the
 * first call writes (the registry says so); a later call, from another
 * thread's exit() racing with the first, waits until the first has
 * finished: returning at once would let that thread end the process in
 * the middle of the write. */
void pprt_finish_and_write(void);

#pragma GCC visibility pop

#endif
