/* register-stream.c - the run-time ABI entry points of stream-mode TUs
 * (docs/streaming.md, sections 1 and 5): registration assigns the TU its
 * global path and function bases; unregistration (dlclose) drains the
 * buffers and keeps a copy of the blob. */
#include "analyzer-host.h"
#include "config.h"
#include "lifecycle.h"
#include "message.h"
#include "meta.h"
#include "pathprof-abi.h"
#include "rcu.h"
#include "stream-tus.h"
#include "stream.h"

#include <errno.h>
#include <stdlib.h>

#define PUBLIC __attribute__((visibility("default")))

/* When META (checked) has a PPP function, the name of the first analyzer
 * selected that does not read PPP indices; else NULL. */
static const char *refuses_ppp(const unsigned char *meta)
{
    uint32_t nfuncs = pprt_meta_nfuncs(meta), i;
    struct pprt_meta_fn fn;
    for (i = 0; i < nfuncs; i++) {
        pprt_meta_fn(meta, i, &fn);
        if (fn.flags & PATHPROF_FN_PPP)
            break;
    }
    if (i == nfuncs)
        return NULL;
    for (uint32_t k = 0; k < pprt_config.nanalyzers; k++) {
        const struct pp_analyzer *a = pp_analyzers[pprt_config.analyzers[k]];
        if (!a->reads_ppp)
            return a->name;
    }
    return NULL;
}

/* When META (checked) has a TPP function (numbered without its cold
 * edges), the name of the first analyzer selected that cannot read a TPP
 * stream, with the function's configuration word in *CONFIG; else NULL. */
static const char *refuses_tpp(const unsigned char *meta, uint32_t *config)
{
    uint32_t nfuncs = pprt_meta_nfuncs(meta), i;
    struct pprt_meta_fn fn;
    for (i = 0; i < nfuncs; i++) {
        pprt_meta_fn(meta, i, &fn);
        if (fn.flags & PATHPROF_FN_TPP)
            break;
    }
    if (i == nfuncs)
        return NULL;
    *config = fn.tpp_config;
    for (uint32_t k = 0; k < pprt_config.nanalyzers; k++) {
        const struct pp_analyzer *a = pp_analyzers[pprt_config.analyzers[k]];
        if (!a->reads_tpp)
            return a->name;
    }
    return NULL;
}

PUBLIC void __pathprof_register_stream_tu(uint32_t abi_version,
                                          const unsigned char *meta,
                                          uint64_t meta_len, uint64_t *bases)
{
    int saved_errno = errno; /* constructors must not disturb the program */
    pprt_set_up_once();
    char why[256], name[600];
    struct pprt_meta_range *ranges;
    const char *refused;
    uint32_t tpp = 0;
    if (abi_version != PATHPROF_ABI_VERSION) {
        pprt_error("a translation unit was built for run-time ABI version %u but "
                   "this libpathprof implements version %u; it is not profiled "
                   "(rebuild it with the plugin matching this library)",
                   abi_version, PATHPROF_ABI_VERSION);
    } else if (bases == NULL) {
        pprt_error("ignoring a stream translation unit: no base pair");
    } else if (pprt_meta_check_stream(meta, meta_len, &ranges, why, sizeof why) != 0) {
        pprt_meta_tu_name(meta, meta_len, name, sizeof name);
        pprt_error("ignoring stream translation unit %s: invalid metadata: %s "
                   "(built by a different pathprof plugin?)", name, why);
    } else if ((refused = refuses_ppp(meta)) != NULL) {
        free(ranges);
        pprt_meta_tu_name(meta, meta_len, name, sizeof name);
        pprt_error("ignoring stream translation unit %s: it has preferential "
                   "(ppp=FILE) functions, whose events analyzer %s cannot read "
                   "(PATHPROF_ANALYZER; blpp and trace read them); its paths are not "
                   "profiled", name, refused);
    } else if ((refused = refuses_tpp(meta, &tpp)) != NULL) {
        free(ranges);
        pprt_meta_tu_name(meta, meta_len, name, sizeof name);
        pprt_error("ignoring stream translation unit %s: it was built with "
                   "-fplugin-arg-pathprof-tpp=%u,%u (targeted path profiling, edge profile "
                   "from %s), whose stream leaves out obvious paths and gives every path "
                   "through a cold edge a cold ID, so analyzer %s (PATHPROF_ANALYZER) "
                   "would see wrong path sequences; a TPP stream feeds only the blpp "
                   "analyzer (docs/tpp.md, \"Streams\"): set PATHPROF_ANALYZER=blpp, or "
                   "rebuild without tpp; its paths are not profiled",
                   name, PATHPROF_TPP_I(tpp), PATHPROF_TPP_J(tpp),
                   (tpp & PATHPROF_TPP_FROM_PATHPROF) ? "a pathprof profile (edge-profile)"
                                                      : "-fprofile-use",
                   refused);
    } else {
        pprt_stream_lock();
        if (pprt_stream_tus_find(bases)) {
            pprt_stream_unlock();
            free(ranges);
            pprt_warning("stream translation unit registered twice (bases at %p); "
                         "the second registration is ignored", (void *)bases);
        } else {
            pprt_stream_tus_add(meta, meta_len, bases, ranges);
            pprt_stream_unlock();
        }
    }
    errno = saved_errno;
}

PUBLIC void __pathprof_unregister_stream_tu(uint64_t *bases)
{
    int saved_errno = errno;
    pprt_stream_lock();
    struct pprt_stream_tu *tu = pprt_stream_tus_find(bases);
    if (tu) {
        /* Before the profile is written: every event already published
         * is consumed while the blob is still the library's, then the
         * runtime keeps a copy for events still in flight. */
        int before_write = !pprt_stream.finished;
        if (before_write)
            pprt_stream_drain_locked("while a library was unloaded");
        pprt_stream_tus_unload(tu, before_write);
    }
    pprt_stream_unlock();
    errno = saved_errno;
}
