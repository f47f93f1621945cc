/* cover.c - the hottest paths covering a fraction of the flow (cover.h). */
#include "cover.h"

#include <stdlib.h>

static int by_func_then_id(const void *pa, const void *pb)
{
    const struct ranked_path *a = pa, *b = pb;
    if (a->func != b->func)
        return a->func < b->func ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

bool cover_select(const struct pp_profile *p, double cover, struct ranked_path **out,
                  size_t *n, uint64_t *covered, struct pp_error *err)
{
    struct ranked_path *paths;
    size_t npaths, k = 0;
    uint64_t sum = 0;
    /* long double holds every uint64_t exactly, so cover 1 means all. */
    long double goal = (long double)cover * (long double)profile_total(p);

    if (!rank_collect(p, NULL, &paths, &npaths, err))
        return false;
    rank_by_count(paths, npaths);
    while (k < npaths && (long double)sum < goal)
        sum += paths[k++].count; /* cannot wrap: the reader checked the total fits */
    qsort(paths, k, sizeof *paths, by_func_then_id);
    *out = paths;
    *n = k;
    *covered = sum;
    return true;
}
