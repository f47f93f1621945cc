/* register.c - the run-time ABI entry points called by instrumented TUs'
 * constructors and destructors (docs/format.md, section 1); the first of
 * them sets the process up (lifecycle.c). */
#include "config.h"
#include "message.h"
#include "meta.h"
#include "pathprof-abi.h"
#include "lifecycle.h"
#include "registry.h"

#include <errno.h>
#include <stdlib.h>

#define PUBLIC __attribute__((visibility("default")))

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
