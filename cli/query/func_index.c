/* func_index.c - a profile's functions found by name and file (see
 * func_index.h). */
#include "func_index.h"

#include <stdlib.h>
#include <string.h>

/* Name, then file (a function without one first), never the number. */
static int by_name_file(const struct pp_func_meta *x, const struct pp_func_meta *y)
{
    int c = strcmp(x->name, y->name);
    if (c || x->file == y->file)
        return c;
    if (!x->file || !y->file)
        return x->file ? 1 : -1;
    return strcmp(x->file, y->file);
}

static const struct pp_profile *sorting;

static int by_key(const void *pa, const void *pb)
{
    size_t i = *(const size_t *)pa, j = *(const size_t *)pb;
    int c = by_name_file(sorting->funcs[i].meta, sorting->funcs[j].meta);
    return c ? c : (i > j) - (i < j);
}

bool func_index_build(struct func_index *ix, const struct pp_profile *p)
{
    ix->p = p;
    ix->order = malloc((p->nfuncs ? p->nfuncs : 1) * sizeof *ix->order);
    if (!ix->order)
        return false;
    for (size_t i = 0; i < p->nfuncs; i++)
        ix->order[i] = i;
    sorting = p;
    qsort(ix->order, p->nfuncs, sizeof *ix->order, by_key);
    return true;
}

void func_index_free(struct func_index *ix)
{
    free(ix->order);
    ix->order = NULL;
}

/* The first position whose function sorts after M (AFTER) or not before
 * it. */
static size_t bound(const struct func_index *ix, const struct pp_func_meta *m, bool after)
{
    size_t lo = 0, hi = ix->p->nfuncs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = by_name_file(ix->p->funcs[ix->order[mid]].meta, m);
        if (c < 0 || (after && c == 0))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void func_index_range(const struct func_index *ix, const struct pp_func_meta *m, size_t *begin,
                      size_t *end)
{
    *begin = bound(ix, m, false);
    *end = bound(ix, m, true);
}
