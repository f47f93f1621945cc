/* message.c - formatting and emitting the runtime's diagnostics. */
#include "message.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Read and written without a lock: set once during initialisation, and a
 * torn read of an int is impossible on every target GCC supports. */
static int quiet;

void pprt_set_quiet(int q) { __atomic_store_n(&quiet, q, __ATOMIC_RELAXED); }

static void emit(const char *kind, const char *fmt, va_list ap)
{
    /* Messages are called from constructors, destructors and atexit
     * handlers: the program must not see errno change under its feet. */
    int saved_errno = errno;
    char line[1024];
    int n = snprintf(line, sizeof line, "pathprof: %s", kind);
    if (n < 0)
        n = 0;
    int m = vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof line - 2) {
        /* Too long: keep the start, mark the cut, still end the line. */
        len = sizeof line - 2;
        memcpy(line + len - 3, "...", 3);
    }
    line[len++] = '\n';
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(STDERR_FILENO, line + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break; /* stderr closed or full: nothing better to do */
        off += (size_t)w;
    }
    errno = saved_errno;
}

void pprt_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit("error: ", fmt, ap);
    va_end(ap);
}

void pprt_warning(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit("warning: ", fmt, ap);
    va_end(ap);
}

void pprt_info(const char *fmt, ...)
{
    if (__atomic_load_n(&quiet, __ATOMIC_RELAXED))
        return;
    va_list ap;
    va_start(ap, fmt);
    emit("", fmt, ap);
    va_end(ap);
}
