/* profile-write.c - the exit-time write: encode, write atomically, and when
 * that fails say so and put the profile somewhere it can be found. */
#include "profile-write.h"
#include "atomic-file.h"
#include "config.h"
#include "message.h"
#include "output-path.h"
#include "profile-encode.h"
#include "registry.h"
#include "stream-tus.h"
#include "stream.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER;

void pprt_write_lock(void) { pthread_mutex_lock(&write_lock); }
void pprt_write_unlock(void) { pthread_mutex_unlock(&write_lock); }

struct encoding {
    pid_t pid;
    struct pprt_buf buf;
    uint64_t hash_lost;
};

static void encode(const struct pprt_tu *list, void *arg)
{
    struct encoding *e = arg;
    pprt_profile_encode(list, e->pid, &e->buf, &e->hash_lost);
}

static int try_write(const char *path, const struct pprt_buf *b)
{
    const char *step = "";
    int err = pprt_write_file_atomically(path, b->data, b->len, &step);
    if (err != 0)
        pprt_error("cannot write profile %s: %s (could not %s)", path,
                   strerror(err), step);
    return err;
}

/* The profile could not go where the user asked: rather than lose a whole
 * run's data, put it in the temporary directory under a name that cannot
 * collide with another process's. */
static void write_fallback(const char *wanted, const struct encoding *e)
{
    const char *tmpdir = getenv("TMPDIR");
    const char *dirs[2] = {tmpdir && *tmpdir ? tmpdir : "/tmp", "/tmp"};
    for (int i = 0; i < 2; i++) {
        if (i == 1 && strcmp(dirs[0], dirs[1]) == 0)
            break;
        char *path = pprt_fallback_output(dirs[i], e->pid);
        if (path == NULL)
            break;
        if (strcmp(path, wanted) != 0 && try_write(path, &e->buf) == 0) {
            /* Said even under PATHPROF_QUIET: the user must find the file. */
            pprt_warning("profile written to %s instead of %s", path, wanted);
            free(path);
            return;
        }
        free(path);
    }
    pprt_error("no profile written: every location failed (see above)");
}

void pprt_write_profile(void)
{
    int saved_errno = errno;
    struct encoding e = {.pid = getpid()};
    pthread_mutex_lock(&write_lock);
    /* Stream mode first: every buffered event reaches the analyzers before
     * the sections are encoded.  Holds the stream mutex until done. */
    pprt_stream_finish();
    int first = (!pprt_registry_empty() || pprt_stream_tus_total() > 0) &&
                pprt_registry_finish(encode, &e);
    pprt_stream_finish_done();
    if (!first) {
        pthread_mutex_unlock(&write_lock);
        errno = saved_errno;
        return;
    }
    if (e.hash_lost)
        pprt_error("%llu hash-mode path counts were dropped for lack of memory; "
                   "the profile undercounts them",
                   (unsigned long long)e.hash_lost);
    if (e.buf.failed) {
        pprt_error("out of memory building the profile; no profile written");
    } else {
        const char *pattern = pprt_config.out_pattern ? pprt_config.out_pattern
                                                      : "pathprof.out";
        char *path = pprt_expand_output(pattern, e.pid);
        if (path == NULL)
            pprt_error("out of memory naming the profile; no profile written");
        else if (try_write(path, &e.buf) == 0)
            pprt_info("profile written to %s", path);
        else
            write_fallback(path, &e);
        free(path);
    }
    pprt_buf_free(&e.buf);
    pthread_mutex_unlock(&write_lock);
    errno = saved_errno;
}
