/* tests/tpp-stream.t: two threads run the same code at once, whose
 * obvious paths TPP counts in memory (docs/tpp.md, "Streams"): step's
 * first branch is taken 1 time in 1000 (cold at TPP(5, 0)), and each of
 * the two hot paths left has an edge of its own.  The test compares a
 * TPP stream built with update=atomic against a Ball-Larus stream of the
 * same run (exact with threads), and expects a warning from a build with
 * plain increments.  (Conditions on constants: GCC's value profiling
 * would specialise a modulo by a variable on its training value.) */
#include <pthread.h>
#include <stdio.h>

/* noinline: a function of its own, as the paths above describe. */
__attribute__((noinline)) static int step(int x)
{
    int r;
    if (x % 1000 == 0)
        r = 7;
    else
        r = 1;
    if (x & 1)
        r *= 3;
    else
        r += 2;
    return r;
}

static void *work(void *arg)
{
    long s = 0;
    for (int i = 0; i < 200000; i++)
        s += step(i);
    *(long *)arg = s;
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    long s[2];
    for (int i = 0; i < 2; i++)
        if (pthread_create(&t[i], NULL, work, &s[i]) != 0) {
            fprintf(stderr, "threads: pthread_create failed\n");
            return 1;
        }
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%ld %ld\n", s[0], s[1]);
    return 0;
}
