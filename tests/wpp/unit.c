/* unit.c - the SEQUITUR(1) core (analyzers/wpp/sequitur.c) against its
 * definition, on random and adversarial inputs: after sq_finish the
 * grammar must expand to exactly the input, have no digram twice (two
 * occurrences may share a symbol only in a run like "aaa"), no rule but
 * the start rule used fewer than twice, use counts equal to the real
 * references, and an index that points at live occurrences of their
 * digrams.  It also checks the paper's SEQUITUR(1) example exactly.
 * Prints TAP. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wpp/sequitur.h"

static int test_no;
static int failures;

static void ok(bool good, const char *fmt, const char *what, size_t n)
{
    printf("%s %d - ", good ? "ok" : "not ok", ++test_no);
    printf(fmt, what, n);
    putchar('\n');
    failures += !good;
}

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

/* Expands rule R into OUT (an explicit stack: rules nest deeply). */
static size_t expand_rule(const struct sequitur *s, uint32_t r, uint32_t *out, size_t max)
{
    size_t n = 0, depth = 0, cap = 64;
    uint32_t *stack = malloc(cap * sizeof *stack);
    stack[depth++] = sq_first(s, r);
    while (depth) {
        uint32_t x = stack[depth - 1];
        uint32_t v = s->n[x].val;
        if (SQ_IS_GUARD(v)) {
            depth--;
            continue;
        }
        stack[depth - 1] = s->n[x].next;
        if (SQ_IS_TERM(v)) {
            if (n < max)
                out[n] = SQ_ID(v);
            n++;
        } else {
            if (depth == cap)
                stack = realloc(stack, (cap *= 2) * sizeof *stack);
            stack[depth++] = sq_first(s, SQ_ID(v));
        }
    }
    free(stack);
    return n;
}

struct occ {
    uint64_t key;
    uint32_t node, next;
};

static int by_key(const void *a, const void *b)
{
    const struct occ *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

/* Why the grammar is wrong, or NULL. */
static const char *properties(const struct sequitur *s)
{
    static char why[200];
    uint32_t *uses = calloc(s->nrules_made, sizeof *uses);
    size_t nocc = 0, cap = 1024;
    struct occ *occ = malloc(cap * sizeof *occ);
    const char *bad = NULL;

    for (uint32_t r = 0; r < s->nrules_made && !bad; r++) {
        if (s->r[r].guard == 0)
            continue;
        uint32_t g = s->r[r].guard, len = 0;
        for (uint32_t x = s->n[g].next; x != g; x = s->n[x].next) {
            uint32_t v = s->n[x].val, nx = s->n[x].next;
            len++;
            if (s->n[nx].prev != x) {
                bad = "a broken link";
                break;
            }
            if (SQ_IS_USE(v)) {
                if (SQ_ID(v) >= s->nrules_made || s->r[SQ_ID(v)].guard == 0) {
                    bad = "a use of a dead rule";
                    break;
                }
                uses[SQ_ID(v)]++;
            }
            if (nx != g) {
                if (nocc == cap)
                    occ = realloc(occ, (cap *= 2) * sizeof *occ);
                occ[nocc].key = (uint64_t)v << 32 | s->n[nx].val;
                occ[nocc].node = x;
                occ[nocc].next = nx;
                nocc++;
            }
        }
        if (!bad && r != 0 && len < 2) {
            snprintf(why, sizeof why, "rule %u has %u symbols", r, len);
            bad = why;
        }
    }
    for (uint32_t r = 1; r < s->nrules_made && !bad; r++) {
        if (s->r[r].guard == 0)
            continue;
        if (uses[r] != s->r[r].uses) {
            snprintf(why, sizeof why, "rule %u: %u uses counted, %u references", r,
                     s->r[r].uses, uses[r]);
            bad = why;
        } else if (uses[r] < 2) {
            snprintf(why, sizeof why, "rule utility: rule %u used %u times", r, uses[r]);
            bad = why;
        }
    }
    qsort(occ, nocc, sizeof *occ, by_key);
    for (size_t i = 0; i < nocc && !bad; ) {
        size_t j = i;
        while (j < nocc && occ[j].key == occ[i].key)
            j++;
        /* Two occurrences of one digram may only overlap (the run "aaa");
         * three always hold two that do not. */
        bool apart = j - i > 2 ||
                     (j - i == 2 && occ[i].next != occ[i + 1].node &&
                      occ[i + 1].next != occ[i].node);
        if (apart) {
            snprintf(why, sizeof why, "digram uniqueness: digram %08llx:%08llx occurs %zu "
                     "times", (unsigned long long)(occ[i].key >> 32),
                     (unsigned long long)(occ[i].key & 0xffffffffu), j - i);
            bad = why;
        }
        i = j;
    }
    uint64_t indexed = 0, slots = 0;
    for (uint64_t i = 0; i <= s->tmask && !bad; i++) {
        uint32_t x = s->tab[i].node;
        if (x == 0)
            continue;
        uint64_t k = (uint64_t)s->n[x].val << 32 | s->n[s->n[x].next].val;
        if ((uint32_t)((k * 0x9E3779B97F4A7C15ull) >> 32) != s->tab[i].hash ||
            SQ_IS_GUARD(s->n[x].val) || SQ_IS_GUARD(s->n[s->n[x].next].val))
            bad = "an index entry points at another digram";
        else if (s->n[x].ix != i + 1)
            bad = "an indexed node does not know its slot";
        indexed++;
        slots++;
    }
    /* Every node that says it is indexed is (no node points at a slot
     * that forgot it, which would take the wrong digram out). */
    for (size_t i = 0; i < nocc && !bad; i++)
        if (s->n[occ[i].node].ix != 0)
            indexed--;
    if (!bad && indexed != 0)
        bad = "the nodes' slot numbers disagree with the index";
    if (!bad && s->tcount != slots)
        bad = "the index's count of entries is wrong";
    free(occ);
    free(uses);
    return bad;
}

static void run(const char *what, const uint32_t *in, size_t n)
{
    struct sequitur s;
    if (sq_init(&s) != 0) {
        ok(false, "%s (%zu symbols): sq_init", what, n);
        return;
    }
    bool appended = true;
    for (size_t i = 0; i < n && appended; i++)
        appended = sq_append(&s, in[i]) == 0;
    sq_finish(&s);
    uint32_t *out = malloc((n + 1) * sizeof *out);
    size_t m = expand_rule(&s, 0, out, n);
    bool same = appended && m == n && memcmp(in, out, n * sizeof *in) == 0;
    ok(same, "%s (%zu symbols): expands to the input", what, n);
    const char *why = properties(&s);
    if (why)
        printf("# %s\n", why);
    ok(why == NULL, "%s (%zu symbols): digram uniqueness, rule utility, index", what, n);
    free(out);
    sq_free(&s);
}

/* Terminals rule R expands to, without expanding it (memo: 0 unknown). */
static uint64_t rule_length(const struct sequitur *s, uint32_t r, uint64_t *memo)
{
    if (memo[r] != 0)
        return memo[r];
    uint64_t n = 0;
    for (uint32_t x = sq_first(s, r); !SQ_IS_GUARD(s->n[x].val); x = s->n[x].next)
        n += SQ_IS_TERM(s->n[x].val) ? 1 : rule_length(s, SQ_ID(s->n[x].val), memo);
    return memo[r] = n;
}

/* A run of 2^63 - 1 (every power of two) in a grammar that has no rule
 * for any of its powers yet: the most appends a run can take, after M
 * other symbols.  Going in, it must take no more nodes, rules and index
 * entries than sq_need promised before (what sq_room makes sure of, so
 * that the memory limit holds), and the grammar must keep its properties
 * and its length. */
static void huge_run(void)
{
    uint64_t k = (1ull << 63) - 1, most = 0;
    bool good = true;
    for (uint32_t m = 0; m < 600 && good; m += 7) {
        struct sequitur s;
        sq_init(&s);
        for (uint32_t i = 0; i < m; i++)
            sq_append(&s, 10 + i % 50 + i / 50 % 2);
        sq_append(&s, 3);
        sq_run_more(&s, k - 1);
        uint64_t need = sq_need(&s), nodes = s.nused, rules = s.nrules_made, slots = s.tcount;
        sq_append(&s, 4); /* the run goes into the grammar */
        sq_finish(&s);
        uint64_t took = s.nused - nodes;
        if (s.nrules_made - rules > took)
            took = s.nrules_made - rules;
        if (s.tcount - slots > took)
            took = s.tcount - slots;
        if (took > most)
            most = took;
        uint64_t *memo = calloc(s.nrules_made, sizeof *memo);
        uint64_t len = rule_length(&s, 0, memo);
        const char *why = properties(&s);
        if (why || took > need || len != m + k + 1 || s.length != m + k + 1) {
            printf("# after %u symbols: %s, took %llu of %llu, length %llu\n", m, why ? why : "-",
                   (unsigned long long)took, (unsigned long long)need, (unsigned long long)len);
            good = false;
        }
        free(memo);
        sq_free(&s);
    }
    printf("# the most one run took: %llu nodes, rules or index entries\n",
           (unsigned long long)most);
    ok(good, "%s: a run of 2^63 - 1 goes in within the room sq_need promised, and keeps the "
       "properties and its length%.0zu", "huge run", 0);
}

/* The paper's SEQUITUR(1) example (section 3.2): 11111211111 gives
 * S -> C 2 C, A -> 1 1, C -> A A 1. */
static void paper_example(void)
{
    const char *in = "11111211111";
    struct sequitur s;
    sq_init(&s);
    for (const char *p = in; *p; p++)
        sq_append(&s, (uint32_t)(*p - '0'));
    sq_finish(&s);
    /* Render each live rule with its own letters in order of creation. */
    char text[256] = "";
    for (uint32_t r = 0; r < s.nrules_made; r++) {
        if (s.r[r].guard == 0)
            continue;
        char line[64];
        size_t k = 0;
        line[k++] = r == 0 ? 'S' : 'R';
        line[k++] = ':';
        for (uint32_t x = sq_first(&s, r); !SQ_IS_GUARD(s.n[x].val); x = s.n[x].next)
            line[k++] = SQ_IS_TERM(s.n[x].val) ? (char)('0' + SQ_ID(s.n[x].val)) : 'R';
        line[k++] = ' ';
        line[k] = 0;
        strcat(text, line);
    }
    printf("# %s\n", text);
    bool shape = s.nrules_live == 3 && strstr(text, "S:R2R ") && strstr(text, "R:11 ") &&
                 strstr(text, "R:RR1 ");
    ok(shape, "%s: the paper's SEQUITUR(1) grammar S -> C2C, A -> 11, C -> AA1%.0zu", in, 0);
    sq_free(&s);
}

int main(void)
{
    enum { N = 200000 };
    uint32_t *in = calloc(N, sizeof *in); /* zeroed: run("empty", in, 0) reads none, gcc cannot tell */
    size_t n;

    printf("1..%d\n", 1 + 2 * 28 + 2);
    paper_example();
    huge_run();

    run("empty", in, 0);
    in[0] = 7;
    run("one symbol", in, 1);
    for (size_t len = 2; len <= 9; len += 7) {
        for (n = 0; n < len; n++)
            in[n] = 1;
        run("a short run of one symbol", in, len);
    }
    for (n = 0; n < 100001; n++)
        in[n] = 3;
    run("a long run of one symbol (odd)", in, n);
    run("a long run of one symbol (even)", in, n - 1);
    for (n = 0; n < N; n++)
        in[n] = n & 1;
    run("alternation ab", in, N);
    for (n = 0; n < N; n++)
        in[n] = n % 3;
    run("alternation abc", in, N);
    for (n = 0; n < N; n++)
        in[n] = (n / 7) % 2 ? 5 : (uint32_t)(n % 7);
    run("runs broken by blocks", in, N);
    /* Fibonacci word: s(n) = s(n-1) s(n-2), as 0/1 */
    {
        size_t len[40];
        len[0] = 1;
        len[1] = 2;
        int k = 1;
        while (len[k] + len[k - 1] <= N) {
            len[k + 1] = len[k] + len[k - 1];
            k++;
        }
        /* The infinite Fibonacci word by its morphism 0 -> 01, 1 -> 0. */
        uint32_t *w = malloc(N * sizeof *w), *v = malloc(N * sizeof *v);
        size_t lw = 1;
        w[0] = 0;
        while (lw < len[k]) {
            size_t lv = 0;
            for (size_t i = 0; i < lw && lv < N; i++) {
                v[lv++] = 0;
                if (w[i] == 0 && lv < N)
                    v[lv++] = 1;
            }
            memcpy(w, v, lv * sizeof *w);
            lw = lv;
        }
        run("Fibonacci word", w, len[k]);
        run("Fibonacci word, cut", w, len[k] - 5);
        free(w);
        free(v);
    }
    /* Thue-Morse: no overlapping repetitions */
    for (n = 0; n < N; n++)
        in[n] = __builtin_popcount((unsigned)n) & 1;
    run("Thue-Morse", in, N);
    for (n = 0; n < N; n++)
        in[n] = rnd(2);
    run("random over 2 symbols", in, N);
    for (n = 0; n < N; n++)
        in[n] = rnd(3);
    run("random over 3 symbols", in, N);
    for (n = 0; n < N; n++)
        in[n] = rnd(1000);
    run("random over 1000 symbols", in, N);
    for (n = 0; n < N; n++)
        in[n] = rnd(1u << 20);
    run("random over 2^20 symbols", in, N);
    /* A loop of loops: blocks repeated with random variations, like paths. */
    for (n = 0; n < N; ) {
        uint32_t reps = 1 + rnd(50), base = rnd(20) * 10;
        for (uint32_t r = 0; r < reps && n < N; r++)
            for (uint32_t j = 0; j < 5 && n < N; j++)
                in[n++] = base + (rnd(20) == 0 ? 9 : j);
    }
    run("nested loops with noise", in, N);
    for (n = 0; n < N; n++)
        in[n] = (uint32_t)(n % 1000 < 500 ? 1 : n % 7);
    run("long runs and short cycles", in, N);
    for (size_t rep = 0; rep < 3; rep++) {
        for (n = 0; n < 5000; n++)
            in[n] = rnd(4);
        for (n = 5000; n < N; n++)
            in[n] = in[n - 5000];
        run("one random block repeated", in, N);
    }
    /* Square runs: aa bb aaaa bbbb ... */
    n = 0;
    for (uint32_t k = 1; n < N; k++)
        for (uint32_t j = 0; j < k && n < N; j++)
            in[n++] = k & 1;
    run("growing runs of two symbols", in, n);
    /* Runs go into the grammar as powers (sequitur.h): runs of every
     * length, around powers of two, and blocks of runs repeated. */
    for (n = 0; n < N; ) {
        uint32_t v = rnd(3), len = 1 + rnd(300);
        for (uint32_t j = 0; j < len && n < N; j++)
            in[n++] = v;
    }
    run("runs of random lengths over 3 symbols", in, N);
    n = 0;
    for (uint32_t k = 0; n < N; k++) {
        uint32_t len = (1u << (k % 12)) + (k / 12 % 3) - 1;
        for (uint32_t j = 0; j < len && n < N; j++)
            in[n++] = k & 1 ? 4 : 2;
        if (n < N && k % 5 == 0)
            in[n++] = 9;
    }
    run("runs around powers of two", in, n);
    for (n = 0; n < 3000; ) {
        uint32_t v = rnd(5), len = 1 + rnd(40);
        for (uint32_t j = 0; j < len && n < 3000; j++)
            in[n++] = v;
    }
    for (n = 3000; n < N; n++)
        in[n] = in[n - 3000];
    run("a random block of runs repeated", in, N);
    for (n = 0; n < N; n++)
        in[n] = n < N / 2 ? 7 : (uint32_t)(n % 2);
    run("one long run, then an alternation", in, N);
    /* The cursor (sequitur.c, following a rule): pieces of blocks from
     * random offsets and of random lengths, some changed, so that the
     * input leaves the rule the cursor follows anywhere and at any
     * depth; and a block longer than the cursor's buffer (SQ_CUR_BUF),
     * repeated with one change per copy. */
    {
        static uint32_t blk[16][64];
        for (unsigned b = 0; b < 16; b++)
            for (unsigned j = 0; j < 64; j++)
                blk[b][j] = rnd(6);
        for (n = 0; n < N; ) {
            uint32_t b = rnd(16), off = rnd(8), len = 1 + rnd(rnd(2) ? 8 : 64 - off);
            bool change = rnd(4) == 0;
            for (uint32_t j = off; j < off + len && n < N; j++)
                in[n++] = change && rnd(10) == 0 ? rnd(9) : blk[b][j];
        }
        run("pieces of blocks, some changed", in, n);
    }
    for (n = 0; n < 5000; n++) /* no runs: a run ends what the cursor matched */
        in[n] = (n ? in[n - 1] + 1 + rnd(999) : 0) % 1000;
    for (; n < N; n++)
        in[n] = n >= 15000 && n % 5000 == n / 5000 * 997 % 5000 ? 1000 + rnd(5) : in[n - 5000];
    run("a long block repeated, then one change per copy", in, N);
    /* The analyzer feeds a repeated path with sq_run_more: the same as
     * appending it. */
    for (n = 0; n < N; ) {
        uint32_t v = rnd(4), len = 1 + rnd(20);
        for (uint32_t j = 0; j < len && n < N; j++)
            in[n++] = v;
    }
    {
        struct sequitur a, b;
        bool same = sq_init(&a) == 0 && sq_init(&b) == 0;
        for (size_t i = 0; i < N && same; i++) {
            sq_append(&a, in[i]);
            if (i > 0 && in[i] == in[i - 1] && sq_in_run(&b))
                sq_run_more(&b, 1);
            else
                sq_append(&b, in[i]);
        }
        sq_finish(&a);
        sq_finish(&b);
        same = same && a.nrules_made == b.nrules_made && a.length == b.length;
        for (uint32_t r = 0; r < a.nrules_made && same; r++) {
            uint32_t x = a.r[r].guard, y = b.r[r].guard;
            same = (x == 0) == (y == 0);
            if (x == 0 || !same)
                continue;
            do {
                x = a.n[x].next;
                y = b.n[y].next;
                same = a.n[x].val == b.n[y].val;
            } while (same && !SQ_IS_GUARD(a.n[x].val));
        }
        ok(same, "%s (%zu symbols): sq_run_more gives the grammar sq_append gives", "runs", (size_t)N);
        sq_free(&a);
        sq_free(&b);
    }
    free(in);
    return failures != 0;
}
