/* forks.c - the program of tests/runtime-accumulate-fork.t: `forks N C`
 * walks step() over 0..N-1, forks C children one after the other (each
 * walks its own stretch and ends with exit, writing its profile; the
 * parent waits for it), then walks once more; `forks N C seq` does the
 * same walks in one process without forking.  So the paths of step() run
 * the same number of times either way, and the profiles the forking run
 * accumulates must add up to the sequential run's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static __attribute__((noinline)) int step(int i)
{
    if (i % 3 == 0)
        return 3;
    if (i % 2 == 0)
        return 2;
    return 1;
}

/* Not inlined: its loop's k-iteration paths are its own, whatever the
 * build (tests/runtime-accumulate-fork.t compares them). */
static __attribute__((noinline)) long walk(int from, int n)
{
    long s = 0;
    for (int i = from; i < from + n; i++)
        s += step(i);
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int children = argc > 2 ? atoi(argv[2]) : 2;
    int seq = argc > 3 && strcmp(argv[3], "seq") == 0;
    long s = walk(0, n);
    for (int c = 1; c <= children; c++) {
        /* Stretches of different lengths and phases: each child's paths
         * differ from the parent's before the fork. */
        if (seq) {
            s += walk(c * n, n / (c + 1));
            continue;
        }
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 1;
        }
        if (pid == 0) {
            printf("child %d %ld\n", c, walk(c * n, n / (c + 1)));
            exit(0);
        }
        int status;
        if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
            return 1;
    }
    s += walk(7 * n, n / 2);
    printf("%ld\n", s);
    return 0;
}
