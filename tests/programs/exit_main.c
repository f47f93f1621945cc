/* exit() called from main: main's last path ends at the noreturn call to
 * exit (counted before the call), and the runtime writes the profile at
 * exit.  work(i), i = 0..10: W_ODD 5, W_EVEN 6. */
#include <stdio.h>
#include <stdlib.h>
#define NOINLINE __attribute__((noinline, noclone))
volatile int sink;

NOINLINE int work(int i)
{
    if (i & 1) {
        sink += 1;           /*@W_ODD*/
        return 1;
    }
    sink += 2;               /*@W_EVEN*/
    return 2;
}

int main(int argc, char **argv)
{
    int i = 0, s = 0;
    (void)argv;
    while (i < 11) {
        s += work(i);        /*@BODY*/
        i++;
    }
    printf("%d\n", s);
    if (argc < 5) {
        sink += 3;           /*@EXIT*/
        exit(7);
    }
    sink += 4;               /*@RETURN*/
    return 0;
}
//! status 7
//! expect work paths(W_ODD) = 5
//! expect work paths(W_EVEN) = 6
//! expect work paths(^ $) = 11
//! expect main paths(BODY) = 11
//! expect main paths(EXIT) = 1
//! expect main paths(EXIT |) = 1
//! expect main paths(RETURN) = 0
//! expect main paths($) = 0
//! expect main paths(^) = 1
