/* exit_blocked.c - exit() while another thread is blocked in the runtime
 * waiting for a slow analyzer (policy block), for tests/stream-exit.t.
 *
 *   exit_blocked MS
 *
 * A thread calls spin() without end; main sleeps MS milliseconds (not
 * profiled) and calls exit(0), printing before it how many calls the
 * spinner had made ("spun N").  Run with a slow analyzer
 * (PATHPROF_TEST_ANALYZER_DELAY_NS) and tiny chunks, the spinner spends
 * nearly all its time waiting for an empty chunk. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#define NOINLINE __attribute__((noinline, noclone))
#define NOPROF __attribute__((no_profile_instrument_function, noinline, noclone))
static volatile long sink;
static long calls;

NOINLINE long spin(long i) { return sink += i; }

static void *spinner(void *arg)
{
    (void)arg;
    for (long i = 0;; i++) {
        spin(i);
        __atomic_store_n(&calls, i + 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

NOPROF static void nap(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

NOPROF int main(int argc, char **argv)
{
    long ms = argc > 1 ? atol(argv[1]) : 300;
    pthread_t t;
    if (pthread_create(&t, NULL, spinner, NULL) != 0)
        return 1;
    nap(ms);
    printf("spun %ld\n", __atomic_load_n(&calls, __ATOMIC_ACQUIRE));
    fflush(stdout);
    exit(0);
}
