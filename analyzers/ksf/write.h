/* write.h - the KIPF profile section (docs/format.md, section 3,
 * tag 4) from the merged k-IPF and statistics of the `ksf` analyzer. */
#ifndef PATHPROF_KSF_WRITE_H
#define PATHPROF_KSF_WRITE_H

#include "bytebuf.h"
#include "stats.h"

#pragma GCC visibility push(hidden)

#ifndef PATHPROF_SECTION_KIPF
#define PATHPROF_SECTION_KIPF 4u
#endif
/* The section's flags: nodes in the compact encoding (docs/format.md). */
#define KSF_KIPF_COMPACT 2u

/* Appends the section to OUT.  Labels are global path indices; they are
 * mapped to (TU section, function, path ID) with the runtime's TU list, so
 * this runs in an analyzer's write() only (analyzer-services.h). */
void ksf_write_section(uint32_t k, const struct ksf_forest *ipf, const struct ksf_stats *st,
                       struct pprt_buf *out, uint32_t *nsections);

#pragma GCC visibility pop

#endif
