/* plain-updates.h - counting mode's warning for counts that threads may
 * have lost.
 *
 * An array counter built with update=single is bumped by a plain load,
 * add and store: two threads bumping it at once lose one increment, and
 * nothing in the profile can show it.  The plugin makes threaded code
 * (-pthread, -fopenmp) atomic by default; what is left is code built
 * without them, or with -fprofile-update=single, that threads ran anyway.
 * glibc says whether the process ever started a second thread
 * (__libc_single_threaded); counting mode starts none of its own. */
#ifndef PATHPROF_RT_PLAIN_UPDATES_H
#define PATHPROF_RT_PLAIN_UPDATES_H

#include "registry.h"

#include <stddef.h>

#pragma GCC visibility push(hidden)

/* Whether a TU of LIST has a function with plain array counters that
 * counted something; if so its name goes to NAME (SIZE bytes) and the
 * number of such TUs is returned, else 0.  With the registry lock held. */
unsigned pprt_plain_updates_tus(const struct pprt_tu *list, char *name, size_t size);

/* 1 when the process has started a thread other than the initial one
 * (never reset), 0 when not or when the C library cannot tell. */
int pprt_went_multithreaded(void);

#pragma GCC visibility pop

#endif
