/* exec-wrap.c - the profile is written before the process image is
 * replaced: execve and the other exec functions are wrapped (exported by
 * libpathprof.so, which comes before libc in the program's symbol lookup;
 * the real ones are found with dlsym(RTLD_NEXT)).  Counting and stream
 * mode alike.
 *
 * The write is final: exec is an end of the program for the runtime.  So
 * it happens only when the exec is likely to succeed (the file exists and
 * is executable, found on PATH for the p variants); if the kernel still
 * refuses, a warning says the rest of the run is not profiled.  A vfork
 * child (or posix_spawn's) shares the parent's memory: writing there would
 * end the parent's profiling, so it never writes.  libc's internal execs
 * (system, popen, posix_spawn) do not come through here.
 *
 * In a static program (libpathprof.a and -static) there is no
 * dlsym(RTLD_NEXT): the wrappers replace the C library's own exec
 * functions, which then cannot be called, and every exec failed with
 * ENOSYS.  There they make the system calls themselves (execve,
 * execveat; fexecve is execveat with AT_EMPTY_PATH), and execvpe searches
 * PATH as findable() does, running a file the kernel cannot (ENOEXEC)
 * with /bin/sh, as the C library would. */
#include "libc-next.h"
#include "message.h"
#include "lifecycle.h"
#include "stream.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PUBLIC __attribute__((visibility("default")))

extern char **environ;

static int sys_execve(const char *path, char *const argv[], char *const envp[])
{
    return (int)syscall(SYS_execve, path, argv, envp);
}

static int sys_execveat(int dirfd, const char *path, char *const argv[], char *const envp[],
                        int flags)
{
    return (int)syscall(SYS_execveat, dirfd, path, argv, envp, flags);
}

static int sys_fexecve(int fd, char *const argv[], char *const envp[])
{
    return sys_execveat(fd, "", argv, envp, AT_EMPTY_PATH);
}

/* FILE, which the kernel refused as not executable (ENOEXEC), run as a
 * shell script: sh FILE ARGV[1]... */
static int exec_script(const char *file, char *const argv[], char *const envp[])
{
    size_t n = 0;
    while (argv[n] != NULL)
        n++;
    char *sh[n + 2];
    sh[0] = (char *)"sh";
    sh[1] = (char *)file;
    for (size_t i = 1; i <= n; i++)
        sh[i + 1] = argv[i];
    return sys_execve("/bin/sh", sh, envp);
}

static int try_exec(const char *full, char *const argv[], char *const envp[])
{
    sys_execve(full, argv, envp);
    if (errno == ENOEXEC)
        exec_script(full, argv, envp);
    return -1;
}

/* Calls TRY(candidate, CTX) for each place of FILE along PATH (or the
 * C library's default path), as execvp searches: until TRY returns
 * non-zero, which it returns; 0 when none did.  An empty PATH element is
 * the current directory. */
static int search_path(const char *file, int (*try)(const char *full, void *ctx), void *ctx)
{
    const char *path = getenv("PATH");
    char dflt[256];
    if (path == NULL) {
        size_t n = confstr(_CS_PATH, dflt, sizeof dflt);
        path = n > 0 && n <= sizeof dflt ? dflt : "/bin:/usr/bin";
    }
    char full[PATH_MAX];
    for (const char *p = path;; p++) {
        const char *colon = strchrnul(p, ':');
        int n = colon == p ? snprintf(full, sizeof full, "%s", file)
                           : snprintf(full, sizeof full, "%.*s/%s", (int)(colon - p), p, file);
        if (n > 0 && (size_t)n < sizeof full) {
            int r = try(full, ctx);
            if (r)
                return r;
        }
        if (*colon == '\0')
            return 0;
        p = colon;
    }
}

struct exec_try {
    char *const *argv, *const *envp;
    int denied;
};

static int exec_candidate(const char *full, void *ctx)
{
    struct exec_try *t = ctx;
    try_exec(full, t->argv, t->envp); /* returns only when it failed */
    t->denied |= errno == EACCES;
    return 0;
}

static int sys_execvpe(const char *file, char *const argv[], char *const envp[])
{
    if (*file == '\0') {
        errno = ENOENT;
        return -1;
    }
    if (strchr(file, '/'))
        return try_exec(file, argv, envp);
    struct exec_try t = {argv, envp, 0};
    search_path(file, exec_candidate, &t);
    errno = t.denied ? EACCES : ENOENT;
    return -1;
}

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef int (*execveat_fn)(int, const char *, char *const[], char *const[], int);

/* Declares REAL_FN, the C library's NAME of type TYPE (FALLBACK in a static
 * program), or fails with ENOSYS. */
#define REAL(type, name, fallback)                                            \
    static type real_fn;                                                      \
    if (real_fn == NULL)                                                      \
        real_fn = (type)pprt_libc_next(name, (void *)(fallback));             \
    if (real_fn == NULL) {                                                    \
        errno = ENOSYS;                                                       \
        return -1;                                                            \
    }

static int executable(const char *path)
{
    struct stat st;
    return access(path, X_OK) == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int executable_candidate(const char *full, void *ctx)
{
    (void)ctx;
    return executable(full);
}

/* Would execvp find FILE?  The same PATH search, without the exec. */
static int findable(const char *file)
{
    if (*file == '\0')
        return 0;
    if (strchr(file, '/'))
        return executable(file);
    return search_path(file, executable_candidate, NULL);
}

/* Returns 1 when the profile was written for this exec. */
static int before_exec(int likely)
{
    if (!likely || !pprt_is_set_up() || getpid() != pprt_process_pid())
        return 0;
    pprt_finish_and_write();
    return 1;
}

static void after_failed_exec(int wrote, const char *what)
{
    if (wrote)
        pprt_warning("exec of %s failed (%s) after the profile was written; the "
                     "rest of this run is not profiled", what, strerror(errno));
}

PUBLIC int execve(const char *path, char *const argv[], char *const envp[])
{
    REAL(execve_fn, "execve", sys_execve);
    int wrote = before_exec(executable(path));
    int r = real_fn(path, argv, envp);
    after_failed_exec(wrote, path);
    return r;
}

PUBLIC int execv(const char *path, char *const argv[])
{
    return execve(path, argv, environ);
}

PUBLIC int execvpe(const char *file, char *const argv[], char *const envp[])
{
    REAL(execve_fn, "execvpe", sys_execvpe);
    int wrote = before_exec(findable(file));
    int r = real_fn(file, argv, envp);
    after_failed_exec(wrote, file);
    return r;
}

PUBLIC int execvp(const char *file, char *const argv[])
{
    return execvpe(file, argv, environ);
}

PUBLIC int fexecve(int fd, char *const argv[], char *const envp[])
{
    REAL(fexecve_fn, "fexecve", sys_fexecve);
    int wrote = before_exec(fd >= 0);
    int r = real_fn(fd, argv, envp);
    after_failed_exec(wrote, "a file descriptor");
    return r;
}

PUBLIC int execveat(int dirfd, const char *path, char *const argv[],
                    char *const envp[], int flags)
{
    REAL(execveat_fn, "execveat", sys_execveat);
    int wrote = before_exec(dirfd >= 0 || *path == '/');
    int r = real_fn(dirfd, path, argv, envp, flags);
    after_failed_exec(wrote, path);
    return r;
}

/* The l variants: collect the arguments, as glibc does, and go through
 * the v wrappers above. */
static size_t count_args(const char *arg0, va_list ap)
{
    size_t n = 1;
    if (arg0 == NULL)
        return 0;
    while (va_arg(ap, const char *) != NULL)
        n++;
    return n;
}

#define COLLECT(argv, arg0, ap, n)                                            \
    do {                                                                      \
        argv[0] = (char *)(arg0);                                             \
        for (size_t i_ = 1; i_ <= (n); i_++)                                  \
            argv[i_] = va_arg(ap, char *);                                    \
    } while (0)

PUBLIC int execl(const char *path, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    size_t n = count_args(arg, ap);
    va_end(ap);
    char *argv[n + 1];
    va_start(ap, arg);
    COLLECT(argv, arg, ap, n);
    va_end(ap);
    argv[n] = NULL;
    return execve(path, argv, environ);
}

PUBLIC int execlp(const char *file, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    size_t n = count_args(arg, ap);
    va_end(ap);
    char *argv[n + 1];
    va_start(ap, arg);
    COLLECT(argv, arg, ap, n);
    va_end(ap);
    argv[n] = NULL;
    return execvpe(file, argv, environ);
}

PUBLIC int execle(const char *path, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    size_t n = count_args(arg, ap);
    va_end(ap);
    char *argv[n + 1];
    va_start(ap, arg);
    COLLECT(argv, arg, ap, n);
    char *const *envp = va_arg(ap, char *const *);
    va_end(ap);
    argv[n] = NULL;
    return execve(path, argv, envp);
}
