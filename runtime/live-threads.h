/* live-threads.h - has the program's last thread exited?
 *
 * A process ends when its last thread exits (after main's pthread_exit),
 * and glibc then calls exit(0), which writes the profile.  Our analyzer
 * threads would keep such a process alive forever, so analyzer 0 asks this
 * when it is idle and calls exit(0) itself when only runtime threads are
 * left.  The kernel is asked, not glibc: threads the runtime never saw
 * count too. */
#ifndef PATHPROF_RT_LIVE_THREADS_H
#define PATHPROF_RT_LIVE_THREADS_H

#include <stdint.h>
#include <sys/types.h>

#pragma GCC visibility push(hidden)

/* 1 when every task of the process is a zombie or one of the NRUNTIME
 * thread ids in RUNTIME; 0 otherwise or when /proc cannot tell. */
int pprt_only_runtime_threads_left(const pid_t *runtime, uint32_t nruntime);

#pragma GCC visibility pop

#endif
