/* loop-exits.c - one-path loops left by either of two exits, at every
 * trip count from 0 (tests/stream-loop-runs.t): a search that breaks out
 * of its loop, and a countdown whose loop may not run at all. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int scan(const int *v, int n, int stop)
{
    int i = 0;
    for (; i < n; i++)
        if (v[i] == stop)
            break;
    return i;
}

__attribute__((noinline)) static unsigned countdown(unsigned n)
{
    unsigned s = 0;
    while (n--)
        s += n * 3u;
    return s;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 40;
    int v[64];
    for (int i = 0; i < 64; i++)
        v[i] = (i * 7) % 64;
    long t = 0;
    for (int r = 0; r < rounds; r++) {
        t += scan(v, r % 65, (r * 5) % 70);
        t += countdown((unsigned)(r % 9));
    }
    printf("%ld\n", t);
    return 0;
}
