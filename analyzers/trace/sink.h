/* sink.h - the process's one trace file (docs/format.md, section 4),
 * shared by every instance of the `trace` analyzer.
 *
 * All state is behind one mutex, taken once per consumed batch (a chunk of
 * thousands of events), so analyzer threads contend only for a memcpy.
 * Events go into a 1 MiB buffer of EVENTS records, written out with one
 * write(2) when full; the FNV-1a checksum is updated as bytes go out, so
 * the trace is never read back (except by a forked child, see below).
 *
 * The file is created on first use as a temporary beside the target and
 * renamed into place by pp_trace_sink_finish.  A forked child notices on
 * its first call that it is not the process that created the file: it
 * copies the parent's records so far into a temporary of its own (named
 * with its own pid) and goes on there, so parent and child never write
 * the same file.  This relies on the runtime parking analyzer threads
 * across fork (docs/streaming.md, section 5): no thread holds the mutex. */
#ifndef PATHPROF_TRACE_SINK_H
#define PATHPROF_TRACE_SINK_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* Appends N events of producer TID, in stream order. */
void pp_trace_sink_events(uint32_t tid, const uint64_t *ev, size_t n);
/* The stream of TID was closed (flag ENDED in the END record). */
void pp_trace_sink_thread_ended(uint32_t tid);
/* Writes the TU records (pp_tu_count/pp_tu_get: call it from write()),
 * END and the trailer, syncs and renames.  Only the first call in a process does it; events after it are
 * counted and reported once, not written. */
void pp_trace_sink_finish(void);

/* The PATHPROF_TRACE pattern (%p, %%), made absolute at start-up like
 * PATHPROF_OUT (config.c: the one link to the runtime's config). */
const char *pp_trace_pattern(void);

#pragma GCC visibility pop

#endif
