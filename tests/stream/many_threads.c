/* many_threads.c - thousands of short-lived threads, for
 * tests/stream-threads.t: WAVES waves of WAVE threads, each created and
 * joined (NTHREADS = WAVES * WAVE threads in all, at most WAVE alive at a
 * time).  Each thread runs ITERS iterations calling leaf(i) (one path
 * each), A when i % 4 == 0 (ITERS / 4), B otherwise: about 2 * ITERS + 2
 * events per thread.  By construction, over all threads:
 *   leaf: NTHREADS * ITERS paths; worker A: NTHREADS * ITERS / 4,
 *   B: NTHREADS * 3 * ITERS / 4; worker entries and returns: NTHREADS.
 * An argument replaces WAVES (the `//! expect` lines are for 150). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#define NOINLINE __attribute__((noinline, noclone))
#define WAVES 150
#define WAVE 20
#define ITERS 120
static volatile long sink[WAVE];

NOINLINE long leaf(long i)
{
    return i * 3 + 1;
}

NOINLINE void *worker(void *arg)
{
    long id = (long)arg, s = 0;
    for (long i = 0; i < ITERS; i++) {
        if (i % 4 == 0)
            s += leaf(i); /*@A*/
        else
            s -= leaf(i); /*@B*/
    }
    sink[id] += s;
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t t[WAVE];
    int waves = argc > 1 ? atoi(argv[1]) : WAVES;
    for (int w = 0; w < waves; w++) {
        for (long k = 0; k < WAVE; k++)
            if (pthread_create(&t[k], NULL, worker, (void *)k) != 0) {
                perror("pthread_create");
                return 1;
            }
        for (int k = 0; k < WAVE; k++)
            pthread_join(t[k], NULL);
    }
    long s = 0;
    for (int k = 0; k < WAVE; k++)
        s += sink[k];
    printf("threads %d sum %ld\n", waves * WAVE, s);
    return 0;
}
//! expect leaf total = 150 * 20 * 120
//! expect worker paths(A) = 150 * 20 * 120 / 4
//! expect worker paths(B) = 150 * 20 * 3 * 120 / 4
//! expect worker paths(^) = 150 * 20
//! expect worker paths($) = 150 * 20
