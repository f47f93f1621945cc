/* exit_thread.c - exit() from a thread that is not main while other
 * threads keep emitting events, for tests/stream-fork-exec.t.
 *
 *   exit_thread P NS X
 *
 * main calls pre() P times and starts NS spinner threads that call spin()
 * forever, publishing after each call how many calls they made.  Once
 * every spinner made 1000 calls, main starts the exiter thread, which calls
 * ex() X times and then exit(5); main is still in pthread_join.
 *
 * The runtime writes the profile from an atexit handler registered when
 * the first TU registered (a priority-101 constructor).  Two uninstrumented
 * handlers bracket it: `before`, registered by main, runs first; `after`,
 * registered by a priority-100 constructor, runs after the runtime's.
 * Each prints the spinners' total number of calls at that moment on
 * stderr ("spin-before N", "spin-after N").  So the profile must hold
 * pre P and ex X exactly; and every spin() event emitted before exit was
 * called is either counted or reported lost: spin count + dropped + late
 * >= spin-before, while spin count <= spin-after + NS (a spinner may
 * have emitted the event of a call it has not published yet). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#define NOINLINE __attribute__((noinline, noclone))
#define NOPROF __attribute__((no_profile_instrument_function, noinline, noclone))
#define MAXS 8
static volatile long sink, spin_sink[MAXS]; /* one writer each: no data race */
static long calls[MAXS];
static long NS, X;

NOINLINE long pre(long i) { return sink += i; }
NOINLINE long spin(long k, long i) { return spin_sink[k] += 2 * i; }
NOINLINE long ex(long i) { return sink += 3 * i; }

NOPROF static long spun(void)
{
    long s = 0;
    for (long k = 0; k < NS; k++)
        s += __atomic_load_n(&calls[k], __ATOMIC_ACQUIRE);
    return s;
}

NOPROF static void say(const char *what)
{
    char buf[64];
    int n = snprintf(buf, sizeof buf, "%s %ld\n", what, spun());
    if (write(2, buf, (size_t)n) != n)
        _exit(9);
}

NOPROF static void before(void) { say("spin-before"); }
NOPROF static void after(void) { say("spin-after"); }

__attribute__((constructor(100))) NOPROF static void early(void)
{
    atexit(after);
}

static void *spinner(void *arg)
{
    long k = (long)arg;
    for (long i = 0;; i++) {
        spin(k, i);
        __atomic_store_n(&calls[k], i + 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

static void *exiter(void *arg)
{
    (void)arg;
    for (long i = 0; i < X; i++)
        ex(i);
    exit(5);
}

NOPROF static void wait_spinners(void)
{
    for (long k = 0; k < NS; k++)
        while (__atomic_load_n(&calls[k], __ATOMIC_ACQUIRE) < 1000)
            sched_yield();
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    long P = atol(argv[1]);
    NS = atol(argv[2]), X = atol(argv[3]);
    if (NS < 1 || NS > MAXS)
        return 2;
    atexit(before);
    for (long i = 0; i < P; i++)
        pre(i);
    pthread_t t;
    for (long k = 0; k < NS; k++)
        if (pthread_create(&t, NULL, spinner, (void *)k) != 0)
            return 1;
    wait_spinners();
    if (pthread_create(&t, NULL, exiter, NULL) != 0)
        return 1;
    pthread_join(t, NULL);
    return 1; /* not reached: the exiter ends the process */
}
