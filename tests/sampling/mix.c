/* A loop whose branches follow a pseudo-random sequence, and a signal
 * handler with a loop of its own (tests/sampling-rates.t).  The paths and
 * their exact counts are whatever PATHPROF_SAMPLE=1/1 gives (which
 * tests/sampling-exact.t shows is the unsampled profile); a sampled run
 * must estimate them. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#define NOINLINE __attribute__((noinline, noclone))
volatile unsigned long sink;
static volatile sig_atomic_t handled;

NOINLINE static void on_signal(int sig)
{
    for (int i = 0; i < 3; i++)
        sink += (unsigned long)sig + (unsigned long)i;
    handled++;
}

NOINLINE static unsigned step(unsigned x)
{
    x = x * 1103515245u + 12345u;
    unsigned r = (x >> 16) & 7;
    if (r < 4)
        sink += 1;
    else if (r < 6)
        sink += 2;
    else if (r == 6)
        sink += 3;
    else
        sink += 5;
    return x;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    unsigned x = 1;
    signal(SIGUSR1, on_signal);
    for (long i = 0; i < n; i++) {
        x = step(x);
        if (i % 1000 == 999)
            raise(SIGUSR1);
    }
    printf("%lu %d\n", sink, (int)handled);
    return 0;
}
