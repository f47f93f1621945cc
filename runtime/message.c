/* message.c - formatting and emitting the runtime's diagnostics. */
#include "message.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Read and written without a lock: set once during initialisation, and a
 * torn read of an int is impossible on every target GCC supports. */
static int quiet;

void pprt_set_quiet(int q) { __atomic_store_n(&quiet, q, __ATOMIC_RELAXED); }

/* A line is at most PIPE_BUF bytes, so one write(2) to a pipe is atomic
 * and lines of several processes never interleave. */
#define LINE_MAX_BYTES 4096

static void emit(const char *kind, const char *fmt, va_list ap)
{
    /* Messages are called from constructors, destructors and atexit
     * handlers: the program must not see errno change under its feet. */
    int saved_errno = errno;
    char line[LINE_MAX_BYTES];
    int n = snprintf(line, sizeof line, "pathprof: %s", kind);
    if (n < 0)
        n = 0;
    va_list again;
    va_copy(again, ap);
    int m = vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof line - 2) {
        /* Still too long (a caller printed a long value without
         * pprt_name): cut in the middle, since the end says why and what
         * happened next. */
        char *full = malloc(len + 1);
        size_t head = (sizeof line - 2) / 2, tail = sizeof line - 2 - head - 3;
        if (full != NULL) {
            memcpy(full, line, (size_t)n);
            vsnprintf(full + n, len + 1 - (size_t)n, fmt, again);
            memcpy(line + head + 3, full + len - tail, tail);
            free(full);
        } else {
            tail = 0; /* no memory for the whole line: keep its start */
        }
        memcpy(line + head, "...", 3);
        len = head + 3 + tail;
    }
    va_end(again);
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

const char *pprt_name(const char *name, struct pprt_name_buf *b)
{
    size_t len = strlen(name);
    if (len <= PPRT_NAME_SHOWN)
        return name;
    /* The end holds the file name, the start says where the tree is. */
    size_t tail = PPRT_NAME_SHOWN / 2, head = PPRT_NAME_SHOWN - 3 - tail;
    memcpy(b->s, name, head);
    memcpy(b->s + head, "...", 3);
    memcpy(b->s + head + 3, name + len - tail, tail + 1);
    return b->s;
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
