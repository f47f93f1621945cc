/* check-sort.c - pprt_sort_path_counts (runtime/path-count-sort.c) against
 * a brute-force oracle (tests/path-count-sort.t): for each case, random
 * records are sorted, and the result must be ascending by path_id and a
 * permutation of the input (the multiset of (path_id, count) pairs kept,
 * checked by sorting both copies with an independent insertion sort on
 * the pair).  Prints one line per case: "ok NAME" or "bad NAME: why". */
#include "path-count-sort.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* The oracle's order: by path_id, then count (a total order on pairs). */
static void pair_sort(struct pprt_path_count *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        struct pprt_path_count x = v[i];
        size_t j = i;
        for (; j > 0 && (v[j - 1].path_id > x.path_id ||
                         (v[j - 1].path_id == x.path_id && v[j - 1].count > x.count));
             j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

static int check(const char *name, size_t n, uint64_t mask, uint64_t base)
{
    struct pprt_path_count *v = malloc((n + 1) * sizeof *v), *w = malloc((n + 1) * sizeof *w);
    for (size_t i = 0; i < n; i++) {
        v[i].path_id = base + (next() & mask);
        v[i].count = next() % 1000;
    }
    memcpy(w, v, n * sizeof *v);
    pprt_sort_path_counts(v, n);
    const char *why = NULL;
    for (size_t i = 1; i < n && !why; i++)
        if (v[i - 1].path_id > v[i].path_id)
            why = "not ascending";
    if (!why) {
        struct pprt_path_count *u = malloc((n + 1) * sizeof *u);
        memcpy(u, v, n * sizeof *v);
        pair_sort(u, n);
        pair_sort(w, n);
        if (n && memcmp(u, w, n * sizeof *u) != 0)
            why = "not a permutation of the input";
        free(u);
    }
    printf(why ? "bad %s: %s\n" : "ok %s\n", name, why);
    free(v);
    free(w);
    return why != NULL;
}

int main(void)
{
    int bad = 0;
    char name[96];
    static const size_t sizes[] = {0, 1, 2, 31, 32, 33, 100, 1000, 5000};
    static const struct {
        const char *what;
        uint64_t mask, base;
    } kinds[] = {
        {"ids < 16 (many equal)", 15, 0},
        {"ids < 2^20", (1u << 20) - 1, 0},
        {"ids of 40 bits", (1ull << 40) - 1, 0},
        {"full 64-bit ids", UINT64_MAX, 0},
        {"ids near 2^63 (one high byte shared)", 0xffff, 1ull << 63},
    };
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            snprintf(name, sizeof name, "%zu records, %s", sizes[s], kinds[k].what);
            bad |= check(name, sizes[s], kinds[k].mask, kinds[k].base);
        }
    return bad;
}
