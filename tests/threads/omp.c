/* OpenMP (tests/threads-defaults.t): a parallel loop with a static
 * schedule (each thread's share of the iterations, hence each path's
 * count, depends only on the thread count) and tasks whose paths depend
 * only on their arguments.  The outlined bodies (main._omp_fn.N) run in
 * libgomp's threads. */
#include <stdio.h>
#include <stdlib.h>

static int classify(int x)
{
    if (x % 7 == 0)
        return 3;
    if (x % 3 == 0)
        return 2;
    if (x & 1)
        return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200000;
    long total = 0, tasks = 0;
#pragma omp parallel for schedule(static) reduction(+ : total)
    for (int i = 0; i < n; i++)
        total += classify(i);
#pragma omp parallel
#pragma omp single
    for (int t = 0; t < 64; t++) {
#pragma omp task
        {
            long s = 0;
            for (int j = 0; j < 2000; j++)
                s += classify(j * 5 + t);
#pragma omp atomic
            tasks += s;
        }
    }
    printf("%ld %ld\n", total, tasks);
    return 0;
}
