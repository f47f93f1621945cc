/* trace.h - a trace file (docs/format.md, section 4) in memory.
 *
 * trace_read() maps the file and accepts it only when the checksum holds,
 * every record accounts for its bytes, the END record is last and agrees
 * with the records, and the TUs' path and function ranges are disjoint.
 * Events stay in the mapped file: a thread's stream is the list of its
 * EVENTS records, read with trace_thread_word(). */
#ifndef PATHPROF_CLI_TRACE_H
#define PATHPROF_CLI_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "graph/meta.h"

struct trace_tu {
    uint64_t tu_id, tu_base, fn_base;
    struct pp_tu_meta meta;
};

/* A function's global path indices [first, first + npaths). */
struct trace_range {
    uint64_t first, npaths;
    uint32_t tu, func;
};

struct trace_events {
    const unsigned char *words; /* little-endian u64s in the mapped file */
    uint64_t n;
};

struct trace_thread {
    uint32_t tid, flags;        /* PP_TRACE_THREAD_ENDED */
    uint64_t nevents;
    size_t nrecords;
    struct trace_events *records; /* in stream order */
};

struct trace {
    const unsigned char *data;  /* the mapped (or read) file */
    size_t len;
    bool mapped;
    uint64_t pid, time, parent_pid;

    size_t ntus;
    struct trace_tu *tus;       /* file order */
    size_t nranges;
    struct trace_range *ranges; /* ascending first */
    size_t *by_fn_base;         /* TU indices by ascending fn_base */

    size_t nthreads;
    struct trace_thread *threads; /* ascending tid */
};

bool trace_read(const char *path, struct trace *t, struct pp_error *err);
/* Builds RANGES and BY_FN_BASE from TUS (their bases and metadata) and
 * checks that no two TUs share an index: trace_read's last step, and how
 * `pathprof wpp` decodes a profile's grammars the same way. */
bool trace_index(struct trace *t, struct pp_error *err);
void trace_free(struct trace *t);

/* The function of global path index INDEX: false when no TU has it. */
bool trace_path(const struct trace *t, uint64_t index, const struct trace_tu **tu,
                const struct pp_func_meta **f, uint64_t *path_id);
/* The function of global function index FN. */
bool trace_func(const struct trace *t, uint64_t fn, const struct trace_tu **tu,
                const struct pp_func_meta **f);
/* Global function index of a TU's function (for analyzers/common/activations.h). */
static inline uint64_t trace_fn_index(const struct trace *t, const struct trace_tu *tu,
                                      const struct pp_func_meta *f)
{
    (void)t;
    return tu->fn_base + (uint64_t)(f - tu->meta.funcs);
}

/* Walks a thread's events in stream order. */
struct trace_cursor {
    const struct trace_thread *thread;
    size_t record;
    uint64_t at;
};
static inline struct trace_cursor trace_cursor(const struct trace_thread *th)
{
    struct trace_cursor c = { th, 0, 0 };
    return c;
}
bool trace_next(struct trace_cursor *c, uint64_t *word);

#endif
