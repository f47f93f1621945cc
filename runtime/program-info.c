/* program-info.c - executable path and command line from /proc/self. */
#include "program-info.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *pprt_exe_path(size_t *len)
{
    /* readlink does not say whether it truncated: retry bigger until the
     * result is shorter than the buffer. */
    for (size_t size = 256; size <= (1u << 20); size *= 2) {
        char *buf = malloc(size);
        if (buf == NULL)
            return NULL;
        ssize_t n = readlink("/proc/self/exe", buf, size);
        if (n < 0) {
            buf[0] = '\0'; /* no /proc: an empty path rather than none */
            *len = 0;
            return buf;
        }
        if ((size_t)n < size) {
            buf[n] = '\0';
            *len = (size_t)n;
            return buf;
        }
        free(buf);
    }
    *len = 0;
    return calloc(1, 1);
}

char *pprt_command_line(size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (buf == NULL)
        return NULL;
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        for (;;) {
            if (n == cap) {
                char *b = realloc(buf, cap * 2);
                if (b == NULL)
                    break;
                buf = b;
                cap *= 2;
            }
            ssize_t r = read(fd, buf + n, cap - n);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                break;
            n += (size_t)r;
        }
        close(fd);
    }
    /* Arguments are NUL-terminated: drop the last NUL, the others become
     * the spaces that join them. */
    if (n > 0 && buf[n - 1] == '\0')
        n--;
    for (size_t i = 0; i < n; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    *len = n;
    return buf;
}
