/* sequitur.h - SEQUITUR(1) over 32-bit terminal symbols (the WPP paper,
 * sections 3.1-3.2): one grammar grown online, one symbol at a time, that
 * keeps its two properties after every symbol but the last (and the run
 * of one symbol it ends, which is only counted until it ends):
 *
 *   digram uniqueness: no pair of adjacent symbols occurs twice (without
 *     overlapping) anywhere in the grammar;
 *   rule utility: every rule but the start rule is used at least twice.
 *
 * SEQUITUR(1): the last digram of the start rule is only checked when the
 * next symbol arrives; if that symbol and the digram's second symbol are
 * the whole right side of a rule, the rule is applied instead of making a
 * new one for the duplicate (the paper's 11111211111 example).
 *
 * Runs of one symbol (a loop that takes one path again and again: 70% of
 * bzip2's symbols repeat the one before) are counted, not appended one by
 * one: the run v^k goes in when it ends, as uses of the rules for the
 * powers v^(2^i) the grammar already has, largest first (SEQUITUR makes
 * those rules of a run itself: V2 -> v v, V4 -> V2 V2, ...).  The grammar
 * is the one SEQUITUR(1) makes of that sequence of symbols: both
 * properties hold, and it expands to exactly the input.
 *
 * A repeated stretch of input (lua's stream: 0.95 of its symbols do not
 * repeat the one before, but nearly all repeat a rule's text) is not
 * appended symbol by symbol either: when the look-ahead finds the digram
 * (last symbol, next terminal) inside a longer right side, a cursor
 * follows that right side while the input repeats it, and what it matched
 * goes in at once when the input leaves it (sequitur.c, "following a
 * rule"): a use of the rule, or a new rule made of the matched part of its
 * right side, then uses of the rules it had descended into.  Both
 * properties hold and the grammar expands to exactly the input; it is not
 * always the grammar SEQUITUR(1) makes of the terminals one by one.
 *
 * The digram index is an open-addressing hash table with backward-shift
 * deletion (no tombstones) that doubles at half load, so every lookup
 * takes constant expected time however full the grammar gets; nodes and
 * rules live in arrays indexed by 32-bit numbers (no pointers: they move
 * when an array grows).  A slot is 8 bytes, the digram's 32-bit hash and
 * its node (the key is read back from the node to confirm a match), and
 * each node knows its slot, so taking a digram out of the index needs no
 * lookup (most digrams a substitution removes were never in it).
 *
 * Depends on nothing but libc, so tests/wpp/unit.c drives it directly. */
#ifndef PATHPROF_WPP_SEQUITUR_H
#define PATHPROF_WPP_SEQUITUR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* A node's value: terminal t is t << 2, a use of rule r is r << 2 | 1,
 * the guard (the circular list's head) of rule r is r << 2 | 2. */
#define SQ_TERM(t) ((uint32_t)(t) << 2)
#define SQ_USE(r) ((uint32_t)(r) << 2 | 1u)
#define SQ_GUARD(r) ((uint32_t)(r) << 2 | 2u)
#define SQ_IS_TERM(v) (((v) & 3u) == 0)
#define SQ_IS_USE(v) (((v) & 3u) == 1)
#define SQ_IS_GUARD(v) (((v) & 3u) == 2)
#define SQ_ID(v) ((v) >> 2)
/* Terminals and rules are numbered below this (values stay below 2^32 - 1,
 * the index's empty key). */
#define SQ_MAX_ID ((1u << 30) - 2)

struct sq_node {
    uint32_t next, prev, val;
    uint32_t ix; /* 1 + the index slot holding this node's digram; 0: none */
};

struct sq_rule {
    uint32_t guard; /* its guard node; 0 once the rule was inlined (dead) */
    uint32_t uses;  /* dead: the next dead rule of its list */
};

struct sq_slot {
    uint32_t hash; /* of the key, first value << 32 | second value */
    uint32_t node; /* the digram's first node; 0: empty */
};

/* The cursor's bounds: levels of nested rules it descends, whole symbols
 * below the first level it may have to append when the input leaves the
 * rule (each one append, counted in sq_need), terminals it buffers. */
#define SQ_CUR_DEPTH 64u
#define SQ_CUR_SPINE 32u
#define SQ_CUR_BUF 4096u

struct sequitur {
    struct sq_node *n;   /* n[0] unused: 0 is "no node" */
    uint32_t ncap, nused, nfree; /* nfree: head of the free list (through next) */
    struct sq_rule *r;   /* r[0] is the start rule S */
    uint32_t rcap, nrules_made, nrules_live;
    /* Dead rules: FREE_RULES may be reused; LIMBO died during the current
     * append and joins them at the next, so a rule the cascade inlined is
     * never mistaken for a new one with its id. (0: empty list.) */
    uint32_t free_rules, limbo;
    struct sq_slot *tab;
    uint64_t tmask, tcount;
    uint64_t length;     /* terminals appended */
    uint64_t run_len;    /* the last terminals, a run not yet in the grammar */
    uint32_t run_val;    /* their value (SQ_TERM) */
    uint32_t nterms;     /* 1 + the largest terminal appended */
    /* The cursor (sequitur.c, "following a rule"): the input repeats the
     * text after the digram at CUR_M in some rule's body; CUR_AT[i] is the
     * node expected next at depth i (0: in CUR_M's rule, i > 0: in the rule
     * used at CUR_AT[i - 1]).  Nothing is appended while it follows; the
     * symbols it matched are in CUR_BUF, and the nodes at depth > 0 it has
     * passed whole in CUR_SPINE (value, end in CUR_BUF; those at depth i
     * from CUR_BASE[i] on). */
    uint32_t cur_m;      /* 0: not following */
    uint32_t cur_stop;   /* the start rule's last node: no segment reaches it */
    uint32_t cur_depth, cur_len, cur_seg, cur_nspine; /* cur_seg: CUR_BUF's
                                                       * length when CUR_AT[0] began */
    uint32_t cur_at[SQ_CUR_DEPTH];
    uint32_t cur_base[SQ_CUR_DEPTH];
    struct { uint32_t val, end; } cur_spine[SQ_CUR_SPINE];
    uint32_t *cur_buf;   /* SQ_CUR_BUF terminals */
    uint64_t deaths;     /* rules inlined so far */
    /* Nodes, rules and index slots that may still be taken (each counts
     * one) before sq_room must look at the arrays again: sq_room_slow sets
     * it to the least headroom past SQ_NEED_MAX, and a growth mid-cascade
     * to 0.  The check before each symbol is then one test. */
    int64_t room;
    bool finishing;      /* sq_finish: the last digram is checked too */
    bool grew;           /* an array grew outside sq_room (mid-cascade) */
    bool failed;         /* out of memory: the grammar is incomplete */
};

int sq_init(struct sequitur *s);
void sq_free(struct sequitur *s);
/* Empties the grammar for the next epoch, keeping the arrays (already
 * within the limit, and in the caches): no allocation, no page faults. */
void sq_reset(struct sequitur *s);
/* Appends terminal T (< SQ_MAX_ID).  Returns 0, or -1 when memory ran out
 * (s->failed is then set and the grammar no longer grows). */
int sq_append_slow(struct sequitur *s, uint32_t t);
static inline int sq_append(struct sequitur *s, uint32_t t)
{
    /* A run goes on: counted (s->run_len is 0 once the grammar failed). */
    if (__builtin_expect(s->run_len != 0 && SQ_TERM(t) == s->run_val, 1)) {
        s->run_len++;
        s->length++;
        return 0;
    }
    return sq_append_slow(s, t);
}
/* Whether the last symbol appended is a run not yet in the grammar, which
 * sq_run_more makes K longer (the same as appending that symbol K times). */
static inline bool sq_in_run(const struct sequitur *s)
{
    return s->run_len != 0;
}
static inline void sq_run_more(struct sequitur *s, uint64_t k)
{
    s->run_len += k;
    s->length += k;
}
/* Checks the last digram: afterwards both properties hold everywhere. */
void sq_finish(struct sequitur *s);
/* Bytes held by the grammar's arrays. */
size_t sq_bytes(const struct sequitur *s);
/* Makes sure the next append needs no allocation that would take the
 * arrays past LIMIT bytes; false when it would (close the grammar). */
bool sq_room_slow(struct sequitur *s, size_t limit);
#define SQ_HEADROOM 256u
/* Free nodes, rules and index slots the next append may need: one
 * symbol's cascade of substitutions needs far fewer than SQ_HEADROOM; the
 * pending run goes in as a few appends per power of two in its length
 * (sequitur.c, flush_run), and what the cursor matched as a rule and an
 * append per use below it (cursor_end_at), each of which adds at most a
 * few of each. */
static inline uint64_t sq_need(const struct sequitur *s)
{
    return SQ_HEADROOM + (s->run_len ? 16u * (64u - (unsigned)__builtin_clzll(s->run_len)) : 0) +
           (s->cur_m ? 16u * (s->cur_nspine + 2u) : 0);
}
/* The most sq_need can be: a run of 2^64 - 1, a spine of SQ_CUR_SPINE. */
#define SQ_NEED_MAX (SQ_HEADROOM + 16u * 64u + 16u * (SQ_CUR_SPINE + 2u))
/* The arrays' least headroom: free nodes, rules, index slots below half
 * load. */
static inline int64_t sq_margin(const struct sequitur *s)
{
    int64_t m = (int64_t)s->ncap - s->nused, mr = (int64_t)s->rcap - s->nrules_made,
            mt = (int64_t)((s->tmask + 1) / 2) - (int64_t)s->tcount;
    m = mr < m ? mr : m;
    return mt < m ? mt : m;
}
static inline bool sq_room(struct sequitur *s, size_t limit)
{
    /* The common case, once per symbol: since the arrays were found
     * SQ_NEED_MAX + room entries short of full (and none grew past the
     * limit), fewer than room entries were taken, so sq_need's headroom
     * is there.  The same answer as sq_room_slow's, with one test. */
    if (__builtin_expect(s->room > 0, 1))
        return true;
    /* Closer to full (the node array, whose free list serves most
     * appends, stays there for millions of symbols): sq_need itself. */
    int64_t m = sq_margin(s);
    if (__builtin_expect(!s->grew && m >= (int64_t)sq_need(s), 1)) {
        s->room = m - SQ_NEED_MAX;
        return true;
    }
    return sq_room_slow(s, limit);
}

/* Walking a rule: its first node is s->n[s->r[r].guard].next; the walk
 * ends at a node whose value is a guard. */
static inline uint32_t sq_first(const struct sequitur *s, uint32_t rule)
{
    return s->n[s->r[rule].guard].next;
}

#pragma GCC visibility pop

#endif
