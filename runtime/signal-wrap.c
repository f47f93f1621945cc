/* signal-wrap.c - sigaction and signal are wrapped (exported by
 * libpathprof.so, which comes before libc in the program's symbol lookup,
 * as exec-wrap.c's and context-wrap.c's functions; the real ones are found
 * with dlsym(RTLD_NEXT)), so that the runtime sees each run of a signal
 * handler and can tell whether the code it interrupted overwrote the
 * handler's events (docs/streaming.md, section 2, "Signal handlers").
 *
 * Why: a stream probe holds the thread's cursor in a register from its
 * load to its store (and the compiler keeps it there across a call-free
 * loop).  An instrumented handler that runs inside that window stores its
 * events at the cursor; the interrupted code then stores its own event at
 * the cursor it loaded, over the handler's first, and goes on from there.
 * Those events were lost while the profile said exact.  Now the handler
 * runs under a trampoline that notes where the handler's first event went
 * and what it was (producer.c, pprt_handler_enter and pprt_handler_leave);
 * when the chunk is published, an event no longer there means the
 * handler's events were
 * overwritten: counted `late` (and in `overwritten`, which only the exit
 * warning reads), so the profile says it is not exact and the warning
 * says why.  Nothing is
 * repaired (the events are gone): for an exact profile, handlers are
 * excluded from instrumentation, as before.
 *
 * What the program sees does not change: the kernel holds the trampoline,
 * with the program's flags and mask (SA_SIGINFO added), and sigaction and
 * signal give the program's own handler back as the old one.  A handler
 * installed by the system call itself (syscall(SYS_rt_sigaction)) runs
 * unwatched.  Not in libpathprof.a (no RTLD_NEXT in a static C library). */
#include "libc-next.h"
#include "message.h"
#include "pathprof-abi.h"
#include "stream-tus.h"
#include "stream.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>

#define PUBLIC __attribute__((visibility("default")))

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef void (*handler_fn)(int);
typedef void (*action_fn)(int, siginfo_t *, void *);

/* The program's handler for each signal and whether it takes three
 * arguments; read in the trampoline, so atomics only. */
static void *user_handler[NSIG];
static int user_siginfo[NSIG];

static sigaction_fn real_sigaction(void)
{
    static sigaction_fn fn;
    sigaction_fn f = __atomic_load_n(&fn, __ATOMIC_ACQUIRE);
    if (f == NULL) {
        f = (sigaction_fn)pprt_libc_next("sigaction", NULL);
        __atomic_store_n(&fn, f, __ATOMIC_RELEASE);
    }
    return f;
}

static void trampoline(int sig, siginfo_t *info, void *uc)
{
    void *h = __atomic_load_n(&user_handler[sig], __ATOMIC_ACQUIRE);
    struct pprt_handler_mark mark;
    pprt_handler_enter(&mark);
    if (__atomic_load_n(&user_siginfo[sig], __ATOMIC_RELAXED))
        ((action_fn)h)(sig, info, uc);
    else
        ((handler_fn)h)(sig);
    pprt_handler_leave(&mark);
}

/* Whether the kernel's action for SIG is our trampoline. */
static int is_ours(const struct sigaction *sa)
{
    return (sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == trampoline;
}

/* OLD as the program set it: its own handler, its own flags. */
static void give_back(int sig, struct sigaction *old)
{
    if (old == NULL || !is_ours(old))
        return;
    void *h = __atomic_load_n(&user_handler[sig], __ATOMIC_ACQUIRE);
    if (__atomic_load_n(&user_siginfo[sig], __ATOMIC_RELAXED)) {
        old->sa_sigaction = (action_fn)h;
    } else {
        old->sa_flags &= ~SA_SIGINFO;
        old->sa_handler = (handler_fn)h;
    }
}

static int watched(int sig, const struct sigaction *act)
{
    if (sig <= 0 || sig >= NSIG || act == NULL)
        return 0;
    if (act->sa_flags & SA_SIGINFO)
        return act->sa_sigaction != NULL;
    return act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN && act->sa_handler != NULL;
}

PUBLIC int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    sigaction_fn real = real_sigaction();
    if (real == NULL) {
        errno = ENOSYS;
        return -1;
    }
    if (!watched(sig, act)) {
        int rc = real(sig, act, old);
        if (rc == 0)
            give_back(sig, old);
        return rc;
    }
    /* A handler's first event must not be the thread's (and perhaps the
     * process's) first: attaching allocates, which a handler may not.
     * Only once a stream TU registered: before, stream mode is off, and
     * TSan's own start-up, which comes through here, must not call into
     * code built with TSan. */
    if (pprt_stream_tus_total() != 0)
        pprt_attach_early();
    /* The previous handler, as the program knows it, before ours changes */
    struct sigaction prev;
    if (old != NULL && real(sig, NULL, &prev) == 0)
        give_back(sig, &prev);
    int siginfo = (act->sa_flags & SA_SIGINFO) != 0;
    void *h = siginfo ? (void *)act->sa_sigaction : (void *)act->sa_handler;
    struct sigaction mine = *act;
    mine.sa_flags |= SA_SIGINFO;
    mine.sa_sigaction = trampoline;
    /* The handler is in place before the kernel can call the trampoline
     * for it; a signal between the two stores runs the new handler with
     * the old arity only if the program switches arity on a live signal,
     * which it cannot do atomically without us either. */
    __atomic_store_n(&user_siginfo[sig], siginfo, __ATOMIC_RELAXED);
    __atomic_store_n(&user_handler[sig], h, __ATOMIC_RELEASE);
    struct sigaction was;
    int rc = real(sig, &mine, old ? &was : NULL);
    if (rc == 0 && old != NULL) {
        *old = was;
        if (is_ours(&was))
            *old = prev;
    }
    return rc;
}

/* glibc's signal() sets its action without the PLT, with its own flags
 * and mask (BSD semantics, siginterrupt's choice): it is called as it is,
 * and the action it set is then read back and given the trampoline
 * through the wrapper above. */
PUBLIC __sighandler_t signal(int sig, __sighandler_t handler)
{
    static __sighandler_t (*real_signal)(int, __sighandler_t);
    if (real_signal == NULL)
        real_signal = (__sighandler_t (*)(int, __sighandler_t))pprt_libc_next("signal", NULL);
    sigaction_fn real = real_sigaction();
    if (real_signal == NULL || real == NULL) {
        errno = ENOSYS;
        return SIG_ERR;
    }
    void *prev = sig > 0 && sig < NSIG ? __atomic_load_n(&user_handler[sig], __ATOMIC_ACQUIRE) : NULL;
    __sighandler_t was = real_signal(sig, handler);
    if (was == SIG_ERR)
        return SIG_ERR;
    if ((void *)was == (void *)trampoline)
        was = (__sighandler_t)prev; /* the program's previous handler, as glibc gives it */
    struct sigaction now;
    if (sig > 0 && sig < NSIG && handler != SIG_DFL && handler != SIG_IGN &&
        real(sig, NULL, &now) == 0 && !(now.sa_flags & SA_SIGINFO) && now.sa_handler == handler)
        sigaction(sig, &now, NULL);
    return was;
}
