/* register.c - the run-time ABI entry points called by instrumented TUs'
 * constructors and destructors (docs/format.md, section 1), and the
 * one-time set-up done by the first of them. */
#include "config.h"
#include "hash-table.h"
#include "message.h"
#include "meta.h"
#include "pathprof-abi.h"
#include "profile-write.h"
#include "registry.h"
#include "stream.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define PUBLIC __attribute__((visibility("default")))

static pid_t process_pid;
static int set_up_done;

pid_t pprt_process_pid(void) { return __atomic_load_n(&process_pid, __ATOMIC_RELAXED); }
int pprt_is_set_up(void) { return __atomic_load_n(&set_up_done, __ATOMIC_ACQUIRE); }

/* fork() while another thread holds a lock would leave the child with a
 * lock nobody can release; holding all of them across fork() prevents it.
 * Order: write, stream (its mutex, the channels, the parked analyzers),
 * registry, growth (the same order every other path takes them in; the
 * registry code never grows a table). */
static void before_fork(void)
{
    pprt_write_lock();
    pprt_stream_before_fork();
    pprt_registry_lock();
    pthread_mutex_lock(&pprt_hash_grow_lock);
}

static void after_fork_parent(void)
{
    pthread_mutex_unlock(&pprt_hash_grow_lock);
    pprt_registry_unlock();
    pprt_stream_after_fork_parent();
    pprt_write_unlock();
}

static void after_fork_child(void)
{
    __atomic_store_n(&process_pid, getpid(), __ATOMIC_RELAXED);
    pthread_mutex_unlock(&pprt_hash_grow_lock);
    pprt_registry_unlock();
    pprt_stream_after_fork_child();
    pprt_write_unlock();
}

static void set_up(void)
{
    process_pid = getpid();
    pprt_config_load();
    /* atexit runs the handler on return from main, on exit() from any
     * thread, and when the last thread exits after main's pthread_exit;
     * in a shared libpathprof it also runs if the library is unloaded.
     * The registry makes sure only the first call writes. */
    if (atexit(pprt_write_profile) != 0)
        pprt_error("cannot register the exit handler; no profile will be written");
    if (pthread_atfork(before_fork, after_fork_parent, after_fork_child) != 0)
        pprt_error("cannot register fork handlers; a child forked while "
                   "another thread registers a library may hang at exit");
    __atomic_store_n(&set_up_done, 1, __ATOMIC_RELEASE);
}

void pprt_set_up_once(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, set_up);
}

PUBLIC void __pathprof_register_tu(uint32_t abi_version, const unsigned char *meta,
                                   uint64_t meta_len, uint64_t *counters,
                                   uint64_t ncounters)
{
    int saved_errno = errno; /* constructors must not disturb the program */
    pprt_set_up_once();

    if (abi_version != PATHPROF_ABI_VERSION) {
        pprt_error("a translation unit was built for run-time ABI version %u but "
                   "this libpathprof implements version %u; it is not profiled "
                   "(rebuild it with the plugin matching this library)",
                   abi_version, PATHPROF_ABI_VERSION);
    } else {
        char why[256];
        if (counters == NULL && ncounters > 0) {
            pprt_error("ignoring a translation unit: no counter array");
        } else if (pprt_meta_check(meta, meta_len, ncounters, why, sizeof why) != 0) {
            char name[600];
            pprt_meta_tu_name(meta, meta_len, name, sizeof name);
            pprt_error("ignoring translation unit %s: invalid metadata: %s "
                       "(built by a different pathprof plugin?)", name, why);
        } else {
            pprt_registry_add(meta, meta_len, counters, ncounters);
        }
    }
    errno = saved_errno;
}

PUBLIC void __pathprof_unregister_tu(uint64_t *counters)
{
    int saved_errno = errno;
    pprt_registry_remove(counters);
    errno = saved_errno;
}
