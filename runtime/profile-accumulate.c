/* profile-accumulate.c - one process's turn at adding its profile to the
 * shared one, under NAME.lock (see profile-accumulate.h). */
#include "profile-accumulate.h"
#include "atomic-file.h"
#include "config.h"
#include "message.h"
#include "profile-merge.h"
#include "stale-temporaries.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* An open file description lock (F_OFD_SETLK): owned by this open of the
 * lock file, not by the process, so no other thread's close() of some
 * other descriptor of it can drop it, and it is gone when the holder
 * dies.  Polled rather than waited for, so a stopped holder costs a
 * bounded wait instead of a hung exit. */
static int lock_file(int fd)
{
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    struct timespec pause = {0, 1000000};
    time_t until = time(NULL) + PPRT_ACCUMULATE_WAIT_S;
    for (;;) {
        fl.l_pid = 0;
        if (fcntl(fd, F_OFD_SETLK, &fl) == 0)
            return 0;
        if (errno != EAGAIN && errno != EACCES && errno != EINTR)
            return errno;
        if (time(NULL) > until)
            return ETIMEDOUT;
        nanosleep(&pause, NULL);
        if (pause.tv_nsec < 64000000)
            pause.tv_nsec *= 2;
    }
}

/* The whole of NAME, or *LEN 0 when there is none yet. */
static int read_existing(const char *name, unsigned char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    int fd = open(name, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? 0 : errno;
    struct stat st;
    int err = 0;
    if (fstat(fd, &st) != 0)
        err = errno;
    else if (!S_ISREG(st.st_mode))
        err = EINVAL;
    else if (st.st_size > 0 && !(*data = malloc((size_t)st.st_size)))
        err = ENOMEM;
    size_t got = 0;
    while (err == 0 && got < (size_t)st.st_size) {
        ssize_t r = read(fd, *data + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            err = r < 0 ? errno : EIO;
            break;
        }
        got += (size_t)r;
    }
    close(fd);
    if (err) {
        free(*data);
        *data = NULL;
        return err;
    }
    *len = got;
    return 0;
}

/* NAME cannot take this run's profile: keep it as it is (it holds other
 * runs' counts) and put ours beside it. */
static int write_apart(const char *name, const struct pprt_buf *ours, pid_t pid,
                       const char *why, const char **step)
{
    size_t n = strlen(name) + 32;
    char *apart = malloc(n);
    if (!apart)
        return ENOMEM;
    snprintf(apart, n, "%s.%ld", name, (long)pid);
    int err = pprt_write_file_atomically(apart, ours->data, ours->len, step);
    if (err == 0) {
        struct pprt_name_buf n1, n2;
        pprt_warning("profile not added to %s: %s; this run's profile is in %s",
                     pprt_name(name, &n1), why, pprt_name(apart, &n2));
    }
    free(apart);
    return err;
}

static int merge_and_write(const char *name, const unsigned char *old, size_t old_len,
                           const struct pprt_buf *ours, pid_t pid, int *apart,
                           const char **step)
{
    struct pprt_merge *m = pprt_merge_new();
    struct pprt_merge_error err;
    char self[64];
    if (!m)
        return ENOMEM;
    snprintf(self, sizeof self, "this run (pid %ld)", (long)pid);
    int rc;
    if (old_len && pprt_merge_add(m, old, old_len, "the accumulated profile", &err) != 0) {
        char why[sizeof err.msg + 64];
        snprintf(why, sizeof why, "it is not a profile this run can be added to (%s)", err.msg);
        *apart = 1;
        rc = write_apart(name, ours, pid, why, step);
    } else if (pprt_merge_add(m, ours->data, ours->len, self, &err) != 0) {
        *apart = 1;
        rc = write_apart(name, ours, pid, err.msg, step);
    } else {
        struct pprt_buf sum = {0};
        if (pprt_merge_encode(m, &sum, &err) != 0) {
            *step = "could not merge it in memory";
            rc = ENOMEM;
        } else {
            rc = pprt_write_file_atomically(name, sum.data, sum.len, step);
        }
        pprt_buf_free(&sum);
    }
    pprt_merge_free(m);
    return rc;
}

int pprt_accumulate(const char *name, const struct pprt_buf *ours, pid_t pid, int *apart,
                    const char **step)
{
    *apart = 0;
    size_t n = strlen(name) + 8;
    char *lockname = malloc(n);
    if (!lockname)
        return ENOMEM;
    snprintf(lockname, n, "%s.lock", name);
    /* The lock file stays: removing it would let a waiter lock a file
     * that a newcomer no longer sees. */
    int fd = open(lockname, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    free(lockname);
    if (fd < 0) {
        *step = "could not open its lock file NAME.lock beside it";
        return errno;
    }
    int err = lock_file(fd);
    if (err != 0) {
        *step = err == ETIMEDOUT ? "could not take its lock file NAME.lock: another "
                                   "process held it too long"
                                 : "could not lock its lock file NAME.lock";
        close(fd);
        return err;
    }
    /* Under the lock: the temporaries of writers killed before their
     * rename go (stale-temporaries.h). */
    (void)pprt_remove_stale_temporaries(name);
    unsigned char *old;
    size_t old_len;
    err = read_existing(name, &old, &old_len);
    /* For tests/runtime-accumulate.t: a process killed while it holds
     * the lock, the profile read, its sum not yet written. */
    if (pprt_config.test_accumulate_delay_ms) {
        struct timespec t = {(time_t)(pprt_config.test_accumulate_delay_ms / 1000),
                             (long)(pprt_config.test_accumulate_delay_ms % 1000) * 1000000L};
        while (nanosleep(&t, &t) != 0)
            ;
    }
    if (err != 0)
        *step = "could not read the profile to add to";
    else
        err = merge_and_write(name, old, old_len, ours, pid, apart, step);
    free(old);
    close(fd); /* drops the lock, after the rename */
    return err;
}
