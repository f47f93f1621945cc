/* drop_prog.c - many events from a few threads, for tests/stream-drop.t.
 *
 *   drop_prog NT ITERS [jmp]
 *
 * NT threads (ITERS a multiple of 12) each run ITERS iterations of a
 * three-way branch: A when i % 3 == 0, B when i % 3 == 1, C otherwise.
 * With `jmp`, each iteration also calls trial(i), which has a setjmp
 * receiver (so its activations carry ENTER/RESUME markers in stream
 * mode) and longjmps back to it from thrower() when i % 4 == 0.
 * By construction, over all threads: worker A, B, C: NT * ITERS / 3 each;
 * thrower: NT * ITERS / 4 calls; trial: NT * ITERS calls.  The `//! expect`
 * lines are for `drop_prog 3 60000`. */
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define NOINLINE __attribute__((noinline, noclone))
#define MAXT 16
static volatile long acc[MAXT][8];
static long ITERS;
static int jmp;
static __thread jmp_buf env;

NOINLINE void thrower(long i)
{
    longjmp(env, (int)(i % 7) + 1);
}

NOINLINE long trial(long i)
{
    volatile long r = 0;
    if (setjmp(env) == 0) {
        if (i % 4 == 0)
            thrower(i);
        r = 1;
    } else {
        r = 2;
    }
    return r;
}

NOINLINE void *worker(void *arg)
{
    long id = (long)arg;
    for (long i = 0; i < ITERS; i++) {
        if (i % 3 == 0)
            acc[id][0] += 1; /*@A*/
        else if (i % 3 == 1)
            acc[id][1] += 1; /*@B*/
        else
            acc[id][2] += 1; /*@C*/
        if (jmp)
            acc[id][3] += trial(i);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    long nt = atol(argv[1]);
    ITERS = atol(argv[2]);
    jmp = argc > 3 && strcmp(argv[3], "jmp") == 0;
    if (nt < 1 || nt > MAXT)
        return 2;
    pthread_t t[MAXT];
    for (long k = 0; k < nt; k++)
        if (pthread_create(&t[k], NULL, worker, (void *)k) != 0)
            return 1;
    for (long k = 0; k < nt; k++)
        pthread_join(t[k], NULL);
    long s[4] = {0, 0, 0, 0};
    for (long k = 0; k < nt; k++)
        for (int j = 0; j < 4; j++)
            s[j] += acc[k][j];
    printf("%ld %ld %ld %ld\n", s[0], s[1], s[2], s[3]);
    return 0;
}
//! expect worker paths(A) = 3 * 60000 / 3
//! expect worker paths(B) = 3 * 60000 / 3
//! expect worker paths(C) = 3 * 60000 / 3
