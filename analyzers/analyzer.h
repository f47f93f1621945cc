/* analyzer.h - the analyzers' side of the interface: the runtime's
 * contract (runtime/analyzer-host.h), which every analyzer implements, and
 * the analyzers built in, each defined in its own folder and listed in
 * registry.c (docs/architecture.md). */
#ifndef PATHPROF_ANALYZER_H
#define PATHPROF_ANALYZER_H

#include "analyzer-host.h"

#pragma GCC visibility push(hidden)

extern const struct pp_analyzer pp_analyzer_blpp;       /* blpp/ */
extern const struct pp_analyzer pp_analyzer_trace;      /* trace/: PATHPROF_TRACE */
extern const struct pp_analyzer pp_analyzer_ksf;        /* ksf/ */
extern const struct pp_analyzer pp_analyzer_ksf_pruned; /* ksf-pruned/ */
extern const struct pp_analyzer pp_analyzer_wpp;        /* wpp/: PATHPROF_WPP_MAX */
extern const struct pp_analyzer pp_analyzer_vpp;        /* vpp/: timed paths (docs/vpp.md) */

#pragma GCC visibility pop

#endif
