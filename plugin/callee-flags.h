/* callee-flags.h - callees that GCC must not believe leave
 * the thread-local event cursor alone (const, pure, novops).  Why and
 * which ones: callee-flags.cc. */
#ifndef PATHPROF_CALLEE_FLAGS_H
#define PATHPROF_CALLEE_FLAGS_H

/* Drops const, pure and novops from every callee of this TU that may be
   instrumented elsewhere, and const from the types of indirect calls.
   Returns true when a flag changed: the callers' virtual operands must
   then be rebuilt.  */
bool pp_expose_callee_writes (void);

#endif
