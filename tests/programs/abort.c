/* abort(): the program dies by SIGABRT.  The behaviour must be the
 * uninstrumented one (status 134, same output).  docs/algorithms.md: a
 * process that dies without running atexit handlers writes no profile
 * (like gcov), so none may appear.  (Were one written, it would hold
 * work: W_ODD 2, W_EVEN 3, and main's path ending at the call to abort.) */
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
    while (i < 5) {
        s += work(i);
        i++;
    }
    printf("%d\n", s);
    fflush(stdout);
    if (argc < 5) {
        sink += 3;           /*@ABORT*/
        abort();
    }
    return 0;
}
//! signal 6
//! profile none
//! expect work paths(W_ODD) = 2
//! expect work paths(W_EVEN) = 3
//! expect main paths(ABORT |) = 1
