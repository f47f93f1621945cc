/* recurse_longjmp.c - recursion, loops, and longjmp out of several frames
 * (every other time), for tests/trace-e2e.t: its trace's activation stack
 * must end empty with no error, and its path events must add up to the
 * blpp profile's counts. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;
static int hits;

static int fact(int n)
{
    return n <= 1 ? 1 : n * fact(n - 1);
}

/* Loops so that every activation has finished a path before it recurses. */
static void deep(int n)
{
    for (int i = 0; i < 2; i++)
        if (n > 0 && i == 1)
            deep(n - 1);
    if (n == 0 && hits++ % 2)
        longjmp(env, 1);
}

int main(int argc, char **argv)
{
    int s = 0, n = argc > 1 ? atoi(argv[1]) : 50;
    for (int i = 0; i < n; i++) {
        s += fact(i % 7);
        if (setjmp(env) == 0)
            deep(i % 5);
        else
            s++;
    }
    printf("%d\n", s);
    return 0;
}
