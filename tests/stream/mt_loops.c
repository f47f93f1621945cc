/* mt_loops.c - threads created and joined in loops, for
 * tests/stream-threads.t.  ROUNDS rounds of NT threads; worker(id) runs
 * ITERS iterations (ITERS a multiple of 3): A when (i + id) % 3 == 0
 * (ITERS / 3 per thread), B otherwise; then depth(id + 10), a recursion of
 * id + 10 REC steps and one BASE.  Summed over the ROUNDS * NT threads:
 *   worker A: ROUNDS * NT * ITERS / 3, B: ROUNDS * NT * 2 * ITERS / 3;
 *   worker entries and returns: ROUNDS * NT;
 *   depth REC: ROUNDS * sum(id + 10) = ROUNDS * (NT*(NT-1)/2 + 10*NT),
 *   depth BASE: ROUNDS * NT; at -O0, one depth activation per call
 *   (GCC -O2 turns the recursion into a loop).
 * Each thread updates its own acc[id] only (no data race: the program is
 * also run under ThreadSanitizer).  Prints the sums the threads computed. */
#include <pthread.h>
#include <stdio.h>
#define NOINLINE __attribute__((noinline, noclone))
#define NT 6
#define ROUNDS 7
#define ITERS 21000
static volatile long acc[NT][16];

NOINLINE long depth(long n, long id)
{
    if (n == 0) {
        acc[id][8] += 1; /*@BASE*/
        return 0;
    }
    acc[id][9] += 1; /*@REC*/
    return depth(n - 1, id) + 1;
}

NOINLINE void *worker(void *arg)
{
    long id = (long)arg;
    for (long i = 0; i < ITERS; i++) {
        if ((i + id) % 3 == 0)
            acc[id][0] += 1; /*@A*/
        else
            acc[id][1] += 1; /*@B*/
    }
    acc[id][2] += depth(id + 10, id);
    return NULL;
}

int main(void)
{
    pthread_t t[NT];
    for (long r = 0; r < ROUNDS; r++) {
        for (long k = 0; k < NT; k++)
            if (pthread_create(&t[k], NULL, worker, (void *)k) != 0)
                return 1;
        for (long k = 0; k < NT; k++)
            pthread_join(t[k], NULL);
    }
    long a = 0, b = 0, d = 0;
    for (long k = 0; k < NT; k++)
        a += acc[k][0], b += acc[k][1], d += acc[k][2];
    printf("a %ld b %ld d %ld\n", a, b, d);
    return 0;
}
//! expect worker paths(A) = 7 * 6 * 21000 / 3
//! expect worker paths(B) = 7 * 6 * 2 * 21000 / 3
//! expect worker paths(^) = 7 * 6
//! expect worker paths($) = 7 * 6
//! expect depth paths(REC) = 7 * (6 * 5 / 2 + 10 * 6)
//! expect depth paths(BASE) = 7 * 6
//! expect O0 depth paths(^) = 7 * (6 * 5 / 2 + 10 * 6) + 7 * 6
