/* vfork_child.c - a vfork child that runs instrumented code before its
 * exec, as dash builds an exec's environment in its vfork child
 * (tests/stream-vfork.t). The child's events go through its parent
 * thread's stream; counting mode counts them in the shared counters.
 *
 *   vfork_child N   the child runs work(N), then execs /bin/true */
#include <stdio.h>
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

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    int s = work(100);
    pid_t p = vfork();
    if (p == 0) {
        if (work(n) < 0) /* never: keeps the call */
            _exit(3);
        execl("/bin/true", "true", (char *)0);
        _exit(127);
    }
    int status = 0;
    if (p < 0 || waitpid(p, &status, 0) != p || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "vfork_child: the child failed\n");
        return 1;
    }
    s += work(100);
    printf("%d\n", s);
    return 0;
}
