/* sequitur.c - SEQUITUR(1) (see sequitur.h).  The structure follows
 * Nevill-Manning and Witten's description: each rule is a circular doubly
 * linked list of nodes headed by a guard; a new digram is looked up in the
 * index; a repeated digram becomes a rule (or a use of the rule that is
 * exactly that digram); a rule left with one use is inlined.  Runs of one
 * symbol ("aaa") hold overlapping digrams, of which the index keeps one;
 * unlinking a node in a run re-points the index at a neighbour. */
#include "sequitur.h"

#include <stdlib.h>
#include <string.h>


static inline uint32_t nval(const struct sequitur *s, uint32_t x) { return s->n[x].val; }
static inline uint32_t nnext(const struct sequitur *s, uint32_t x) { return s->n[x].next; }
static inline uint32_t nprev(const struct sequitur *s, uint32_t x) { return s->n[x].prev; }

static inline uint64_t key_at(const struct sequitur *s, uint32_t x)
{
    return (uint64_t)nval(s, x) << 32 | nval(s, nnext(s, x));
}

/* The high half of a multiplicative hash: every bit of the key counts. */
static inline uint32_t hash_of(uint64_t key)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32);
}

/* ---- growing the arrays ------------------------------------------------ */

static size_t bytes_for(uint64_t ncap, uint64_t rcap, uint64_t tcap)
{
    return (size_t)(ncap * sizeof(struct sq_node) + rcap * sizeof(struct sq_rule) +
                    tcap * sizeof(struct sq_slot)) + SQ_CUR_BUF * sizeof(uint32_t);
}

size_t sq_bytes(const struct sequitur *s)
{
    return bytes_for(s->ncap, s->rcap, s->tmask + 1);
}

static int grow_nodes(struct sequitur *s)
{
    uint32_t cap = s->ncap * 2;
    if (cap <= s->ncap)
        return -1;
    struct sq_node *v = realloc(s->n, (size_t)cap * sizeof *v);
    if (v == NULL)
        return -1;
    s->n = v;
    s->ncap = cap;
    return 0;
}

static int grow_rules(struct sequitur *s)
{
    uint32_t cap = s->rcap * 2;
    if (cap <= s->rcap)
        return -1;
    struct sq_rule *v = realloc(s->r, (size_t)cap * sizeof *v);
    if (v == NULL)
        return -1;
    s->r = v;
    s->rcap = cap;
    return 0;
}

static int grow_table(struct sequitur *s)
{
    uint64_t cap = (s->tmask + 1) * 2;
    if (cap > (uint64_t)1 << 32)
        return -1; /* slots are numbered in 32 bits (sq_node.ix) */
    struct sq_slot *old = s->tab, *v = calloc((size_t)cap, sizeof *v);
    if (v == NULL)
        return -1;
    uint64_t oldcap = s->tmask + 1;
    s->tab = v;
    s->tmask = cap - 1;
    for (uint64_t i = 0; i < oldcap; i++) {
        if (old[i].node == 0)
            continue;
        uint64_t j = old[i].hash & s->tmask;
        while (v[j].node != 0)
            j = (j + 1) & s->tmask;
        v[j] = old[i];
        s->n[old[i].node].ix = (uint32_t)j + 1;
    }
    free(old);
    return 0;
}

/* SQ_HOT: small steps taken several times per appended symbol (node_new
 * about 2, unlink_node 1.6 on lua's stream), inlined into their callers:
 * as calls, saving and restoring registers cost about as much as their
 * bodies (12% of the instructions on lua's replay, 9% on bzip2's). */
#define SQ_HOT static inline __attribute__((always_inline))

SQ_HOT uint32_t node_new(struct sequitur *s, uint32_t val)
{
    uint32_t x = s->nfree;
    if (x != 0) {
        s->nfree = s->n[x].next;
    } else {
        if (s->nused == s->ncap) {
            if (grow_nodes(s) != 0) {
                s->failed = true;
                return 0;
            }
            s->grew = true;
            s->room = 0;
        }
        x = s->nused++;
        s->room--;
    }
    s->n[x].val = val;
    s->n[x].next = s->n[x].prev = x;
    s->n[x].ix = 0;
    return x;
}

static void node_free(struct sequitur *s, uint32_t x)
{
    s->n[x].val = SQ_GUARD(0) | 0xfffffffcu; /* a guard of no rule: never matches */
    s->n[x].next = s->nfree;
    s->nfree = x;
}

static uint32_t rule_new(struct sequitur *s)
{
    uint32_t r = s->free_rules;
    if (r != 0) {
        s->free_rules = s->r[r].uses;
    } else {
        if (s->nrules_made == s->rcap) {
            if (grow_rules(s) != 0) {
                s->failed = true;
                return 0;
            }
            s->grew = true;
            s->room = 0;
        }
        r = s->nrules_made++;
        s->room--;
    }
    uint32_t g = node_new(s, SQ_GUARD(r));
    if (g == 0)
        return 0;
    s->nrules_live++;
    s->r[r].guard = g;
    s->r[r].uses = 0;
    return r;
}

/* ---- the digram index -------------------------------------------------- */

static inline bool digram_real(const struct sequitur *s, uint32_t x)
{
    return !SQ_IS_GUARD(nval(s, x)) && !SQ_IS_GUARD(nval(s, nnext(s, x)));
}

/* The start rule's last digram waits for the next symbol (SEQUITUR(1)). */
static inline bool pending(const struct sequitur *s, uint32_t x)
{
    return !s->finishing && nnext(s, nnext(s, x)) == s->r[0].guard;
}

/* The slot of KEY (hash H): its entry, or the empty slot ending the
 * probe.  An equal hash is confirmed with the node's own digram. */
static inline uint64_t find(const struct sequitur *s, uint64_t key, uint32_t h)
{
    uint64_t i = h & s->tmask;
    for (;;) {
        uint32_t m = s->tab[i].node;
        if (m == 0 || (s->tab[i].hash == h && key_at(s, m) == key))
            return i;
        i = (i + 1) & s->tmask;
    }
}

SQ_HOT void tab_put(struct sequitur *s, uint64_t i, uint32_t h, uint32_t x)
{
    uint32_t old = s->tab[i].node;
    s->tab[i].node = x;
    if (old != 0) {
        s->n[old].ix = 0;
        s->n[x].ix = (uint32_t)i + 1;
        return;
    }
    s->n[x].ix = (uint32_t)i + 1;
    s->tab[i].hash = h;
    s->room--;
    if (++s->tcount * 4 > (s->tmask + 1) * 3) {
        if (grow_table(s) != 0)
            s->failed = true;
        s->grew = true;
        s->room = 0;
    }
}

/* Backward-shift deletion: the entries after slot I that probed past it
 * move up, so no tombstone ever slows a probe down. */
static void tab_erase(struct sequitur *s, uint64_t i)
{
    uint64_t j = i;
    s->n[s->tab[i].node].ix = 0;
    for (;;) {
        j = (j + 1) & s->tmask;
        if (s->tab[j].node == 0)
            break;
        uint64_t k = s->tab[j].hash & s->tmask;
        /* Entry j may fill hole i when its home is not in (i, j]. */
        bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
        if (!stays) {
            s->tab[i] = s->tab[j];
            s->n[s->tab[i].node].ix = (uint32_t)i + 1;
            i = j;
        }
    }
    s->tab[i].node = 0;
    s->tcount--;
}

/* Before X's digram changes: out of the index if it is there. */
static inline void delete_digram(struct sequitur *s, uint32_t x)
{
    if (s->n[x].ix != 0)
        tab_erase(s, s->n[x].ix - 1);
}

/* Makes X the index's occurrence of its digram. */
static void index_put(struct sequitur *s, uint32_t x)
{
    if (!digram_real(s, x) || pending(s, x))
        return;
    uint64_t key = key_at(s, x);
    uint32_t h = hash_of(key);
    tab_put(s, find(s, key, h), h, x);
}

static void index_put_absent(struct sequitur *s, uint32_t x)
{
    if (!digram_real(s, x) || pending(s, x))
        return;
    uint64_t key = key_at(s, x);
    uint32_t h = hash_of(key);
    uint64_t i = find(s, key, h);
    if (s->tab[i].node == 0)
        tab_put(s, i, h, x);
}

/* ---- linking ----------------------------------------------------------- */

/* Unlinks X (not a guard): its digrams leave the index, a rule it used
 * loses that use.  In a run like "aaa" the index may have held the
 * removed overlapping digram: a neighbour's takes its place. */
SQ_HOT void unlink_node(struct sequitur *s, uint32_t x, bool left_fresh)
{
    uint32_t left = nprev(s, x), right = nnext(s, x), v = nval(s, x);
    if (!left_fresh)
        delete_digram(s, left);
    if (nval(s, right) == v && nval(s, nnext(s, right)) == v)
        index_put(s, right);
    if (nval(s, left) == v && nval(s, nprev(s, left)) == v)
        index_put(s, nprev(s, left));
    delete_digram(s, x);
    s->n[left].next = right;
    s->n[right].prev = left;
    if (SQ_IS_USE(v))
        s->r[SQ_ID(v)].uses--;
    node_free(s, x);
}

static void delete_node(struct sequitur *s, uint32_t x)
{
    unlink_node(s, x, false);
}

/* LEFT_FRESH / Q_FRESH: the node before has just become the neighbour of
 * the next one (its previous neighbour was unlinked), so their digram was
 * never in the index and needs no probe to leave it. */
SQ_HOT void link_after(struct sequitur *s, uint32_t q, uint32_t y, bool q_fresh)
{
    uint32_t nx = nnext(s, q);
    if (!q_fresh)
        delete_digram(s, q);
    if (nval(s, q) == nval(s, nx) && nval(s, nprev(s, q)) == nval(s, q))
        index_put(s, nprev(s, q));
    s->n[y].prev = q;
    s->n[y].next = nx;
    s->n[nx].prev = y;
    s->n[q].next = y;
}

static void insert_after(struct sequitur *s, uint32_t q, uint32_t y)
{
    link_after(s, q, y, false);
}

static bool check(struct sequitur *s, uint32_t x);

/* Replaces the digram at X by a use of rule R. */
static void substitute(struct sequitur *s, uint32_t x, uint32_t r)
{
    uint32_t q = nprev(s, x);
    delete_node(s, nnext(s, q));
    unlink_node(s, nnext(s, q), true);
    uint32_t y = node_new(s, SQ_USE(r));
    if (y == 0)
        return;
    s->r[r].uses++;
    link_after(s, q, y, true);
    if (!check(s, q))
        check(s, y);
}

/* Inlines the rule X uses, whose only use X is (rule utility). */
static void expand(struct sequitur *s, uint32_t x)
{
    uint32_t left = nprev(s, x), right = nnext(s, x);
    uint32_t q = SQ_ID(nval(s, x)), g = s->r[q].guard;
    uint32_t f = nnext(s, g), l = nprev(s, g);
    delete_digram(s, left);
    delete_digram(s, x);
    s->n[left].next = f;
    s->n[f].prev = left;
    s->n[l].next = right;
    s->n[right].prev = l;
    node_free(s, g);
    node_free(s, x);
    s->r[q].guard = 0;
    s->deaths++;
    s->r[q].uses = s->limbo;
    s->limbo = q;
    s->nrules_live--;
    index_put(s, l);
    index_put_absent(s, left);
}

/* The digram (X, y) occurs at Q_OCC, the first symbol of its rule, and at
 * OTHER, and X is used nowhere else.  SEQUITUR would make R -> X y, put R
 * in both places and then inline X, X being used only in R: the same
 * grammar, up to the rule's name, as appending y to X's own right side
 * and deleting the two y's.  That is what this does, without making and
 * freeing a rule.  It is the common case on a loop's stream: each symbol
 * of a repeated period extends the rule for the period's prefix. */
static void extend(struct sequitur *s, uint32_t q_occ, uint32_t other)
{
    uint32_t x = SQ_ID(nval(s, q_occ)), vy = nval(s, nnext(s, q_occ));
    delete_node(s, nnext(s, q_occ));
    delete_node(s, nnext(s, other));
    uint32_t ny = node_new(s, vy);
    if (ny == 0)
        return;
    if (SQ_IS_USE(vy))
        s->r[SQ_ID(vy)].uses++;
    uint32_t g = s->r[x].guard;
    insert_after(s, nprev(s, g), ny);
    index_put(s, nprev(s, ny));
    if (SQ_IS_USE(vy) && s->r[SQ_ID(vy)].uses == 1)
        expand(s, ny);
    /* X's new neighbours: (X, z) in Q cannot match (X is used only here
     * and at OTHER, whose digram is not in the index yet); (X, t) may. */
    check(s, q_occ);
    check(s, other);
}

static void match(struct sequitur *s, uint32_t ss, uint32_t m)
{
    uint32_t r, pm = nprev(s, m), vx = nval(s, ss);
    if (SQ_IS_USE(vx) && s->r[SQ_ID(vx)].uses == 2 &&
        !(SQ_IS_GUARD(nval(s, pm)) && SQ_IS_GUARD(nval(s, nnext(s, nnext(s, m)))))) {
        if (SQ_IS_GUARD(nval(s, pm))) {
            extend(s, m, ss);
            return;
        }
        if (SQ_IS_GUARD(nval(s, nprev(s, ss))) &&
            !SQ_IS_GUARD(nval(s, nnext(s, nnext(s, ss))))) {
            extend(s, ss, m);
            return;
        }
    }
    if (SQ_IS_GUARD(nval(s, pm)) && SQ_IS_GUARD(nval(s, nnext(s, nnext(s, m)))) &&
        SQ_ID(nval(s, pm)) != 0) {
        /* M is a whole rule: use it. */
        r = SQ_ID(nval(s, pm));
        substitute(s, ss, r);
    } else {
        uint32_t va = nval(s, ss), vb = nval(s, nnext(s, ss));
        r = rule_new(s);
        if (r == 0)
            return;
        uint32_t a = node_new(s, va), b = node_new(s, vb), g = s->r[r].guard;
        if (a == 0 || b == 0)
            return;
        if (SQ_IS_USE(va))
            s->r[SQ_ID(va)].uses++;
        if (SQ_IS_USE(vb))
            s->r[SQ_ID(vb)].uses++;
        s->n[g].next = a;
        s->n[a].prev = g;
        s->n[a].next = b;
        s->n[b].prev = a;
        s->n[b].next = g;
        s->n[g].prev = b;
        substitute(s, m, r);
        substitute(s, ss, r);
        index_put(s, a);
    }
    if (s->failed || s->r[r].guard == 0)
        return; /* inlined by the cascade */
    uint32_t g = s->r[r].guard, f = nnext(s, g);
    if (SQ_IS_USE(nval(s, f)) && s->r[SQ_ID(nval(s, f))].uses == 1)
        expand(s, f);
    uint32_t l = nprev(s, g);
    if (SQ_IS_USE(nval(s, l)) && s->r[SQ_ID(nval(s, l))].uses == 1)
        expand(s, l);
}

/* Enforces digram uniqueness for the digram at X; true when it made a
 * substitution. */
static bool check(struct sequitur *s, uint32_t x)
{
    if (s->failed || !digram_real(s, x) || pending(s, x))
        return false;
    uint64_t key = key_at(s, x);
    uint32_t h = hash_of(key);
    uint64_t i = find(s, key, h);
    if (s->tab[i].node == 0) {
        tab_put(s, i, h, x);
        return false;
    }
    uint32_t m = s->tab[i].node;
    if (m == x || nnext(s, m) == x || nnext(s, x) == m)
        return false; /* the same or an overlapping occurrence ("aaa") */
    match(s, x, m);
    return true;
}

/* ---- the interface ----------------------------------------------------- */

int sq_init(struct sequitur *s)
{
    memset(s, 0, sizeof *s);
    s->ncap = 1024;
    s->rcap = 256;
    s->n = malloc((size_t)s->ncap * sizeof *s->n);
    s->r = malloc((size_t)s->rcap * sizeof *s->r);
    s->tab = calloc(1024, sizeof *s->tab);
    s->cur_buf = malloc(SQ_CUR_BUF * sizeof *s->cur_buf);
    if (!s->n || !s->r || !s->tab || !s->cur_buf) {
        sq_free(s);
        return -1;
    }
    s->tmask = 1023;
    s->nused = 1; /* node 0 is "none" */
    if (rule_new(s) != 0 || s->failed) { /* S is rule 0 */
        sq_free(s);
        return -1;
    }
    return 0;
}

void sq_reset(struct sequitur *s)
{
    struct sequitur keep = *s;
    memset(s, 0, sizeof *s);
    s->n = keep.n;
    s->ncap = keep.ncap;
    s->r = keep.r;
    s->rcap = keep.rcap;
    s->tab = keep.tab;
    s->tmask = keep.tmask;
    s->cur_buf = keep.cur_buf;
    memset(s->tab, 0, (size_t)(s->tmask + 1) * sizeof *s->tab);
    s->nused = 1;
    rule_new(s); /* S, rule 0: the arrays have room for it */
}

void sq_free(struct sequitur *s)
{
    free(s->n);
    free(s->r);
    free(s->tab);
    free(s->cur_buf);
    memset(s, 0, sizeof *s);
}

bool sq_room_slow(struct sequitur *s, size_t limit)
{
    uint64_t ncap = s->ncap, rcap = s->rcap, tcap = s->tmask + 1, need = sq_need(s);
    /* Every array has its headroom and none grew since the last check
     * against the limit. */
    if (!s->grew && sq_margin(s) >= (int64_t)need) {
        s->room = sq_margin(s) - SQ_NEED_MAX;
        return true;
    }
    /* Made sure of before each append (sq_need); should a cascade need
     * more, the arrays still grow (past the limit, until the next check
     * closes the grammar). */
    while (s->nused + need > ncap)
        ncap *= 2;
    while (s->nrules_made + need > rcap)
        rcap *= 2;
    while ((s->tcount + need) * 2 > tcap)
        tcap *= 2;
    if (bytes_for(ncap, rcap, tcap) > limit)
        return false;
    while (s->ncap < ncap && grow_nodes(s) == 0)
        ;
    while (s->rcap < rcap && grow_rules(s) == 0)
        ;
    while (s->tmask + 1 < tcap && grow_table(s) == 0)
        ;
    s->grew = false;
    if (s->ncap >= ncap && s->rcap >= rcap && s->tmask + 1 >= tcap) {
        s->room = sq_margin(s) - SQ_NEED_MAX;
        return true;
    }
    return false;
}

static inline void drain_limbo(struct sequitur *s)
{
    while (s->limbo) {
        uint32_t r = s->limbo;
        s->limbo = s->r[r].uses;
        s->r[r].uses = s->free_rules;
        s->free_rules = r;
    }
}

/* The node holding digram (A, B), or 0. */
static inline uint32_t probe(const struct sequitur *s, uint32_t a, uint32_t b)
{
    uint64_t key = (uint64_t)a << 32 | b;
    return s->tab[find(s, key, hash_of(key))].node;
}

/* Whether the digram at M is a rule's whole right side. */
static inline bool whole_rule(const struct sequitur *s, uint32_t m)
{
    uint32_t pv = nval(s, nprev(s, m));
    return SQ_IS_GUARD(pv) && SQ_IS_GUARD(nval(s, nnext(s, nnext(s, m)))) && SQ_ID(pv) != 0;
}

/* Y, the start rule's last node, becomes a use of rule R in place: the
 * input after the start rule's last-but-one node repeated R's text.  (x,
 * y), the start rule's last digram, is not in the index; in a run "vvv"
 * ending at y the digram before it now stands for the run (as unlinking y
 * would do).  Y's old rule, if it was one, may now be used only as R's
 * first symbol: it is inlined there (rule utility). */
static void become_use(struct sequitur *s, uint32_t y, uint32_t r)
{
    uint32_t vy = nval(s, y), x = nprev(s, y);
    if (nval(s, x) == vy && nval(s, nprev(s, x)) == vy)
        index_put(s, nprev(s, x));
    if (SQ_IS_USE(vy))
        s->r[SQ_ID(vy)].uses--;
    s->n[y].val = SQ_USE(r);
    s->r[r].uses++;
    if (SQ_IS_USE(vy) && s->r[SQ_ID(vy)].uses == 1)
        expand(s, nnext(s, s->r[r].guard));
}

/* Appends VT after Y, the start rule's last node. */
static void append_node(struct sequitur *s, uint32_t y, uint32_t vt)
{
    uint32_t g0 = s->r[0].guard, z = node_new(s, vt);
    if (z == 0)
        return;
    if (SQ_IS_USE(vt))
        s->r[SQ_ID(vt)].uses++;
    /* Appended after Y, the last symbol: (y, guard) was no digram. */
    s->n[z].prev = y;
    s->n[z].next = g0;
    s->n[y].next = z;
    s->n[g0].prev = z;
    if (!SQ_IS_GUARD(nval(s, y)))
        check(s, nprev(s, y)); /* (x, y) is no longer the last digram */
}

/* Appends VT, a terminal or a use of a live rule, to the start rule. */
static void append_val(struct sequitur *s, uint32_t vt)
{
    drain_limbo(s);
    uint32_t y = nprev(s, s->r[0].guard);
    if (!SQ_IS_GUARD(nval(s, y))) {
        /* SEQUITUR(1): when (y, t) is the whole right side of a rule R,
         * apply R instead of resolving the pending digram (x, y). */
        uint32_t m = probe(s, nval(s, y), vt);
        if (m != 0 && whole_rule(s, m)) {
            become_use(s, y, SQ_ID(nval(s, nprev(s, m))));
            return;
        }
    }
    append_node(s, y, vt);
}

/* ---- following a rule -------------------------------------------------- */

/* When the look-ahead finds the start rule's last symbol y and the next
 * terminal t as a digram (y, t) at node M inside a longer right side, the
 * input often goes on repeating that right side.  A cursor then follows
 * it (descending into the rules it uses, terminal by terminal) instead of
 * appending each terminal, making digrams and finding them again; the
 * grammar does not change meanwhile.  When the input leaves the rule (or
 * a bound is reached), what it matched goes in at once:
 *   - the whole nodes from M to P in M's rule Q: if they are Q's whole
 *     right side, y becomes a use of Q; otherwise they become a new rule
 *     N, moved out of Q (their digrams stay in the index) and replaced
 *     there by a use of N, and y becomes the other use of N;
 *   - then the whole symbols passed below that level (the spine: a prefix
 *     of each nested right side the cursor was inside), appended one by
 *     one as uses of their rules, as runs go in as uses of power rules.
 * SEQUITUR, fed those terminals one by one, makes the same rule N as the
 * digram (y, t) and the ones after it match (by extending a rule or
 * making and inlining one per symbol); the grammar can differ in detail,
 * but both properties hold after every step and it expands to the input. */

#define SQ_DEAD UINT32_MAX /* a spine entry whose rule the cascade inlined */

/* The cursor expects node C next at depth cur_depth (its first node, or
 * the one after a whole node there), and in C's text its first terminal. */
static bool cursor_descend(struct sequitur *s, uint32_t c)
{
    for (bool first = true;; first = false) {
        if (s->cur_depth == SQ_CUR_DEPTH)
            return false;
        if (!first) /* a rule's first node: its spine entries start here */
            s->cur_base[s->cur_depth] = s->cur_nspine;
        s->cur_at[s->cur_depth++] = c;
        uint32_t v = nval(s, c);
        if (!SQ_IS_USE(v))
            return true;
        c = sq_first(s, SQ_ID(v));
    }
}

/* M's digram is (y, VT), with Y the start rule's last node: follow the
 * text after it, when there is some (in the start rule, before y). */
static bool cursor_start(struct sequitur *s, uint32_t m, uint32_t y, uint32_t vt)
{
    uint32_t c = nnext(s, nnext(s, m));
    if (SQ_IS_GUARD(nval(s, c)) || c == y)
        return false;
    s->cur_buf[0] = vt;
    s->cur_len = s->cur_seg = 1;
    s->cur_nspine = 0;
    s->cur_depth = 0;
    s->cur_stop = y;
    if (!cursor_descend(s, c))
        return false;
    s->cur_m = m;
    return true;
}

/* Rules inlined since SEEN: spine entries FROM on that use them are
 * marked (their ids may be reused from the next append on). */
static void mark_dead(struct sequitur *s, uint32_t from, uint64_t *seen)
{
    if (s->deaths == *seen)
        return;
    *seen = s->deaths;
    for (uint32_t j = from; j < s->cur_nspine; j++) {
        uint32_t v = s->cur_spine[j].val;
        if (SQ_IS_USE(v) && s->r[SQ_ID(v)].guard == 0)
            s->cur_spine[j].val = SQ_DEAD;
    }
}

/* Nodes M..P of a right side (3 or more, not all of it) become rule N's,
 * replaced there by a use of N; Y becomes the other. */
static void segment_rule(struct sequitur *s, uint32_t m, uint32_t p, uint32_t y)
{
    uint32_t r = rule_new(s);
    if (r == 0)
        return;
    uint32_t u = node_new(s, SQ_USE(r));
    if (u == 0)
        return;
    uint32_t g = s->r[r].guard, l = nprev(s, m), rt = nnext(s, p);
    delete_digram(s, l);
    delete_digram(s, p);
    s->n[l].next = u;
    s->n[u].prev = l;
    s->n[u].next = rt;
    s->n[rt].prev = u;
    s->n[g].next = m;
    s->n[m].prev = g;
    s->n[p].next = g;
    s->n[g].prev = p;
    s->r[r].uses = 1;
    /* Digrams that overlapped the two that left, in a run "vvv", now
     * stand for it. */
    if (s->n[nprev(s, l)].ix == 0)
        index_put_absent(s, nprev(s, l));
    if (s->n[rt].ix == 0)
        index_put_absent(s, rt);
    if (s->n[nprev(s, p)].ix == 0)
        index_put_absent(s, nprev(s, p));
    become_use(s, y, r);
    if (!check(s, l))
        check(s, u);
}

/* What the cursor matched goes into the grammar: whole nodes from cur_m
 * to P in cur_m's rule, then the spine. */
static __attribute__((noinline)) void cursor_end_at(struct sequitur *s, uint32_t p)
{
    uint32_t m = s->cur_m, y = s->cur_stop, start = s->cur_seg;
    uint64_t seen = s->deaths;
    s->cur_m = 0;
    if (p == nnext(s, m)) {
        append_val(s, nval(s, p)); /* only (y, t): SEQUITUR's own match */
    } else {
        uint32_t pv = nval(s, nprev(s, m));
        if (SQ_IS_GUARD(pv) && SQ_IS_GUARD(nval(s, nnext(s, p))) && SQ_ID(pv) != 0)
            become_use(s, y, SQ_ID(pv));
        else
            segment_rule(s, m, p, y);
    }
    for (uint32_t j = 0; j < s->cur_nspine && !s->failed; j++) {
        mark_dead(s, j, &seen);
        uint32_t v = s->cur_spine[j].val, end = s->cur_spine[j].end;
#ifdef SQ_TEST_FALLBACK
        /* tests/wpp-unit.t: the terminals' path, rarely taken otherwise
         * (never on bzip2's or lua's trace), on every input. */
        if (j % 2 == 0)
            v = SQ_DEAD;
#endif
        if (v != SQ_DEAD) {
            append_val(s, v);
        } else {
            /* Its rule was inlined by an append before: its terminals. */
            for (uint32_t k = start; k < end && !s->failed; k++) {
                append_val(s, s->cur_buf[k]);
                mark_dead(s, j + 1, &seen);
            }
        }
        start = end;
    }
    s->cur_nspine = 0;
}

static void cursor_end(struct sequitur *s)
{
    cursor_end_at(s, nprev(s, s->cur_at[0]));
}

/* VT matched the terminal the cursor expected: on to the next one.
 * Returns 0 (sq_append_slow's answer: a tail call there). */
static __attribute__((noinline)) int cursor_advance(struct sequitur *s, uint32_t vt)
{
    s->cur_buf[s->cur_len++] = vt;
    uint32_t d = s->cur_depth - 1, x = s->cur_at[d], nx;
    for (;;) {
        nx = nnext(s, x);
        if (d == 0) {
            /* X, in cur_m's rule, is matched whole. */
            if (SQ_IS_GUARD(nval(s, nx)) || nx == s->cur_stop) {
                cursor_end_at(s, x);
                return 0;
            }
            s->cur_seg = s->cur_len;
            break;
        }
        if (!SQ_IS_GUARD(nval(s, nx))) {
            uint32_t j = s->cur_nspine++;
            s->cur_spine[j].val = nval(s, x);
            s->cur_spine[j].end = s->cur_len;
            break;
        }
        /* The rule at depth D is matched whole: the node that uses it is
         * (the whole symbols inside it leave the spine). */
        s->cur_nspine = s->cur_base[d];
        x = s->cur_at[--d];
    }
    s->cur_depth = d;
    s->cur_at[d] = nx;
    if (s->cur_nspine == SQ_CUR_SPINE || s->cur_len == SQ_CUR_BUF || !cursor_descend(s, nx))
        cursor_end(s);
    return 0;
}

/* Terminal VT, not part of a run, into the grammar: the cursor's next
 * terminal, or appended (then perhaps followed). */
static void feed(struct sequitur *s, uint32_t vt)
{
    if (s->cur_m != 0) {
        if (nval(s, s->cur_at[s->cur_depth - 1]) == vt) {
            cursor_advance(s, vt);
            return;
        }
        cursor_end(s);
        if (s->failed)
            return;
    }
    drain_limbo(s);
    uint32_t y = nprev(s, s->r[0].guard);
    if (!SQ_IS_GUARD(nval(s, y))) {
        uint32_t m = probe(s, nval(s, y), vt);
        if (m != 0) {
            if (whole_rule(s, m)) {
                become_use(s, y, SQ_ID(nval(s, nprev(s, m))));
                return;
            }
            if (cursor_start(s, m, y, vt))
                return;
        }
    }
    append_node(s, y, vt);
}

/* The use of the rule whose whole right side is (V, V), or 0 when there
 * is none.  Such a rule is its digram's only occurrence (any other would
 * be a second, apart from it), so the index points at it. */
static uint32_t doubled(struct sequitur *s, uint32_t v)
{
    uint64_t key = (uint64_t)v << 32 | v, i = find(s, key, hash_of(key));
    uint32_t m = s->tab[i].node;
    if (m == 0)
        return 0;
    uint32_t pv = nval(s, nprev(s, m));
    if (SQ_IS_GUARD(pv) && SQ_ID(pv) != 0 && SQ_IS_GUARD(nval(s, nnext(s, nnext(s, m)))))
        return SQ_USE(SQ_ID(pv));
    return 0;
}

/* The run v^k goes into the grammar as the largest powers v^(2^i) the
 * grammar already has a rule for (v, V2 -> v v, V4 -> V2 V2, ...; the same
 * nested rules SEQUITUR makes of a run), largest first: O(log k) appends
 * instead of k.  A power is looked up again before each append, as the
 * append before may have made or inlined one. */
static void flush_run(struct sequitur *s, uint32_t v, uint64_t k)
{
    uint32_t pw[64];
    pw[0] = v;
    while (k != 0 && !s->failed) {
        unsigned top = 0;
        while (top < 63 && (uint64_t)2 << top <= k) {
            uint32_t d = doubled(s, pw[top]);
            if (d == 0)
                break;
            pw[++top] = d;
        }
        append_val(s, pw[top]);
        k -= (uint64_t)1 << top;
    }
}

/* VT is the terminal the cursor expected.  The common case of
 * cursor_advance, taken in sq_append_slow without a call: the cursor's
 * next node, at the same depth, is a terminal and no bound is reached.
 * False (and nothing changed) otherwise. */
static inline bool cursor_step(struct sequitur *s, uint32_t vt)
{
    uint32_t d = s->cur_depth - 1, x = s->cur_at[d], nx = nnext(s, x);
    if (!SQ_IS_TERM(nval(s, nx)) || nx == s->cur_stop || s->cur_len + 1 == SQ_CUR_BUF ||
        s->cur_nspine + 1 >= SQ_CUR_SPINE)
        return false;
    s->cur_buf[s->cur_len++] = vt;
    if (d == 0) {
        s->cur_seg = s->cur_len;
    } else {
        uint32_t j = s->cur_nspine++;
        s->cur_spine[j].val = nval(s, x);
        s->cur_spine[j].end = s->cur_len;
    }
    s->cur_at[d] = nx;
    return true;
}

/* The pending run V^K (K >= 1) ends: one symbol goes to the cursor, a
 * longer run ends the cursor's match and goes in as powers.  -1 when
 * memory ran out (and no run is pending then: a repeat fails too). */
static __attribute__((noinline)) int flush_pending(struct sequitur *s, uint32_t v, uint64_t k)
{
    if (k == 1) {
        feed(s, v);
    } else {
        if (s->cur_m != 0)
            cursor_end(s);
        flush_run(s, v, k);
    }
    if (__builtin_expect(s->failed, 0)) {
        s->run_len = 0;
        return -1;
    }
    return 0;
}

int sq_append_slow(struct sequitur *s, uint32_t t)
{
    /* T becomes the pending run first, so that the pending run's way into
     * the grammar is a tail call (nothing kept across it: no registers
     * saved and restored per symbol). */
    uint64_t k = s->run_len;
    uint32_t v = s->run_val;
    s->run_val = SQ_TERM(t);
    s->run_len = 1;
    s->length++;
    if (t >= s->nterms)
        s->nterms = t + 1;
    if (k == 1 && s->cur_m != 0 && nval(s, s->cur_at[s->cur_depth - 1]) == v) {
        /* The input goes on repeating what the cursor follows. */
        if (cursor_step(s, v))
            return 0;
        return cursor_advance(s, v);
    }
    if (k == 0)
        return s->failed ? -1 : 0;
    return flush_pending(s, v, k);
}

void sq_finish(struct sequitur *s)
{
    uint64_t k = s->run_len;
    s->run_len = 0;
    if (k != 0)
        flush_pending(s, s->run_val, k);
    if (s->cur_m != 0)
        cursor_end(s);
    s->finishing = true;
    uint32_t g0 = s->r[0].guard, y = nprev(s, g0);
    if (!SQ_IS_GUARD(nval(s, y)))
        check(s, nprev(s, y));
}
