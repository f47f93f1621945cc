/* branchy.c - ten independent branches in one function, so 1024 paths,
 * of which the input picks the set that runs: each call's branches follow
 * the bits of a pseudo-random value ANDed with the mask given as argv[1]
 * (0xf: 16 paths; 0x3ff: all 1024). tests/ppp-e2e.t trains PPP on one mask
 * and runs another. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned mix(unsigned v)
{
    unsigned s = 0;
    if (v & 1) s += 3;
    if (v & 2) s ^= 5;
    if (v & 4) s += 7;
    if (v & 8) s ^= 11;
    if (v & 16) s += 13;
    if (v & 32) s ^= 17;
    if (v & 64) s += 19;
    if (v & 128) s ^= 23;
    if (v & 256) s += 29;
    if (v & 512) s ^= 31;
    return s;
}

int main(int argc, char **argv)
{
    unsigned mask = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 0xf;
    unsigned n = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 20000;
    unsigned x = 12345, sum = 0;
    for (unsigned i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        sum += mix((x >> 8) & mask);
    }
    printf("%u\n", sum);
    return 0;
}
