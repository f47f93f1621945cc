/* exec_static.c - exec after some work, for tests/os-hazards.t's build
 * variants (-specs, -static).
 *
 *   exec_static [path|search]
 *
 * Runs the Collatz sequence of 27 (111 steps: step() runs 111 times),
 * prints the number of steps, then, with an argument, replaces itself with
 * echo: by its path (execl) or searched on PATH (execlp).  The runtime
 * writes the profile before the exec (docs/runtime.md), so the profile
 * holds step's 111 calls either way. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#define NOINLINE __attribute__((noinline, noclone))

NOINLINE static int step(int x) { return x & 1 ? 3 * x + 1 : x / 2; }

int main(int argc, char **argv)
{
    int n = 27, s = 0;
    while (n != 1) {
        n = step(n);
        s++;
    }
    printf("%d\n", s);
    fflush(stdout);
    if (argc > 1 && strcmp(argv[1], "search") == 0) {
        execlp("echo", "echo", "searched", (char *)0);
        perror("execlp");
        return 1;
    }
    if (argc > 1) {
        execl("/bin/echo", "echo", "by path", (char *)0);
        perror("execl");
        return 1;
    }
    return 0;
}
