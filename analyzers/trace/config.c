/* config.c - where the trace goes: PATHPROF_TRACE, parsed with the
 * other PATHPROF_* variables by the runtime (runtime/config.c). */
#include "config.h"
#include "sink.h"

const char *pp_trace_pattern(void)
{
    return pprt_config.trace_pattern;
}
