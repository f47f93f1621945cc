/* vpp-events.h - the second counter of VPP (PATHPROF_VPP_COUNTER,
 * docs/vpp.md "A second counter"): a hardware event (cache misses) counted
 * per thread by perf_event_open and read in user space with rdpmc where
 * the kernel allows it (a read(2) of the counter otherwise).  Where the
 * machine has no such counter (a VM without a virtual PMU,
 * perf_event_paranoid) the probe at start-up fails, says why, and VPP
 * times paths without it. */
#ifndef PATHPROF_RT_VPP_EVENTS_H
#define PATHPROF_RT_VPP_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* At start-up, in the first timing thread: opens KIND (PPRT_VPP_EVENTS_*)
 * for this thread.  0 when it works (later threads open their own on
 * their first timing), -1 with WHY (the reason, for the warning) when
 * not: then no thread tries again. */
int pprt_vpp_events_probe(uint32_t kind, char *why, size_t len);

/* The calling thread's count, opening its counter on first use; 0 with
 * *OK = 0 when this thread has none (it could not be opened). */
uint64_t pprt_vpp_events_read(int *ok);

#pragma GCC visibility pop

#endif
