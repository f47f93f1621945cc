/* context-wrap.c - swapcontext and setcontext are wrapped (exported by
 * libpathprof.so, which comes before libc in the program's symbol lookup,
 * as exec-wrap.c's functions; the real ones are found with
 * dlsym(RTLD_NEXT)) to count how often the program switched its thread to
 * another stack.
 *
 * Why: a stream's analyzers that keep activation stacks (ksf, ksf-pruned:
 * `follows_activations` in analyzer-host.h) rebuild one call stack per
 * thread from START, RET and the markers (docs/streaming.md, section 2).
 * Coroutines built on ucontext run several call stacks on one thread: a
 * function entered on one stack returns after many switches to others,
 * and the events of one coroutine's activation land on another's.  No
 * event says which stack a path ran on, so the analyzers cannot be right;
 * what the runtime can do is know it happened and say so (stream-encode.c:
 * the switches count as activation resyncs, the profile is not exact, and
 * the exit warning names swapcontext).  Path counts (blpp, counting mode)
 * do not depend on the call stack and stay exact.
 *
 * Not in libpathprof.a: a static C library has no RTLD_NEXT, and the
 * wrapper would then have no real swapcontext to call. */
#include "libc-next.h"
#include "message.h"
#include "stream.h"

#include <errno.h>
#include <ucontext.h>

#define PUBLIC __attribute__((visibility("default")))

typedef int (*swap_fn)(ucontext_t *, const ucontext_t *);
typedef int (*set_fn)(const ucontext_t *);

static void count_switch(void)
{
    __atomic_fetch_add(&pprt_stream.context_switches, 1, __ATOMIC_RELAXED);
}

PUBLIC int swapcontext(ucontext_t *oucp, const ucontext_t *ucp)
{
    static swap_fn real_fn;
    if (real_fn == NULL)
        real_fn = (swap_fn)pprt_libc_next("swapcontext", NULL);
    if (real_fn == NULL) {
        errno = ENOSYS;
        return -1;
    }
    count_switch();
    return real_fn(oucp, ucp);
}

PUBLIC int setcontext(const ucontext_t *ucp)
{
    static set_fn real_fn;
    if (real_fn == NULL)
        real_fn = (set_fn)pprt_libc_next("setcontext", NULL);
    if (real_fn == NULL) {
        errno = ENOSYS;
        return -1;
    }
    count_switch();
    return real_fn(ucp);
}
