#include "h.h"

static __attribute__((noinline)) int helper(int n)
{
    return n > 3 ? shared(n) : 0;
}

int b_entry(int n)
{
    int t = 0;
    for (int i = 0; i < n; i++)
        t += helper(i);
    return t;
}
