/* wpp.h - the WPP section (docs/format.md, section 3, tag 6) in memory:
 * per producer thread and epoch, a SEQUITUR grammar whose expansion is the
 * thread's stream, word for word.
 *
 * wpp_read() accepts the section only when every grammar's checksum holds,
 * every number is within bounds, every rule uses only rules before it (so
 * the grammar is acyclic), and the start rule expands to exactly the
 * number of symbols and words its header announces. */
#ifndef PATHPROF_CLI_WPP_H
#define PATHPROF_CLI_WPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "trace.h"
#include "pathprof-abi.h"

#define WPP_GRAMMAR_ENDED 1u
#define WPP_GRAMMAR_HALF 2u

struct wpp_term {
    uint64_t w1, w2; /* the path event (w2 0), or a marker's two words */
    bool marker;
};

struct wpp_grammar {
    uint32_t tid, flags;
    uint64_t epoch, words, length, tail;
    uint64_t nterms, nrules;
    uint64_t record_bytes;   /* the encoded record, header and checksum included */
    struct wpp_term *terms;
    uint64_t *first;         /* rule r's symbols are rhs[first[r] .. first[r+1]) */
    uint64_t *rhs;           /* t << 1 a terminal, r << 1 | 1 a rule */
    uint64_t *len;           /* rule r's expansion length in symbols */
};

struct wpp_tu_map {
    uint64_t tu_base, fn_base;
    uint32_t section;        /* rank of its TU section; UINT32_MAX none */
};

struct wpp_data {
    uint64_t max_bytes;
    size_t ntus;
    struct wpp_tu_map *tus;
    size_t ngrammars;
    struct wpp_grammar *g;   /* by thread, then epoch */
    uint64_t section_bytes;
};

/* NTU_SECTIONS: TU sections of the profile (ranks must be below it). */
bool wpp_read(const unsigned char *body, size_t len, size_t ntu_sections,
              struct wpp_data *w, struct pp_error *err);
void wpp_free(struct wpp_data *w);

/* Walks the expansion of grammar G's start rule, terminal by terminal. */
struct wpp_walk {
    const struct wpp_grammar *g;
    uint64_t *rule, *pos;
    size_t depth, cap;
};
bool wpp_walk_init(struct wpp_walk *k, const struct wpp_grammar *g);
/* The next terminal's number; false at the end. */
bool wpp_walk_next(struct wpp_walk *k, uint64_t *term);
void wpp_walk_free(struct wpp_walk *k);

/* A view of the profile's TUs with the bases the run gave them, for the
 * same decoding as a trace (trace_path, trace_func). TUS are the profile's
 * TU metadata by section rank; the view borrows them. */
bool wpp_trace_view(const struct wpp_data *w, const struct pp_tu_meta *tus, size_t ntus,
                    struct trace *t, struct pp_error *err);
void wpp_trace_view_free(struct trace *t);

#endif
