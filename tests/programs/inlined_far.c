/* inlined_far.c - a helper inlined into main from far above it, with a
 * function between them that never runs (tests/cli-inlined-lines.t): a
 * block of main then holds the helper's line and its own, and the lines
 * between (never_runs's body) must not print as lines main's paths run. */
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) int helper(int x)
{
    return x * 3 + 1; /* HELPER */
}

/* Never called with the arguments the test gives. */
__attribute__((noinline)) int never_runs(int x)
{
    int s = 0;
    for (int i = 0; i < x; i++)
        s += i * i; /* NEVER */
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (i & 1)
            s += helper(i); /* CALLER */
        else
            s -= i;
    }
    if (argc > 5)
        s += never_runs(n);
    printf("%d\n", s);
    return 0;
}
//! expect main paths(^) = 1
//! expect main paths($) = 1
//! expect main paths(>) = 10
//! expect main total = 11
