/* work.c - the program tests/cli-merge.t and tests/runtime-accumulate.t
 * run many times: `work N [HOLD_MS]` walks 0..N-1 through a loop whose
 * iterations take one of three paths (multiple of 3, even, odd), so the
 * k-iteration paths repeat with a known period; HOLD_MS keeps the process
 * alive that long before it exits (so a test can kill it at any moment,
 * also while it writes its profile).  Built with -DVARIANT, step() has one
 * more branch: another build of the same function. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static __attribute__((noinline)) int step(int i)
{
    if (i % 3 == 0)
        return 3;
#ifdef VARIANT
    if (i % 5 == 0)
        return 5;
#endif
    if (i % 2 == 0)
        return 2;
    return 1;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    long hold = argc > 2 ? atol(argv[2]) : 0;
    long s = 0;
    for (int i = 0; i < n; i++)
        s += step(i);
    printf("%ld\n", s);
    if (hold > 0) {
        struct timespec t = {hold / 1000, (hold % 1000) * 1000000L};
        nanosleep(&t, NULL);
    }
    return 0;
}
