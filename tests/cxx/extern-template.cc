// extern-template.cc - calls Acc<int>::add, whose body is available for
// inlining but whose out-of-line copy is acc-lib.cc's: once from a
// function that inlines everything (flatten) and once from one that
// inlines nothing, so one caller runs an inlined copy of the body and the
// other the library's. Prints how many times add ran in all.
#include <cstdio>
#include <cstdlib>
#include "acc.h"

__attribute__((flatten, noinline)) static int inlined_calls(Acc<int> &a, int n)
{
    int r = 0;
    for (int i = 0; i < n; i++)
        r += a.add(i);
    return r;
}

__attribute__((noinline, optimize("no-inline"))) static int library_calls(Acc<int> &a, int n)
{
    int r = 0;
    for (int i = 0; i < n; i++)
        r += a.add(i);
    return r;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    Acc<int> a;
    int r = inlined_calls(a, n) + library_calls(a, n);
    printf("add ran %d times (%d)\n", 2 * n, r);
    return 0;
}
