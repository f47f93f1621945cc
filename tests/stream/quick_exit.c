/* quick_exit.c - _exit in stream mode, for tests/stream-exit.t.
 *
 *   quick_exit N [thread]
 *
 * Calls work() N times (more than a chunk), prints "done N" (flushed),
 * then ends with _exit(4) from main, or with `thread` from a second
 * thread that ran work() N times too while main waits in pthread_join.
 * _exit runs no exit handler: no profile is written (docs/streaming.md,
 * documented loss), and the program behaves as without pathprof. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define NOINLINE __attribute__((noinline, noclone))
static volatile long sink;
static long N;

NOINLINE long work(long i) { return sink += i; }

static void *quitter(void *arg)
{
    (void)arg;
    for (long i = 0; i < N; i++)
        work(i);
    printf("thread done %ld\n", N);
    fflush(stdout);
    _exit(4);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    N = atol(argv[1]);
    for (long i = 0; i < N; i++)
        work(i);
    printf("done %ld\n", N);
    fflush(stdout);
    if (argc > 2 && strcmp(argv[2], "thread") == 0) {
        pthread_t t;
        if (pthread_create(&t, NULL, quitter, NULL) != 0)
            return 1;
        pthread_join(t, NULL);
        return 1; /* not reached */
    }
    _exit(4);
}
