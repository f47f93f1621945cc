/* tests/stream-tls.t: an executable whose events go through the cursor it
 * defines itself (local-exec), calling a shared library whose events go
 * through the same cursor reached by the GOT (initial-exec), on the main
 * thread and on a second one.  The paths are known by construction: for
 * N given on the command line, classify() runs N times per thread, each
 * of its three paths N / 3 times (N a multiple of 3), and lib_mix() (in
 * lib.c) runs N times per thread. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

long lib_mix(long x);

static __attribute__((noinline)) long classify(long i)
{
    long r;
    if (i % 3 == 0)
        r = i / 3;
    else if (i % 3 == 1)
        r = -i;
    else
        r = i * 2;
    return r;
}

static void *work(void *arg)
{
    long n = *(long *)arg, s = 0;
    for (long i = 0; i < n; i++)
        s += classify(i) + lib_mix(i);
    printf("%ld\n", s);
    return NULL;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 3000;
    pthread_t t;
    if (pthread_create(&t, NULL, work, &n) != 0)
        return 1;
    pthread_join(t, NULL);
    work(&n);
    return 0;
}
