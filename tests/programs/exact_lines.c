/* exact_lines.c - lines a path runs, exactly (tests/cli-exact-lines.t):
 * comments and `#if 0` code between statements, and a helper inlined into
 * classify() from above it, so that a block's range of lines holds lines
 * that never run and lines of another function. */
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;

static inline __attribute__((always_inline)) int twice(int x)
{
    /* The helper's comment: never a line that runs. */
    return 2 * x; /* TWICE */
}

/* Between the helper and its caller: never runs. */
__attribute__((noinline)) int unused_between(int x)
{
    return x - 1; /* UNUSED */
}

__attribute__((noinline)) int classify(int v)
{
    int r = 0;
    /* A comment between two statements:
       it never runs. */
    if (v % 3 == 0) {
        sink = 1; /*@THREE*/
#if 0
        sink = 99; /* DISABLED: never compiled */
#endif
        r += twice(v);
    } else {
        // a line comment: COMMENT
        sink = 2; /*@OTHER*/
    }
#if 0
    r = -1; /* DISABLED */
#else
    r += 1;
#endif
    if (v & 1)
        sink = 3; /*@ODD*/
    return r;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 12;
    int s = 0;
    for (int i = 0; i < n; i++)
        s += classify(i);
    if (argc > 5)
        s += unused_between(s);
    printf("%d\n", s);
    return 0;
}
//! run 12
//! expect classify total = 12
//! expect classify paths(THREE) = 4
//! expect classify paths(OTHER) = 8
//! expect classify paths(ODD) = 6
//! expect classify paths(THREE ODD) = 2
//! expect classify paths(^ $) = 12
