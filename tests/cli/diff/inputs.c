/* inputs.c - a program whose path profile changes with its input in ways
 * known by construction (tests/cli-diff.t).  Input 0 ("A"): 100 even
 * numbers through classify, only_a 100 times.  Input 1 ("B"): 30 even and
 * 70 odd numbers, only_b 100 times.  So in classify the EVEN path goes
 * from 100 to 30 runs and the ODD path is new (70); only_a's path is gone,
 * only_b's is new. */
#include <stdio.h>
#include <stdlib.h>

volatile long evens, odds;

__attribute__((noinline)) static long classify(long x)
{
    if (x % 2 == 0) {
        evens++;           /* EVEN */
        return x / 2;
    }
    odds++;                /* ODD */
    return 3 * x + 1;
}

__attribute__((noinline)) static long only_a(long x)
{
    evens += x;            /* ONLY_A */
    return x + 1;
}

__attribute__((noinline)) static long only_b(long x)
{
    odds += x;             /* ONLY_B */
    return x - 1;
}

int main(int argc, char **argv)
{
    int b = argc > 1 && atoi(argv[1]) == 1;
    long s = 0;
    for (long i = 0; i < 100; i++) {
        long x = !b || i < 30 ? 2 * i : 2 * i + 1;
        s += classify(x);
        s += b ? only_b(i) : only_a(i);
    }
    printf("%ld\n", s);
    return 0;
}
