/* omp_loop.c - OpenMP parallel loops, for tests/stream-threads.t (run
 * with OMP_NUM_THREADS=4, OMP_DYNAMIC=false).  REGIONS parallel regions,
 * each a statically scheduled loop of N iterations calling body(i): A when
 * i % 5 == 0 (N / 5), B otherwise.  libgomp keeps its pool threads alive
 * and parked until exit, so their last events are still in their chunks
 * when the process ends.  By construction:
 *   body A: REGIONS * N / 5, B: REGIONS * 4 * N / 5, body entries: REGIONS * N;
 *   the outlined region function runs once per thread per region. */
#include <omp.h>
#include <stdio.h>
#define NOINLINE __attribute__((noinline, noclone))
#define REGIONS 30
#define N 20000
static volatile long sink;

NOINLINE long body(long i)
{
    if (i % 5 == 0) {
        sink += 1; /*@A*/
        return i;
    }
    sink += 2; /*@B*/
    return -i;
}

int main(void)
{
    long total = 0;
    int threads = 0;
    for (int r = 0; r < REGIONS; r++) {
        long s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
        for (long i = 0; i < N; i++)
            s += body(i);
        total += s;
#pragma omp parallel
        {
#pragma omp single
            threads = omp_get_num_threads();
        }
    }
    printf("threads %d total %ld\n", threads, total);
    return 0;
}
//! expect body paths(A) = 30 * 20000 / 5
//! expect body paths(B) = 30 * 4 * 20000 / 5
//! expect body paths(^) = 30 * 20000
//! expect body total = 30 * 20000
