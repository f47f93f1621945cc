/* altstack.c - SIGSEGV on an alternate signal stack, recovered with
 * siglongjmp, for tests/os-hazards.t.
 *
 *   altstack N FILE
 *
 * N rounds; each round runs, in a thread with a 256 KiB stack, first a
 * recursion deep enough to overflow it (depth() has a 1 KiB frame), then
 * a store through a null pointer (poke()).  Both faults land in
 * on_segv, on the thread's sigaltstack, which siglongjmps back to
 * round().  By construction round() returns 2 N recoveries, and each
 * thread's recursion stops at the same depth (its stack is the same), so
 * every round of the overflow goes equally deep: depth's loop runs its
 * back edge once per activation, N * (deepest + 1) times in all (deepest
 * is written to FILE: instrumentation changes the frame's size, so each
 * build has its own). */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define NOINLINE __attribute__((noinline, noclone))
static __thread sigjmp_buf back;
static __thread volatile long deepest;
static int *volatile nowhere;

NOINLINE static void on_segv(int sig)
{
    (void)sig;
    siglongjmp(back, 1);
}

NOINLINE static long depth(long d)
{
    volatile char frame[1024];
    for (int i = 0; i < 2; i++) /* a back edge: paths end in each activation */
        frame[i * 512] = (char)(d + i);
    if (d > deepest)
        deepest = d;
    return depth(d + 1) + frame[0];
}

NOINLINE static void poke(int v) { *nowhere = v; }

static void *round_thread(void *arg)
{
    long *out = arg;
    static __thread char alt[64 * 1024];
    stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt};
    if (sigaltstack(&ss, NULL) != 0) {
        perror("sigaltstack");
        exit(1);
    }
    int recovered = 0;
    if (sigsetjmp(back, 1) == 0)
        depth(0);
    else
        recovered++;
    if (sigsetjmp(back, 1) == 0)
        poke(1);
    else
        recovered++;
    out[0] = recovered;
    out[1] = deepest;
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_segv;
    sa.sa_flags = SA_ONSTACK | SA_NODEFER;
    sigaction(SIGSEGV, &sa, NULL);
    long recovered = 0, first = -1;
    int same = 1;
    for (int i = 0; i < n; i++) {
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setstacksize(&at, 256 * 1024);
        pthread_t t;
        long out[2];
        pthread_create(&t, &at, round_thread, out);
        pthread_join(t, NULL);
        recovered += out[0];
        if (first < 0)
            first = out[1];
        same &= out[1] == first;
    }
    printf("recovered %ld of %d, same depth every round: %s\n", recovered, 2 * n, same ? "yes" : "no");
    FILE *f = argc > 2 ? fopen(argv[2], "w") : NULL;
    if (f == NULL || fprintf(f, "%ld\n", first) < 0 || fclose(f) != 0) {
        perror("altstack: FILE");
        return 1;
    }
    return 0;
}
