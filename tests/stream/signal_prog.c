/* signal_prog.c - instrumented code running in signal handlers
 * (tests/stream-signals.t, docs/streaming.md section 2).
 *
 *   signal_prog N sync    raise(SIGUSR1) every 1000th of N iterations: the
 *                         handler runs at a call, never inside a probe
 *   signal_prog N async   SIGALRM every 20 us from setitimer while the main
 *                         loop runs: handlers interrupt probes anywhere,
 *                         call-free loops included, and their events fill
 *                         and swap chunks under the interrupted probe
 *
 * The handler calls in_handler, which has several paths.  Prints the
 * computation's result (deterministic) on stdout and, on stderr, how many
 * times the handler ran. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static volatile sig_atomic_t handled;
static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long in_handler(unsigned long x)
{
    unsigned long s = 0;
    for (int i = 0; i < 20; i++)
        s += (x >> i) & 1 ? x * 3 : x + 7;
    return s;
}

static void on_signal(int sig)
{
    (void)sig;
    sink += in_handler(sink + (unsigned long)handled);
    handled++;
}

__attribute__((noinline)) static unsigned long work(unsigned long i)
{
    return (i & 3) == 0 ? i * 7 : (i & 3) == 1 ? i ^ 0x55 : i + 1;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[2], "sync") != 0 && strcmp(argv[2], "async") != 0)) {
        fprintf(stderr, "usage: signal_prog N sync|async\n");
        return 2;
    }
    unsigned long n = strtoul(argv[1], NULL, 10);
    int async = strcmp(argv[2], "async") == 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigaction(async ? SIGALRM : SIGUSR1, &sa, NULL);
    if (async) {
        struct itimerval it = {{0, 20}, {0, 20}};
        setitimer(ITIMER_REAL, &it, NULL);
    }
    unsigned long s = 0;
    for (unsigned long i = 0; i < n; i++) {
        s += work(i);
        if (!async && i % 1000 == 0)
            raise(SIGUSR1);
    }
    if (async) {
        struct itimerval off = {{0, 0}, {0, 0}};
        setitimer(ITIMER_REAL, &off, NULL);
    }
    printf("%lu\n", s);
    fprintf(stderr, "handled %d\n", (int)handled);
    return 0;
}
