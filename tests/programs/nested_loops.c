/* Nested loops: nest(10) runs the inner loop i times for i = 0..9
 * (45 inner iterations), and its branch on the parity of i + j.
 *   ODD: pairs j < i with i + j odd: sum over i of (i+1)/2 rounded down
 *        = 0+1+1+2+2+3+3+4+4+5 = 25;  EVEN: 45 - 25 = 20.
 * Paths (headers: the outer test Ho and the inner test Hi):
 *   entry -> Ho -> OUTER -> Hi -> OLATCH -> back to Ho          i = 0:   1
 *   Ho -> OUTER -> Hi -> first inner iteration -> back to Hi     i odd:   5 (ODD)
 *                                                                i even:  4 (EVEN, i = 2..8)
 *   Hi -> ODD -> back to Hi: 25 - 5 = 20;  Hi -> EVEN -> back: 20 - 4 = 16
 *   Hi -> OLATCH -> back to Ho: inner loop left, i = 1..9:       9
 *   Ho -> return: 1 */
#include <stdio.h>
#define NOINLINE __attribute__((noinline, noclone))
volatile int sink;

NOINLINE long nest(int n)
{
    long s = 0;
    int i = 0;
    while (i < n) {
        int j = 0;
        sink += 7;           /*@OUTER*/
        while (j < i) {
            if ((i + j) & 1) {
                sink += 1;   /*@ODD*/
            } else {
                sink += 2;   /*@EVEN*/
            }
            s += j;          /*@ILATCH*/
            j++;
        }
        i++;                 /*@OLATCH*/
    }
    return s;
}

int main(void)
{
    printf("%ld\n", nest(10));
    return 0;
}
//! expect nest paths(ODD) = 25
//! expect nest paths(EVEN) = 20
//! expect nest paths(OUTER) = 10
//! expect nest paths(OLATCH) = 10
//! expect nest paths(ILATCH) = 45
//! expect nest paths(^) = 1
//! expect nest paths($) = 1
//! expect nest paths(>) = 10 + 45
//! expect nest paths(^ OUTER OLATCH >) = 1
//! expect nest paths(!^ OUTER ODD >) = 5
//! expect nest paths(!^ OUTER EVEN >) = 4
//! expect nest paths(!OUTER ODD >) = 20
//! expect nest paths(!OUTER EVEN >) = 16
//! expect nest paths(!^ !OUTER OLATCH >) = 9
//! expect nest counts() = 1 5 4 20 16 9 1
