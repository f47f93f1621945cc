/* switch with a fall-through, a multi-label case and a default.
 * sw(i % 10) for i = 0..99: every value 0..9 ten times.
 *   C0: x=0 (10)   C1 -> C2: x=1 (10)   C2 alone: x=2 (10)
 *   C567: x=5,6,7 share one label, so one path (30)
 *   DEF: x=3,4,8,9 (40) */
#include <stdio.h>
#define NOINLINE __attribute__((noinline, noclone))
volatile int sink;

NOINLINE int sw(int x)
{
    int r = 0;
    switch (x) {
    case 0:
        sink += 1;           /*@C0*/
        r = 10;
        break;
    case 1:
        sink += 2;           /*@C1*/
        /* fall through */
    case 2:
        sink += 3;           /*@C2*/
        r += 20;
        break;
    case 5:
    case 6:
    case 7:
        sink += 4;           /*@C567*/
        r = 30;
        break;
    default:
        sink += 5;           /*@DEF*/
        r = -1;
        break;
    }
    return r;
}

int main(void)
{
    int i, t = 0;
    for (i = 0; i < 100; i++)
        t += sw(i % 10);
    printf("%d\n", t);
    return 0;
}
//! expect sw paths(C0) = 10
//! expect sw paths(C1) = 10
//! expect sw paths(C2) = 20
//! expect sw paths(C1 C2) = 10
//! expect sw paths(!C1 C2) = 10
//! expect sw paths(C567) = 30
//! expect sw paths(DEF) = 40
//! expect sw paths(^ $) = 100
//! expect sw counts() = 10 10 10 30 40
