/* profile-write.c - the exit-time write: encode, write atomically, and when
 * that fails say so and put the profile somewhere it can be found.  When
 * it runs is lifecycle.c's business. */
#include "profile-write.h"
#include "atomic-file.h"
#include "config.h"
#include "message.h"
#include "output-path.h"
#include "plain-updates.h"
#include "profile-accumulate.h"
#include "profile-encode.h"
#include "registry.h"
#include "stream-tus.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER;

void pprt_write_lock(void) { pthread_mutex_lock(&write_lock); }
void pprt_write_unlock(void) { pthread_mutex_unlock(&write_lock); }

static void encode(const struct pprt_tu *list, void *arg)
{
    struct pprt_profile_bytes *e = arg;
    pprt_profile_encode(list, e->pid, &e->buf, &e->hash_lost);
    /* Only a program that went multithreaded is warned (say_plain_updates),
     * and only then is it worth the search, which scans counters (the cost
     * of a short process).  A stream TU's analyzer threads are the
     * runtime's own, and make glibc's answer useless. */
    e->plain_tus = pprt_stream_tus_total() == 0 && pprt_went_multithreaded()
                       ? pprt_plain_updates_tus(list, e->plain_tu, sizeof e->plain_tu)
                       : 0;
}

/* Said once, by the process that writes: its counts are what the
 * warning is about (plain-updates.h).  encode() decided whether it is
 * said: plain_tus stays 0 otherwise. */
static void say_plain_updates(const struct pprt_profile_bytes *e)
{
    if (e->plain_tus == 0)
        return;
    pprt_warning("the program ran more than one thread, and %u translation unit%s (%s%s) "
                 "count%s paths with plain increments (update=single): counts of code that "
                 "two threads ran at once may be low; build threaded code with -pthread, "
                 "-fprofile-update=atomic or -fplugin-arg-pathprof-update=atomic "
                 "(docs/plugin-args.md, \"Multithreaded programs\")",
                 e->plain_tus, e->plain_tus == 1 ? "" : "s", e->plain_tu,
                 e->plain_tus == 1 ? "" : ", ...", e->plain_tus == 1 ? "s" : "");
}

static void say_failed(const char *path, const char *real, int err, const char *step)
{
    struct pprt_name_buf n1, n2;
    if (real != NULL && strcmp(real, path) != 0)
        pprt_error("cannot write profile %s (a link to %s): %s (%s)", pprt_name(path, &n1),
                   pprt_name(real, &n2), strerror(err), step);
    else
        pprt_error("cannot write profile %s: %s (%s)", pprt_name(path, &n1), strerror(err),
                   step);
}

/* Where the user asked (PATHPROF_OUT): only a regular file or a new name
 * is replaced (or, with PATHPROF_ACCUMULATE, added to); a device or FIFO
 * is written through, a link followed.  *HOW says what became of it. */
enum outcome { WRITTEN, ADDED, APART };
static int write_named(const char *path, const struct pprt_profile_bytes *e, enum outcome *how)
{
    const struct pprt_buf *b = &e->buf;
    struct pprt_target t;
    const char *step = "";
    int err = pprt_resolve_target(path, &t, &step);
    *how = WRITTEN;
    if (err == 0) {
        if (t.kind == PPRT_TARGET_THROUGH) {
            err = pprt_write_file_through(t.name, b, &step);
        } else if (pprt_config.accumulate) {
            int apart;
            err = pprt_accumulate(t.name, b, e->pid, &apart, &step);
            *how = apart ? APART : ADDED;
        } else {
            err = pprt_write_file_atomically(t.name, b, pprt_config.sync, &step);
        }
    }
    if (err != 0)
        say_failed(path, t.name, err, step);
    free(t.name);
    return err;
}

/* A fallback name is ours, in a shared directory: never followed (a link
 * planted in /tmp must not redirect the write), always replaced. */
static int write_fallback_at(const char *path, const struct pprt_buf *b)
{
    const char *step = "";
    int err = pprt_write_file_atomically(path, b, pprt_config.sync, &step);
    if (err != 0)
        say_failed(path, NULL, err, step);
    return err;
}

/* Every location failed: the last error says what the user can change. */
static void say_lost(int err)
{
    struct rlimit lim;
    if (err == EFBIG && getrlimit(RLIMIT_FSIZE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
        pprt_error("no profile written: every location failed (see above); the "
                   "process's file size limit (ulimit -f) is %llu bytes, the profile "
                   "needs more",
                   (unsigned long long)lim.rlim_cur);
    else
        pprt_error("no profile written: every location failed (see above); set "
                   "PATHPROF_OUT or TMPDIR to a writable place");
}

/* The profile could not go where the user asked: rather than lose a whole
 * run's data, put it in the temporary directory under a name that cannot
 * collide with another process's. */
static void write_fallback(const char *wanted, const struct pprt_profile_bytes *e, int err)
{
    const char *tmpdir = getenv("TMPDIR");
    const char *dirs[2] = {tmpdir && *tmpdir ? tmpdir : "/tmp", "/tmp"};
    for (int i = 0; i < 2; i++) {
        if (i == 1 && strcmp(dirs[0], dirs[1]) == 0)
            break;
        char *path = pprt_fallback_output(dirs[i], e->pid);
        if (path == NULL)
            break;
        if (strcmp(path, wanted) != 0 && (err = write_fallback_at(path, &e->buf)) == 0) {
            /* Said even under PATHPROF_QUIET: the user must find the file. */
            struct pprt_name_buf n1, n2;
            pprt_warning("profile written to %s instead of %s", pprt_name(path, &n1),
                         pprt_name(wanted, &n2));
            free(path);
            return;
        }
        free(path);
    }
    say_lost(err);
}

int pprt_profile_build(struct pprt_profile_bytes *e)
{
    *e = (struct pprt_profile_bytes){.pid = getpid()};
    /* On 1 the registry stays locked until pprt_profile_store has written
     * the bytes, which refer to the TUs' metadata (registry.h). */
    return (!pprt_registry_empty() || pprt_stream_tus_total() > 0) &&
           pprt_registry_finish(encode, e);
}

void pprt_profile_store(struct pprt_profile_bytes *e)
{
    say_plain_updates(e);
    if (e->hash_lost)
        pprt_error("%llu hash-mode path counts were dropped for lack of memory; "
                   "the profile undercounts them",
                   (unsigned long long)e->hash_lost);
    /* Accumulating reads this run's profile as one array (the merge's
     * checks); any other write takes its pieces as they are. */
    if (pprt_config.accumulate)
        pprt_buf_flatten(&e->buf);
    if (e->buf.failed) {
        pprt_error("out of memory building the profile; no profile written");
    } else {
        const char *pattern = pprt_config.out_pattern ? pprt_config.out_pattern
                                                      : "pathprof.out";
        char *path = pprt_expand_output(pattern, e->pid);
        struct pprt_signal_hold held;
        struct pprt_name_buf n;
        enum outcome how;
        int err;
        pprt_signals_hold(&held);
        if (path == NULL)
            pprt_error("out of memory naming the profile; no profile written");
        else if ((err = write_named(path, e, &how)) == 0) {
            if (how != APART) /* APART: a warning said where it went */
                pprt_info("profile %s %s", how == ADDED ? "added to" : "written to",
                          pprt_name(path, &n));
        } else
            write_fallback(path, e, err);
        pprt_signals_release(&held);
        free(path);
    }
    pprt_buf_free(&e->buf);
    pprt_registry_unlock();
}
