/* tiny.c - the program tests/perfctl.t measures with perfctl: a sieve and a
 * histogram of a pseudo-random walk, a few loops and branches, a checksum
 * on stdout. TINY_BREAK=1 in the environment changes the output: the test's
 * deliberately broken configuration.
 *   tiny [N]   default 200000 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned sieve(unsigned n, unsigned char *composite)
{
    unsigned primes = 0;
    memset(composite, 0, n + 1);
    for (unsigned i = 2; i <= n; i++) {
        if (composite[i])
            continue;
        primes++;
        for (uint64_t j = (uint64_t)i * i; j <= n; j += i)
            composite[j] = 1;
    }
    return primes;
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 200000;
    unsigned char *c = malloc((size_t)n + 1);
    if (!c)
        return 1;
    uint64_t sum = 0, x = 88172645463325252ull;
    unsigned hist[16] = {0};
    for (int round = 0; round < 8; round++) {
        sum += sieve(n, c);
        for (unsigned i = 0; i < n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            if (x & 1)
                hist[x % 16]++;
            else if (x & 2)
                hist[(x >> 8) % 16] += 2;
            else
                sum += x % 7;
        }
    }
    for (int i = 0; i < 16; i++)
        sum = sum * 31 + hist[i];
    const char *b = getenv("TINY_BREAK");
    printf("tiny %u %llu%s\n", n, (unsigned long long)sum, b && *b == '1' ? " broken" : "");
    free(c);
    return 0;
}
