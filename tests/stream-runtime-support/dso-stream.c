/* dso-stream.c - a shared library made of one synthetic stream TU that
 * registers in its constructor and unregisters in its destructor, like a
 * library built with the plugin in stream mode.  Its blob and bases live
 * in the library's memory, which dlclose unmaps: events still buffered
 * then must be attributed through the runtime's copy. */
#include "stream-tu.h"

#include <pthread.h>

static uint64_t bases[2] = {PATHPROF_STREAM_UNREGISTERED_BASE,
                            PATHPROF_STREAM_UNREGISTERED_BASE};
static struct st_tu tu = {
    .file = "dso-stream.c",
    .nfuncs = 2,
    .name = {"dso_small", "dso_big"},
    .npaths = {5, 300},
    .bases = bases,
};

__attribute__((constructor)) static void tu_register(void)
{
    st_register(&tu, 0);
}

__attribute__((destructor)) static void tu_unregister(void)
{
    st_unregister(&tu);
}

struct st_tu *dso_tu(void)
{
    return &tu;
}

void dso_emit(struct st_expect *e, uint64_t seed, uint64_t n)
{
    st_emit_paths(&tu, e, seed, n);
}

/* For a program that only dlopens this library (dlopen-only-stream.c):
 * N events from this thread and N from a thread of its own, and what was
 * emitted appended to EXPECT. */
struct worker_arg {
    struct st_expect e;
    uint64_t n;
};

static void *worker(void *p)
{
    struct worker_arg *w = p;
    st_emit_paths(&tu, &w->e, 77, w->n);
    return NULL;
}

void dso_run_alone(uint64_t n, const char *expect)
{
    struct st_expect e;
    struct worker_arg w = {.n = n};
    st_expect_init(&e, &tu);
    st_expect_init(&w.e, &tu);
    st_emit_paths(&tu, &e, 76, n);
    pthread_t t;
    pthread_create(&t, NULL, worker, &w);
    pthread_join(t, NULL);
    st_expect_add(&e, &w.e);
    if (expect)
        st_expect_write(&e, expect);
    st_expect_free(&e);
    st_expect_free(&w.e);
}
