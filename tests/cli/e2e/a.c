#include <stdio.h>
#include "h.h"

static __attribute__((noinline)) int helper(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += shared(i);
    return s;
}

int main(void)
{
    printf("%d %d\n", helper(10), b_entry(7));
    return 0;
}
