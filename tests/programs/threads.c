/* Threads created and joined in loops: 3 rounds of 4 threads; worker(id)
 * runs 100000 iterations, branch A when (i + id) % 4 == 0 (25000 per
 * thread), B otherwise (75000).  Counts summed over the 12 threads:
 *   entry -> A -> back edge: only id 0 (i = 0): 3 (one per round)
 *   entry -> B -> back edge: ids 1, 2, 3: 9
 *   header -> A: 12 * 25000 - 3;  header -> B: 12 * 75000 - 9
 *   header -> return: 12
 * Built with -fprofile-update=atomic, which the plugin follows
 * (tests/threads-defaults.t checks -pthread alone makes it atomic too). */
#include <pthread.h>
#include <stdio.h>
#define NOINLINE __attribute__((noinline, noclone))
#define NT 4
#define ROUNDS 3
#define ITERS 100000
static volatile long acc[NT][16];

NOINLINE void *worker(void *arg)
{
    long id = (long)arg;
    long i = 0;
    while (i < ITERS) {
        if ((i + id) % 4 == 0) {
            acc[id][0] += 1; /*@A*/
        } else {
            acc[id][1] += 1; /*@B*/
        }
        i++;
    }
    return NULL;
}

int main(void)
{
    pthread_t t[NT];
    long r, k, a = 0, b = 0;
    for (r = 0; r < ROUNDS; r++) {
        for (k = 0; k < NT; k++)
            if (pthread_create(&t[k], NULL, worker, (void *)k) != 0)
                return 1;
        for (k = 0; k < NT; k++)
            pthread_join(t[k], NULL);
    }
    for (k = 0; k < NT; k++) {
        a += acc[k][0];
        b += acc[k][1];
    }
    printf("a %ld b %ld\n", a, b);
    return 0;
}
//! cflags -pthread -fprofile-update=atomic
//! expect worker paths(A) = 3 * 4 * 25000
//! expect worker paths(B) = 3 * 4 * 75000
//! expect worker paths(^ A) = 3
//! expect worker paths(^ B) = 9
//! expect worker paths(^) = 12
//! expect worker paths($) = 12
//! expect worker counts() = 3 9 (12*25000-3) (12*75000-9) 12
