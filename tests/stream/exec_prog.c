/* exec_prog.c - exec in stream mode, for tests/stream-fork-exec.t.
 *
 *   exec_prog HOW N W OUT2 [TARGET]
 *
 * Calls before_exec() N times while a thread that called tw() W times
 * waits (blocked, its last events in its partly filled chunk), then
 * replaces the process image with HOW (execve, execv, execvp, execvpe,
 * execl, execlp, execle, fexecve) running itself as `exec_prog stage2 N`,
 * with PATHPROF_OUT=OUT2 in the new image's environment (set in envp, or
 * with setenv for the variants that pass environ).  The new image calls
 * after_exec() 2 * N times and prints "stage2".  With TARGET, the new
 * image is TARGET (another program, no arguments) instead of itself.
 * HOW `missing` execs a file that does not exist: the exec fails, the
 * program goes on, calls after_fail() N times and exits with status 3.
 * By construction: the first image's profile (PATHPROF_OUT) holds
 * before_exec N and tw W, nothing of stage 2; the second image's holds
 * after_exec 2 * N and nothing of the first (a new image starts afresh). */
#define _GNU_SOURCE /* execvpe */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define NOINLINE __attribute__((noinline, noclone))
/* waiting loops run a number of times no one can predict: not profiled */
#define NOPROF __attribute__((no_profile_instrument_function, noinline, noclone))
static volatile long sink;
static long W;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready;
extern char **environ;

NOINLINE long before_exec(long i) { return sink += i; }
NOINLINE long after_exec(long i) { return sink += 2 * i; }
NOINLINE long after_fail(long i) { return sink += 3 * i; }
NOINLINE long tw(long i) { return sink += 4 * i; }

NOPROF static void wait_ready(void)
{
    pthread_mutex_lock(&mu);
    while (!ready)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
}

static void *thread(void *arg)
{
    (void)arg;
    for (long i = 0; i < W; i++)
        tw(i);
    pthread_mutex_lock(&mu);
    ready = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    for (;;)
        pause(); /* until the exec ends every thread */
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "stage2") == 0) {
        long n = atol(argv[2]);
        for (long i = 0; i < 2 * n; i++)
            after_exec(i);
        printf("stage2\n");
        return 0;
    }
    if (argc < 5)
        return 2;
    const char *how = argv[1], *out2 = argv[4], *target = argc > 5 ? argv[5] : NULL;
    long n = atol(argv[2]);
    W = atol(argv[3]);
    pthread_t t;
    if (pthread_create(&t, NULL, thread, NULL) != 0)
        return 1;
    wait_ready();
    for (long i = 0; i < n; i++)
        before_exec(i);

    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return 1;
    self[len] = '\0';
    const char *path = target ? target : self;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", (int)(base - path - 1), path);
    char *args[] = {(char *)base, "stage2", argv[2], NULL};
    char *targs[] = {(char *)base, NULL};
    char **av = target ? targs : args;
    char envout[4200];
    snprintf(envout, sizeof envout, "PATHPROF_OUT=%s", out2);
    /* the new image's environment: ours with PATHPROF_OUT replaced */
    size_t ne = 0;
    while (environ[ne])
        ne++;
    char **envp = calloc(ne + 2, sizeof *envp), **e = envp;
    for (size_t i = 0; i < ne; i++)
        if (strncmp(environ[i], "PATHPROF_OUT=", 13) != 0)
            *e++ = environ[i];
    *e++ = envout;
    *e = NULL;
    setenv("PATH", dir, 1); /* for the p variants, which search PATH */
    fflush(stdout);

    if (strcmp(how, "execve") == 0)
        execve(path, av, envp);
    else if (strcmp(how, "execvpe") == 0)
        execvpe(base, av, envp);
    else if (strcmp(how, "execle") == 0)
        target ? execle(path, base, (char *)NULL, envp) : execle(path, base, "stage2", argv[2], (char *)NULL, envp);
    else if (strcmp(how, "fexecve") == 0) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        fexecve(fd, av, envp);
    } else {
        setenv("PATHPROF_OUT", out2, 1);
        if (strcmp(how, "execv") == 0)
            execv(path, av);
        else if (strcmp(how, "execvp") == 0)
            execvp(base, av);
        else if (strcmp(how, "execl") == 0)
            target ? execl(path, base, (char *)NULL) : execl(path, base, "stage2", argv[2], (char *)NULL);
        else if (strcmp(how, "execlp") == 0)
            target ? execlp(base, base, (char *)NULL) : execlp(base, base, "stage2", argv[2], (char *)NULL);
        else if (strcmp(how, "missing") == 0)
            execv("/nonexistent/pathprof-exec-target", av);
        else {
            free(envp);
            return 2;
        }
    }
    perror("exec");
    free(envp); /* the exec failed: LeakSanitizer would report it at exit */
    for (long i = 0; i < n; i++)
        after_fail(i);
    return 3;
}
