/* summary.c - the weighted summary of analyzers/ksf-pruned/space-saving.h
 * alone, against brute-force counts, on streams chosen to break its batched
 * evictions: all items distinct (every update a new item), all weights
 * equal (compactions full of ties), Zipf-skewed weights, a hot set that
 * changes half-way, and a few items with huge weights among many light
 * ones; m from 1 (the smallest room) to 1000.  Prints TAP.
 *
 * After every update batch and after ss_trim: the total is N; every
 * monitored item has count - err <= true <= count; every item not
 * monitored has true <= floor; floor <= N / (m + 1); at most m items after
 * a trim; every item above the floor is monitored.  And a merge of two
 * summaries keeps the same contract over the union of their streams. */
#include "ksf-pruned/space-saving.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap-c.h"

#define UNIVERSE 50000u
#define NLAB 3u /* labels per item: item u is (u, u * 7, ~u) */

static void labels_of(uint32_t u, uint64_t *l)
{
    l[0] = u;
    l[1] = (uint64_t)u * 7;
    l[2] = ~(uint64_t)u;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

enum shape { DISTINCT, EQUAL, ZIPF, SHIFT, HEAVY, NSHAPES };
static const char *const shape_name[] = {"distinct", "equal weights", "zipf 1.1", "shifting hot set",
                                         "heavy hitters"};

/* Update I of a stream of shape SH: its item and weight. */
static void update(enum shape sh, uint32_t i, uint32_t len, uint32_t *u, uint64_t *w)
{
    switch (sh) {
    case DISTINCT:
        *u = i % UNIVERSE;
        *w = 1 + next_rand() % 3;
        break;
    case EQUAL:
        *u = (uint32_t)(next_rand() % 5000);
        *w = 4;
        break;
    case ZIPF: {
        double x = (double)(next_rand() >> 11) / 9007199254740992.0;
        *u = (uint32_t)(pow(UNIVERSE, x) - 1) % UNIVERSE; /* log-uniform: heavy head */
        *w = 1 + next_rand() % 8;
        break;
    }
    case SHIFT:
        *u = (uint32_t)(next_rand() % 200) + (i < len / 2 ? 0 : 20000);
        if (next_rand() % 4 == 0)
            *u = (uint32_t)(next_rand() % UNIVERSE);
        *w = 1 + next_rand() % 2;
        break;
    default:
        *u = next_rand() % 100 == 0 ? (uint32_t)(next_rand() % 5) : (uint32_t)(next_rand() % UNIVERSE);
        *w = *u < 5 ? 1000 : 1;
        break;
    }
}

/* The contract of space-saving.h against TRUTH; TRIMMED: at most m items. */
static int check(const struct ss_summary *s, const uint64_t *truth, uint64_t n_total,
                 uint32_t m, int trimmed, char *why, size_t whylen)
{
    if (s->total != n_total)
        return snprintf(why, whylen, "total %llu, expected %llu", (unsigned long long)s->total,
                        (unsigned long long)n_total), 0;
    if (m && s->floor * (uint64_t)(m + 1) > n_total)
        return snprintf(why, whylen, "floor %llu > N / (m + 1) = %llu / %u",
                        (unsigned long long)s->floor, (unsigned long long)n_total, m + 1), 0;
    if (trimmed && m && s->len > m)
        return snprintf(why, whylen, "%u items after a trim, m = %u", s->len, m), 0;
    static unsigned char seen[UNIVERSE];
    memset(seen, 0, sizeof seen);
    for (uint32_t i = 0; i < s->len; i++) {
        uint32_t u = (uint32_t)ss_labels(s, i)[0];
        uint64_t l[NLAB];
        labels_of(u, l);
        if (u >= UNIVERSE || memcmp(l, ss_labels(s, i), sizeof l) != 0 || seen[u])
            return snprintf(why, whylen, "entry %u holds labels never added, or twice", i), 0;
        seen[u] = 1;
        if (truth[u] > s->e[i].count || truth[u] < s->e[i].count - s->e[i].err)
            return snprintf(why, whylen, "item %u: true %llu outside [%llu, %llu]", u,
                            (unsigned long long)truth[u],
                            (unsigned long long)(s->e[i].count - s->e[i].err),
                            (unsigned long long)s->e[i].count), 0;
        if (ss_lookup(s, l) != i)
            return snprintf(why, whylen, "item %u not found by its own table", u), 0;
    }
    for (uint32_t u = 0; u < UNIVERSE; u++)
        if (!seen[u] && truth[u] > s->floor)
            return snprintf(why, whylen, "item %u: true %llu > floor %llu, not monitored", u,
                            (unsigned long long)truth[u], (unsigned long long)s->floor), 0;
    return 1;
}

/* Feeds LEN updates of shape SH to S, checking every STEP updates. */
static int feed(struct ss_summary *s, enum shape sh, uint32_t len, uint64_t *truth,
                uint64_t *n_total, uint32_t m, char *why, size_t whylen)
{
    for (uint32_t i = 0; i < len; i++) {
        uint32_t u;
        uint64_t w, l[NLAB];
        update(sh, i, len, &u, &w);
        labels_of(u, l);
        ss_add(s, l, w);
        truth[u] += w;
        *n_total += w;
        if ((i + 1) % 9973 == 0 && !check(s, truth, *n_total, m, 0, why, whylen))
            return 0;
    }
    return check(s, truth, *n_total, m, 0, why, whylen);
}

int main(void)
{
    static const uint32_t ms[] = {1, 2, 7, 100, 1000};
    static uint64_t truth[UNIVERSE], truth2[UNIVERSE];
    char why[200];
    for (int sh = 0; sh < NSHAPES; sh++) {
        for (size_t mi = 0; mi < sizeof ms / sizeof *ms; mi++) {
            uint32_t m = ms[mi];
            struct ss_summary a, b;
            uint64_t na = 0, nb = 0;
            memset(truth, 0, sizeof truth);
            memset(truth2, 0, sizeof truth2);
            if (ss_init(&a, NLAB, m) != 0 || ss_init(&b, NLAB, m) != 0) {
                printf("Bail out! out of memory\n");
                return 1;
            }
            why[0] = 0;
            int fed = feed(&a, (enum shape)sh, 60000, truth, &na, m, why, sizeof why);
            ok(fed && a.evictions > 0, "%s, m = %u: contract after every 9973 updates, %llu dropped%s%s",
               shape_name[sh], m, (unsigned long long)a.evictions, why[0] ? ": " : "", why);
            ss_trim(&a);
            why[0] = 0;
            ok(check(&a, truth, na, m, 1, why, sizeof why), "%s, m = %u: after the trim, %u items%s%s",
               shape_name[sh], m, a.len, why[0] ? ": " : "", why);
            /* A second stream of another shape, merged in. */
            feed(&b, (enum shape)((sh + 2) % NSHAPES), 30000, truth2, &nb, m, why, sizeof why);
            ss_trim(&b);
            for (uint32_t u = 0; u < UNIVERSE; u++)
                truth[u] += truth2[u];
            why[0] = 0;
            int merged = ss_merge(&a, &b) == 0;
            /* A merge of two summaries keeps floor <= the sum of their bounds,
             * N_a / (m + 1) + N_b / (m + 1): the check's own bound. */
            ok(merged && check(&a, truth, na + nb, m, 1, why, sizeof why),
               "%s, m = %u: merged with another stream%s%s", shape_name[sh], m, why[0] ? ": " : "", why);
            ss_free(&a);
            ss_free(&b);
        }
    }
    /* Counts that never tie (item i, weight i + 1, each once: every count
     * floor + w is larger than all before it): a compaction keeps exactly
     * the m largest, so after the trim the summary holds exactly the last
     * m items added, whatever order the selection visits them in. */
    for (size_t mi = 0; mi < sizeof ms / sizeof *ms; mi++) {
        uint32_t m = ms[mi], len = 7 * m + 3;
        struct ss_summary a;
        ss_init(&a, NLAB, m);
        for (uint32_t i = 0; i < len; i++) {
            uint64_t l[NLAB];
            labels_of((i * 2654435761u) % UNIVERSE, l); /* scattered over the table */
            ss_add(&a, l, i + 1);
        }
        ss_trim(&a);
        int last = a.len == m;
        for (uint32_t i = len - m; last && i < len; i++) {
            uint64_t l[NLAB];
            labels_of((i * 2654435761u) % UNIVERSE, l);
            last = ss_lookup(&a, l) != UINT32_MAX;
        }
        ok(last, "increasing weights, m = %u: the trim keeps exactly the last m of %u (%u held)", m,
           len, a.len);
        ss_free(&a);
    }
    /* Unbounded: exact, never drops. */
    struct ss_summary s;
    uint64_t n = 0;
    memset(truth, 0, sizeof truth);
    ss_init(&s, NLAB, 0);
    why[0] = 0;
    int fed = feed(&s, ZIPF, 60000, truth, &n, 0, why, sizeof why);
    int exact = fed && s.floor == 0 && s.evictions == 0;
    for (uint32_t i = 0; exact && i < s.len; i++)
        exact = s.e[i].err == 0 && s.e[i].count == truth[(uint32_t)ss_labels(&s, i)[0]];
    ok(exact, "unbounded: %u items, every count exact%s%s", s.len, why[0] ? ": " : "", why);
    ss_free(&s);
    printf("1..%d\n", test_no);
    return failures != 0;
}
