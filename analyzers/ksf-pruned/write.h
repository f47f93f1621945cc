/* write.h - the KPRUNE profile section (docs/format.md, section
 * 3, tag 5) from the merged summaries of the `ksf-pruned` analyzer. */
#ifndef PATHPROF_KSF_PRUNE_WRITE_H
#define PATHPROF_KSF_PRUNE_WRITE_H

#include "bytebuf.h"
#include "core.h"

#pragma GCC visibility push(hidden)

#ifndef PATHPROF_SECTION_KPRUNE
#define PATHPROF_SECTION_KPRUNE 5u
#endif

/* Appends the section; ANALYZERS: analyzer threads merged into C.  Runs in
 * an analyzer's write() only (labels are mapped with the TU list). */
void kp_write_section(const struct kp_core *c, uint64_t analyzers, struct pprt_buf *out,
                      uint32_t *nsections);

#pragma GCC visibility pop

#endif
