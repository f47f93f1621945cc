/* residual.c - the paths of one profile that another never ran (residual.h). */
#include "residual.h"

#include <stdlib.h>

bool residual_collect(const struct pp_profile *a, const struct pp_profile *b,
                      const struct func_match *match, struct ranked_path **out, size_t *n,
                      struct pp_error *err)
{
    struct ranked_path *all;
    size_t nall, i, k = 0;

    if (!rank_collect(a, NULL, &all, &nall, err))
        return false;
    for (i = 0; i < nall; i++) {
        const struct func_match *m = &match[all[i].func];
        bool residual = m->kind == FUNC_MATCH_ABSENT ||
                        (m->kind == FUNC_MATCH_SAME &&
                         func_path_count(&b->funcs[m->other], all[i].id) == 0);
        if (residual)
            all[k++] = all[i];
    }
    rank_by_count(all, k);
    *out = all;
    *n = k;
    return true;
}
