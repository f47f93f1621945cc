/* atomic-file.c - write to a temporary, fsync, rename (see atomic-file.h). */
#include "atomic-file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Not mkstemp: it creates mode 0600, and a profile should get the usual
 * 0666 & ~umask like any output file (reading the umask is not
 * thread-safe). */
int pprt_open_temporary(const char *path, int access, char **tmp, int *fd)
{
    size_t size = strlen(path) + 64;
    *tmp = malloc(size);
    if (*tmp == NULL)
        return ENOMEM;
    int err = EEXIST;
    for (unsigned n = 0; n < 100 && err == EEXIST; n++) {
        snprintf(*tmp, size, "%s.tmp.%ld.%u", path, (long)getpid(), n);
        *fd = open(*tmp, access | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (*fd >= 0)
            return 0;
        err = errno;
    }
    free(*tmp);
    *tmp = NULL;
    return err ? err : EIO;
}

int pprt_write_all(int fd, const void *data, size_t len)
{
    const unsigned char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return errno;
        if (w == 0)
            return EIO;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

void pprt_sync_directory(const char *path)
{
    char *dir = strdup(path);
    if (dir == NULL)
        return;
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    else
        strcpy(dir, ".");
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

int pprt_write_file_atomically(const char *path, const void *data, size_t len,
                               const char **step)
{
    char *tmp;
    int fd;
    int err = pprt_open_temporary(path, O_WRONLY, &tmp, &fd);
    if (err != 0) {
        *step = "create a temporary file beside it";
        return err;
    }
    if ((err = pprt_write_all(fd, data, len)) != 0)
        *step = "write";
    else if (fsync(fd) != 0)
        err = errno, *step = "fsync";
    if (close(fd) != 0 && err == 0)
        err = errno, *step = "close";
    if (err == 0 && rename(tmp, path) != 0)
        err = errno, *step = "rename the temporary file to it";
    if (err != 0)
        unlink(tmp);
    else
        pprt_sync_directory(path);
    free(tmp);
    return err;
}
