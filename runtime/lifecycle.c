/* lifecycle.c - set-up, fork, exec and exit of the profiled process
 * (lifecycle.h): the order in which the stream, the registry and the
 * writer are driven lives here and nowhere else. */
#include "lifecycle.h"
#include "config.h"
#include "message.h"
#include "profile-write.h"
#include "registry.h"
#include "sample-state.h"
#include "stream.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static pid_t process_pid;
static int set_up_done;

pid_t pprt_process_pid(void) { return __atomic_load_n(&process_pid, __ATOMIC_RELAXED); }
int pprt_is_set_up(void) { return __atomic_load_n(&set_up_done, __ATOMIC_ACQUIRE); }

/* fork() while another thread holds a lock would leave the child with a
 * lock nobody can release; holding all of them across fork() prevents it.
 * Order: write, stream (its mutex, the channels, the parked analyzers),
 * registry (the same order every other path takes them in).  Hash tables
 * grow without a lock (hash-count.c): a child sees a table published or
 * not, never half made. */
static void before_fork(void)
{
    pprt_write_lock();
    pprt_stream_before_fork();
    pprt_registry_lock();
}

static void after_fork_parent(void)
{
    pprt_registry_unlock();
    pprt_stream_after_fork_parent();
    pprt_write_unlock();
}

static void after_fork_child(void)
{
    __atomic_store_n(&process_pid, getpid(), __ATOMIC_RELAXED);
    /* Accumulating, the parent's profile and the child's are added: the
     * counts made before the fork must be in one of them only.  Counting
     * mode here; stream mode's analyzers reset in
     * pprt_stream_after_fork_child (stream-reset.c). */
    if (pprt_config.accumulate) {
        pprt_registry_zero_counts_in_child();
        pprt_sampling_zero_totals_in_child();
    }
    pprt_registry_unlock();
    pprt_stream_after_fork_child();
    pprt_write_unlock();
}

/* What atexit() is in glibc, said outright: __cxa_atexit with this
 * object's __dso_handle, so that a libpathprof.so unloaded by dlclose runs
 * the handler then and not after its code is gone.  ThreadSanitizer's
 * atexit interceptor drops the object (it registers with no handle), and
 * a TSan program that dlclosed libpathprof crashed at exit. */
extern void *__dso_handle;
extern int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);

static void finish_at_exit(void *unused)
{
    (void)unused;
    pprt_finish_and_write();
}

/* Set while this thread runs set_up.  The configuration's strings are
 * allocated with malloc, and a program may define its own, instrumented
 * malloc: its probes then come back into the runtime (a stream's slow
 * path, a sampling turn) before set-up is done, on the thread that runs
 * it, and pthread_once would wait for itself forever. */
static __thread int setting_up;

static void set_up(void)
{
    setting_up = 1;
    process_pid = getpid();
    pprt_config_load();
    /* The handler runs on return from main, on exit() from any thread,
     * and when the last thread exits after main's pthread_exit; in a
     * shared libpathprof it also runs if the library is unloaded.  The
     * registry makes sure only the first call writes. */
    if (__cxa_atexit(finish_at_exit, NULL, &__dso_handle) != 0)
        pprt_error("cannot register the exit handler; no profile will be written");
    if (pthread_atfork(before_fork, after_fork_parent, after_fork_child) != 0)
        pprt_error("cannot register fork handlers; a child forked while "
                   "another thread registers a library may hang at exit");
    __atomic_store_n(&set_up_done, 1, __ATOMIC_RELEASE);
    setting_up = 0;
}

int pprt_set_up_once(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    if (setting_up)
        return 0;
    pthread_once(&once, set_up);
    return 1;
}

void pprt_finish_and_write(void)
{
    int saved_errno = errno;
    pprt_write_lock();
    /* Stream mode first: every buffered event reaches the analyzers before
     * the sections are encoded; the stream mutex stays held until the
     * profile is encoded. */
    pprt_stream_finish();
    struct pprt_profile_bytes p;
    int first = pprt_profile_build(&p);
    pprt_stream_finish_done();
    if (first)
        pprt_profile_store(&p);
    pprt_write_unlock();
    errno = saved_errno;
}
