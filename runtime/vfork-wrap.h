/* vfork-wrap.h - the mark this runtime's vfork leaves in a vfork child's
 * thread-local storage (vfork-wrap.c): 1 in the child until it execs or
 * exits, 0 in the parent. */
#ifndef PATHPROF_RT_VFORK_WRAP_H
#define PATHPROF_RT_VFORK_WRAP_H

#pragma GCC visibility push(hidden)

extern __thread int pprt_vfork_child __attribute__((tls_model("initial-exec")));

/* Called by vfork before the system call, in the parent (producer.c): a
 * thread of a stream-mode program that has no channel yet attaches, so
 * that the child has a channel to swap chunks on; its events past the
 * first chunk would otherwise be late. */
void pprt_vfork_prepare(void);

#pragma GCC visibility pop

#endif
