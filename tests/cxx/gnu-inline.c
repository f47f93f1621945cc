/* gnu-inline.c - the C form of tests/cxx/extern-template.cc: step() is
   gnu_inline (glibc's __extern_inline), so its out-of-line copy is
   gnu-inline-lib.c's, built without pathprof; one caller inlines it
   (flatten), the other calls that copy. Prints how many times step ran.
   tests/cxx-extern-template.t. */
#include <stdio.h>
#include <stdlib.h>

extern inline __attribute__((gnu_inline)) int step(int x)
{
    if (x % 3 == 0)
        return x * 2;
    return -x;
}

__attribute__((flatten, noinline)) static int inlined_calls(int n)
{
    int r = 0;
    for (int i = 0; i < n; i++)
        r += step(i);
    return r;
}

__attribute__((noinline, optimize("no-inline"))) static int library_calls(int n)
{
    int r = 0;
    for (int i = 0; i < n; i++)
        r += step(i);
    return r;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int r = inlined_calls(n) + library_calls(n);
    printf("step ran %d times (%d)\n", 2 * n, r);
    return 0;
}
