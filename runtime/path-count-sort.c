/* path-count-sort.c - see path-count-sort.h.
 *
 * Why not qsort: every process sorts each hash-mode function's records at
 * exit, and glibc's qsort (a merge sort calling the comparison through a
 * pointer) took 1.2% of a 12 ms libjpeg-turbo process for 2,332 records
 * (docs/performance.md, "The exit's scan of the counters").  A
 * least-significant-digit radix sort on the ID's bytes does n steps per
 * byte, and skips the bytes in which all IDs agree (a function's IDs are
 * below its path count: 4 of the 8 bytes for 2^32 paths).  Short lists
 * take an insertion sort; without memory for the radix sort's second
 * buffer, qsort. */
#include "path-count-sort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define INSERTION_MAX 32

static int by_path_id(const void *pa, const void *pb)
{
    const struct pprt_path_count *a = pa, *b = pb;
    return (a->path_id > b->path_id) - (a->path_id < b->path_id);
}

static void insertion_sort(struct pprt_path_count *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        struct pprt_path_count x = v[i];
        size_t j = i;
        for (; j > 0 && v[j - 1].path_id > x.path_id; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

void pprt_sort_path_counts(struct pprt_path_count *v, size_t n)
{
    if (n <= INSERTION_MAX) {
        insertion_sort(v, n);
        return;
    }
    struct pprt_path_count *tmp = malloc(n * sizeof *tmp);
    size_t (*hist)[256] = calloc(8, sizeof *hist);
    if (tmp == NULL || hist == NULL) {
        free(tmp);
        free(hist);
        qsort(v, n, sizeof *v, by_path_id);
        return;
    }
    for (size_t i = 0; i < n; i++)
        for (unsigned d = 0; d < 8; d++)
            hist[d][(v[i].path_id >> (8 * d)) & 0xff]++;
    struct pprt_path_count *from = v, *to = tmp;
    for (unsigned d = 0; d < 8; d++) {
        size_t *h = hist[d];
        if (h[(v[0].path_id >> (8 * d)) & 0xff] == n)
            continue; /* every ID has the same byte here: already in order */
        size_t at = 0;
        for (unsigned b = 0; b < 256; b++) {
            size_t c = h[b];
            h[b] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++)
            to[h[(from[i].path_id >> (8 * d)) & 0xff]++] = from[i];
        struct pprt_path_count *t = from;
        from = to;
        to = t;
    }
    if (from != v)
        memcpy(v, from, n * sizeof *v);
    free(tmp);
    free(hist);
}
