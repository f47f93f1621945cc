/* tests/tpp-stats.t: one of two TUs including inline.h (see there). */
#include <stdio.h>
#include <string.h>

#define MIX_EXTRA 1
#include "inline.h"

unsigned run_a(unsigned n, int other)
{
    unsigned s = 0;
    for (unsigned x = 0; x < n; x++)
        s += mix_p(x, other) + count_bits_p(x & 0xff);
    return s;
}

int main(int argc, char **argv)
{
    int other = argc > 1 && strcmp(argv[1], "other") == 0;
    unsigned n = other ? 3000 : 2000;
    printf("%u %u\n", run_a(n, other), run_b(n, other));
    return 0;
}
