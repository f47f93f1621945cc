/* format.h - the numbers of the trace file (docs/format.md, section
 * 4), shared by the writer (analyzers/trace*.c) and `pathprof dump`. */
#ifndef PATHPROF_TRACE_FORMAT_H
#define PATHPROF_TRACE_FORMAT_H

#define PP_TRACE_MAGIC "PPTRACE"          /* then one zero byte: 8 in all */
#define PP_TRACE_MAGIC_SIZE 8u
/* 2: the trailer is hash64 (runtime/hash64.h), not FNV-1a-64 (version 1,
 * still read): the trace analyzer hashed every byte it wrote, a quarter of
 * its time (docs/performance.md, "Profile checksums"). */
#define PP_TRACE_VERSION 2u
#define PP_TRACE_VERSION_OLDEST 1u
#define PP_TRACE_HEADER_SIZE 64u
#define PP_TRACE_RECORD_HEADER_SIZE 16u   /* u32 type, u32 tid, u64 length */

#define PP_TRACE_EVENTS 1u
#define PP_TRACE_TU 2u
#define PP_TRACE_END 3u

#define PP_TRACE_TU_FIXED 32u             /* tu_id, tu_base, fn_base, meta_len */
#define PP_TRACE_END_THREAD_SIZE 16u      /* u32 tid, u32 flags, u64 nevents */
#define PP_TRACE_THREAD_ENDED 1u

#endif
