/* spawn_prog.c - starting another program without replacing this one,
 * for tests/stream-exec.t.
 *
 *   spawn_prog vfork|spawn|system OUT2
 *
 * Calls before() 20000 times, then runs itself as `spawn_prog child` with
 * PATHPROF_OUT=OUT2: from a vfork child with execve, with posix_spawn, or
 * with system().  The child calls after() 500 times.  The parent waits,
 * calls after() 20000 times and exits.  runtime/exec-wrap.c: a vfork or
 * posix_spawn child shares the parent's memory and must not write the
 * parent's profile (nor end its profiling); libc's internal execs are not
 * wrapped.  So by construction: the parent's profile holds before 20000,
 * after 20000; the child's, after 500 and nothing else. */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#define NOINLINE __attribute__((noinline, noclone))
static volatile long sink;
extern char **environ;

NOINLINE long before(long i) { return sink += i; }
NOINLINE long after(long i) { return sink += 2 * i; }

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        for (long i = 0; i < 500; i++)
            after(i);
        printf("child\n");
        return 0;
    }
    if (argc < 3)
        return 2;
    const char *how = argv[1];
    for (long i = 0; i < 20000; i++)
        before(i);
    static char out2[4200];
    snprintf(out2, sizeof out2, "PATHPROF_OUT=%s", argv[2]);
    char *av[] = {argv[0], "child", NULL};
    char *envp[] = {out2, "PATHPROF_QUIET=1", NULL};
    pid_t pid = -1;
    fflush(stdout);
    if (strcmp(how, "vfork") == 0) {
        pid = vfork();
        if (pid == 0) {
            execve("/proc/self/exe", av, envp);
            _exit(127);
        }
    } else if (strcmp(how, "spawn") == 0) {
        if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, av, envp) != 0)
            return 1;
    } else if (strcmp(how, "system") == 0) {
        char cmd[4300];
        snprintf(cmd, sizeof cmd, "exec %s child", argv[0]);
        setenv("PATHPROF_OUT", argv[2], 1);
        if (system(cmd) != 0)
            return 1;
    } else {
        return 2;
    }
    if (pid > 0 && waitpid(pid, NULL, 0) != pid)
        return 1;
    for (long i = 0; i < 20000; i++)
        after(i);
    printf("parent\n");
    return 0;
}
