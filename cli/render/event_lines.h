/* event_lines.h - a thread's event stream as `pathprof dump` prints it, one
 * line per event with the activation it belongs to (rebuilt by
 * analyzers/common/activations.c), the function, the path ID with its
 * START/RET bits and the path's source lines.  `pathprof dump` feeds it a
 * trace's words, `pathprof wpp --expand` the expansion of a grammar: the
 * same lines, so the two can be compared with cmp. */
#ifndef PATHPROF_CLI_EVENT_LINES_H
#define PATHPROF_CLI_EVENT_LINES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "common/activations.h"
#include "graph/path.h"
#include "read/trace.h"

struct event_lines {
    FILE *out;
    const struct trace *t;     /* the TUs and their bases */
    struct pp_error err;
    struct line_range *ranges; /* room for the longest path of any function */
    struct path path;
    const struct pp_func_meta *path_owner; /* the function PATH has room for */
    uint64_t errors[6];        /* totals of the PP_ACT_ERR_* bits, in bit order */
    struct pp_act_stack st;
    uint32_t tid;
    uint64_t index;
};

void event_lines_init(struct event_lines *d, FILE *out, const struct trace *t);
void event_lines_free(struct event_lines *d);
/* "# thread N: E events, stream ended|stream cut short ..." */
void event_lines_thread(struct event_lines *d, uint32_t tid, uint64_t nevents, bool ended);
/* One word of the thread's stream; false (d->err) when a path cannot be decoded. */
bool event_lines_word(struct event_lines *d, uint64_t word);
/* The thread's closing comment lines. */
void event_lines_thread_end(struct event_lines *d);
/* The thread's stream stops at an error: what event_lines_thread set up
 * is released without the closing lines (instead of event_lines_thread_end). */
void event_lines_thread_abandon(struct event_lines *d);
/* " t.c:3-4 t.c:7": the lines of path ID of F. */
bool event_lines_path_lines(struct event_lines *d, const struct pp_func_meta *f, uint64_t id);

#endif
