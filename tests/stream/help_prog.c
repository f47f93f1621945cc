/* help_prog.c - for tests/stream-help.t: 200,000 path events of a loop
 * whose body takes one of three paths and calls a leaf (one path) and a
 * short recursion, so that k-iteration paths span iterations and calls.
 * Prints what it computed (the same in every build). */
#include <stdio.h>
#define NOINLINE __attribute__((noinline, noclone))

static volatile unsigned sink;

NOINLINE static unsigned leaf(unsigned x) { return x * 2654435761u; }

NOINLINE static unsigned down(unsigned n)
{
    if (n == 0)
        return 1;
    return down(n - 1) + n;
}

int main(void)
{
    unsigned acc = 0;
    for (unsigned i = 0; i < 50000; i++) {
        if (i % 3 == 0)
            acc += leaf(i);
        else if (i % 7 == 1)
            acc ^= down(i % 4);
        else
            acc -= i;
        sink = acc;
    }
    printf("%u\n", acc);
    return 0;
}
