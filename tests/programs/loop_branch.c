/* A loop with a known branch pattern.
 *
 * loop3(100): the loop header is the `while` test; a path starts at the
 * function entry or at the header (after the back edge) and ends at the
 * return or at the back edge.  i = 0 runs THEN on the path from the entry;
 * i = 3, 6, ..., 99 (33 times) run THEN on a path from the header;
 * the 66 other values of i run ELSE from the header; i = 100 leaves the
 * loop from the header.  loop3(0) goes from the entry straight to RET. */
#include <stdio.h>
#define NOINLINE __attribute__((noinline, noclone))
volatile int sink;

NOINLINE int loop3(int n)
{
    int i = 0, t = 0, e = 0;
    while (i < n) {
        if (i % 3 == 0) {
            sink += 1; t++;  /*@THEN*/
        } else {
            sink += 2; e++;  /*@ELSE*/
        }
        i++;                 /*@LATCH*/
    }
    return t * 1000 + e;     /*@RET*/
}

int main(void)
{
    printf("%d\n", loop3(100));
    printf("%d\n", loop3(0));
    return 0;
}
//! expect loop3 paths(THEN) = 34
//! expect loop3 paths(ELSE) = 66
//! expect loop3 paths(LATCH) = 100
//! expect loop3 paths(RET) = 2
//! expect loop3 paths(^) = 2
//! expect loop3 paths($) = 2
//! expect loop3 paths(>) = 100
//! expect loop3 paths(^ THEN >) = 1
//! expect loop3 paths(!^ THEN >) = 33
//! expect loop3 paths(!^ ELSE >) = 66
//! expect loop3 paths(^ ELSE) = 0
//! expect loop3 paths(!^ RET $) = 1
//! expect loop3 paths(^ RET $) = 1
//! expect loop3 counts() = 1 33 66 1 1
//! expect loop3 total = 1 + 33 + 66 + 1 + 1
//! expect O0 loop3 npaths = 6
//! expect main paths(^ $) = 1
