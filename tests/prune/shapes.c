/* shapes.c - adversarial path streams for the ksf-pruned tests
 * (tests/ksf-prune.t): one loop whose body takes one of 4096 BL paths,
 * chosen by the 12 bits of x, in the order a mode asks for.
 *
 *   shapes single N       one path, N times (one hot n-gram per length)
 *   shapes robin D N      x = 0, 1, ..., D-1 round-robin, N iterations: D
 *                         distinct n-grams of every length, all equally hot
 *   shapes zipf S N       x Zipf-distributed with exponent S over 4096
 *                         values (deterministic generator)
 *   shapes calls N        every iteration calls a function whose own loop
 *                         runs 1-3 times, and recurses every 16th: dense
 *                         routine entries and exits
 *   shapes mixed N        robin, zipf and single phases in turn
 *   shapes fork N         Zipf 0.8 for N/2 iterations, then fork: the
 *                         parent goes on with Zipf, the child round-robin
 *                         over 500 paths, N/2 more each; every summary and
 *                         epoch forest state at the fork goes to both
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned sink;

/* One of 4096 paths: each bit of X takes one side of a branch.  Inlined,
 * so that the paths are iterations of the caller's loop. */
static inline __attribute__((always_inline)) void body(unsigned x)
{
    unsigned a = 0;
    if (x & 1) a += 3; else a ^= 5;
    if (x & 2) a += 7; else a ^= 11;
    if (x & 4) a += 13; else a ^= 17;
    if (x & 8) a += 19; else a ^= 23;
    if (x & 16) a += 29; else a ^= 31;
    if (x & 32) a += 37; else a ^= 41;
    if (x & 64) a += 43; else a ^= 47;
    if (x & 128) a += 53; else a ^= 59;
    if (x & 256) a += 61; else a ^= 67;
    if (x & 512) a += 71; else a ^= 73;
    if (x & 1024) a += 79; else a ^= 83;
    if (x & 2048) a += 89; else a ^= 97;
    sink += a;
}

static unsigned long long rng = 88172645463325252ull;

static inline unsigned long long next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* x^-s for x >= 1, without libm (the test links only the runtime):
 * ln by the atanh series after halving, exp by squaring a short series. */
static double pow_neg(double x, double s)
{
    double ln = 0;
    while (x > 2) {
        x /= 2;
        ln += 0.69314718055994531;
    }
    double z = (x - 1) / (x + 1), z2 = z * z, term = z;
    for (int i = 1; i < 40; i += 2, term *= z2)
        ln += 2 * term / i;
    double y = -s * ln / 1024, e = 1, t = 1;
    for (int i = 1; i < 12; i++)
        e += t *= y / i;
    for (int i = 0; i < 10; i++)
        e *= e;
    return e;
}

/* Zipf sampling by table (inverse CDF at 2^16 points): no loop per
 * sample, so the sampler adds no paths of its own to the stream. */
static unsigned short table[65536];

static void zipf_init(double s)
{
    static double cdf[4096];
    double sum = 0;
    for (int i = 0; i < 4096; i++)
        cdf[i] = sum += pow_neg(i + 1, s);
    int r = 0;
    for (int u = 0; u < 65536; u++) {
        while (r < 4095 && cdf[r] / sum < (u + 0.5) / 65536.0)
            r++;
        /* Scatter the ranks over the bit patterns: hot paths are not
         * neighbours. */
        table[u] = (unsigned short)(((unsigned)r * 2654435761u >> 7) & 4095);
    }
}

static inline unsigned zipf(void)
{
    return table[next() >> 48];
}

static void __attribute__((noinline)) callee(unsigned x, int depth)
{
    for (unsigned i = 0; i <= x % 3; i++)
        body(x + i);
    if (depth < 3 && x % 16 == 0)
        callee(x / 16 + 1, depth + 1);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    const char *mode = argv[1];
    long n = atol(argv[argc - 1]);
    if (strcmp(mode, "single") == 0) {
        for (long i = 0; i < n; i++)
            body(42);
    } else if (strcmp(mode, "robin") == 0 && argc == 4) {
        unsigned d = (unsigned)atol(argv[2]);
        for (long i = 0; i < n; i++)
            body((unsigned)(i % d));
    } else if (strcmp(mode, "zipf") == 0 && argc == 4) {
        zipf_init(atof(argv[2]));
        for (long i = 0; i < n; i++)
            body(zipf());
    } else if (strcmp(mode, "calls") == 0) {
        for (long i = 0; i < n; i++)
            callee((unsigned)next() & 63, 0);
    } else if (strcmp(mode, "mixed") == 0) {
        zipf_init(1.1);
        for (long i = 0; i < n; i++) {
            long phase = i / 5000 % 3;
            body(phase == 0 ? (unsigned)(i % 700) : phase == 1 ? zipf() : 7);
        }
    } else if (strcmp(mode, "fork") == 0) {
        zipf_init(0.8);
        for (long i = 0; i < n / 2; i++)
            body(zipf());
        pid_t child = fork();
        if (child < 0)
            return 3;
        for (long i = 0; i < n / 2; i++)
            body(child == 0 ? (unsigned)(i % 500) : zipf());
        if (child > 0) {
            int st;
            if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
                return 4;
        }
    } else {
        return 2;
    }
    printf("%u\n", sink);
    return 0;
}
