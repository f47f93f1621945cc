/* calc.c - a library whose paths are known by construction: for x in
 * 0..n-1, calc_classify takes its "multiple of 3" path ceil(n/3) times,
 * its "even" path as often as there are even non-multiples of 3, its
 * "odd" path for the rest (tests/build-systems/lib.sh checks them).
 * noinline: GCC inlines small functions before the plugin's pass (as
 * before -fprofile-generate's), and an inlined copy's paths are its
 * caller's; in a shared library (-fPIC) it is not inlined anyway. */
#include "calc.h"

__attribute__((noinline)) int calc_classify(int x)
{
    if (x % 3 == 0)
        return 3;
    if (x % 2 == 0)
        return 2;
    return 1;
}

long calc_sum(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += calc_classify(i);
    return s;
}
