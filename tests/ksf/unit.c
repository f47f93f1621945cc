/* unit.c - unit tests of the ksf analyzer's builder (Fig. 6) and converter
 * (Fig. 7) on hand-made streams, against the paper's own example and
 * against brute force from the definitions (Definition 2: every n-gram,
 * n <= k, of each "*"-free sequence; Definition 3: the k-SF as the prefix
 * forest of the slab sequences).  Prints TAP. */
#include "ksf/build.h"
#include "ksf/ipf.h"
#include "ksf/stats.h"
#include "forest-text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ntests, nfailed;

static void ok(int cond, const char *name, const char *got, const char *want)
{
    ntests++;
    printf("%s %d - %s\n", cond ? "ok" : "not ok", ntests, name);
    if (!cond) {
        nfailed++;
        if (got)
            printf("#   got:  %s\n#   want: %s\n", got, want);
    }
}

/* --- brute force: prefix forest of a list of sequences (Definition 1) */

static void pf_add(struct ksf_forest *f, const uint64_t *x, size_t n, int count_all)
{
    /* Adds sequence X: every node on its path exists; only the last one's
     * counter counts this sequence when COUNT_ALL is 0 (a list of all
     * prefixes counts each prefix at its own end). */
    int ins;
    uint32_t node = ksf_root(f, x[0], &ins);
    for (size_t i = 1; i < n; i++)
        node = ksf_child(f, node, x[i]);
    (void)count_all;
    f->n[node].count++;
}

/* Streams are arrays with -1 as the "*" marker. */
#define STAR UINT64_MAX

/* Definition 2: the k-IPF by brute force, every n-gram n <= k. */
static void brute_ipf(const uint64_t *s, size_t len, uint32_t k, struct ksf_forest *f)
{
    size_t begin = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != STAR)
            continue;
        for (size_t p = begin; p < i; p++)
            for (size_t n = 1; n <= k && p + n <= i; n++)
                pf_add(f, s + p, n, 0);
        begin = i + 1;
    }
}

/* Definition 3: the k-SF by brute force from the slabs s_1 ... s_m of each
 * "*"-free sequence: all prefixes of s1.s2, prefixes of length >= k of
 * s_i.s_{i+1} (i >= 2; for i = m, s_m alone has none). */
static void brute_ksf(const uint64_t *s, size_t len, uint32_t k, struct ksf_forest *f)
{
    size_t begin = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != STAR)
            continue;
        size_t m = i - begin;
        for (size_t a = begin; a < i; a += k - 1) {
            size_t end = a + 2 * (k - 1) < i ? a + 2 * (k - 1) : i;
            size_t minlen = a == begin ? 1 : k;
            for (size_t n = minlen; a + n <= end; n++) {
                /* A prefix node exists even when not counted (prefixes of
                 * length < k of later slabs): add with count, then undo. */
                pf_add(f, s + a, n, 0);
            }
            if (a != begin) { /* the uncounted upper part of the slab */
                int ins;
                uint32_t node = ksf_root(f, s[a], &ins);
                for (size_t n = 1; n < k - 1 && a + n < i; n++)
                    node = ksf_child(f, node, s[a + n]);
            }
        }
        (void)m;
        begin = i + 1;
    }
}

static void run_stream(const uint64_t *s, size_t len, uint32_t k, struct ksf_builder *b)
{
    struct ksf_state st;
    ksf_builder_init(b, k);
    ksf_star(&st);
    for (size_t i = 0; i < len; i++) {
        if (s[i] == STAR)
            ksf_star(&st);
        else
            ksf_item(b, &st, s[i]);
    }
}

static char *ipf_text_of(const uint64_t *s, size_t len, uint32_t k, struct ksf_builder *b)
{
    struct ksf_forest ipf;
    ksf_forest_init(&ipf);
    ksf_make_k_ipf(&b->f, k, &ipf);
    char *t = forest_text(&ipf);
    ksf_forest_free(&ipf);
    (void)s;
    (void)len;
    return t;
}

/* The k-SF's shape by a recursive walk of its own: the oracle of the
 * figures the conversion finds on its way (ksf_make_k_ipf_shape). */
static void shape_walk(const struct ksf_forest *f, uint32_t node, uint32_t depth,
                       struct ksf_level *lv)
{
    uint64_t children = 0;
    for (uint32_t c = f->n[node].child; c != 0; c = f->n[c].sibling, children++)
        shape_walk(f, c, depth + 1, lv);
    lv[depth].nodes++;
    lv[depth].internal += children != 0;
    lv[depth].children += children;
}

struct shape_ctx {
    const struct ksf_forest *f;
    struct ksf_level *lv;
};

static void shape_root(uint32_t root, void *ctx)
{
    struct shape_ctx *c = ctx;
    shape_walk(c->f, root, 0, c->lv);
}

/* The conversion's shape of B's k-SF equals the walk's, level by level. */
static void check_shape(const char *what, struct ksf_builder *b, uint32_t k)
{
    struct ksf_level got[KSF_MAX_LEVELS], want[KSF_MAX_LEVELS];
    memset(got, 0, sizeof got);
    memset(want, 0, sizeof want);
    struct shape_ctx ctx = {&b->f, want};
    ksf_each_root(&b->f, shape_root, &ctx);
    struct ksf_forest ipf;
    ksf_forest_init(&ipf);
    ksf_make_k_ipf_shape(&b->f, k, &ipf, got, KSF_MAX_LEVELS);
    ksf_forest_free(&ipf);
    char name[240];
    snprintf(name, sizeof name, "%s, k=%u: the conversion's k-SF level figures = a walk's", what,
             k);
    ok(memcmp(got, want, sizeof got) == 0, name, NULL, NULL);
}

static void check_k(const char *what, const uint64_t *s, size_t len, uint32_t k)
{
    char name[200];
    struct ksf_builder b;
    run_stream(s, len, k, &b);
    struct ksf_forest want_ipf;
    ksf_forest_init(&want_ipf);
    brute_ipf(s, len, k, &want_ipf);
    char *got = ipf_text_of(s, len, k, &b), *want = forest_text(&want_ipf);
    snprintf(name, sizeof name, "%s, k=%u: k-IPF (Fig. 7) = every n-gram n <= k (Definition 2)",
             what, k);
    ok(strcmp(got, want) == 0, name, got, want);
    if (k >= 2) {
        struct ksf_forest want_sf;
        ksf_forest_init(&want_sf);
        brute_ksf(s, len, k, &want_sf);
        char *gs = forest_text(&b.f), *ws = forest_text(&want_sf);
        snprintf(name, sizeof name, "%s, k=%u: k-SF (Fig. 6) = Definition 3", what, k);
        ok(strcmp(gs, ws) == 0, name, gs, ws);
        free(gs);
        free(ws);
        ksf_forest_free(&want_sf);
    }
    check_shape(what, &b, k);
    free(got);
    free(want);
    ksf_forest_free(&want_ipf);
    ksf_builder_free(&b);
}

/* The same stream with each run of one ID given to ksf_run (build.h) at
 * once, as the analyzer's batch loop does. */
static void run_stream_folded(const uint64_t *s, size_t len, uint32_t k, struct ksf_builder *b)
{
    struct ksf_state st;
    ksf_builder_init(b, k);
    ksf_star(&st);
    for (size_t i = 0; i < len;) {
        if (s[i] == STAR) {
            ksf_star(&st);
            i++;
            continue;
        }
        size_t j = i + 1;
        while (j < len && s[j] == s[i])
            j++;
        ksf_run(b, &st, s[i], j - i);
        i = j;
    }
}

/* Runs in closed form (ksf_run) give the k-SF of Definition 3, node for
 * node the forest of one ksf_item per event, with the same statistics. */
static void check_runs(const char *what, const uint64_t *s, size_t len, uint32_t k)
{
    char name[200];
    struct ksf_builder one, folded;
    run_stream(s, len, k, &one);
    run_stream_folded(s, len, k, &folded);
    char *a = forest_text(&one.f), *b = forest_text(&folded.f);
    /* Node for node: the same nodes in the same order of creation, each
     * with its label, count and parent.  Not the same sibling order: a
     * run that build.c's memo replays skips the lookups and with them
     * the move to the front of a list. */
    int same_nodes = one.f.len == folded.f.len;
    uint32_t *p1 = calloc(one.f.len, sizeof *p1), *p2 = calloc(one.f.len, sizeof *p2);
    for (uint32_t x = 1; same_nodes && x < one.f.len; x++) {
        for (uint32_t c = one.f.n[x].child; c; c = one.f.n[c].sibling)
            p1[c] = x;
        for (uint32_t c = folded.f.n[x].child; c; c = folded.f.n[c].sibling)
            if (c < one.f.len)
                p2[c] = x;
    }
    for (uint32_t x = 1; same_nodes && x < one.f.len; x++)
        same_nodes = one.f.n[x].label == folded.f.n[x].label &&
                     one.f.n[x].count == folded.f.n[x].count && p1[x] == p2[x];
    free(p1);
    free(p2);
    snprintf(name, sizeof name, "%s, k=%u: runs in closed form = one event at a time, node for node",
             what, k);
    ok(strcmp(a, b) == 0 && same_nodes, name, b, a);
    snprintf(name, sizeof name, "%s, k=%u: same events and hash operations", what, k);
    ok(one.events == folded.events && one.hash_ops == folded.hash_ops && folded.lost == 0, name,
       NULL, NULL);
    if (k >= 2) {
        struct ksf_forest want_sf;
        ksf_forest_init(&want_sf);
        brute_ksf(s, len, k, &want_sf);
        char *ws = forest_text(&want_sf);
        snprintf(name, sizeof name, "%s, k=%u: runs in closed form give Definition 3's k-SF", what, k);
        ok(strcmp(b, ws) == 0, name, b, ws);
        free(ws);
        ksf_forest_free(&want_sf);
    }
    free(a);
    free(b);
    ksf_builder_free(&one);
    ksf_builder_free(&folded);
}

/* Property 2 of section 2.2: the k-IPF is contained in the (k+1)-IPF with
 * equal counts: every node of A has a node with the same label path and
 * count in B. */
static int contained(const struct ksf_forest *a, uint32_t x, const struct ksf_forest *b, uint32_t y)
{
    if (a->n[x].count != b->n[y].count)
        return 0;
    for (uint32_t c = a->n[x].child; c; c = a->n[c].sibling) {
        uint32_t d = b->n[y].child;
        while (d && b->n[d].label != a->n[c].label)
            d = b->n[d].sibling;
        if (!d || !contained(a, c, b, d))
            return 0;
    }
    return 1;
}

int main(void)
{
    /* Fig. 3: one activation, Sigma = *, 6 2 0 | 0 2 2 | 0 0 2 | 2 0 0 | 2 3 */
    static const uint64_t fig3[] = {6, 2, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2, 3};
    size_t n3 = sizeof fig3 / sizeof fig3[0];
    struct ksf_builder b;
    run_stream(fig3, n3, 4, &b);
    /* The 4-SF of Fig. 5, from Definition 3 with s1 = 6 2 0, s2 = 0 2 2,
     * s3 = 0 0 2, s4 = 2 0 0, s5 = 2 3: the s1.s2 tree counts every node;
     * the trees of s2.s3, s3.s4, s4.s5 count only levels k-1 .. 2k-3 (their
     * upper nodes exist with count 0).  Fig. 6 as written also walks tau
     * through the last slab s5 (lines 13-17), which leaves the node 2 -> 3
     * with count 0 that Definition 3 does not list; it changes no k-IPF
     * count. */
    const char *fig5 = "0:0(0:0(2:0(2:1(0:1(0:1)))) 2:0(2:0(0:1(0:1(2:1)))))"
                       " 2:0(0:0(0:0(2:1(3:1))) 3:0)"
                       " 6:1(2:1(0:1(0:1(2:1(2:1)))))";
    char *got = forest_text(&b.f);
    ok(strcmp(got, fig5) == 0, "Fig. 3 stream, k=4: the 4-SF of Fig. 5", got, fig5);
    free(got);
    /* The 4-IPF of Fig. 3: one tree per distinct ID (0, 2, 3, 6), the
     * first level = Ball-Larus counts (0 and 2 six times each), <2,0,0,2>
     * taken 3 times. */
    const char *fig3_ipf = "0:6(0:3(2:3(2:2 3:1)) 2:3(2:2(0:2) 3:1))"
                           " 2:6(0:3(0:3(2:3)) 2:2(0:2(0:2)) 3:1)"
                           " 3:1"
                           " 6:1(2:1(0:1(0:1)))";
    got = ipf_text_of(fig3, n3, 4, &b);
    ok(strcmp(got, fig3_ipf) == 0, "Fig. 3 stream, k=4: the 4-IPF of Fig. 3", got, fig3_ipf);
    free(got);
    /* Segments start at items 0, 3, 6, 9, 12; roots 6, 0 and 2 are new. */
    ok(b.hash_ops == 5 + 3, "Fig. 3 stream, k=4: 5 root lookups + 3 root inserts", NULL, NULL);
    struct ksf_stats st = {0};
    ksf_stats_add_thread(&st, &b);
    struct ksf_forest ipf4;
    ksf_forest_init(&ipf4);
    ksf_make_k_ipf_shape(&b.f, 4, &ipf4, st.level, KSF_MAX_LEVELS);
    ksf_forest_free(&ipf4);
    ok(st.level[5].nodes == 3 && st.level[6].nodes == 0 && st.ksf_nodes == b.f.len - 1 &&
           st.ksf_nodes == 23,
       "Fig. 3 stream, k=4: 23 nodes, 3 at the deepest level 2k-3 = 5", NULL, NULL);
    ksf_builder_free(&b);

    for (uint32_t k = 1; k <= 8; k++)
        check_k("Fig. 3 stream", fig3, n3, k);

    /* Several activations ("*"), short and long, random IDs of a small
     * alphabet so that n-grams repeat. */
    srand(12345);
    for (int round = 0; round < 6; round++) {
        size_t len = 200 + (size_t)round * 300;
        uint64_t *s = malloc(len * sizeof *s);
        for (size_t i = 0; i < len; i++)
            s[i] = rand() % 23 == 0 ? STAR : (uint64_t)(rand() % (2 + round));
        s[0] = STAR;
        char what[128];
        snprintf(what, sizeof what, "random stream %d (%zu items)", round, len);
        static const uint32_t ks[] = {1, 2, 3, 4, 5, 8, 16};
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
            check_k(what, s, len, ks[i]);
        /* Property 2: k-IPF in (k+1)-IPF; Property 1: c >= sum of children. */
        int contained_ok = 1, monotone = 1;
        for (uint32_t k = 1; k < 9; k++) {
            struct ksf_builder b1, b2;
            struct ksf_forest i1, i2;
            run_stream(s, len, k, &b1);
            run_stream(s, len, k + 1, &b2);
            ksf_forest_init(&i1);
            ksf_forest_init(&i2);
            ksf_make_k_ipf(&b1.f, k, &i1);
            ksf_make_k_ipf(&b2.f, k + 1, &i2);
            for (uint32_t x = 1; x < i1.len; x++) {
                uint64_t sum = 0;
                for (uint32_t c = i1.n[x].child; c; c = i1.n[c].sibling)
                    sum += i1.n[c].count;
                monotone &= i1.n[x].count >= sum && i1.n[x].count > 0;
            }
            for (uint32_t j = 0; j < i1.nslots; j++) {
                uint32_t r = i1.slot[j].node;
                if (r == 0)
                    continue;
                uint32_t r2 = ksf_root_find(&i2, i1.n[r].label);
                contained_ok &= r2 != 0 && contained(&i1, r, &i2, r2);
            }
            ksf_builder_free(&b1);
            ksf_builder_free(&b2);
            ksf_forest_free(&i1);
            ksf_forest_free(&i2);
        }
        snprintf(what, sizeof what, "random stream %d: k-IPF contained in (k+1)-IPF, k=1..8", round);
        ok(contained_ok, what, NULL, NULL);
        snprintf(what, sizeof what, "random stream %d: every count > 0 and >= its children's sum", round);
        ok(monotone, what, NULL, NULL);

        /* Union: the IPFs of two halves merged = the IPF of both. */
        size_t half = len / 2;
        s[half] = STAR;
        struct ksf_builder b1, b2, ball;
        struct ksf_forest i1, i2, iall;
        run_stream(s, half, 4, &b1);
        run_stream(s + half, len - half, 4, &b2);
        run_stream(s, len, 4, &ball);
        ksf_forest_init(&i1);
        ksf_forest_init(&i2);
        ksf_forest_init(&iall);
        ksf_make_k_ipf(&b1.f, 4, &i1);
        ksf_make_k_ipf(&b2.f, 4, &i2);
        ksf_make_k_ipf(&ball.f, 4, &iall);
        ksf_ipf_merge(&i1, &i2);
        char *m = forest_text(&i1), *w = forest_text(&iall);
        snprintf(what, sizeof what, "random stream %d: merged k-IPFs = k-IPF of the whole", round);
        ok(strcmp(m, w) == 0, what, m, w);
        free(m);
        free(w);
        ksf_builder_free(&b1);
        ksf_builder_free(&b2);
        ksf_builder_free(&ball);
        ksf_forest_free(&i1);
        ksf_forest_free(&i2);
        ksf_forest_free(&iall);
        free(s);
    }
    /* Loops that iterate one path: runs of every length from 1 to past
     * 3(k - 1), between other IDs and activation starts. */
    for (int round = 0; round < 4; round++) {
        uint64_t *s = malloc(4000 * sizeof *s);
        size_t len = 0;
        s[len++] = STAR;
        while (len < 3000) {
            uint64_t id = (uint64_t)(rand() % (2 + round));
            size_t run = rand() % 3 == 0 ? (size_t)(rand() % 70) + 1 : (size_t)(rand() % 4) + 1;
            for (size_t r = 0; r < run && len < 3000; r++)
                s[len++] = id;
            if (rand() % 17 == 0)
                s[len++] = STAR;
        }
        char what[128];
        snprintf(what, sizeof what, "stream with runs %d (%zu items)", round, len);
        static const uint32_t ks[] = {1, 2, 3, 4, 5, 8, 16, 33};
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
            check_runs(what, s, len, ks[i]);
        free(s);
    }
    printf("1..%d\n", ntests);
    return nfailed != 0;
}
