/* overwrite_window.c - the two windows of a stream probe in which an
 * instrumented signal handler and the code it interrupts store over each
 * other's events, made on purpose (tests/stream-signal-overwrite.t,
 * docs/streaming.md section 2).  A probe loads the cursor, stores its
 * event at it, then stores the cursor moved by one:
 *
 *   store  a signal after the store of the event and before the store of
 *          the cursor finds the interrupted event ahead of the cursor; the
 *          handler's event goes over it (the interrupted code loses one);
 *   load   a signal after the load of the cursor and before the store of
 *          the event: the interrupted code then stores over the handler's
 *          event (the handler loses one).
 *
 * An uninstrumented helper puts the thread's stream into each state by
 * hand, with a real event of `work` taken from the chunk, and raises the
 * signal there.  By construction `work` ran 3 times and the handler once.
 * In both windows the interrupted code, when it goes on, stores over the
 * handler's event (in "store" because the handler's events start after
 * the one found ahead of the cursor, which stays): one event lost, and the
 * profile must not say exact.  "jump" is the store window with a handler
 * that leaves by siglongjmp: the interrupted probe never finishes, nothing
 * is lost, and the profile is exact.  "none" raises outside any probe:
 * exact too (the only case a counting build, which has no cursor, can
 * run).  Prints the window, work's results and the raises on stdout. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern __thread uint64_t *__pathprof_cur __attribute__((tls_model("initial-exec")));

static volatile sig_atomic_t raised;

static void on_usr1(int sig)
{
    (void)sig;
    raised++;
}

static sigjmp_buf back;

static void on_usr2(int sig)
{
    (void)sig;
    raised++;
    siglongjmp(back, 1);
}

static int __attribute__((noinline)) work(int x)
{
    return x > 2 ? x * 3 : x + 1;
}

/* The last call of work stored its event just behind the cursor. */
__attribute__((no_profile_instrument_function, noinline)) static void
window(const char *which)
{
    if (strcmp(which, "store") == 0) {
        uint64_t *slot = __pathprof_cur - 1;
        __pathprof_cur = slot; /* stored, the cursor not moved yet */
        raise(SIGUSR1);
        __pathprof_cur = slot + 1;
    } else if (strcmp(which, "jump") == 0) {
        uint64_t *slot = __pathprof_cur - 1;
        if (sigsetjmp(back, 1) == 0) {
            __pathprof_cur = slot;
            raise(SIGUSR2); /* does not come back: the cursor stays */
        }
    } else if (strcmp(which, "load") == 0) {
        uint64_t *slot = __pathprof_cur - 1, ev = *slot;
        *slot = 0; /* cursor loaded as SLOT, nothing stored yet */
        __pathprof_cur = slot;
        raise(SIGUSR1);
        *slot = ev;
        __pathprof_cur = slot + 1;
    } else {
        raise(SIGUSR1);
    }
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "none";
    signal(SIGUSR1, on_usr1);
    signal(SIGUSR2, on_usr2);
    int s = work(1) + work(5); /* the chunk's first slot is the slow path's */
    s += work(7);
    window(which);
    printf("%s %d %d\n", which, s, (int)raised);
    return 0;
}
