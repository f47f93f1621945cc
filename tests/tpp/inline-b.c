/* tests/tpp-stats.t: one of two TUs including inline.h (see there). */
#include "inline.h"

unsigned run_b(unsigned n, int other)
{
    unsigned s = 0;
    for (unsigned x = 0; x < n; x++)
        s ^= mix_p(x * 5u, !other) + count_bits_p(x << 20);
    return s;
}
