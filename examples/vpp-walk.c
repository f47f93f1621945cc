/* vpp-walk.c - the worked example of docs/vpp.md: a loop whose one path
 * reads a random element of a 64 MB table on every other iteration.
 * Built with -DPREFETCH the path prefetches the element the generator
 * gives two iterations ahead.  Usage: vpp-walk N */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BIG (64u << 20 >> 3)

static uint64_t small[64];
static uint64_t *big;

__attribute__((noinline)) uint64_t walk(long n)
{
    uint64_t s = 0, rng = 88172645463325252ull, r = 0;
    for (long i = 0; i < n; i++) {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        r = rng;
#ifdef PREFETCH
        /* the generator two iterations ahead, to prefetch its element */
        uint64_t ahead = r;
        for (int k = 0; k < 2; k++) {
            ahead ^= ahead << 13;
            ahead ^= ahead >> 7;
            ahead ^= ahead << 17;
        }
        __builtin_prefetch(&big[ahead % BIG]);
#endif
        uint64_t far = r % BIG, near = r & 63;
        uintptr_t m = -(uintptr_t)(i & 1);
        const uint64_t *base =
            (const uint64_t *)((uintptr_t)small ^ (((uintptr_t)small ^ (uintptr_t)big) & m));
        uint64_t x = base[near ^ ((near ^ far) & m)];
        /* work on the value that the out-of-order window cannot see past */
        for (int k = 0; k < 24; k++)
            x = x * 6364136223846793005ull + (x >> 29);
        s += x;
    }
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000000;
    big = malloc(BIG * sizeof *big);
    if (big == NULL)
        return 1;
    for (uint64_t i = 0; i < BIG; i++)
        big[i] = i * 2654435761u;
    for (unsigned i = 0; i < 64; i++)
        small[i] = i;
    printf("%llu\n", (unsigned long long)walk(n));
    return 0;
}
