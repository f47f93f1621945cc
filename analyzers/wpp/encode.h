/* encode.h - one grammar (a producer thread's epoch) in the WPP section's
 * compact form (docs/format.md, WPP): a fixed header, the symbol table,
 * the rules in postorder (a rule uses only rules before it, the start
 * rule is last), unsigned LEB128 numbers throughout, and an FNV-1a-64
 * checksum of the record. */
#ifndef PATHPROF_WPP_ENCODE_H
#define PATHPROF_WPP_ENCODE_H

#include <stdint.h>

#include "bytebuf.h"
#include "sequitur.h"
#include "symbols.h"

#pragma GCC visibility push(hidden)

#define WPP_GRAMMAR_ENDED 1u /* the thread's stream was closed (its last epoch) */
#define WPP_GRAMMAR_HALF 2u  /* the stream ends with a marker's first word: TAIL */

struct wpp_grammar_head {
    uint32_t tid, flags;
    uint64_t epoch;
    uint64_t words;  /* stream words this epoch covers (TAIL included) */
    uint64_t tail;   /* HALF: the lone first word */
};

/* Appends the record to OUT; -1 when memory ran out (OUT->failed too). */
int wpp_encode(const struct sequitur *s, const struct wpp_symbols *syms,
               const struct wpp_grammar_head *h, struct pprt_buf *out);

#pragma GCC visibility pop

#endif
