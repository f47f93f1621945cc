/* threads_loop.c - threads created and joined in loops, each running
 * recursion and loops, for tests/trace-e2e.t (one stream per thread). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static void *work(void *arg)
{
    long k = (long)arg, s = 0;
    for (long i = 0; i < 200 + 37 * k; i++)
        s += (i & 1) ? fib((int)(i % 9)) : (long)(i % 5);
    return (void *)s;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    long total = 0;
    for (int r = 0; r < rounds; r++) {
        pthread_t t[4];
        for (long k = 0; k < 4; k++)
            pthread_create(&t[k], NULL, work, (void *)(k + r));
        for (int k = 0; k < 4; k++) {
            void *v;
            pthread_join(t[k], &v);
            total += (long)v;
        }
    }
    printf("%ld\n", total + (long)work((void *)0));
    return 0;
}
