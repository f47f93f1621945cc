/* Paths that come in phases (tests/sampling-intervals.t): the loop runs
 * one kind of iteration for thousands of iterations, then another, so a
 * burst sees a path many times or not at all.  Counts of consecutive paths
 * are then strongly correlated and an interval that treats each path seen
 * as an independent draw (Poisson) is far too narrow; the burst-level
 * interval of docs/sampling.md must still cover the exact counts.  The
 * exact counts are the profile at PATHPROF_SAMPLE=1/1. */
#include <stdio.h>
#include <stdlib.h>
volatile unsigned long sink;

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    for (long i = 0; i < n; i++) {
        long phase = (i / 3000) % 5;
        if (phase == 0)
            sink += 1;                     /* one path for 3000 iterations */
        else if (phase == 1)
            sink += (i & 1) ? 2 : 3;       /* two paths, alternating */
        else if (phase == 2 && i % 7 == 0)
            sink += 4;                     /* rare within its phase */
        else if (phase == 2)
            sink += 5;
        else
            sink += 6;                     /* phases 3 and 4 */
    }
    printf("%lu\n", sink);
    return 0;
}
