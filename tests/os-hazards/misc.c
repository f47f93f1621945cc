/* misc.c - ways of ending threads and processes, for tests/os-hazards.t.
 *
 *   misc MODE N
 *
 * Every mode calls work() a number of times it knows and prints that
 * number (stdout, or stderr with write(2) where stdio cannot be used), so
 * the profile's count of work is known by construction:
 *
 *   cancel   a thread calls work() until main cancels it, after N calls
 *            at least (deferred cancellation, at pthread_testcancel between
 *            calls): prints how many it made;
 *   pexit    4 threads call work() N times, then leave by pthread_exit
 *            from 3 calls deep (chain3 -> chain2 -> chain1); so does main,
 *            after joining them: 5 N calls, and chain1..3 never return;
 *   qexit    N calls, then quick_exit(5) with an at_quick_exit handler
 *            that prints; no profile (docs/runtime.md, "What is not
 *            counted");
 *   sigexit  calls work() until SIGALRM (setitimer, every 2 ms) has come
 *            N / 1000 times; the handler then calls exit(7) in the middle
 *            of whatever main runs: prints how many calls were made;
 *   chdir    N calls, then chdir("sub") and closes fds 0, 1, 2 (a daemon):
 *            the profile still goes where PATHPROF_OUT named at start-up;
 *   sigmask  blocks every signal before anything else, then runs the
 *            pexit work with its threads (the runtime's threads inherit
 *            the mask);
 *   clone    a raw clone(CLONE_VM) child on its own stack calls work() N
 *            times while the parent waits for it, then the parent N times:
 *            2 N calls, all counted in the parent's profile. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#define NOINLINE __attribute__((noinline, noclone))
static volatile long sink;
static long calls;
static long n;

NOINLINE static long work(long i)
{
    __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
    return sink += i & 3 ? i : -i;
}

/* ---- cancel */
static volatile int started;
static void *cancel_thread(void *arg)
{
    (void)arg;
    for (long i = 0;; i++) {
        pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
        work(i);
        if (i + 1 == n)
            started = 1;
        pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
        pthread_testcancel();
    }
    return NULL;
}

static int cancel_mode(void)
{
    pthread_t t;
    pthread_create(&t, NULL, cancel_thread, NULL);
    while (!started)
        sched_yield();
    pthread_cancel(t);
    void *r;
    pthread_join(t, &r);
    printf("cancelled: %s, calls %ld\n", r == PTHREAD_CANCELED ? "yes" : "no", calls);
    return 0;
}

/* ---- pexit */
NOINLINE static void chain1(long k)
{
    for (long i = 0; i < k; i++)
        work(i);
    pthread_exit(NULL);
}
NOINLINE static void chain2(long k) { chain1(k); }
NOINLINE static void chain3(long k) { chain2(k); }
static void *pexit_thread(void *arg)
{
    chain3((long)arg);
    return NULL;
}

static void pexit_mode(void)
{
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, pexit_thread, (void *)n);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    printf("threads done, calls %ld\n", calls);
    fflush(stdout);
    chain3(n); /* main leaves by pthread_exit too: the process exits with 0 */
}

/* ---- qexit */
static void at_qexit(void) { printf("at_quick_exit ran, calls %ld\n", calls); fflush(stdout); }

/* ---- sigexit */
static volatile sig_atomic_t alarms;
/* Not instrumented: an instrumented handler interrupting probes is safe
 * but not exact (docs/streaming.md, section 2), and this one interrupts
 * main anywhere. */
__attribute__((no_profile_instrument_function)) static void on_alarm(int sig)
{
    (void)sig;
    if (++alarms < n / 1000)
        return;
    char b[64];
    int len = snprintf(b, sizeof b, "exit from the handler, calls %ld\n", calls);
    if (write(2, b, (size_t)len) < 0)
        _exit(9);
    exit(7);
}

/* ---- clone */
static int clone_child(void *arg)
{
    (void)arg;
    for (long i = 0; i < n; i++)
        work(i);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: misc cancel|pexit|qexit|sigexit|chdir|sigmask|clone N\n");
        return 2;
    }
    const char *mode = argv[1];
    n = atol(argv[2]);
    if (strcmp(mode, "cancel") == 0)
        return cancel_mode();
    if (strcmp(mode, "pexit") == 0)
        pexit_mode();
    if (strcmp(mode, "qexit") == 0) {
        at_quick_exit(at_qexit);
        for (long i = 0; i < n; i++)
            work(i);
        quick_exit(5);
    }
    if (strcmp(mode, "sigexit") == 0) {
        signal(SIGALRM, on_alarm);
        struct itimerval it = {{0, 2000}, {0, 2000}};
        setitimer(ITIMER_REAL, &it, NULL);
        for (long i = 0;; i++)
            work(i);
    }
    if (strcmp(mode, "chdir") == 0) {
        for (long i = 0; i < n; i++)
            work(i);
        printf("calls %ld\n", calls);
        fflush(stdout);
        if (chdir("sub") != 0) {
            perror("chdir sub");
            return 1;
        }
        close(0);
        close(1);
        close(2);
        return 0;
    }
    if (strcmp(mode, "sigmask") == 0) {
        sigset_t all;
        sigfillset(&all);
        sigprocmask(SIG_BLOCK, &all, NULL);
        pexit_mode();
    }
    if (strcmp(mode, "clone") == 0) {
        static char stack[256 * 1024] __attribute__((aligned(16)));
        pid_t c = clone(clone_child, stack + sizeof stack, CLONE_VM | SIGCHLD, NULL);
        int st;
        if (c < 0 || waitpid(c, &st, 0) != c || st != 0) {
            perror("clone");
            return 1;
        }
        for (long i = 0; i < n; i++)
            work(i);
        printf("calls %ld\n", calls);
        return 0;
    }
    fprintf(stderr, "misc: unknown mode %s\n", mode);
    return 2;
}
