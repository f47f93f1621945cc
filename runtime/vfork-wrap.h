/* vfork-wrap.h - the mark this runtime's vfork leaves in a vfork child's
 * thread-local storage (vfork-wrap.c): 1 in the child until it execs or
 * exits, 0 in the parent. */
#ifndef PATHPROF_RT_VFORK_WRAP_H
#define PATHPROF_RT_VFORK_WRAP_H

#pragma GCC visibility push(hidden)

extern __thread int pprt_vfork_child __attribute__((tls_model("initial-exec")));

#pragma GCC visibility pop

#endif
