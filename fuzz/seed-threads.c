/* seed-threads.c - a seed for the fuzzer (fuzz/seeds.sh): a few short
 * threads, so that a trace has several interleaved streams and a profile
 * several producers, yet stays a few kilobytes (the threaded programs of
 * tests/ run far too long for a seed). */
#include <pthread.h>
#include <stdio.h>

static int depth(int n)
{
    return n ? 1 + depth(n - 1) : 0;
}

static void *work(void *arg)
{
    long k = (long)arg, s = 0;
    for (long i = 0; i < 6 + k; i++)
        s += (i & 1) ? depth((int)(i % 3)) : -1;
    return (void *)s;
}

int main(void)
{
    pthread_t t[3];
    long total = 0;
    for (long k = 0; k < 3; k++)
        if (pthread_create(&t[k], NULL, work, (void *)k) != 0)
            return 1;
    for (int k = 0; k < 3; k++) {
        void *v;
        pthread_join(t[k], &v);
        total += (long)v;
    }
    printf("%ld\n", total);
    return 0;
}
