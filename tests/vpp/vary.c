/* vary.c - paths of known timing behaviour for tests/vpp.t:
 *   - steady(): its loop path always reads one small array that stays in
 *     the cache: the same time every iteration;
 *   - vary(): its loop path reads, on alternate iterations, a small cached
 *     array or a random element of a 64 MB array (a cache miss, often a
 *     TLB miss too): two very different times for one path;
 *   - spin(): its loop path spins on the cycle counter for SPIN ticks:
 *     its basetime is SPIN plus a little.
 * Usage: vary N SPIN.  Prints a checksum so nothing is optimized away. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BIG (64u << 20 >> 3) /* 64 MB of uint64_t */

static uint64_t small[64];
static uint64_t *big;

static inline uint64_t ticks(void)
{
#if defined(__x86_64__)
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
#elif defined(__aarch64__)
    uint64_t v;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v));
    return v;
#else
#error "vary.c needs a cycle counter"
#endif
}

static uint64_t rng = 88172645463325252ull;

static inline uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

__attribute__((noinline)) uint64_t steady(long n)
{
    uint64_t s = 0;
    for (long i = 0; i < n; i++)
        s += small[(s + (uint64_t)i) & 63];
    return s;
}

__attribute__((noinline)) uint64_t vary(long n)
{
    uint64_t s = 0;
    for (long i = 0; i < n; i++) {
        /* one path: the index is computed, not branched on */
        uint64_t r = next();
        uint64_t far = r % BIG, near = r & 63;
        uint64_t *base = (i & 1) ? big : small;
        s += base[(i & 1) ? far : near];
    }
    return s;
}

__attribute__((noinline)) uint64_t spin(long n, uint64_t cycles)
{
    uint64_t s = 0;
    for (long i = 0; i < n; i++) {
        uint64_t t0 = ticks();
        while (ticks() - t0 < cycles)
            s++;
    }
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    uint64_t cycles = argc > 2 ? strtoull(argv[2], 0, 10) : 20000;
    big = malloc(BIG * sizeof *big);
    if (big == NULL)
        return 1;
    for (uint64_t i = 0; i < BIG; i++)
        big[i] = i * 2654435761u;
    for (unsigned i = 0; i < 64; i++)
        small[i] = i;
    uint64_t a = steady(n), b = vary(n), c = spin(n / 100, cycles);
    printf("%llu %llu %llu\n", (unsigned long long)a, (unsigned long long)b,
           (unsigned long long)(c != 0));
    return 0;
}
