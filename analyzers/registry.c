/* registry.c - the analyzers built into libpathprof, in the order
 * PATHPROF_ANALYZER's warning lists them (docs/streaming.md, section 6).
 * Adding one: define its struct pp_analyzer in its own file and list it
 * here. */
#include "analyzer.h"

/* blpp.c, ksf.c, ksf-prune.c; trace.c's is declared in analyzer.h. */
extern const struct pp_analyzer pp_analyzer_blpp __attribute__((visibility("hidden")));
extern const struct pp_analyzer pp_analyzer_ksf __attribute__((visibility("hidden")));
extern const struct pp_analyzer pp_analyzer_ksf_pruned __attribute__((visibility("hidden")));

const struct pp_analyzer *const pp_analyzers[] = {
    &pp_analyzer_blpp,
    &pp_analyzer_trace,
    &pp_analyzer_ksf,
    &pp_analyzer_ksf_pruned,
    0,
};
