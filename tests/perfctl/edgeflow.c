/* tests/perfctl-edgeflow.t: what perfctl/lib/edgeflow.pl must tell apart
 * in a counting-mode `verify` build.  argv[1] says what main does after
 * N (argv[2]) rounds of ordinary work:
 *   ret    returns from main: every activation completes its path;
 *   exit   calls exit() from depth 3 (deep -> deeper -> deepest): the
 *          activations of main, deep and deeper are abandoned (deepest's
 *          path ends at the call of exit, noreturn: a path end);
 *   fork   forks K (argv[3]) times from inside spawn(), mid-path: each
 *          fork's path in spawn, and main's through the call of spawn,
 *          end in parent and child, counted in both. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;

__attribute__((noinline)) static int work(int i)
{
    int s = 0;
    for (int j = 0; j < 10; j++)
        s += (i + j) % 3 ? j : -j;
    return s;
}

__attribute__((noinline)) static void deepest(int v)
{
    if (v >= 0)
        exit(0);
    sink = v;
}

__attribute__((noinline)) static void deeper(int v)
{
    if (v > -5)
        deepest(v);
    sink = v + 1;
}

__attribute__((noinline)) static void deep(int v)
{
    if (v > -10)
        deeper(v);
    sink = v + 2;
}

__attribute__((noinline)) static void spawn(int k)
{
    if (k > 0) {
        pid_t p = fork();
        if (p == 0)
            return; /* the child completes this path too, then exits */
        waitpid(p, NULL, 0);
    }
    sink = k;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int n = atoi(argv[2]);
    for (int i = 0; i < n; i++)
        sink += work(i);
    if (argv[1][0] == 'e')
        deep(1);
    if (argv[1][0] == 'f') {
        int k = argc > 3 ? atoi(argv[3]) : 1;
        for (int i = 0; i < k; i++) {
            pid_t me = getpid();
            spawn(1);
            if (getpid() != me)
                return 0; /* a child: written at its exit, summed */
        }
    }
    printf("%d\n", sink);
    return 0;
}
