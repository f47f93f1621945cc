/* tests/hash-inline.t: a function of 4096 paths whose counts are known by
 * construction.  decide() takes 12 independent decisions on the bits of X,
 * so each X in [0, 4096) runs a path of its own; work() runs X
 * (X % 7) + 1 times, each of THREADS threads (0: the main thread alone)
 * runs work(), and a SIGUSR1 handler, raised 100 times before, runs
 * decide(4095).  wide() takes 23 decisions (2^23 paths, more path indices
 * than stream mode's blpp analyzer counts in an array, so it hashes them
 * too) on X * 2047, a distinct value of 23 bits for each X, and runs
 * (X % 5) + 1 times in a row, the same path each time.  Volatile stores
 * keep GCC from merging the arms. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

/* Per thread: the output is the main thread's, whatever the threads do. */
static _Thread_local volatile unsigned a, b;

#define DECIDE(bit) \
    do { \
        if (x & (1u << (bit))) \
            a += (bit) + 1; \
        else \
            b ^= (bit) + 3; \
    } while (0)

__attribute__((noinline)) static void decide(unsigned x)
{
    DECIDE(0); DECIDE(1); DECIDE(2); DECIDE(3);
    DECIDE(4); DECIDE(5); DECIDE(6); DECIDE(7);
    DECIDE(8); DECIDE(9); DECIDE(10); DECIDE(11);
}

__attribute__((noinline)) static void wide(unsigned x)
{
    DECIDE(0); DECIDE(1); DECIDE(2); DECIDE(3);
    DECIDE(4); DECIDE(5); DECIDE(6); DECIDE(7);
    DECIDE(8); DECIDE(9); DECIDE(10); DECIDE(11);
    DECIDE(12); DECIDE(13); DECIDE(14); DECIDE(15);
    DECIDE(16); DECIDE(17); DECIDE(18); DECIDE(19);
    DECIDE(20); DECIDE(21); DECIDE(22);
}

static void *work(void *arg)
{
    (void)arg;
    for (unsigned x = 0; x < 4096; x++)
        for (unsigned r = 0; r <= x % 7; r++)
            decide(x);
    for (unsigned x = 0; x < 4096; x++)
        for (unsigned r = 0; r <= x % 5; r++)
            wide(x * 2047u);
    return NULL;
}

static void on_usr1(int sig)
{
    (void)sig;
    decide(4095);
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 0;
    signal(SIGUSR1, on_usr1);
    for (int i = 0; i < 100; i++)
        raise(SIGUSR1);
    if (threads == 0) {
        work(NULL);
    } else {
        pthread_t t[16];
        for (int i = 0; i < threads && i < 16; i++)
            if (pthread_create(&t[i], NULL, work, NULL) != 0)
                return 2;
        for (int i = 0; i < threads && i < 16; i++)
            pthread_join(t[i], NULL);
    }
    printf("%u %u\n", a, b);
    return 0;
}
