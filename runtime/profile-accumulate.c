/* profile-accumulate.c - one process's turn at adding its profile to the
 * shared one, under NAME.lock (see profile-accumulate.h). */
#include "profile-accumulate.h"
#include "atomic-file.h"
#include "config.h"
#include "message.h"
#include "profile-merge.h"
#include "profile-parts.h"
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
    int err = pprt_write_file_atomically(apart, ours, pprt_config.sync, step);
    if (err == 0) {
        struct pprt_name_buf n1, n2;
        pprt_warning("profile not added to %s: %s; this run's profile is in %s",
                     pprt_name(name, &n1), why, pprt_name(apart, &n2));
    }
    free(apart);
    return err;
}

/* For tests/runtime-accumulate.t: a process killed while it holds the
 * lock, the profile read, its own not yet (or half) written. */
static void test_pause(void)
{
    if (!pprt_config.test_accumulate_delay_ms)
        return;
    struct timespec t = {(time_t)(pprt_config.test_accumulate_delay_ms / 1000),
                         (long)(pprt_config.test_accumulate_delay_ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0)
        ;
}

/* The file as it is: its bytes and where its whole parts are
 * (profile-parts.h); bytes after them are a torn append, dropped. */
struct on_disk {
    const unsigned char *data;
    size_t *at; /* part i is [at[i], at[i + 1]) */
    struct pprt_parts parts;
};

static void part_name(const struct on_disk *d, size_t i, char *buf, size_t n)
{
    if (d->parts.n == 1)
        snprintf(buf, n, "the accumulated profile");
    else
        snprintf(buf, n, "the accumulated profile (part %zu of %zu)", i + 1, d->parts.n);
}

/* Adds every part of D and ours into M; 0, else -1 with *ERR set (naming
 * the part when there are several) and *THEIRS saying whose fault it was
 * (the file's, or ours). */
static int add_all(struct pprt_merge *m, const struct on_disk *d, const struct pprt_buf *ours,
                   pid_t pid, struct pprt_merge_error *err, int *theirs)
{
    char name[96];
    for (size_t i = 0; i < d->parts.n; i++) {
        part_name(d, i, name, sizeof name);
        if (pprt_merge_add(m, d->data + d->at[i], d->at[i + 1] - d->at[i], name, err) != 0) {
            if (d->parts.n > 1) {
                char why[sizeof err->msg - 64];
                size_t n = strnlen(err->msg, sizeof why - 1);
                memcpy(why, err->msg, n);
                why[n] = '\0';
                snprintf(err->msg, sizeof err->msg, "part %zu of %zu: %s", i + 1, d->parts.n,
                         why);
            }
            *theirs = 1;
            return -1;
        }
    }
    snprintf(name, sizeof name, "this run (pid %ld)", (long)pid);
    *theirs = 0;
    return pprt_merge_add(m, ours->data, ours->len, name, err);
}

static int refused(const char *name, const struct pprt_buf *ours, pid_t pid, int theirs,
                   const struct pprt_merge_error *err, int *apart, const char **step)
{
    char why[sizeof err->msg + 64];
    if (theirs)
        snprintf(why, sizeof why, "it is not a profile this run can be added to (%s)", err->msg);
    else
        snprintf(why, sizeof why, "%s", err->msg);
    *apart = 1;
    return write_apart(name, ours, pid, why, step);
}

/* The sum of D's parts and ours, written over NAME at once (the torn
 * bytes, if any, go with the old file). */
static int merge_and_write(const char *name, const struct on_disk *d, const struct pprt_buf *ours,
                           pid_t pid, int *apart, const char **step)
{
    struct pprt_merge *m = pprt_merge_new();
    struct pprt_merge_error err;
    int theirs, rc;
    if (!m)
        return ENOMEM;
    if (add_all(m, d, ours, pid, &err, &theirs) != 0) {
        rc = refused(name, ours, pid, theirs, &err, apart, step);
    } else {
        struct pprt_buf sum = {0};
        if (pprt_merge_encode(m, &sum, &err) != 0) {
            *step = "could not merge it in memory";
            rc = ENOMEM;
        } else {
            test_pause();
            /* Always durable: the file holds other runs' counts too. */
            rc = pprt_write_file_atomically(name, &sum, 1, step);
        }
        pprt_buf_free(&sum);
    }
    pprt_merge_free(m);
    return rc;
}

/* Ours after D's whole parts, in place: the file is ours alone while we
 * hold the lock.  On failure (a full disk) the file is cut back to what it
 * was, so that it stays readable and the caller writes ours elsewhere. */
static int append(const char *name, const struct on_disk *d, size_t old_len,
                  const struct pprt_buf *ours, const char **step)
{
    int fd = open(name, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        *step = "could not open it to append this run";
        return errno;
    }
    int err = 0;
    size_t end = d->parts.whole;
    if (old_len > end && ftruncate(fd, (off_t)end) != 0) {
        err = errno;
        *step = "could not cut off an unfinished addition at its end";
    }
    size_t half = ours->len / 2;
    if (err == 0) {
        if (lseek(fd, (off_t)end, SEEK_SET) < 0)
            err = errno;
        else if ((err = pprt_write_all(fd, ours->data, half)) == 0) {
            test_pause(); /* a kill here leaves a torn part: readers skip it */
            err = pprt_write_all(fd, ours->data + half, ours->len - half);
        }
        if (err != 0)
            *step = "could not append this run";
    }
    /* A crash of the machine before the part reaches the disk leaves it
     * torn or missing, as a kill would: readers skip it, the next process
     * cuts it off, the parts before it stay.  So only PATHPROF_SYNC=1
     * waits for it. */
    if (err == 0 && pprt_config.sync && fsync(fd) != 0) {
        err = errno;
        *step = "could not sync it";
    }
    if (err != 0 && ftruncate(fd, (off_t)end) != 0) {
        /* Still readable: a torn part at the end is skipped by readers
         * and cut off by the next process. */
    }
    close(fd);
    return err;
}

/* OLD (OLD_LEN bytes, not empty) takes ours: checked against every part
 * (pprt_merge_check_only), then appended as one more part, or, when the
 * parts after the first have grown past twice its size (or number
 * PPRT_ACCUMULATE_MAX_PARTS), everything merged into one. */
static int add_to(const char *name, const unsigned char *old, size_t old_len,
                  const struct pprt_buf *ours, pid_t pid, int *apart, const char **step)
{
    struct on_disk d = {.data = old};
    if (pprt_profile_parts(old, old_len, &d.parts, &d.at) != 0)
        return ENOMEM;
    int rc;
    if (d.parts.n == 0 || (d.parts.whole < old_len && !d.parts.torn)) {
        /* Not a sequence of profiles: the merge says what is wrong with it
         * (it is then left as it is, ours written beside it). */
        struct on_disk whole = {.data = old, .at = (size_t[]){0, old_len}, .parts = {1, old_len, 0}};
        rc = merge_and_write(name, &whole, ours, pid, apart, step);
        free(d.at);
        return rc;
    }
    size_t base = d.at[1], tail = d.parts.whole - base;
    if (d.parts.n + 1 > PPRT_ACCUMULATE_MAX_PARTS || tail + ours->len > 2 * base) {
        rc = merge_and_write(name, &d, ours, pid, apart, step);
    } else {
        struct pprt_merge *m = pprt_merge_new();
        struct pprt_merge_error err;
        int theirs;
        if (!m) {
            free(d.at);
            return ENOMEM;
        }
        pprt_merge_check_only(m);
        if (add_all(m, &d, ours, pid, &err, &theirs) != 0)
            rc = refused(name, ours, pid, theirs, &err, apart, step);
        else
            rc = append(name, &d, old_len, ours, step);
        pprt_merge_free(m);
    }
    free(d.at);
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
    if (err != 0)
        *step = "could not read the profile to add to";
    else if (old_len == 0) {
        /* The first: ours as it is (a merge of it alone would only
         * reorder it, at the cost of building its forest again). */
        test_pause();
        err = pprt_write_file_atomically(name, ours, pprt_config.sync, step);
    }
    else
        err = add_to(name, old, old_len, ours, pid, apart, step);
    free(old);
    close(fd); /* drops the lock, after the rename */
    return err;
}
