/* table.c - a small mixing loop with three paths per iteration. */
#include "multi.h"

unsigned table_mix(unsigned seed, unsigned rounds)
{
    unsigned x = seed * 2654435761u + 1;
    for (unsigned r = 0; r < rounds; r++) {
        if (x & 1)
            x = x * 3 + 1;
        else if (x & 2)
            x ^= x >> 3;
        else
            x >>= 1;
    }
    return x;
}
