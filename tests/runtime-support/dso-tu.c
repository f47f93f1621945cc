/* dso-tu.c - a shared library made of one synthetic TU that registers in
 * its constructor and unregisters in its destructor, like a library built
 * with the plugin.  Its blob and counters live in the library's own memory,
 * which dlclose unmaps: the runtime must have copied them by then. */
#include "synthetic-tu.h"
#include "pathprof-abi.h"

#define DSO_NCOUNTERS 5 /* dso_array: [0, 4); dso_hash: slot 4 */

static unsigned char blob[1024];
static uint64_t counters[DSO_NCOUNTERS];

__attribute__((constructor)) static void tu_register(void)
{
    const struct syn_fn fns[] = {
        {"dso_array", "dso.c", 0, 1, 4, 0, 0, 0},
        {"dso_hash", "dso.c", PATHPROF_FN_HASH, 2, 100000, 4, 0, 0},
    };
    size_t len = syn_build_blob(blob, sizeof blob, fns, 2, DSO_NCOUNTERS);
    __pathprof_register_tu(PATHPROF_ABI_VERSION, blob, len, counters, DSO_NCOUNTERS);
}

__attribute__((destructor)) static void tu_unregister(void)
{
    __pathprof_unregister_tu(counters);
}

/* Cycle C of the test: path 1 once, path C%4 once, hash IDs 1000+C twice
 * and 5 once. */
void dso_bump(int c)
{
    counters[1] += 1;
    counters[c % 4] += 1;
    __pathprof_hash_count(&counters[4], 1000 + (uint64_t)c);
    __pathprof_hash_count(&counters[4], 1000 + (uint64_t)c);
    __pathprof_hash_count(&counters[4], 5);
}
