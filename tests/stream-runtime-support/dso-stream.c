/* dso-stream.c - a shared library made of one synthetic stream TU that
 * registers in its constructor and unregisters in its destructor, like a
 * library built with the plugin in stream mode.  Its blob and bases live
 * in the library's memory, which dlclose unmaps: events still buffered
 * then must be attributed through the runtime's copy. */
#include "stream-tu.h"

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
