/* fork_child.c - fork in the middle of a run, for tests/trace-e2e.t: the
 * child's trace (%p) starts with the parent's events up to the fork, like
 * its profile starts with the parent's counts, and both go on apart. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int work(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += (i & 1) ? i : -i;
    return s;
}

int main(void)
{
    int s = 0;
    for (int i = 0; i < 20000; i++) /* more than a chunk and a trace buffer */
        s += work(i % 50);
    pid_t child = fork();
    for (int i = 0; i < (child == 0 ? 100 : 300); i++)
        s += work(i % 7);
    if (child > 0)
        waitpid(child, NULL, 0);
    printf("%s %d %ld\n", child == 0 ? "child" : "parent", s, (long)getpid());
    return 0;
}
