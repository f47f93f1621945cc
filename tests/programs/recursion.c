/* Recursion: each activation has its own path register.
 * fib(15): the call tree has F(16) = 987 leaves (BASE) and 986 inner
 * calls (REC), 1973 calls in all, each one path from entry to return.
 * The volatile store after the calls keeps GCC from turning the
 * recursion into a loop (tail recursion with an accumulator).
 * is_even(10) -> is_odd(9) -> ... -> is_even(0): is_even runs 6 times
 * (5 recursing, 1 base), is_odd 5 times (all recursing). */
#include <stdio.h>
#define NOINLINE __attribute__((noinline, noclone))
volatile int sink;

NOINLINE int fib(int n)
{
    if (n < 2) {
        sink += 1;                     /*@BASE*/
        return n;
    }
    int r = fib(n - 1) + fib(n - 2);   /*@REC*/
    sink = r;
    return r;
}

NOINLINE int is_odd(int n);
NOINLINE int is_even(int n)
{
    if (n == 0) {
        sink += 2;                     /*@EVEN0*/
        return 1;
    }
    sink += 3;                         /*@EVENR*/
    return is_odd(n - 1);
}

NOINLINE int is_odd(int n)
{
    if (n == 0) {
        sink += 4;                     /*@ODD0*/
        return 0;
    }
    sink += 5;                         /*@ODDR*/
    return is_even(n - 1);
}

int main(void)
{
    printf("fib %d\n", fib(15));
    printf("even %d\n", is_even(10));
    return 0;
}
//! expect fib paths(BASE) = 987
//! expect fib paths(REC) = 986
//! expect fib paths(^ $) = 987 + 986
//! expect fib counts() = 987 986
//! expect is_even paths(EVEN0) = 1
//! expect is_even paths(EVENR) = 5
//! expect is_even counts() = 1 5
//! expect is_odd paths(ODD0) = 0
//! expect is_odd paths(ODDR) = 5
//! expect is_odd counts() = 5
