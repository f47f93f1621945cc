/* libc-next.h - the C library's own definition of a function that
 * libpathprof.so wraps (exec-wrap.c, context-wrap.c, signal-wrap.c): the
 * wrappers are exported by the runtime, which comes before libc in the
 * program's symbol lookup, so the real one is the next definition. */
#ifndef PATHPROF_LIBC_NEXT_H
#define PATHPROF_LIBC_NEXT_H

#pragma GCC visibility push(hidden)

/* dlsym(RTLD_NEXT, NAME); when there is none, FALLBACK if not NULL (a
 * static program, where the wrapper replaced the C library's own
 * function), else NULL after an error message naming NAME. */
void *pprt_libc_next(const char *name, void *fallback);

#pragma GCC visibility pop

#endif
