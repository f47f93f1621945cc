/* overwrite_prog.c - an instrumented asynchronous signal handler that
 * lands inside probes (tests/stream-signal-overwrite.t, docs/streaming.md
 * section 2).  main's loop makes no call, so the compiler keeps the
 * stream cursor in a register from one iteration's probe to the next: a
 * SIGALRM (setitimer, every 3 ms) that comes between a probe's load of
 * the cursor and its store runs on_alarm, whose one-path event goes where
 * the loop's next event then goes too.  Prints the loop's result
 * (deterministic) on stdout and how many times the handler ran on stderr;
 * by construction on_alarm's path ran that often and main's loop N + 1
 * paths. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
    (void)sig;
    alarms++;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 900000;
    signal(SIGALRM, on_alarm);
    struct itimerval it = {{0, 3000}, {0, 3000}};
    setitimer(ITIMER_REAL, &it, NULL);
    unsigned long x = 88172645463325252ull, s = 0;
    for (long i = 0; i < n; i++) {
        for (int r = 0; r < 4; r++) { /* unrolled: no event of its own */
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x *= 0x9E3779B97F4A7C15ull;
        }
        if (x & 1)
            s += x;
        else
            s ^= x;
    }
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    printf("%lu\n", s);
    fprintf(stderr, "handled %d\n", (int)alarms);
    return 0;
}
