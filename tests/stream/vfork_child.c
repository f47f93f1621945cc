/* vfork_child.c - a vfork child that runs instrumented code before its
 * exec, as dash builds an exec's environment in its vfork child
 * (tests/stream-vfork.t). The child's events go through its parent
 * thread's stream; counting mode counts them in the shared counters.
 *
 *   vfork_child N          the child runs work(N), then execs /bin/true
 *   vfork_child N thread   the same from a new thread whose first events
 *                          are its child's: it had no channel at the vfork */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static int step(int i) { return i % 3 == 0 ? i / 3 : i + 1; }

__attribute__((noinline)) static int work(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += step(i);
    return s;
}

/* 0 when the child ran work(N) and exec'd, else 1. Not instrumented, as
 * a library's vfork would be: no event of the thread's precedes the
 * vfork (an instrumented call site ends a path there, returns_twice). */
__attribute__((noinline, no_profile_instrument_function)) static int spawn(int n)
{
    pid_t p = vfork();
    if (p == 0) {
        if (work(n) < 0) /* never: keeps the call */
            _exit(3);
        execl("/bin/true", "true", (char *)0);
        _exit(127);
    }
    int status = 0;
    return p < 0 || waitpid(p, &status, 0) != p || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

static int child_n;

static void *spawner(void *arg)
{
    (void)arg;
    return (void *)(intptr_t)spawn(child_n);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    int s = work(100), failed;
    if (argc > 2 && strcmp(argv[2], "thread") == 0) {
        pthread_t t;
        void *r = (void *)1;
        child_n = n;
        failed = pthread_create(&t, NULL, spawner, NULL) != 0 || pthread_join(t, &r) != 0 || r != NULL;
    } else {
        failed = spawn(n);
    }
    if (failed) {
        fprintf(stderr, "vfork_child: the child failed\n");
        return 1;
    }
    s += work(100);
    printf("%d\n", s);
    return 0;
}
