/* pathprof-abi.h - the contract between code emitted by the pathprof GCC
 * plugin and the runtime library (libpathprof).  The layout of the metadata
 * blob and of the profile file is in docs/format.md; the numbers below are
 * the versions every producer and reader checks. */
#ifndef PATHPROF_ABI_H
#define PATHPROF_ABI_H

#include <stdint.h>

#define PATHPROF_ABI_VERSION 1u
#define PATHPROF_META_VERSION 1u
#define PATHPROF_FILE_VERSION 1u

#define PATHPROF_META_MAGIC "PPTM"
#define PATHPROF_FILE_MAGIC "PATHPROF"

/* Function directory flags (docs/format.md, section 2). */
#define PATHPROF_FN_HASH 1u
#define PATHPROF_FN_CUT 2u
#define PATHPROF_FN_ATOMIC 4u
#define PATHPROF_FN_VERIFY 8u

/* Edge kinds of the numbered DAG. */
#define PATHPROF_EDGE_REAL 0u
#define PATHPROF_EDGE_ENTRY_DUMMY 1u
#define PATHPROF_EDGE_EXIT_DUMMY 2u
#define PATHPROF_EDGE_TERMINAL 3u

#define PATHPROF_NONE 0xffffffffu

/* Sizes of the fixed records. */
#define PATHPROF_META_HEADER_SIZE 32u
#define PATHPROF_META_DIRENT_SIZE 64u
#define PATHPROF_META_NODE_SIZE 16u
#define PATHPROF_META_EDGE_SIZE 32u
#define PATHPROF_META_VERIFY_SIZE 8u
#define PATHPROF_FILE_HEADER_SIZE 64u

/* Profile sections. */
#define PATHPROF_SECTION_PROGRAM 1u
#define PATHPROF_SECTION_TU 2u

/* Profile modes. */
#define PATHPROF_MODE_COUNT 1u

#ifdef __cplusplus
extern "C" {
#endif

/* Called by each instrumented TU's constructor. */
void __pathprof_register_tu(uint32_t abi_version, const unsigned char *meta,
                            uint64_t meta_len, uint64_t *counters,
                            uint64_t ncounters);
/* Called by each instrumented TU's destructor (dlclose, exit). */
void __pathprof_unregister_tu(uint64_t *counters);
/* Hash-mode path end: SLOT is &counters[counter_offset]. Thread-safe. */
void __pathprof_hash_count(uint64_t *slot, uint64_t path_id);

#ifdef __cplusplus
}
#endif

#endif
