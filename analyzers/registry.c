/* registry.c - the analyzers built into libpathprof, in the order
 * PATHPROF_ANALYZER's warning lists them (docs/streaming.md, section 6):
 * the table the runtime hosts them through (runtime/analyzer-host.h).
 * Adding one: a folder of its own with its struct pp_analyzer, declared in
 * analyzer.h and listed here. */
#include "analyzer.h"

const struct pp_analyzer *const pp_analyzers[] = {
    &pp_analyzer_blpp,
    &pp_analyzer_trace,
    &pp_analyzer_ksf,
    &pp_analyzer_ksf_pruned,
    &pp_analyzer_wpp,
    &pp_analyzer_vpp,
    0,
};
