/* file_bytes.c - reading a whole file (profiles, source files). */
#include "file_bytes.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

bool file_bytes(const char *path, size_t max, unsigned char **data, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    size_t cap, used = 0;
    unsigned char *buf;
    int saved;

    if (fd < 0)
        return false;
    if (fstat(fd, &st) != 0)
        goto fail_fd;
    if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        goto fail_fd;
    }
    /* The size of a regular file is only a first guess (it may grow); pipes
     * report 0. The buffer grows as needed up to MAX. */
    cap = S_ISREG(st.st_mode) && st.st_size > 0 && (unsigned long long)st.st_size < max
              ? (size_t)st.st_size + 2 /* room for the NUL and for seeing EOF */
              : 4096;
    buf = malloc(cap);
    if (!buf)
        goto fail_fd;
    for (;;) {
        ssize_t n;
        if (used + 1 >= cap) {
            unsigned char *bigger;
            if (cap > max) {
                errno = EFBIG;
                goto fail_buf;
            }
            bigger = realloc(buf, cap * 2);
            if (!bigger)
                goto fail_buf;
            buf = bigger;
            cap *= 2;
        }
        n = read(fd, buf + used, cap - used - 1);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            goto fail_buf;
        }
        if (n == 0)
            break;
        used += (size_t)n;
    }
    if (used > max) {
        errno = EFBIG;
        goto fail_buf;
    }
    close(fd);
    buf[used] = '\0';
    *data = buf;
    *len = used;
    return true;
fail_buf:
    saved = errno;
    free(buf);
    errno = saved;
fail_fd:
    saved = errno;
    close(fd);
    errno = saved;
    return false;
}
