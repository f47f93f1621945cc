/* A small program for tests/ksf-crossmode.t: the shapes the ksf batch
 * loop takes apart (docs/kiterations.md), so that the k-IPF of its stream
 * can be checked against counting mode (perfctl/lib/kipfcmp.pl).
 *
 *   scale()      a loop whose body is one path: counted at its exits, one
 *                RUN marker (ksf_run, the memo of runs); called with runs
 *                of 0 to 40 iterations, each length many times (the memo
 *                hits), below and above the closed form's 4
 *   sum_odd()    a loop with a branch: runs of equal words broken at
 *                random (plain ksf_walk steps)
 *   leaf()       a call that runs one path (START and RET in one word):
 *                counted at its root inside the caller's run
 *   collatz()    a loop calling leaf() and one_or_two() on every iteration
 *                (the caller's sequence goes on across the calls)
 *   depth()      recursion, each activation a sequence of its own
 *   grid()       nested loops, the inner one one path
 *   main         exits through exit() in the middle of a loop's next path */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline, noclone))
volatile long sink;

NOINLINE void scale(long *v, int n, long f)
{
    for (int i = 0; i < n; i++) /* wraps (unsigned): no overflow for UBSan to stop */
        v[i] = (long)((unsigned long)v[i] * (unsigned long)f);
}

NOINLINE long sum_odd(const long *v, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        if (v[i] & 1)
            s += v[i];
        else
            s -= 1;
    }
    return s;
}

NOINLINE long leaf(long x)
{
    return x * 3 + 1;
}

NOINLINE long one_or_two(long x)
{
    if (x % 3 == 0)
        return x / 3;
    return x + 2;
}

NOINLINE int collatz(long x)
{
    int steps = 0;
    while (x != 1 && steps < 500) {
        if (x & 1)
            x = leaf(x);
        else
            x /= 2;
        sink += one_or_two(x);
        steps++;
    }
    return steps;
}

NOINLINE long depth(int n)
{
    if (n <= 0)
        return 1;
    if (n & 1)
        return depth(n - 1) + 1;
    return depth(n - 2) * 2;
}

NOINLINE long grid(int m, int n)
{
    long s = 0;
    for (int j = 0; j < m; j++) {
        for (int i = 0; i < n; i++)
            s += i ^ j;
        s += 7;
    }
    return s;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 30;
    long v[64];
    unsigned r = 12345;
    for (int i = 0; i < 64; i++)
        v[i] = i;
    for (int k = 0; k < rounds; k++) {
        for (int n = 0; n <= 40; n++)
            scale(v, n, (k & 1) ? 3 : 5);
        for (int i = 0; i < 64; i++) {
            r = r * 1103515245u + 12345u;
            v[i] = (long)(r >> 8);
        }
        sink += sum_odd(v, 64);
        sink += collatz(k + 27);
        sink += depth(k % 13);
        sink += grid(k % 5, k % 7);
    }
    printf("%ld\n", (long)sink & 0xffff);
    for (int i = 0;; i++) {
        sink += i;
        if (i == 10)
            exit(0);
    }
}
