/* rank.c - collecting and ordering recorded paths (see rank.h). */
#include "rank.h"

#include <stdlib.h>

#include "graph/path.h"

bool rank_collect(const struct pp_profile *p, const bool *selected,
                  struct ranked_path **out, size_t *n, struct pp_error *err)
{
    size_t total = 0, i, k = 0;
    struct ranked_path *paths;

    for (i = 0; i < p->nfuncs; i++)
        if (!selected || selected[i])
            total += (size_t)p->funcs[i].nrecords;
    paths = malloc((total ? total : 1) * sizeof *paths);
    if (!paths)
        return pp_fail(err, "out of memory");
    for (i = 0; i < p->nfuncs; i++) {
        const struct pp_func *f = &p->funcs[i];
        struct path path;
        uint64_t r;
        if ((selected && !selected[i]) || f->nrecords == 0)
            continue;
        if (!path_alloc(f->meta, &path, err)) {
            free(paths);
            return false;
        }
        for (r = 0; r < f->nrecords; r++) {
            struct ranked_path *rp = &paths[k++];
            if (!path_decode(f->meta, f->records[r].id, &path, err)) {
                path_release(&path);
                free(paths);
                return pp_context(err, "function %s", f->meta->name);
            }
            rp->func = i;
            rp->id = f->records[r].id;
            rp->count = f->records[r].count;
            rp->length = path_nblocks(&path);
            if (__builtin_mul_overflow(rp->count, (uint64_t)rp->length, &rp->weight))
                rp->weight = UINT64_MAX;
        }
        path_release(&path);
    }
    *out = paths;
    *n = k;
    return true;
}

static int tie_break(const struct ranked_path *a, const struct ranked_path *b)
{
    if (a->func != b->func)
        return a->func < b->func ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static int by_count(const void *pa, const void *pb)
{
    const struct ranked_path *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return tie_break(a, b);
}

static int by_weight(const void *pa, const void *pb)
{
    const struct ranked_path *a = pa, *b = pb;
    if (a->weight != b->weight)
        return a->weight > b->weight ? -1 : 1;
    return tie_break(a, b);
}

void rank_by_count(struct ranked_path *paths, size_t n)
{
    qsort(paths, n, sizeof *paths, by_count);
}

void rank_by_weight(struct ranked_path *paths, size_t n)
{
    qsort(paths, n, sizeof *paths, by_weight);
}
