/* thread-start.c - see thread-start.h. */
#include "thread-start.h"

#include <sched.h>
#include <signal.h>

int pprt_thread_start(pthread_t *t, int cpu, void *(*fn)(void *), void *arg, const char *name)
{
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return -1;
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        pthread_attr_setaffinity_np(&attr, sizeof set, &set);
    }
    /* Blocked in the creator around pthread_create, so that the new
     * thread inherits the full mask before it can take a signal. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int err = pthread_create(t, &attr, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (err == 0 && name != NULL)
        pthread_setname_np(*t, name);
    return err;
}
