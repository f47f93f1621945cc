/* mixed.c - a loop whose iterations take one of eight paths (three
 * independent branches on a pseudo-random number) with unequal odds, and
 * a second function with a loop of its own: many k-iteration paths with
 * many different counts and many ties, for ranking tests
 * (tests/cli-kipf-rank.t). */
#include <stdio.h>

static unsigned state = 12345;

static unsigned next(void)
{
    state = state * 1103515245u + 12345u;
    return state >> 16;
}

/* Called on the branches so that GCC cannot turn them into conditional
 * moves: each iteration of work's loop keeps one of eight paths. */
__attribute__((noinline)) static int bump(int acc, int by)
{
    return acc + by;
}

static int work(int n)
{
    int acc = 0;
    for (int i = 0; i < n; i++) {
        unsigned r = next();
        if (r % 3 == 0)
            acc = bump(acc, 3);
        else
            acc = bump(acc, -1);
        if (r % 5 < 2)
            acc = bump(acc, 7);
        if ((r >> 4) % 4 == 0)
            acc = bump(acc, acc);
        acc &= 0xffff;
    }
    return acc;
}

static int spin(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += (i & 1) ? i : -i;
    return s;
}

int main(void)
{
    int acc = work(3000);
    for (int i = 0; i < 40; i++)
        acc += spin(i % 7);
    printf("%d\n", acc);
    return 0;
}
