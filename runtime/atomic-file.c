/* atomic-file.c - write to a temporary, fsync, rename; or write through a
 * device or FIFO; without the signals a write may raise (atomic-file.h). */
#include "atomic-file.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
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

/* Gathers pieces into one writev of up to IOV_BATCH; a short write
 * leaves the rest for the next call. */
enum { IOV_BATCH = 64 };
struct gather {
    int fd, err;
    struct iovec iov[IOV_BATCH];
    int n;
};

static int flush_gather(struct gather *g)
{
    struct iovec *v = g->iov;
    int n = g->n;
    while (n > 0) {
        ssize_t w = writev(g->fd, v, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return g->err = w < 0 ? errno : EIO;
        size_t left = (size_t)w;
        while (n > 0 && left >= v->iov_len) {
            left -= v->iov_len;
            v++, n--;
        }
        if (n > 0) {
            v->iov_base = (unsigned char *)v->iov_base + left;
            v->iov_len -= left;
        }
    }
    g->n = 0;
    return 0;
}

static int gather_piece(const unsigned char *p, size_t len, void *arg)
{
    struct gather *g = arg;
    if (g->n == IOV_BATCH && flush_gather(g) != 0)
        return g->err;
    g->iov[g->n++] = (struct iovec){(void *)p, len};
    return 0;
}

int pprt_write_buf(int fd, const struct pprt_buf *b)
{
    struct gather g = {.fd = fd};
    if (pprt_buf_pieces(b, gather_piece, &g) != 0)
        return g.err;
    return flush_gather(&g);
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

int pprt_write_file_atomically(const char *path, const struct pprt_buf *b, int sync,
                               const char **step)
{
    char *tmp;
    int fd;
    int err = pprt_open_temporary(path, O_WRONLY, &tmp, &fd);
    if (err != 0) {
        *step = "could not create a temporary file beside it";
        return err;
    }
    if ((err = pprt_write_buf(fd, b)) != 0)
        *step = "could not write";
    else if (sync && fsync(fd) != 0)
        err = errno, *step = "could not fsync";
    if (close(fd) != 0 && err == 0)
        err = errno, *step = "could not close";
    if (err == 0 && rename(tmp, path) != 0)
        err = errno, *step = "could not rename the temporary file to it";
    if (err != 0)
        unlink(tmp);
    else if (sync)
        pprt_sync_directory(path);
    free(tmp);
    return err;
}

int pprt_open_through(const char *path, int *fd, const char **step)
{
    /* O_NONBLOCK: opening a FIFO without a reader would block forever. */
    for (int waited = 0;; waited += 10) {
        *fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
        if (*fd >= 0 || errno != ENXIO || waited >= PPRT_FIFO_WAIT_MS)
            break;
        nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
    }
    if (*fd < 0) {
        int err = errno;
        *step = err == ENXIO ? "could not open it: no process reads it (a FIFO "
                               "needs its reader running) or it is a socket"
                             : "could not open it";
        return err;
    }
    /* Blocking writes from here: a slow reader is waited for. */
    int flags = fcntl(*fd, F_GETFL);
    if (flags >= 0)
        fcntl(*fd, F_SETFL, flags & ~O_NONBLOCK);
    return 0;
}

int pprt_write_file_through(const char *path, const struct pprt_buf *b, const char **step)
{
    int fd;
    int err = pprt_open_through(path, &fd, step);
    if (err != 0)
        return err;
    if ((err = pprt_write_buf(fd, b)) != 0)
        *step = "could not write";
    /* No fsync: devices and FIFOs refuse it, and there is nothing to make
     * durable. */
    if (close(fd) != 0 && err == 0)
        err = errno, *step = "could not close";
    return err;
}

static void write_signals(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGXFSZ);
    sigaddset(set, SIGPIPE);
}

void pprt_signals_hold(struct pprt_signal_hold *h)
{
    sigset_t set;
    write_signals(&set);
    pthread_sigmask(SIG_BLOCK, &set, &h->old_mask);
    sigpending(&h->pending_before);
}

void pprt_signals_release(const struct pprt_signal_hold *h)
{
    static const int sigs[] = {SIGXFSZ, SIGPIPE};
    sigset_t now;
    sigpending(&now);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        if (!sigismember(&now, sigs[i]) || sigismember(&h->pending_before, sigs[i]))
            continue;
        /* Raised by our write (the kernel sends both to the writing
         * thread): taken off, or unblocking would deliver it. */
        sigset_t one;
        sigemptyset(&one);
        sigaddset(&one, sigs[i]);
        sigtimedwait(&one, NULL, &(struct timespec){0, 0});
    }
    pthread_sigmask(SIG_SETMASK, &h->old_mask, NULL);
}
