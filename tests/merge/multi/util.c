/* util.c - decimal digits of a number, with a leading-zero case. */
#include "multi.h"

unsigned util_digits(unsigned long v)
{
    unsigned n = 0;
    if (v == 0)
        return 1;
    while (v) {
        n += (v % 10 == 7) ? 2 : 1;
        v /= 10;
    }
    return n;
}
