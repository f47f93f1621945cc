/* GCC nested functions: inner() uses outer()'s locals through the static
 * chain and is called through a pointer (a trampoline on the stack).
 * outer(3, 10): inner runs for x = 0..9; IMUL for x = 0, 3, 6, 9 (4);
 * INOT 6.  apply's loop runs 10 iterations. */
#include <stdio.h>
#define NOINLINE __attribute__((noinline, noclone))
volatile int sink;

NOINLINE int apply(int (*f)(int), int n)
{
    int s = 0, i = 0;
    while (i < n) {
        s += f(i);           /*@APPLY*/
        i++;
    }
    return s;
}

NOINLINE int outer(int mult, int n)
{
    int calls = 0;
    int inner(int x)
    {
        calls++;
        if (x % mult == 0) {
            sink += 1;       /*@IMUL*/
            return x;
        }
        sink += 2;           /*@INOT*/
        return 0;
    }
    int r = apply(inner, n);
    sink += 3;               /*@OUTER*/
    return r * 1000 + calls;
}

int main(void)
{
    printf("%d\n", outer(3, 10));
    return 0;
}
//! expect inner paths(IMUL) = 4
//! expect inner paths(INOT) = 6
//! expect inner paths(^ $) = 10
//! expect inner counts() = 4 6
//! expect apply paths(APPLY) = 10
//! expect apply paths(^) = 1
//! expect outer paths(^ OUTER $) = 1
