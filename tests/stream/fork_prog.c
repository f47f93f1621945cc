/* fork_prog.c - fork in stream mode, for tests/stream-fork-exec.t.
 *
 *   fork_prog P W1 W2 NF C Q [x]
 *
 * main calls pre() P times, starts a thread that calls tw() W1 times and
 * then waits (blocked, its chunk partly filled) while main forks NF
 * children one after the other.  Child k calls in_child() C + k times and
 * exits with exit(0), printing "child K PID"; with `x`, the last child
 * leaves with _exit(0) instead (documented loss: no profile).  After each
 * child, the parent waits for it and calls in_parent() Q times.  Then the
 * thread goes on with W2 more tw() calls, is joined, and the parent prints
 * "parent PID".  Every leaf function has a single path, so by construction
 * (runtime.md, fork: the child starts with the parent's counts):
 *   child k:  pre P, tw W1, in_parent k * Q, in_child C + k
 *   parent:   pre P, tw W1 + W2, in_parent NF * Q, in_child 0 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#define NOINLINE __attribute__((noinline, noclone))
/* waiting loops run a number of times no one can predict: not profiled,
 * so that every process's profile is the same in both modes */
#define NOPROF __attribute__((no_profile_instrument_function, noinline, noclone))
static volatile long sink;
static long W1, W2;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready, go;

NOINLINE long pre(long i) { return sink += i; }
NOINLINE long tw(long i) { return sink += 2 * i; }
NOINLINE long in_child(long i) { return sink += 3 * i; }
NOINLINE long in_parent(long i) { return sink += 4 * i; }

NOPROF static void set_and_wait(int *set, int *until)
{
    pthread_mutex_lock(&mu);
    if (set) {
        *set = 1;
        pthread_cond_broadcast(&cv);
    }
    while (until && !*until)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
}

static void *thread(void *arg)
{
    (void)arg;
    for (long i = 0; i < W1; i++)
        tw(i);
    set_and_wait(&ready, &go);
    for (long i = 0; i < W2; i++)
        tw(i);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 7)
        return 2;
    long P = atol(argv[1]), NF = atol(argv[4]), C = atol(argv[5]), Q = atol(argv[6]);
    int last_quick = argc > 7 && strcmp(argv[7], "x") == 0;
    W1 = atol(argv[2]), W2 = atol(argv[3]);
    for (long i = 0; i < P; i++)
        pre(i);
    pthread_t t;
    if (pthread_create(&t, NULL, thread, NULL) != 0)
        return 1;
    set_and_wait(NULL, &ready);
    for (long k = 0; k < NF; k++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0)
            return 1;
        if (pid == 0) {
            for (long i = 0; i < C + k; i++)
                in_child(i);
            if (last_quick && k == NF - 1) {
                char buf[64];
                int n = snprintf(buf, sizeof buf, "child %ld %ld _exit\n", k, (long)getpid());
                if (write(1, buf, (size_t)n) != n)
                    _exit(1);
                _exit(0);
            }
            printf("child %ld %ld\n", k, (long)getpid());
            exit(0);
        }
        int st;
        if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            return 1;
        for (long i = 0; i < Q; i++)
            in_parent(i);
    }
    set_and_wait(&go, NULL);
    pthread_join(t, NULL);
    printf("parent %ld\n", (long)getpid());
    return 0;
}
