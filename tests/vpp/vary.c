/* vary.c - paths of known timing behaviour for tests/vpp.t:
 *   - steady(): its loop path always reads one small array that stays in
 *     the cache: the same time every iteration;
 *   - vary(): its loop path reads, on alternate iterations, a small cached
 *     array or a random element of a 64 MB array (a cache miss, often a
 *     TLB miss too): two very different times for one path;
 *   - spin(): its loop path calls burn(), a fixed chain of WORK dependent
 *     multiply-adds built without instrumentation, whose least time the
 *     program measures itself with the counter ("calibrated T"): the
 *     path's basetime must be T, within the bias's resolution.
 * Usage: vary N WORK.  Prints checksums so nothing is optimized away. */
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
        /* one path: the array and the index are selected with a mask,
           not a branch, so both kinds of iteration take the same path */
        uint64_t r = next();
        uint64_t far = r % BIG, near = r & 63;
        uintptr_t m = -(uintptr_t)(i & 1);
        const uint64_t *base =
            (const uint64_t *)((uintptr_t)small ^ (((uintptr_t)small ^ (uintptr_t)big) & m));
        s += base[near ^ ((near ^ far) & m)];
    }
    return s;
}

/* A fixed amount of work: N dependent multiply-adds.  Built without
 * instrumentation (exclude=burn), so it is part of its caller's path. */
__attribute__((noinline)) uint64_t burn(uint64_t n, uint64_t x)
{
    for (uint64_t i = 0; i < n; i++)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x;
}

/* Its time measured by the program itself: the least of 51 runs. */
static uint64_t calibrate(uint64_t n)
{
    uint64_t best = UINT64_MAX, x = 1;
    for (int k = 0; k < 51; k++) {
        uint64_t t0 = ticks();
        x = burn(n, x);
        uint64_t t = ticks() - t0;
        if (t < best)
            best = t;
    }
    return best + (x == 0);
}

/* One path per iteration: the call of burn. */
__attribute__((noinline)) uint64_t spin(long n, uint64_t work)
{
    uint64_t s = 1;
    for (long i = 0; i < n; i++)
        s = burn(work, s);
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    uint64_t work = argc > 2 ? strtoull(argv[2], 0, 10) : 5000;
    big = malloc(BIG * sizeof *big);
    if (big == NULL)
        return 1;
    for (uint64_t i = 0; i < BIG; i++)
        big[i] = i * 2654435761u;
    for (unsigned i = 0; i < 64; i++)
        small[i] = i;
    uint64_t a = steady(n), b = vary(n), c = spin(n / 100, work);
    printf("%llu %llu %llu\ncalibrated %llu\n", (unsigned long long)a, (unsigned long long)b,
           (unsigned long long)c, (unsigned long long)calibrate(work));
    return 0;
}
